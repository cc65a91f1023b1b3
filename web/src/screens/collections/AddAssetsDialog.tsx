import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { unwrap, v1 } from '../../api/client'
import { messageOf } from '../../api/problem'
import { Dialog } from '../../ui/Dialog'
import { useToast } from '../../ui/toast'
import { plural, useDebounced, useRefreshCollections, type Collection } from './api'

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
    queryKey: ['assets', 'pick', q],
    queryFn: () => unwrap(v1.GET('/api/v1/assets', { params: { query: { limit: 60, ...(q ? { q } : {}) } } })),
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  })
  const refresh = useRefreshCollections()
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
        <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Title, tag, client…" autoFocus />
      </label>
      <div className="pick-list" role="group" aria-label="Library assets" aria-busy={assets.isFetching}>
        {assets.isError && <p className="form-error">{messageOf(assets.error)}</p>}
        {assets.isSuccess && list.length === 0 && <p className="muted pick-empty">{q ? 'No asset matches this text.' : 'The library is empty: upload images first.'}</p>}
        {list.map((asset) => {
          const already = asset.collections.some((c) => c.id === collection.id)
          return (
            <label key={asset.id} className={`pick-item${already ? ' already' : ''}`}>
              <input type="checkbox" checked={already || checked.has(asset.id)} disabled={already} onChange={() => toggle(asset.id)} />
              <img src={asset.thumbnail_url} alt="" loading="lazy" />
              <span className="pick-title">{asset.title}</span>
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
      {add.isError && (
        <p className="form-error" role="alert">
          {messageOf(add.error)}
        </p>
      )}
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
