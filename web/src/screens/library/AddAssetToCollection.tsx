import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { invalidateAssetData } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import { Dialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { useManualCollections } from '../collections/api'

interface Target {
  id: string
  name: string
}

/** The asset page's "Add to collection": into one of the manual collections, or into a new one named on the spot. */
export function AddAssetToCollectionDialog({ open, assetId, onClose }: { open: boolean; assetId: string; onClose(): void }) {
  return (
    <Dialog title="Add this asset to a collection" open={open} onClose={onClose}>
      {open && <AddAssetToCollection assetId={assetId} onClose={onClose} />}
    </Dialog>
  )
}

function AddAssetToCollection({ assetId, onClose }: { assetId: string; onClose(): void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const collections = useManualCollections()
  const [name, setName] = useState('')
  const add = useMutation({
    meta: { quiet: true },
    mutationFn: async (target: Target) => {
      await unwrap(v1.POST('/api/v1/collections/{id}/assets', { params: { path: { id: target.id } }, body: { asset_id: assetId } }))
      return target
    },
    onSuccess: async (target) => {
      await invalidateAssetData(queryClient)
      toast.success(`Added 1 asset to ${target.name}.`)
      onClose()
    },
  })
  // Created, then added: a failed add leaves the new (empty) collection, which the list below then offers.
  const create = useMutation({
    meta: { quiet: true },
    mutationFn: () => unwrap(v1.POST('/api/v1/collections', { body: { name: name.trim() } })),
    onSuccess: (collection) => add.mutate(collection),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate()
  }
  const busy = add.isPending || create.isPending
  const manual = collections.data?.data ?? []
  return (
    <div className="stack">
      {collections.isPending ? (
        <p className="muted">Loading collections…</p>
      ) : collections.isError ? (
        <QueryError error={collections.error} onRetry={() => void collections.refetch()} what="the collections" />
      ) : (
        manual.length > 0 && (
          <ul className="collection-pick" aria-label="Manual collections">
            {manual.map((collection) => (
              <li key={collection.id}>
                <button type="button" disabled={busy} onClick={() => add.mutate(collection)}>
                  <span>{collection.name}</span>
                  <span className="muted">{plural(collection.asset_count, 'asset')}</span>
                </button>
              </li>
            ))}
          </ul>
        )
      )}
      <form className="row new-collection-inline" onSubmit={submit}>
        <label className="field">
          <span>New collection</span>
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} placeholder="Name" />
        </label>
        <button type="submit" className="primary" disabled={busy || !name.trim()}>
          Create and add
        </button>
      </form>
      <FormError error={create.error ?? add.error} />
    </div>
  )
}
