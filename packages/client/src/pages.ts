import type { Page } from './types.js'

/** The largest page the API serves. */
export const MAX_PAGE_SIZE = 100

/** A page of a list that pages by cursor too (the asset lists): `next_cursor` asks for the page after it, null on the last. */
export interface CursorPage<Item> extends Page<Item> {
  next_cursor: string | null
}

/**
 * Every item of a list, page after page by offset. An item already yielded is skipped: a push between
 * two pages shifts a newest-first list by one, which would otherwise repeat the last item of a page.
 * An estimated total (`total_exact: false`) can be below the true count, so only an exact one ends the
 * paging before an empty page.
 */
export async function* everyItem<Item>(
  pageAt: (offset: number, limit: number) => Promise<Page<Item>>,
  identity: (item: Item) => string,
  start: { offset?: number | undefined; limit?: number | undefined } = {},
): AsyncGenerator<Item, void, undefined> {
  const firstSeen = firstSightOf(identity)
  const limit = start.limit ?? MAX_PAGE_SIZE
  let offset = start.offset ?? 0
  for (;;) {
    const page = await pageAt(offset, limit)
    yield* page.data.filter(firstSeen)
    offset += page.data.length
    if (page.data.length === 0 || (offset >= page.total && page.total_exact !== false)) return
  }
}

/**
 * Every item of a list, page after page by cursor: from `start` (an offset or a cursor), then each page's
 * `next_cursor` until it is null. Never ends early on an estimated total, and costs the same per page at
 * any depth. An item already yielded is skipped (an edit can move an asset past the cursor in an order
 * by title, size or update time).
 */
export async function* everyItemByCursor<Item>(
  pageFrom: (from: { offset?: number | undefined; cursor?: string | undefined }, limit: number) => Promise<CursorPage<Item>>,
  identity: (item: Item) => string,
  start: { offset?: number | undefined; cursor?: string | undefined; limit?: number | undefined } = {},
): AsyncGenerator<Item, void, undefined> {
  const firstSeen = firstSightOf(identity)
  const limit = start.limit ?? MAX_PAGE_SIZE
  let page = await pageFrom({ offset: start.offset, cursor: start.cursor }, limit)
  yield* page.data.filter(firstSeen)
  while (page.next_cursor !== null) {
    page = await pageFrom({ offset: undefined, cursor: page.next_cursor }, limit)
    yield* page.data.filter(firstSeen)
  }
}

/** A filter that passes each item the first time its identity is seen. */
function firstSightOf<Item>(identity: (item: Item) => string): (item: Item) => boolean {
  const seen = new Set<string>()
  return (item) => {
    const key = identity(item)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  }
}
