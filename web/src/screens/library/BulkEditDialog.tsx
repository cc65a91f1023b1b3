import type { paths } from '@asset-library/client'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { invalidateAssetData } from '../../api/cache'
import { v1 } from '../../api/client'
import { assetTitle } from '../../ui/AssetThumb'
import { Dialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { plural } from '../../ui/format'
import { useToast } from '../../ui/toast'
import { chunks, sendPaced } from './bulk'
import { CatalogSelect } from './CatalogSelect'
import { SuggestedInput } from './MetadataInputs'
import type { Asset } from './queries'
import { addTag, TagEditor } from './TagEditor'

type BulkOperation = paths['/api/v1/assets/bulk']['post']
export type BulkChange = Omit<BulkOperation['requestBody']['content']['application/json'], 'ids'>
type BulkResult = BulkOperation['responses'][200]['content']['application/json']['results'][number]

/** The API's cap on the ids of one bulk edit. */
export const BULK_EDIT_CHUNK = 500

type Origin = '' | 'ai' | 'person'

interface Fields {
  add: string[]
  remove: string[]
  assetType: string
  client: string
  product: string
  origin: Origin
}

const NO_CHANGE: Fields = { add: [], remove: [], assetType: '', client: '', product: '', origin: '' }

/** The change the fields ask for (with what is typed in the tag fields but not yet added); an empty field changes nothing. */
export function changeOf(fields: Fields, drafts: { add: string; remove: string }): BulkChange {
  const add = addTag(fields.add, drafts.add)
  const remove = addTag(fields.remove, drafts.remove)
  const set: NonNullable<BulkChange['set']> = {
    ...(fields.assetType && { asset_type: fields.assetType }),
    ...(fields.client.trim() && { client: fields.client.trim() }),
    ...(fields.product.trim() && { product: fields.product.trim() }),
    ...(fields.origin && { created_by_ai: fields.origin === 'ai' }),
  }
  return {
    ...(Object.keys(set).length > 0 && { set }),
    ...(add.length > 0 && { add_tags: add }),
    ...(remove.length > 0 && { remove_tags: remove }),
  }
}

/** Sends the change for every id, 500 at a time, one request after the other; every answer's results, in order. */
export async function editInChunks(ids: readonly string[], change: BulkChange): Promise<BulkResult[]> {
  const results: BulkResult[] = []
  for (const chunk of chunks(ids, BULK_EDIT_CHUNK)) {
    const answer = await sendPaced(() => v1.POST('/api/v1/assets/bulk', { body: { ids: chunk, ...change } }))
    results.push(...(answer?.results ?? []))
  }
  return results
}

/**
 * Edits the selected assets at once: tags to add and to remove, and a type, client, product or origin for
 * all of them (an empty field leaves each asset's own). Afterwards it says how many were updated, how many
 * already had those values, and which were skipped and why.
 */
export function BulkEditDialog({ open, assets, onClose }: { open: boolean; assets: ReadonlyArray<Pick<Asset, 'id' | 'title'>>; onClose(): void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const edit = useMutation({
    meta: { quiet: true },
    mutationFn: (change: BulkChange) => editInChunks(assets.map((asset) => asset.id), change),
    onSuccess: (results) => {
      if (results.every((result) => result.result === 'updated' || result.result === 'unchanged')) {
        toast.success(`${summaryOf(results)}.`)
        close()
      }
    },
    onSettled: () => invalidateAssetData(queryClient),
  })
  const close = () => {
    edit.reset()
    onClose()
  }
  const title = assets.length === 1 ? 'Edit this asset' : `Edit ${plural(assets.length, 'asset')}`
  return (
    <Dialog title={title} open={open} onClose={close} dismissible={!edit.isPending}>
      {edit.data ? (
        <EditReport results={edit.data} assets={assets} onDone={close} />
      ) : (
        <BulkEditForm count={assets.length} busy={edit.isPending} error={edit.error} onApply={(change) => edit.mutate(change)} onCancel={close} />
      )}
    </Dialog>
  )
}

/** The dialog's fields; mounted while it is open, so each opening starts empty and the catalogue is read only then. */
function BulkEditForm({ count, busy, error, onApply, onCancel }: { count: number; busy: boolean; error: unknown; onApply(change: BulkChange): void; onCancel(): void }) {
  const [fields, setFields] = useState(NO_CHANGE)
  const [drafts, setDrafts] = useState({ add: '', remove: '' })
  const change = changeOf(fields, drafts)
  const changes = Object.keys(change).length > 0
  const set = <K extends keyof Fields>(key: K) => (value: Fields[K]) => setFields((previous) => ({ ...previous, [key]: value }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (changes) onApply(change)
  }
  return (
    <form className="stack bulk-edit" onSubmit={submit}>
      <p className="muted">Empty fields leave each asset as it is.</p>
      <TagEditor label="Add tags" fieldLabel="Tag to add" tags={fields.add} onChange={set('add')} draft={drafts.add} onDraft={(add) => setDrafts((d) => ({ ...d, add }))} />
      <TagEditor label="Remove tags" fieldLabel="Tag to remove" tags={fields.remove} onChange={set('remove')} draft={drafts.remove} onDraft={(remove) => setDrafts((d) => ({ ...d, remove }))} />
      <CatalogSelect empty="Keep each asset’s" label="Type" path="/api/v1/asset-types" value={fields.assetType} onChange={set('assetType')} />
      <SuggestedInput label="Client" path="/api/v1/clients" value={fields.client} onChange={set('client')} />
      <SuggestedInput label="Product" path="/api/v1/products" value={fields.product} onChange={set('product')} />
      <fieldset className="field">
        <legend>Origin</legend>
        {ORIGINS.map(([value, label]) => (
          <label key={value} className="check-field">
            <input type="radio" name="origin" value={value} checked={fields.origin === value} onChange={() => set('origin')(value)} />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      <FormError error={error} />
      <div className="row end">
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!changes || busy}>
          {busy ? 'Saving…' : `Apply to ${plural(count, 'asset')}`}
        </button>
      </div>
    </form>
  )
}

const ORIGINS: ReadonlyArray<readonly [Origin, string]> = [
  ['', 'Keep each asset’s'],
  ['ai', 'Made with AI'],
  ['person', 'Made by a person'],
]

const summaryOf = (results: readonly BulkResult[]) => {
  const count = (...kinds: Array<BulkResult['result']>) => results.filter((result) => kinds.includes(result.result)).length
  return `${count('updated').toLocaleString()} updated, ${count('unchanged').toLocaleString()} unchanged, ${count('not_found', 'forbidden').toLocaleString()} skipped`
}

/** What the edit did: the counts, then each skipped asset with the reason the server gave. */
function EditReport({ results, assets, onDone }: { results: readonly BulkResult[]; assets: ReadonlyArray<Pick<Asset, 'id' | 'title'>>; onDone(): void }) {
  const titles = new Map(assets.map((asset) => [asset.id, assetTitle(asset)]))
  const skipped = results.filter((result) => result.result === 'not_found' || result.result === 'forbidden')
  return (
    <div className="stack">
      <p role="status">{summaryOf(results)}.</p>
      <ul className="bulk-skipped" aria-label="Skipped assets">
        {skipped.map((result) => (
          <li key={result.id}>
            <strong>{titles.get(result.id) ?? result.id}</strong>: {result.reason ?? (result.result === 'forbidden' ? 'You may not edit it.' : 'It is no longer in the library.')}
          </li>
        ))}
      </ul>
      <div className="row end">
        <button type="button" className="primary" onClick={onDone} data-autofocus>
          Done
        </button>
      </div>
    </div>
  )
}
