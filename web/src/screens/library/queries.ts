import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useDeferredValue } from 'react'
import { unwrap, v1, type V1Data } from '../../api/client'

export type Asset = V1Data<'/api/v1/assets', 'get'>['data'][number]
export type CatalogList = '/api/v1/asset-types' | '/api/v1/clients' | '/api/v1/products'

/**
 * Query keys. Everything showing assets starts with ASSETS_KEY, so invalidating it after a push, an
 * edit or a delete refreshes the grid, the detail and the similar list at once.
 */
export const ASSETS_KEY = 'assets'
export const assetKey = (id: string) => [ASSETS_KEY, 'one', id] as const

/** The names of asset types, clients or products, most used first (the first 100). */
export function useCatalog(path: CatalogList) {
  return useQuery({
    queryKey: ['catalog', path],
    queryFn: async () => (await unwrap(v1.GET(path, { params: { query: { limit: 100 } } }))).data.map((item) => item.name),
    staleTime: 5 * 60_000,
  })
}

/** Tag names for an autocomplete: the most used ones matching what is typed so far. */
export function useTagSuggestions(text: string) {
  const q = useDeferredValue(text.trim())
  return useQuery({
    queryKey: ['catalog', 'tags', q],
    queryFn: async () => (await unwrap(v1.GET('/api/v1/tags', { params: { query: { limit: 20, ...(q ? { q } : {}) } } }))).data.map((tag) => tag.name),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    meta: { quiet: true },
  })
}

/** One asset, with signed URLs. */
export function useAsset(id: string) {
  return useQuery({
    queryKey: assetKey(id),
    queryFn: () => unwrap(v1.GET('/api/v1/assets/{id}', { params: { path: { id } } })),
    meta: { quiet: true },
  })
}
