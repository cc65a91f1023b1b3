import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query'
import { ASSETS_KEY, COLLECTIONS_KEY, invalidateAssetData } from '../../api/cache'
import { appApi, unwrap, v1, type AppData, type V1Data } from '../../api/client'
import { useOrg } from '../../session'
import type { AssetFilterValue } from '../library/filters'
import type { ApiSort } from '../library/sort'
import { useDebounced } from '../../ui/useDebounced'

export type Collection = V1Data<'/api/v1/collections', 'get'>['data'][number]
export type CollectionAsset = V1Data<'/api/v1/collections/{id}', 'get'>['assets']['data'][number]
export type CollectionPage = V1Data<'/api/v1/collections/{id}', 'get'>
export type Cover = AppData<'/app/api/orgs/{org}/collections/covers', 'get'>['data'][number]

const PAGE = 60

export function useCollections() {
  return useQuery({
    queryKey: [COLLECTIONS_KEY, 'list'],
    queryFn: () => unwrap(v1.GET('/api/v1/collections', { params: { query: { limit: 100 } } })),
    meta: { quiet: true },
  })
}

/** The cover of each listed collection that holds an asset, by collection id: one request for the page. */
export function useCollectionCovers(ids: string[]) {
  const org = useOrg()
  return useQuery({
    queryKey: [COLLECTIONS_KEY, 'covers', ids],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/collections/covers', { params: { path: { org }, query: { ids } } })),
    select: ({ data }) => new Map(data.map((cover) => [cover.collection_id, cover])),
    enabled: ids.length > 0,
    meta: { quiet: true },
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

/**
 * One collection and its assets, a page at a time ("Show more"): every page is the collection with a
 * slice of its assets, so the first page gives the collection itself without a second request.
 */
/** A collection's screen path, with the order its assets were asked in (none: the collection's own). */
export function collectionHref(id: string, sort?: ApiSort): string {
  return sort ? `/collections/${id}?sort=${encodeURIComponent(sort)}` : `/collections/${id}`
}

/** A collection and its assets page by page, in the order `sort` names (else the collection's own). */
export function useCollection(id: string, sort?: ApiSort, { enabled = true } = {}) {
  return useInfiniteQuery({
    queryKey: [COLLECTIONS_KEY, 'one', id, sort ?? ''],
    queryFn: ({ pageParam }) =>
      unwrap(v1.GET('/api/v1/collections/{id}', { params: { path: { id }, query: { ...(sort && { sort }), limit: PAGE, offset: pageParam } } })),
    enabled,
    initialPageParam: 0,
    getNextPageParam: ({ assets }) => (assets.offset + assets.data.length < assets.total ? assets.offset + assets.data.length : undefined),
    meta: { quiet: true },
  })
}

/** After a change to a collection itself (name, query, sharing): the collections, and the assets that list them by name. */
export function useRefreshCollections() {
  const queryClient = useQueryClient()
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: [COLLECTIONS_KEY] }), queryClient.invalidateQueries({ queryKey: [ASSETS_KEY] })])
}

/** After assets were added to or taken out of a collection: everything assets feed. */
export function useRefreshAssetData() {
  const queryClient = useQueryClient()
  return () => invalidateAssetData(queryClient)
}

/** How many assets a query matches now: GET /api/v1/assets with limit=1, read `total`, debounced as the user edits. */
export function useLiveCount(filters: AssetFilterValue) {
  const settled = useDebounced(filters, 250)
  return useQuery({
    queryKey: [ASSETS_KEY, 'count', settled],
    queryFn: async () => (await unwrap(v1.GET('/api/v1/assets', { params: { query: { ...settled, limit: 1 } } }))).total,
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  })
}

/** "tag red · client Acme" for a smart collection's query. */
export function describeQuery(query: AssetFilterValue | null | undefined): string {
  const labels: Record<keyof AssetFilterValue, string> = {
    asset_type: 'type',
    client: 'client',
    product: 'product',
    tag: 'tag',
    tag_prefix: 'tag starting with',
    q: 'text',
    color: 'colour',
    provenance: 'origin',
  }
  // A stored `sort` is the order of the assets, not a filter.
  const parts = Object.entries(query ?? {})
    .filter(([key, value]) => value && key in labels)
    .map(([key, value]) => `${labels[key as keyof AssetFilterValue]} “${value}”`)
  return parts.length > 0 ? parts.join(' · ') : 'every asset'
}

export type LiveShareLink = V1Data<'/api/v1/collections/{id}/share', 'get'>

/** The collection's live public link, for owners and admins only (`enabled`): the server refuses members. */
export function useLiveShareLink(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [COLLECTIONS_KEY, 'share', id],
    queryFn: () => unwrap(v1.GET('/api/v1/collections/{id}/share', { params: { path: { id } } })),
    enabled,
    gcTime: 0,
  })
}

/** What the user may do to the collection (delete, share), asked of the server, which keeps the rules. */
export function useCollectionPermissions(id: string) {
  const org = useOrg()
  return useQuery({
    queryKey: [COLLECTIONS_KEY, 'permissions', org, id],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/collections/{id}/permissions', { params: { path: { org, id } } })),
    staleTime: 60_000,
  })
}
