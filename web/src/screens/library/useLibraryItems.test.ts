import { describe, expect, it } from 'vitest'
import { countText, SEARCH_LIMIT } from './useLibraryItems'

describe('the library count', () => {
  it('counts assets, and hits of a search', () => {
    expect(countText(1, false)).toBe('1 asset')
    expect(countText(1234, false)).toBe(`${(1234).toLocaleString()} assets`)
    expect(countText(3, true)).toBe('3 hits')
    expect(countText(undefined, true)).toBe('')
  })

  it('says "1,000+" when the server estimated the total of a full-text list past its count of 1,000', () => {
    expect(countText(12345, false, { countedUpTo: 1000 })).toBe(`${(1000).toLocaleString()}+ assets`)
    expect(countText(12345, false)).toBe(`${(12345).toLocaleString()} assets`)
  })

  it('says "about" while it does not know up to where the server counts', () => {
    expect(countText(12345, false, { countedUpTo: undefined })).toBe(`about ${(12345).toLocaleString()} assets`)
  })

  it('does not pass a search cut at its limit off as the number of matches', () => {
    expect(countText(SEARCH_LIMIT, true)).toBe('Top 100 hits')
  })
})
