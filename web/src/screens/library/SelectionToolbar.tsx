import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { invalidateAssetData } from '../../api/cache'
import { useManualCollections } from '../collections/api'
import { v1, type V1Data } from '../../api/client'
import { messageOf } from '../../api/problem'
import { Dialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { trashEach, useDeletedNote, useTrashKeeps } from '../trash/api'
import { addInChunks } from './bulk'
import { BulkEditDialog } from './BulkEditDialog'
import { DeleteForeverDialog } from './DeleteAsset'
import type { Asset } from './queries'

type Collection = V1Data<'/api/v1/collections', 'get'>['data'][number]

/**
 * What to do with the selected assets: add them to a manual collection, move them to the trash (delete them,
 * after asking, when the server's trash keeps nothing), or let go. The count is announced by the screen's
 * status region (a region mounted with its text is not read).
 */
export function SelectionToolbar({ assets, onClear }: { assets: ReadonlyArray<Pick<Asset, 'id' | 'title'>>; onClear(): void }) {
  const ids = assets.map((asset) => asset.id)
  const [collecting, setCollecting] = useState(false)
  const [editing, setEditing] = useState(false)
  const [asking, setAsking] = useState(false)
  const queryClient = useQueryClient()
  const toast = useToast()
  const keeps = useTrashKeeps()
  const deletedNote = useDeletedNote()

  // No confirmation when the trash keeps the assets for days: the note offers "Undo". Until the server has
  // said whether it does, "Delete" waits.
  const remove = useMutation({
    mutationFn: (targets: Array<Pick<Asset, 'id' | 'title'>>) => trashEach(targets.map((asset) => asset.id)),
    onSuccess: ({ done, failures }, targets) => {
      const moved = targets.filter((asset) => done.includes(asset.id))
      // One note, with one Undo for all of them, even when some could not go.
      if (moved.length > 0) deletedNote(moved)
      if (failures.length > 0) toast.error(new Error(`${plural(failures.length, 'asset')} of ${targets.length} could not be deleted: ${messageOf(failures[0])}`))
      setAsking(false)
      onClear()
    },
    onSettled: () => invalidateAssetData(queryClient),
  })

  return (
    <div className="library-toolbar" role="toolbar" aria-label="Selection">
      <strong>{ids.length} selected</strong>
      <button type="button" onClick={() => setEditing(true)}>
        Edit
      </button>
      <button type="button" onClick={() => setCollecting(true)}>
        Add to collection
      </button>
      {keeps ? (
        <button type="button" className="danger" onClick={() => remove.mutate([...assets])} disabled={remove.isPending}>
          {remove.isPending ? 'Moving to trash…' : 'Move to trash'}
        </button>
      ) : (
        <button type="button" className="danger" onClick={() => setAsking(true)} disabled={keeps === undefined}>
          Delete
        </button>
      )}
      <button type="button" onClick={onClear}>
        Clear
      </button>
      <BulkEditDialog open={editing} assets={assets} onClose={() => setEditing(false)} />
      <AddToCollectionDialog open={collecting} ids={ids} onClose={() => setCollecting(false)} />
      <DeleteForeverDialog
        assets={assets}
        open={asking}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate([...assets])}
        onClose={() => setAsking(false)}
      />
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
