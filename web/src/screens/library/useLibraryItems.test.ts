import { describe, expect, it } from 'vitest'
import { countText, SEARCH_LIMIT } from './useLibraryItems'

describe('the library count', () => {
  it('counts assets, and hits of a search', () => {
    expect(countText(1, false)).toBe('1 asset')
    expect(countText(1234, false)).toBe(`${(1234).toLocaleString()} assets`)
    expect(countText(3, true)).toBe('3 hits')
    expect(countText(undefined, true)).toBe('')
  })

  it('does not pass a search cut at its limit off as the number of matches', () => {
    expect(countText(SEARCH_LIMIT, true)).toBe('Top 100 hits')
  })
})
