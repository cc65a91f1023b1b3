import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { invalidateAssetData } from '../../api/cache'
import { useManualCollections } from '../collections/api'
import { v1, type V1Data } from '../../api/client'
import { messageOf } from '../../api/problem'
import { ConfirmDialog, Dialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { addInChunks, deleteEach } from './bulk'

type Collection = V1Data<'/api/v1/collections', 'get'>['data'][number]

/**
 * What to do with the selected assets: add them to a manual collection, delete them, or let go. The
 * count is announced by the screen's status region (a region mounted with its text is not read).
 */
export function SelectionToolbar({ ids, onClear }: { ids: string[]; onClear(): void }) {
  const [dialog, setDialog] = useState<'collect' | 'delete' | null>(null)
  const queryClient = useQueryClient()
  const toast = useToast()

  const remove = useMutation({
    mutationFn: (targets: string[]) => deleteEach(targets, (id) => v1.DELETE('/api/v1/assets/{id}', { params: { path: { id } } })),
    onSuccess: ({ deleted, failures }, targets) => {
      setDialog(null)
      if (failures.length === 0) toast.success(`Deleted ${plural(deleted.length, 'asset')}.`)
      else toast.error(new Error(`Deleted ${deleted.length} of ${targets.length}; ${failures.length} failed: ${messageOf(failures[0])}`))
      onClear()
    },
    onSettled: () => invalidateAssetData(queryClient),
  })

  return (
    <div className="library-toolbar" role="toolbar" aria-label="Selection">
      <strong>{ids.length} selected</strong>
      <button type="button" onClick={() => setDialog('collect')}>
        Add to collection
      </button>
      <button type="button" className="danger" onClick={() => setDialog('delete')} disabled={remove.isPending}>
        {remove.isPending ? 'Deleting…' : 'Delete'}
      </button>
      <button type="button" onClick={onClear}>
        Clear
      </button>
      <AddToCollectionDialog open={dialog === 'collect'} ids={ids} onClose={() => setDialog(null)} />
      <ConfirmDialog
        title={`Delete ${plural(ids.length, 'asset')}?`}
        open={dialog === 'delete'}
        confirmLabel="Delete"
        busy={remove.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => remove.mutate(ids)}
      >
        <p>
          The {ids.length === 1 ? 'image and its record are' : 'images and their records are'} deleted for everyone, and removed from every collection. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </div>
  )
}

/** Picks a manual collection to add the assets to: the selection's, or one asset's from its page. */
export function AddToCollectionDialog({ open, ids, onClose }: { open: boolean; ids: string[]; onClose(): void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const collections = useManualCollections({ enabled: open })
  const add = useMutation({
    meta: { quiet: true },
    mutationFn: (collection: Collection) =>
      addInChunks(ids, (chunk) => v1.POST('/api/v1/collections/{id}/assets', { params: { path: { id: collection.id } }, body: { asset_ids: chunk } })),
    onSuccess: ({ added, already, failed, error }, collection) => {
      void invalidateAssetData(queryClient)
      const there = already > 0 ? ` (${already.toLocaleString()} already there)` : ''
      if (failed > 0) {
        toast.error(new Error(`Added ${plural(added, 'asset')} to ${collection.name}${there}; ${plural(failed, 'asset')} could not be added: ${messageOf(error)}`))
        return
      }
      toast.success(`Added ${plural(added, 'asset')} to ${collection.name}${there}.`)
      onClose()
    },
  })
  const manual = collections.data?.data ?? []
  return (
    <Dialog title={ids.length === 1 ? 'Add this asset to a collection' : `Add ${plural(ids.length, 'asset')} to a collection`} open={open} onClose={onClose}>
      {collections.isPending ? (
        <p className="muted">Loading collections…</p>
      ) : collections.isError ? (
        <QueryError error={collections.error} onRetry={() => void collections.refetch()} what="the collections" />
      ) : manual.length === 0 ? (
        <p className="muted">
          No manual collection yet. <Link href="/collections">Create one in Collections</Link>, then come back.
        </p>
      ) : (
        <ul className="collection-pick" aria-label="Manual collections">
          {manual.map((collection) => (
            <li key={collection.id}>
              <button type="button" disabled={add.isPending} onClick={() => add.mutate(collection)}>
                <span>{collection.name}</span>
                <span className="muted">{plural(collection.asset_count, 'asset')}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormError error={add.error} />
    </Dialog>
  )
}
