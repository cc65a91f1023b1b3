import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { ASSETS_KEY } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import { useInstance } from '../../instance'
import { nextOffset } from '../../api/paging'
import { plural } from '../../ui/format'
import type { CardAsset } from './AssetGrid'
import type { LibraryUrlState } from './filters'
import { sortParam } from './sort'

export const PAGE = 60
export const SEARCH_LIMIT = 100

/** A full-text list's total that the server estimated, having counted its matches up to `countedUpTo` (unknown until the instance's facts arrive). */
export interface EstimatedTotal {
  countedUpTo: number | undefined
}

/**
 * "6 assets"; "1,000+ assets" when the server estimated a full-text list's total past the count's cap,
 * as search pages say it (the estimate is rough, the cap is not), or "about 12,000 assets" while the cap
 * is unknown; "3 hits", or "Top 100 hits" when a search was cut at its limit (it has no total).
 */
export function countText(total: number | undefined, searching: boolean, estimated?: EstimatedTotal): string {
  if (total === undefined) return ''
  if (!searching && estimated) return estimated.countedUpTo === undefined ? `about ${plural(total, 'asset')}` : `${estimated.countedUpTo.toLocaleString()}+ assets`
  if (!searching) return plural(total, 'asset')
  return total >= SEARCH_LIMIT ? `Top ${SEARCH_LIMIT} hits` : plural(total, 'hit')
}

/**
 * What the library shows for its URL state: the listed assets page by page (GET /api/v1/assets), or
 * the top hits of a search (POST /api/v1/search, one request without pages). `items` is stable
 * between renders while the data is.
 */
export function useLibraryItems({ filters, search, sort }: LibraryUrlState, { enabled = true } = {}) {
  const list = useInfiniteQuery({
    queryKey: [ASSETS_KEY, 'list', filters, sort ?? ''],
    queryFn: ({ pageParam }) => unwrap(v1.GET('/api/v1/assets', { params: { query: { ...filters, ...sortParam(sort), limit: PAGE, offset: pageParam } } })),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    enabled: enabled && !search,
    // The grid stays in place while the next filters load, rather than blinking empty.
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  })
  const hits = useQuery({
    queryKey: [ASSETS_KEY, 'search', search, filters],
    // The search text is the body's `q`; the text filter never goes with a search (libraryState).
    queryFn: () => unwrap(v1.POST('/api/v1/search', { body: { ...filters, q: search, limit: SEARCH_LIMIT } })),
    enabled: enabled && Boolean(search),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  })

  const active = search ? hits : list
  const items: readonly CardAsset[] = useMemo(
    () => (search ? (hits.data?.data ?? []) : (list.data?.pages.flatMap((page) => page.data) ?? [])),
    [search, hits.data, list.data],
  )
  const total = search ? hits.data?.data.length : list.data?.pages[0]?.total
  const countedUpTo = useInstance().data?.exact_totals_up_to
  const estimated = !search && list.data?.pages[0]?.total_exact === false ? { countedUpTo } : undefined
  return {
    items,
    total,
    countText: countText(total, Boolean(search), estimated),
    mode: search ? hits.data?.mode : undefined,
    pending: active.isPending,
    /** The first load failed (a failed next page is `more.failed`). */
    error: active.isError && !list.isFetchNextPageError ? active.error : null,
    retry: () => void active.refetch(),
    more: {
      hasMore: !search && list.hasNextPage,
      loading: list.isFetchingNextPage,
      failed: !search && list.isFetchNextPageError,
      load: () => void list.fetchNextPage(),
    },
  }
}
