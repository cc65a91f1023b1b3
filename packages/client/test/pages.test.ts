import { describe, expect, it } from 'vitest'
import { everyItem } from '../src/pages.js'
import type { Page } from '../src/types.js'

/** A list of `count` items whose pages say `total` (an estimate below the count when `exact` is false). */
function listOf(count: number, total: number, exact: boolean) {
  const items = Array.from({ length: count }, (_, i) => `item ${i}`)
  const asked: number[] = []
  const pageAt = async (offset: number, limit: number): Promise<Page<string>> => {
    asked.push(offset)
    return { data: items.slice(offset, offset + limit), total, total_exact: exact, limit, offset }
  }
  return { items, asked, pageAt }
}

async function collect(list: ReturnType<typeof listOf>, limit: number): Promise<string[]> {
  const read: string[] = []
  for await (const item of everyItem(list.pageAt, (item) => item, { limit })) read.push(item)
  return read
}

describe('everyItem (paging by offset)', () => {
  it('reads past an estimated total that is below the true count, until an empty page', async () => {
    const list = listOf(7, 4, false)
    expect(await collect(list, 3)).toEqual(list.items)
    expect(list.asked).toEqual([0, 3, 6, 7])
  })

  it('stops at an exact total without asking for an empty page', async () => {
    const list = listOf(6, 6, true)
    expect(await collect(list, 3)).toEqual(list.items)
    expect(list.asked).toEqual([0, 3])
  })
})
