import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { invalidateAssetData } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import type { paths } from '@asset-library/client'
import { FormError } from '../../ui/FormError'
import { useToast } from '../../ui/toast'
import { CatalogSelect } from './CatalogSelect'
import { SuggestedInput } from './MetadataInputs'
import { assetKey, type Asset } from './queries'
import { addTag, TagEditor } from './TagEditor'

type Patch = paths['/api/v1/assets/{id}']['patch']['requestBody']['content']['application/json']

interface Fields {
  /** The version of the asset the fields started from. */
  base: Asset
  title: string
  assetType: string
  client: string
  product: string
  ai: boolean
  tags: string[]
}

const fieldsOf = (asset: Asset): Fields => ({
  base: asset,
  title: asset.title,
  assetType: asset.asset_type ?? '',
  client: asset.client ?? '',
  product: asset.product ?? '',
  ai: asset.created_by_ai,
  tags: asset.tags,
})

/** Only what the person changed, against the version they started from (others' changes are kept). */
function patchOf(fields: Fields, tagDraft: string): Patch {
  const { base } = fields
  const patch: Patch = {}
  const tags = addTag(fields.tags, tagDraft)
  if (fields.title.trim() !== base.title) patch.title = fields.title.trim()
  if (fields.assetType !== (base.asset_type ?? '')) patch.asset_type = fields.assetType || null
  if (fields.client.trim() !== (base.client ?? '')) patch.client = fields.client.trim() || null
  if (fields.product.trim() !== (base.product ?? '')) patch.product = fields.product.trim() || null
  if (fields.ai !== base.created_by_ai) patch.created_by_ai = fields.ai
  if (tags.join('\n') !== base.tags.join('\n')) patch.tag_names = tags
  return patch
}

/**
 * The asset's metadata, edited. A newer version of the asset (a refetch, someone else's save) replaces
 * the fields only while nothing is edited; during an edit, the edit stays and a note says so.
 */
export function AssetEditForm({ asset, onDone }: { asset: Asset; onDone(): void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [fields, setFields] = useState(() => fieldsOf(asset))
  const [tagDraft, setTagDraft] = useState('')
  const patch = patchOf(fields, tagDraft)
  const changed = Object.keys(patch).length > 0
  const outdated = asset.updated_at !== fields.base.updated_at
  if (outdated && !changed) setFields(fieldsOf(asset))
  const set = <K extends keyof Fields>(key: K) => (value: Fields[K]) => setFields((previous) => ({ ...previous, [key]: value }))

  const save = useMutation({
    mutationFn: (body: Patch) => unwrap(v1.PATCH('/api/v1/assets/{id}', { params: { path: { id: asset.id } }, body })),
    meta: { quiet: true },
    onSuccess: (updated) => {
      queryClient.setQueryData(assetKey(asset.id), updated)
      setFields(fieldsOf(updated))
      setTagDraft('')
      void invalidateAssetData(queryClient)
      toast.success('Saved.')
      onDone()
    },
  })
  const discard = () => {
    setFields(fieldsOf(asset))
    setTagDraft('')
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (changed) save.mutate(patch)
  }
  return (
    <form className="stack" onSubmit={submit}>
      {outdated && changed && (
        <p className="hint" role="status">
          This asset was changed elsewhere while you edited. Saving changes only the fields you edited.{' '}
          <button type="button" onClick={discard}>
            Discard my edits
          </button>
        </p>
      )}
      <label className="field">
        <span>Title</span>
        <input value={fields.title} onChange={(e) => set('title')(e.target.value)} maxLength={500} />
      </label>
      <CatalogSelect empty="None" label="Type" path="/api/v1/asset-types" value={fields.assetType} onChange={set('assetType')} />
      <SuggestedInput label="Client" path="/api/v1/clients" value={fields.client} onChange={set('client')} />
      <SuggestedInput label="Product" path="/api/v1/products" value={fields.product} onChange={set('product')} />
      <TagEditor tags={fields.tags} onChange={set('tags')} draft={tagDraft} onDraft={setTagDraft} />
      <label className="check-field">
        <input type="checkbox" checked={fields.ai} onChange={(e) => set('ai')(e.target.checked)} />
        <span>Created by AI</span>
      </label>
      <FormError error={save.error} />
      <div className="row end">
        <button type="button" onClick={onDone} disabled={save.isPending}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!changed || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  )
}
