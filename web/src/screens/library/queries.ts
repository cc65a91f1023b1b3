import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { appApi, unwrap, v1, type AppData, type V1Data } from '../../api/client'
import { ASSETS_KEY, catalogKey, ORGANIZATION_KEY, PRESETS_KEY } from '../../api/cache'
import { useDebounced } from '../../ui/useDebounced'

export type Asset = V1Data<'/api/v1/assets', 'get'>['data'][number]
export type CatalogList = '/api/v1/asset-types' | '/api/v1/clients' | '/api/v1/products'

export type Organization = AppData<'/app/api/orgs/{org}', 'get'>

/** The organization's settings, usage and AI status: Settings edits it, the library reads its AI status. */
export function organizationQuery(org: string) {
  return queryOptions({
    queryKey: [ORGANIZATION_KEY, org],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}', { params: { path: { org } } })),
  })
}

export type Preset = AppData<'/app/api/orgs/{org}/presets', 'get'>['data'][number]

/** The rendition presets, the built-ins first: Settings edits them, an asset's downloads offer them. */
export function presetsQuery(org: string) {
  return queryOptions({
    queryKey: [PRESETS_KEY, org],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/presets', { params: { path: { org } } })),
  })
}

/** The detail's key; under ASSETS_KEY, so invalidateAssetData refreshes it with the lists. */
export const assetKey = (id: string) => [ASSETS_KEY, 'one', id] as const

/**
 * A registry list (asset types, clients or products) as the API pages it, the first 100, under its one
 * key: the pickers and the Settings registry editor share this entry, so a change in one shows in all.
 */
export function catalogQuery(path: CatalogList) {
  return queryOptions({
    queryKey: catalogKey(path),
    queryFn: () => unwrap(v1.GET(path, { params: { query: { limit: 100 } } })),
    staleTime: 5 * 60_000,
  })
}

const names = (page: { data: Array<{ name: string }> }) => page.data.map((item) => item.name)

/** The names of a registry, for a picker. */
export function useCatalog(path: CatalogList) {
  return useQuery({ ...catalogQuery(path), select: names })
}

export const TAG_DEBOUNCE_MS = 250

/** Tag names for an autocomplete: the most used ones matching what is typed, asked once typing pauses. */
export function useTagSuggestions(text: string) {
  const q = useDebounced(text.trim(), TAG_DEBOUNCE_MS)
  return useQuery({
    queryKey: catalogKey('/api/v1/tags', q),
    queryFn: async () => names(await unwrap(v1.GET('/api/v1/tags', { params: { query: { limit: 20, ...(q ? { q } : {}) } } }))),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    meta: { quiet: true },
  })
}

/** The colour names the palettes use, with the hex of each swatch (the same for every organization). */
export function useColorNames() {
  return useQuery({
    queryKey: [ASSETS_KEY, 'colors'] as const,
    queryFn: async () => (await unwrap(v1.GET('/api/v1/colors'))).data,
    staleTime: Infinity,
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

/**
 * What the signed-in user may do to the asset (a member deletes only what they pushed), asked of the
 * server, which keeps the rule: the page disables what they may not, saying why.
 */
export function useAssetPermissions(org: string, id: string) {
  return useQuery({
    queryKey: [ASSETS_KEY, 'permissions', org, id],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/assets/{id}/permissions', { params: { path: { org, id } } })),
    staleTime: 60_000,
  })
}
