import type { components } from '@asset-library/client'
import { sortOf, type SortValue } from './sort'

/**
 * The filters of GET /api/v1/assets (the same shape as a smart collection's `query`, AssetQuery), and
 * their mapping to and from a URL query string. Pure functions: tested in filters.test.ts.
 */
export interface AssetFilterValue {
  asset_type?: string
  client?: string
  product?: string
  tag?: string
  /** Assets with a tag starting with this text (what is typed in the tag filter; a picked suggestion is `tag`). */
  tag_prefix?: string
  /** Full-text filter over title, tags, type, client and product. */
  q?: string
  /** One of the colour names of GET /api/v1/colors: assets whose palette has it. */
  color?: AssetQuery['color']
  /** What the file declares of its origin: ai, ai_composite, capture, edited or unknown. */
  provenance?: AssetQuery['provenance']
}

type AssetQuery = components['schemas']['AssetQuery']

export const FILTER_KEYS = ['asset_type', 'client', 'product', 'tag', 'tag_prefix', 'q', 'color', 'provenance'] as const satisfies ReadonlyArray<keyof AssetFilterValue>

/** The value without empty or blank fields, trimmed; `{}` when nothing filters. */
export function cleanFilters(value: AssetFilterValue): AssetFilterValue {
  const clean: AssetFilterValue = {}
  for (const key of FILTER_KEYS) {
    const field = value[key]?.trim()
    if (field) Object.assign(clean, { [key]: field })
  }
  return clean
}

export function hasFilters(value: AssetFilterValue): boolean {
  return Object.keys(cleanFilters(value)).length > 0
}

/** The library's URL state: the filters plus the search text (`?search=`, POST /api/v1/search) and the list's order. */
export interface LibraryUrlState {
  filters: AssetFilterValue
  search: string
  /** The list's order; '' is newest first (and a search is always best first). */
  sort?: SortValue
}

/**
 * The state as the library uses it: a search replaces the text filter `q` (the search body's `q` is
 * the search text), so the two never go together.
 */
export function libraryState(filters: AssetFilterValue, search: string, sort: SortValue = ''): LibraryUrlState {
  const text = search.trim()
  const clean = cleanFilters(filters)
  if (text) delete clean.q
  return { filters: clean, search: text, ...(sort && { sort }) }
}

/** Reads `?asset_type=…&client=…&product=…&tag=…&q=…&color=…&provenance=…&search=…` (with or without the leading `?`). */
export function parseLibrarySearch(search: string): LibraryUrlState {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)
  const filters: AssetFilterValue = {}
  for (const key of FILTER_KEYS) {
    const value = params.get(key)
    if (value) Object.assign(filters, { [key]: value })
  }
  return libraryState(filters, params.get('search') ?? '', sortOf(params.get('sort')))
}

/** The query string (without `?`) for the state, keys in a stable order, empty fields left out. */
export function formatLibrarySearch(state: LibraryUrlState): string {
  const params = new URLSearchParams()
  const { filters, search, sort } = libraryState(state.filters, state.search, state.sort)
  for (const key of FILTER_KEYS) if (filters[key]) params.set(key, filters[key])
  if (search) params.set('search', search)
  if (sort) params.set('sort', sort)
  return params.toString()
}

/** The library's path for the state: `/` or `/?tag=brand`. */
export function libraryHref(state: LibraryUrlState): string {
  const query = formatLibrarySearch(state)
  return query ? `/?${query}` : '/'
}

export function sameFilters(a: AssetFilterValue, b: AssetFilterValue): boolean {
  const x = cleanFilters(a)
  const y = cleanFilters(b)
  return FILTER_KEYS.every((key) => x[key] === y[key])
}
