import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { unwrap, v1, type V1Data } from '../../api/client'
import type { AssetFilterValue } from '../library/filters'

export type Collection = V1Data<'/api/v1/collections', 'get'>['data'][number]
export type CollectionAsset = V1Data<'/api/v1/collections/{id}', 'get'>['assets']['data'][number]

/** Collections live under this key; a collection's assets also under 'assets', so a push or an edit refreshes them. */
export const COLLECTIONS_KEY = 'collections'
const collectionKey = (id: string) => [COLLECTIONS_KEY, 'one', id] as const
const collectionAssetsKey = (id: string) => ['assets', 'collection', id] as const
const PAGE = 60

export function useCollections() {
  return useQuery({
    queryKey: [COLLECTIONS_KEY, 'list'],
    queryFn: () => unwrap(v1.GET('/api/v1/collections', { params: { query: { limit: 100 } } })),
  })
}

/**
 * The manual collections (the first 100), for pickers that add assets: Upload's batch and the
 * library's selection. `enabled: false` until the picker opens.
 */
export function useManualCollections({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [COLLECTIONS_KEY, 'manual'],
    queryFn: () => unwrap(v1.GET('/api/v1/collections', { params: { query: { kind: 'manual', limit: 100 } } })),
    enabled,
  })
}

/** The collection itself (name, kind, query, count, shared). */
export function useCollection(id: string) {
  return useQuery({
    queryKey: collectionKey(id),
    queryFn: () => unwrap(v1.GET('/api/v1/collections/{id}', { params: { path: { id }, query: { limit: 1 } } })),
    meta: { quiet: true },
  })
}

/** Its assets, a page at a time ("Show more"). */
export function useCollectionAssets(id: string) {
  return useInfiniteQuery({
    queryKey: collectionAssetsKey(id),
    queryFn: async ({ pageParam }) =>
      (await unwrap(v1.GET('/api/v1/collections/{id}', { params: { path: { id }, query: { limit: PAGE, offset: pageParam } } }))).assets,
    initialPageParam: 0,
    getNextPageParam: (last) => (last.offset + last.data.length < last.total ? last.offset + last.data.length : undefined),
  })
}

/** After a change to collections: their list, this one, and anything showing assets (which lists its collections). */
export function useRefreshCollections() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: [COLLECTIONS_KEY] }), queryClient.invalidateQueries({ queryKey: ['assets'] })])
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/** How many assets a query matches now: GET /api/v1/assets with limit=1, read `total`, debounced as the user edits. */
export function useLiveCount(filters: AssetFilterValue) {
  const settled = useDebounced(filters, 250)
  return useQuery({
    queryKey: ['assets', 'count', settled],
    queryFn: async () => (await unwrap(v1.GET('/api/v1/assets', { params: { query: { ...settled, limit: 1 } } }))).total,
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  })
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString()} ${count === 1 ? one : many}`

/** "tag red · client Acme" for a smart collection's query. */
export function describeQuery(query: AssetFilterValue | null | undefined): string {
  const labels: Record<keyof AssetFilterValue, string> = { asset_type: 'type', client: 'client', product: 'product', tag: 'tag', q: 'text' }
  const parts = Object.entries(query ?? {})
    .filter(([, value]) => value)
    .map(([key, value]) => `${labels[key as keyof AssetFilterValue]} “${value}”`)
  return parts.length > 0 ? parts.join(' · ') : 'every asset'
}
