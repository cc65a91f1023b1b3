/** One page of a v1 list: its items, where it starts, and how many there are in all. */
interface ListPage {
  data: readonly unknown[]
  offset: number
  total: number
}

/** The offset of the page after `last`, or undefined when it was the last one (or came back empty). */
export const nextOffset = (last: ListPage): number | undefined =>
  last.offset + last.data.length < last.total && last.data.length > 0 ? last.offset + last.data.length : undefined
