import { useInfiniteQuery } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { ASSETS_KEY } from '../../api/cache'
import { unwrap, v1, type V1Data } from '../../api/client'
import { nextOffset } from '../../api/paging'

/** A live asset and its near-duplicates pushed after it, each with its distance. */
export type DuplicateGroup = V1Data<'/api/v1/duplicates', 'get'>['data'][number]
export type GroupAsset = DuplicateGroup['asset']

/** Under ASSETS_KEY: a delete, a restore or a push elsewhere refreshes the groups too. */
export const DUPLICATES_KEY = [ASSETS_KEY, 'duplicates'] as const
export const DUPLICATES_PAGE = 20

/** The groups, the one whose asset was pushed last first, page by page as the library pages. */
export function useDuplicateGroups() {
  return useInfiniteQuery({
    queryKey: [...DUPLICATES_KEY, 'list'],
    queryFn: ({ pageParam }) => unwrap(v1.GET('/api/v1/duplicates', { params: { query: { limit: DUPLICATES_PAGE, offset: pageParam } } })),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    meta: { quiet: true },
  })
}

/** Every asset of a group, its own first, then its near-duplicates closest first. */
export const membersOf = (group: DuplicateGroup): GroupAsset[] => [group.asset, ...group.duplicates.map((near) => near.asset)]

/** Keeps `keep`, merging the tags and manual collections of the group's others into it, and trashes them. */
export function resolveGroup(group: DuplicateGroup, keep: GroupAsset) {
  const trash = membersOf(group)
    .filter((asset) => asset.id !== keep.id)
    .map((asset) => asset.id)
  return unwrap(v1.POST('/api/v1/duplicates/resolve', { body: { keep: keep.id, trash } }))
}

/**
 * A group's identity while it is set aside: its asset and its members. A near-duplicate pushed later
 * changes the members, so the group comes back to be looked at again.
 */
export const groupKey = (group: DuplicateGroup): string => membersOf(group).map((asset) => asset.id).join(' ')

const SET_ASIDE = 'asset-library:duplicates-set-aside'

function readSetAside(): string[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(SET_ASIDE) ?? '[]')
    return Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : []
  } catch {
    return []
  }
}

/**
 * The groups "Keep all" set aside, for this tab's session only: the server has no way to record that
 * two pictures are not duplicates (resolve always trashes), so nothing is sent, and a new session shows
 * them again.
 */
export function useSetAside() {
  const [keys, setKeys] = useState<readonly string[]>(readSetAside)
  const store = useCallback((next: readonly string[]) => {
    setKeys(next)
    try {
      sessionStorage.setItem(SET_ASIDE, JSON.stringify(next))
    } catch {
      // Storage refused (private mode, quota): the groups stay aside until the page is left.
    }
  }, [])
  return {
    keys: new Set(keys),
    setAside: (group: DuplicateGroup) => store([...keys, groupKey(group)]),
    showAgain: () => store([]),
  }
}
