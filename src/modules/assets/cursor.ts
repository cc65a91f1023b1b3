import { createHash } from 'node:crypto'
import { Type } from 'typebox'
import { AppError, problems } from '../../platform/http/errors.js'
import type { Page } from '../../platform/http/pagination.js'
import { SORT_VALUES, type AssetSort, type SortKey } from './sort.js'

/**
 * Where a page of a list ended: its last asset's sort key, as the database writes it as text (so a
 * timestamp keeps its microseconds, which a JavaScript Date would round to milliseconds), and its id.
 * The next page is what follows `(key, id)` in the list's order.
 */
export interface Keyset {
  key: string
  id: string
}

export const CURSOR_MAX_LENGTH = 4096

export const CursorProperty = Type.String({
  minLength: 1,
  maxLength: CURSOR_MAX_LENGTH,
  description:
    'The `next_cursor` of the page before: the page after it, in the same order and with the same filters (anything else is 400 `invalid_cursor`). With `offset` 0 or absent. Unlike an offset, it costs the same at any depth, and it neither skips nor repeats an asset when others are added or deleted meanwhile.',
})

export const NextCursorProperty = Type.Union([Type.String(), Type.Null()], {
  description: 'Pass it as `cursor` for the next page; null on the last page. Opaque: it names the sort, the filters and the last asset of this page.',
})

/**
 * A short digest of what a cursor may continue: the organization, the filter (and collection) as
 * `countedScopeKey` writes it, and the sort. A cursor of any other list fails to match it.
 */
export function cursorScope(organizationId: string, filterScope: string, sort: AssetSort): string {
  return createHash('sha256').update(JSON.stringify([organizationId, filterScope, sortValue(sort)])).digest('base64url').slice(0, 12)
}

/** The cursor of the page after the one that ended at `last`: opaque to clients (base64url of JSON). */
export function encodeCursor(scope: string, sort: AssetSort, last: Keyset): string {
  return Buffer.from(JSON.stringify([sortValue(sort), scope, last.key, last.id])).toString('base64url')
}

/** Where the page `cursor` asks for starts: 400 if it is not a cursor of this list (`scope`, `sort`), or comes with an offset. */
export function keysetOf(cursor: string, page: Page, scope: string, sort: AssetSort): Keyset {
  if (page.offset !== 0) throw problems.validation([{ pointer: '/query/offset', detail: 'a cursor says where the page starts: send offset 0 or none with it' }])
  const [madeFor, madeIn, key, id] = decoded(cursor)
  if (madeFor !== sortValue(sort)) throw invalidCursor(`This cursor pages the list sorted by ${madeFor}; ask with that sort, or start again without a cursor.`)
  if (madeIn !== scope) throw invalidCursor('This cursor pages another list (other filters, collection or organization); start again without a cursor.')
  if (!KEY_FORMATS[sort.key].test(key) || !UUID.test(id)) throw invalidCursor()
  return { key, id }
}

/** A cursor's parts, each a string and its sort one of the list's; else 400. */
function decoded(cursor: string): [string, string, string, string] {
  let parts: unknown
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw invalidCursor()
  }
  const valid = Array.isArray(parts) && parts.length === 4 && parts.every((part) => typeof part === 'string') && SORT_VALUES.includes(parts[0] as string)
  if (!valid) throw invalidCursor()
  return parts as [string, string, string, string]
}

function invalidCursor(detail = 'The cursor is not one this list made; use a `next_cursor` as it was answered, or start again without a cursor.'): AppError {
  return new AppError('invalid_cursor', detail)
}

function sortValue({ key, descending }: AssetSort): string {
  return descending ? `-${key}` : key
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

/** What each key's text may be, as the store writes it (`KEY_TEXT`), so a forged cursor cannot fail its cast in SQL. */
const KEY_FORMATS: Record<SortKey, RegExp> = {
  created_at: TIMESTAMP,
  updated_at: TIMESTAMP,
  byte_size: /^\d{1,15}$/,
  // Any text PostgreSQL can hold: all but NUL.
  title: /^[^\0]*$/,
}
