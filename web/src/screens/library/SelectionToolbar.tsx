import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { unwrap, v1, type V1Data } from '../../api/client'
import { messageOf } from '../../api/problem'
import { ConfirmDialog, Dialog } from '../../ui/Dialog'
import { useToast } from '../../ui/toast'
import { ASSETS_KEY } from './queries'

type Collection = V1Data<'/api/v1/collections', 'get'>['data'][number]
const assetsWord = (n: number) => `${n} ${n === 1 ? 'asset' : 'assets'}`

/** What to do with the selected assets: add them to a manual collection, delete them, or let go. */
export function SelectionToolbar({ ids, onClear }: { ids: string[]; onClear(): void }) {
  const [dialog, setDialog] = useState<'collect' | 'delete' | null>(null)
  const queryClient = useQueryClient()
  const toast = useToast()

  const remove = useMutation({
    mutationFn: async (targets: string[]) => {
      const results = await Promise.allSettled(targets.map((id) => unwrap(v1.DELETE('/api/v1/assets/{id}', { params: { path: { id } } }))))
      return results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []))
    },
    onSuccess: (failures, targets) => {
      const deleted = targets.length - failures.length
      if (failures.length === 0) toast.success(`Deleted ${assetsWord(deleted)}.`)
      else toast.error(new Error(`Deleted ${deleted} of ${targets.length}; ${failures.length} failed: ${messageOf(failures[0])}`))
      onClear()
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: [ASSETS_KEY] })
      void queryClient.invalidateQueries({ queryKey: ['collections'] })
    },
  })

  return (
    <div className="library-toolbar" role="toolbar" aria-label="Selection">
      <strong aria-live="polite">{ids.length} selected</strong>
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
        title={`Delete ${assetsWord(ids.length)}?`}
        open={dialog === 'delete'}
        confirmLabel="Delete"
        onClose={() => setDialog(null)}
        onConfirm={() => {
          setDialog(null)
          remove.mutate(ids)
        }}
      >
        <p>
          The {ids.length === 1 ? 'image and its record are' : 'images and their records are'} deleted for everyone, and removed from every collection. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </div>
  )
}

function AddToCollectionDialog({ open, ids, onClose }: { open: boolean; ids: string[]; onClose(): void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const collections = useQuery({
    queryKey: ['collections', 'manual'],
    queryFn: () => unwrap(v1.GET('/api/v1/collections', { params: { query: { kind: 'manual', limit: 100 } } })),
    enabled: open,
  })
  const add = useMutation({
    mutationFn: (collection: Collection) =>
      unwrap(v1.POST('/api/v1/collections/{id}/assets', { params: { path: { id: collection.id } }, body: { asset_ids: ids.slice(0, 100) } })),
    onSuccess: (answer, collection) => {
      const already = ids.length - answer.changed
      toast.success(`Added ${assetsWord(answer.changed)} to ${collection.name}${already > 0 ? ` (${already} already there)` : ''}.`)
      void queryClient.invalidateQueries({ queryKey: ['collections'] })
      void queryClient.invalidateQueries({ queryKey: [ASSETS_KEY] })
      onClose()
    },
  })
  const manual = collections.data?.data ?? []
  return (
    <Dialog title={`Add ${assetsWord(ids.length)} to a collection`} open={open} onClose={onClose}>
      {collections.isPending ? (
        <p className="muted">Loading collections…</p>
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
                <span className="muted">{assetsWord(collection.asset_count)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  )
}
