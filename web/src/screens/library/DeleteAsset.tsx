import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { invalidateAssetData } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import { assetTitle } from '../../ui/AssetThumb'
import { ConfirmDialog } from '../../ui/Dialog'
import { useToast } from '../../ui/toast'
import { assetKey, type Asset } from './queries'

/** Delete, after confirming; the dialog waits for the answer, so a double confirm sends one DELETE. */
export function DeleteAsset({ asset, onDeleted }: { asset: Asset; onDeleted(): void }) {
  const [open, setOpen] = useState(false)
  const queryClient = useQueryClient()
  const toast = useToast()
  const title = assetTitle(asset)
  const remove = useMutation({
    mutationFn: () => unwrap(v1.DELETE('/api/v1/assets/{id}', { params: { path: { id: asset.id } } })),
    onSuccess: () => {
      setOpen(false)
      queryClient.removeQueries({ queryKey: assetKey(asset.id) })
      void invalidateAssetData(queryClient)
      toast.success(`Deleted “${title}”.`)
      onDeleted()
    },
  })
  return (
    <>
      <button type="button" className="danger" onClick={() => setOpen(true)} disabled={remove.isPending}>
        Delete
      </button>
      <ConfirmDialog title="Delete this asset?" open={open} confirmLabel="Delete" busy={remove.isPending} onClose={() => setOpen(false)} onConfirm={() => remove.mutate()}>
        <p>“{title}” is deleted for everyone and removed from every collection. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  )
}
