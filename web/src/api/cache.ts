import type { QueryClient } from '@tanstack/react-query'

/**
 * The query keys of data that assets feed. The organization is not in them: switching organization
 * clears the cache and remounts every screen (session.tsx).
 */
export const ASSETS_KEY = 'assets'
export const COLLECTIONS_KEY = 'collections'
export const CATALOG_KEY = 'catalog'
export const ORGANIZATION_KEY = 'organization'
/** The organization's rendition presets; the asset records link each of them, so a change refreshes assets too. */
export const PRESETS_KEY = 'presets'

/** The one key of a catalogue list (`/api/v1/asset-types`, `/clients`, `/products`, `/tags`), whoever reads it. */
export function catalogKey(path: string, ...rest: unknown[]): unknown[] {
  return [CATALOG_KEY, path, ...rest]
}

/**
 * After any change to assets: the lists and searches, collections (counts, smart membership), the
 * catalogue (tag and client counts) and the organization (plan usage) all follow from them.
 */
export async function invalidateAssetData(queryClient: QueryClient): Promise<void> {
  await Promise.all([ASSETS_KEY, COLLECTIONS_KEY, CATALOG_KEY, ORGANIZATION_KEY].map((key) => queryClient.invalidateQueries({ queryKey: [key] })))
}
