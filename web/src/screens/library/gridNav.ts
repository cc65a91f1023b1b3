/**
 * Roving focus in a grid of cards laid out in rows of `columns`: which index a key moves to, or null
 * when the key is not a move. Pure: tested in gridNav.test.ts.
 */
export function moveInGrid(index: number, key: string, count: number, columns: number): number | null {
  if (count === 0) return null
  const cols = Math.max(1, columns)
  const at = Math.min(Math.max(index, 0), count - 1)
  switch (key) {
    case 'ArrowRight':
      return Math.min(at + 1, count - 1)
    case 'ArrowLeft':
      return Math.max(at - 1, 0)
    case 'ArrowDown':
      // From the last full row into a shorter one, land on its last card rather than staying put.
      return at + cols < count ? at + cols : Math.floor(at / cols) < Math.floor((count - 1) / cols) ? count - 1 : at
    case 'ArrowUp':
      return at - cols >= 0 ? at - cols : at
    case 'Home':
      return 0
    case 'End':
      return count - 1
    case 'PageDown':
      return Math.min(at + cols * 3, count - 1)
    case 'PageUp':
      return Math.max(at - cols * 3, 0)
    default:
      return null
  }
}

/** How many cards sit on the first row: those whose top is the first card's top. */
export function columnsOf(cards: ArrayLike<{ offsetTop: number }>): number {
  if (cards.length === 0) return 1
  const top = cards[0]!.offsetTop
  let columns = 0
  while (columns < cards.length && cards[columns]!.offsetTop === top) columns++
  return Math.max(1, columns)
}

/** The ids between two indexes, inclusive, in either order: for shift-click range selection. */
export function rangeOf<T>(items: readonly T[], from: number, to: number): T[] {
  const [start, end] = from <= to ? [from, to] : [to, from]
  return items.slice(Math.max(0, start), end + 1)
}
