import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query'
import { useLocation } from 'wouter'
import { ASSETS_KEY, invalidateAssetData } from '../../api/cache'
import { unwrap, v1, type V1Data } from '../../api/client'
import { nextOffset } from '../../api/paging'
import { messageOf } from '../../api/problem'
import { useOrg } from '../../session'
import { assetTitle } from '../../ui/AssetThumb'
import { plural } from '../../ui/format'
import { useToast } from '../../ui/toast'
import { assetHref } from '../library/AssetGrid'
import { sendEach } from '../library/bulk'
import { organizationQuery, type Asset } from '../library/queries'

/** A trashed asset: the record as it was, with when it went, by whom, and when it is purged for good. */
export type TrashedAsset = V1Data<'/api/v1/trash', 'get'>['data'][number]

/** Under ASSETS_KEY: any change to assets (a delete, a restore) refreshes the trash and its count too. */
export const TRASH_KEY = [ASSETS_KEY, 'trash'] as const
export const TRASH_PAGE = 60

/** The trash, newest deletion first, page by page as the library pages. */
export function useTrash() {
  return useInfiniteQuery({
    queryKey: [...TRASH_KEY, 'list'],
    queryFn: ({ pageParam }) => unwrap(v1.GET('/api/v1/trash', { params: { query: { limit: TRASH_PAGE, offset: pageParam } } })),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    meta: { quiet: true },
  })
}

/**
 * Whether this server's trash keeps deleted assets (`trash_retention_days` above 0), so that a delete can
 * be undone; undefined until the organization is known. With `TRASH_RETENTION_DAYS=0` a delete purges.
 */
export function useTrashKeeps(): boolean | undefined {
  const organization = useQuery({ ...organizationQuery(useOrg()), meta: { quiet: true } })
  return organization.data && organization.data.trash_retention_days > 0
}

/** How many assets are in the trash (the list's total, asked with the smallest page). */
export function useTrashCount() {
  return useQuery({
    queryKey: [...TRASH_KEY, 'count'],
    queryFn: async () => (await unwrap(v1.GET('/api/v1/trash', { params: { query: { limit: 1 } } }))).total,
    meta: { quiet: true },
  })
}

const restoreOne = (id: string) => v1.POST('/api/v1/trash/{id}/restore', { params: { path: { id } } })
const purgeOne = (id: string) => v1.DELETE('/api/v1/trash/{id}', { params: { path: { id } } })
const trashOne = (id: string) => v1.DELETE('/api/v1/assets/{id}', { params: { path: { id } } })

/** Moves assets to the trash, paced; the ids that went and the failures. */
export const trashEach = (ids: readonly string[]) => sendEach(ids, trashOne)
/** Restores assets from the trash, paced; the ids that came back and the failures. */
export const restoreEach = (ids: readonly string[]) => sendEach(ids, restoreOne)
/** Deletes assets from the trash for good, paced; the ids that went and the failures. */
export const purgeEach = (ids: readonly string[]) => sendEach(ids, purgeOne)

/**
 * Empties the trash by restoring or purging every asset in it: its first page, again until nothing is
 * left (or a request fails). `onProgress` hears how many went so far. Whatever is trashed meanwhile goes
 * too: the trash ends empty.
 */
export async function drainTrash(
  each: (ids: readonly string[]) => Promise<{ done: string[]; failures: unknown[] }>,
  onProgress: (count: number) => void,
): Promise<{ count: number; failure?: unknown }> {
  let count = 0
  for (;;) {
    const page = await unwrap(v1.GET('/api/v1/trash', { params: { query: { limit: 100 } } }))
    if (page.data.length === 0) return { count }
    const { done, failures } = await each(page.data.map((asset) => asset.id))
    count += done.length
    onProgress(count)
    if (failures.length > 0) return { count, failure: failures[0] }
  }
}

type Named = Pick<Asset, 'id' | 'title'>

const named = (assets: readonly Named[], verb: string) => (assets.length === 1 ? `${verb} “${assetTitle(assets[0]!)}”` : `${verb} ${plural(assets.length, 'asset')}`)

/**
 * The note after assets were deleted. When they went to the trash it offers "Undo": it restores them and,
 * for one asset, opens it again, wherever the user is by then. A plain call, not a mutation of the
 * component that deleted: that component (the asset page) is gone by the time the user clicks. When the
 * trash keeps nothing, they are gone for good, and the note says so with nothing to undo.
 */
export function useDeletedNote(): (assets: readonly Named[]) => void {
  const keeps = useTrashKeeps()
  const toast = useToast()
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const undo = async (assets: readonly Named[]) => {
    const { done, failures } = await restoreEach(assets.map((asset) => asset.id))
    void invalidateAssetData(queryClient)
    if (failures.length > 0) {
      toast.error(new Error(`Restored ${done.length} of ${assets.length}: ${messageOf(failures[0])}`))
      return
    }
    toast.success(`${named(assets, 'Restored')}.`)
    if (assets.length === 1) navigate(assetHref(assets[0]!.id))
  }
  return (assets) =>
    keeps ? toast.success(`${named(assets, 'Moved')} to the trash.`, { label: 'Undo', run: () => void undo(assets) }) : toast.success(`${named(assets, 'Deleted')} forever.`)
}
