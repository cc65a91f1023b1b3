import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { invalidateAssetData } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import { assetTitle } from '../../ui/AssetThumb'
import { ConfirmDialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { plural } from '../../ui/format'
import { useDeletedNote, useTrashKeeps } from '../trash/api'
import { assetKey, type Asset } from './queries'

/**
 * Moves the asset to the trash at once, without asking: the note that follows offers "Undo", and the
 * trash keeps it for days after (Gmail, Figma and Google Photos work this way). On a server whose trash
 * keeps nothing, a delete is for good, so it asks first, as "Delete forever" does in the trash; until the
 * server has said which, the button waits. It waits for the answer too, so a double click sends one DELETE.
 */
export function DeleteAsset({ asset, onDeleted }: { asset: Asset; onDeleted(): void }) {
  const queryClient = useQueryClient()
  const keeps = useTrashKeeps()
  const deletedNote = useDeletedNote()
  const [asking, setAsking] = useState(false)
  const remove = useMutation({
    // In the dialog, the dialog shows the failure; otherwise the app's toast does.
    meta: { quiet: !keeps },
    mutationFn: () => unwrap(v1.DELETE('/api/v1/assets/{id}', { params: { path: { id: asset.id } } })),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: assetKey(asset.id) })
      void invalidateAssetData(queryClient)
      deletedNote([asset])
      setAsking(false)
      onDeleted()
    },
  })
  if (keeps) {
    return (
      <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
        {remove.isPending ? 'Moving to trash…' : 'Move to trash'}
      </button>
    )
  }
  return (
    <>
      <button type="button" className="danger" onClick={() => setAsking(true)} disabled={keeps === undefined}>
        Delete
      </button>
      <DeleteForeverDialog assets={[asset]} open={asking} busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate()} onClose={() => setAsking(false)} />
    </>
  )
}

/** Asks before deleting assets on a server whose trash keeps nothing (`trash_retention_days` 0). */
export function DeleteForeverDialog(props: {
  assets: ReadonlyArray<Pick<Asset, 'id' | 'title'>>
  open: boolean
  busy: boolean
  error: unknown
  onConfirm(): void
  onClose(): void
}) {
  const { assets, open, busy, error, onConfirm, onClose } = props
  const what =
    assets.length === 1
      ? `“${assetTitle(assets[0]!)}” is deleted now, with its file and every version of it.`
      : `${plural(assets.length, 'asset')} are deleted now, with their files and versions.`
  return (
    <ConfirmDialog title="Delete forever?" open={open} confirmLabel="Delete forever" busy={busy} onClose={onClose} onConfirm={onConfirm}>
      <p>{what} This server keeps no trash, so this cannot be undone.</p>
      <FormError error={error} />
    </ConfirmDialog>
  )
}
