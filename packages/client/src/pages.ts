import type { Page } from './types.js'

/** The largest page the API serves. */
export const MAX_PAGE_SIZE = 100

/**
 * Every item of a list, page after page by offset. An item already yielded is skipped: a push between
 * two pages shifts a newest-first list by one, which would otherwise repeat the last item of a page.
 */
export async function* everyItem<Item>(
  pageAt: (offset: number, limit: number) => Promise<Page<Item>>,
  identity: (item: Item) => string,
  start: { offset?: number | undefined; limit?: number | undefined } = {},
): AsyncGenerator<Item, void, undefined> {
  const seen = new Set<string>()
  const limit = start.limit ?? MAX_PAGE_SIZE
  let offset = start.offset ?? 0
  for (;;) {
    const page = await pageAt(offset, limit)
    for (const item of page.data) {
      const key = identity(item)
      if (seen.has(key)) continue
      seen.add(key)
      yield item
    }
    offset += page.data.length
    if (page.data.length === 0 || offset >= page.total) return
  }
}
