import { useMutation, useQueryClient } from '@tanstack/react-query'
import { invalidateAssetData } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import { useTrashedNote } from '../trash/api'
import { assetKey, type Asset } from './queries'

/**
 * Moves the asset to the trash at once, without asking: the note that follows offers "Undo", and the
 * trash keeps it for days after (Gmail, Figma and Google Photos work this way). The button waits for the
 * answer, so a double click sends one DELETE.
 */
export function DeleteAsset({ asset, onDeleted }: { asset: Asset; onDeleted(): void }) {
  const queryClient = useQueryClient()
  const trashedNote = useTrashedNote()
  const remove = useMutation({
    mutationFn: () => unwrap(v1.DELETE('/api/v1/assets/{id}', { params: { path: { id: asset.id } } })),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: assetKey(asset.id) })
      void invalidateAssetData(queryClient)
      trashedNote([asset])
      onDeleted()
    },
  })
  return (
    <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
      {remove.isPending ? 'Moving to trash…' : 'Move to trash'}
    </button>
  )
}
