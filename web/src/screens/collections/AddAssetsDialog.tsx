import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap, v1 } from '../../api/client'
import { ASSETS_KEY } from '../../api/cache'
import { AssetThumb, assetTitle } from '../../ui/AssetThumb'
import { Dialog } from '../../ui/Dialog'
import { plural } from '../../ui/format'
import { FormError } from '../../ui/FormError'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { useDebounced } from '../../ui/useDebounced'
import { useRefreshAssetData, type Collection } from './api'

/** Library assets with checkboxes and a text filter; "Add" puts the checked ones in the manual collection. */
export function AddAssetsDialog({ collection, open, onClose }: { collection: Collection; open: boolean; onClose(): void }) {
  return (
    <Dialog title={`Add assets to ${collection.name}`} open={open} onClose={onClose}>
      <AddAssetsForm collection={collection} onClose={onClose} />
    </Dialog>
  )
}

function AddAssetsForm({ collection, onClose }: { collection: Collection; onClose(): void }) {
  const [text, setText] = useState('')
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set())
  const q = useDebounced(text.trim(), 250)
  const assets = useQuery({
    queryKey: [ASSETS_KEY, 'pick', q],
    queryFn: () => unwrap(v1.GET('/api/v1/assets', { params: { query: { limit: 60, ...(q ? { q } : {}) } } })),
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  })
  const refresh = useRefreshAssetData()
  const toast = useToast()
  const add = useMutation({
    mutationFn: () =>
      unwrap(v1.POST('/api/v1/collections/{id}/assets', { params: { path: { id: collection.id } }, body: { asset_ids: [...checked] } })),
    onSuccess: async (answer) => {
      await refresh()
      toast.success(`${plural(answer.changed, 'asset')} added to “${collection.name}”.`)
      onClose()
    },
    meta: { quiet: true },
  })
  const toggle = (id: string) =>
    setChecked((all) => {
      const next = new Set(all)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const list = assets.data?.data ?? []

  return (
    <div className="stack add-assets">
      <label className="field">
        <span>Filter assets</span>
        <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Title, tag, client…" data-autofocus />
      </label>
      <div className="pick-list" role="group" aria-label="Library assets" aria-busy={assets.isFetching}>
        {assets.isError && <QueryError error={assets.error} onRetry={() => void assets.refetch()} what="the library" />}
        {assets.isSuccess && list.length === 0 && <p className="muted pick-empty">{q ? 'No asset matches this text.' : 'The library is empty: upload images first.'}</p>}
        {list.map((asset) => {
          const already = asset.collections.some((c) => c.id === collection.id)
          return (
            <label key={asset.id} className={`pick-item${already ? ' already' : ''}`}>
              <input type="checkbox" checked={already || checked.has(asset.id)} disabled={already} onChange={() => toggle(asset.id)} />
              <AssetThumb asset={asset} className="pick-thumb" />
              <span className="pick-title">{assetTitle(asset)}</span>
              {already && <span className="muted pick-already">Already in</span>}
            </label>
          )
        })}
      </div>
      {assets.data && assets.data.total > list.length && (
        <p className="hint">
          Showing {list.length} of {assets.data.total.toLocaleString()}: filter to find others.
        </p>
      )}
      <FormError error={add.error} />
      <div className="row end">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={checked.size === 0 || add.isPending} onClick={() => add.mutate()}>
          {checked.size === 0 ? 'Add' : `Add ${plural(checked.size, 'asset')}`}
        </button>
      </div>
    </div>
  )
}
