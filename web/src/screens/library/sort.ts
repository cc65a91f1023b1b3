import type { components } from '@asset-library/client'

/** `sort` as GET /api/v1/assets takes it. */
export type ApiSort = NonNullable<components['schemas']['AssetQuery']['sort']>
/** An order of a list: '' is the default, newest first. */
export type SortValue = '' | ApiSort

/** Every order, in people's words. */
const LABELS: Record<ApiSort, string> = {
  '-created_at': 'Newest first',
  created_at: 'Oldest first',
  title: 'Title A–Z',
  '-title': 'Title Z–A',
  '-byte_size': 'Largest first',
  byte_size: 'Smallest first',
  '-updated_at': 'Recently updated',
  updated_at: 'Least recently updated',
}

/** The orders the Sort control offers (another one shows too while it is the current one, as a smart collection may store it). */
const OFFERED: readonly SortValue[] = ['', 'created_at', 'title', '-byte_size', '-updated_at']

/** The Sort control's options: the offered orders, and `current` when it is not one of them. */
export function sortChoices(current: SortValue): Array<{ value: SortValue; label: string }> {
  const values = OFFERED.includes(current) ? OFFERED : [...OFFERED, current]
  return values.map((value) => ({ value, label: LABELS[value || '-created_at'] }))
}

/** A URL's `sort` as the API takes it, or undefined when it names none. */
export function apiSortOf(value: string | null | undefined): ApiSort | undefined {
  return value && Object.hasOwn(LABELS, value) ? (value as ApiSort) : undefined
}

/** A URL's `sort` as an order: the default (newest first) is '', and so is anything the API does not take. */
export function sortOf(value: string | null | undefined): SortValue {
  const sort = apiSortOf(value)
  return sort === undefined || sort === '-created_at' ? '' : sort
}

/** The query parameter for an order: none for the default, so the default's URLs stay as they were. */
export function sortParam(sort: SortValue | undefined): { sort?: ApiSort } {
  return sort ? { sort } : {}
}
