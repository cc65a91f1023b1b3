import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { invalidateAssetData } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import { assetTitle } from '../../ui/AssetThumb'
import { ConfirmDialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { plural } from '../../ui/format'
import { useDeletedNote, useTrashKeeps } from '../trash/api'
import { useOrg } from '../../session'
import { RefusedButton } from '../../ui/RefusedButton'
import { assetKey, useAssetPermissions, type Asset } from './queries'

/**
 * Moves the asset to the trash at once, without asking: the note that follows offers "Undo", and the
 * trash keeps it for days after (Gmail, Figma and Google Photos work this way). On a server whose trash
 * keeps nothing, a delete is for good, so it asks first, as "Delete forever" does in the trash; until the
 * server has said which, the button waits. It waits for the answer too, so a double click sends one DELETE.
 * A member sees it refused, with why, on an asset someone else pushed (the server's rule, asked ahead).
 */
export function DeleteAsset({ asset, onDeleted }: { asset: Asset; onDeleted(): void }) {
  const permissions = useAssetPermissions(useOrg(), asset.id)
  const refused = permissions.data?.delete.allowed === false ? permissions.data.delete.reason : null
  if (refused) return <RefusedButton className="danger" label="Move to trash" reason={refused} />
  return <DeleteAssetButton asset={asset} onDeleted={onDeleted} waiting={permissions.isPending} />
}

function DeleteAssetButton({ asset, onDeleted, waiting }: { asset: Asset; onDeleted(): void; waiting: boolean }) {
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
      <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending || waiting}>
        {remove.isPending ? 'Moving to trash…' : 'Move to trash'}
      </button>
    )
  }
  return (
    <>
      <button type="button" className="danger" onClick={() => setAsking(true)} disabled={keeps === undefined || waiting}>
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
