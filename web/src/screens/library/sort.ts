import type { components } from '@asset-library/client'

/** `sort` as GET /api/v1/assets takes it. */
export type ApiSort = NonNullable<components['schemas']['AssetQuery']['sort']>
/** A choice of the Sort control: '' is the default order, newest first. */
export type SortValue = '' | ApiSort

/** The orders people pick from, in their words. */
export const SORT_CHOICES: ReadonlyArray<{ value: SortValue; label: string }> = [
  { value: '', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: 'title', label: 'Title A–Z' },
  { value: '-byte_size', label: 'Largest first' },
  { value: '-updated_at', label: 'Recently updated' },
]

/** Every `sort` the API takes, ascending and descending. */
const API_SORTS: readonly string[] = ['created_at', 'title', 'byte_size', 'updated_at'].flatMap((key) => [key, `-${key}`])

/** A URL's `sort` as the API takes it, or undefined when it names none. */
export function apiSortOf(value: string | null | undefined): ApiSort | undefined {
  return value && API_SORTS.includes(value) ? (value as ApiSort) : undefined
}

/** A URL's `sort` as a choice: anything not offered (or absent) is the default. */
export function sortOf(value: string | null | undefined): SortValue {
  return SORT_CHOICES.find((choice) => choice.value === value)?.value ?? ''
}

/** The query parameter for a choice: none for the default, so the default's URLs stay as they were. */
export function sortParam(sort: SortValue | undefined): { sort?: ApiSort } {
  return sort ? { sort } : {}
}
