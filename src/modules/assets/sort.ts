import { Type } from 'typebox'

/** What a list of assets can be sorted by. */
export const SORT_KEYS = ['created_at', 'title', 'byte_size', 'updated_at'] as const
export type SortKey = (typeof SORT_KEYS)[number]

/** A list's order: one key, then the asset's id in the same direction, so the order is total. */
export interface AssetSort {
  key: SortKey
  descending: boolean
}

/** The order of every list that names none: newest first. */
export const NEWEST_FIRST: AssetSort = { key: 'created_at', descending: true }

/** `sort` as the API writes it: `KEY` ascending, `-KEY` descending. */
export const SORT_VALUES = SORT_KEYS.flatMap((key) => [key, `-${key}`])

export const SortProperty = Type.Enum(SORT_VALUES, {
  type: 'string',
  description:
    'The order, `-created_at` (newest first) when absent: `created_at`, `title` (case-insensitive, by character code; an empty title first), `byte_size` or `updated_at`; `-` before the key for descending. Ties are broken by `id` in the same direction, so offset paging is stable.',
})

export function parseSort(value: string | undefined): AssetSort {
  if (value === undefined) return NEWEST_FIRST
  const descending = value.startsWith('-')
  return { key: (descending ? value.slice(1) : value) as SortKey, descending }
}

/** Whether an asset's place in this order can move when it is updated (`created_at` and `id` never change). */
export function reordersOnUpdate(sort: AssetSort): boolean {
  return sort.key !== 'created_at'
}
