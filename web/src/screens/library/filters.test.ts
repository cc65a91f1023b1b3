import { describe, expect, it } from 'vitest'
import { cleanFilters, formatLibrarySearch, hasFilters, libraryHref, parseLibrarySearch, sameFilters } from './filters'

describe('the library URL state', () => {
  it('reads the filters and the search text, with or without the leading ?', () => {
    expect(parseLibrarySearch('?tag=brand&client=Initech&search=red%20logo')).toEqual({ filters: { tag: 'brand', client: 'Initech' }, search: 'red logo' })
    expect(parseLibrarySearch('asset_type=Logo&product=Stapler&q=hero')).toEqual({ filters: { asset_type: 'Logo', product: 'Stapler', q: 'hero' }, search: '' })
  })

  it('ignores unknown keys and blank values', () => {
    expect(parseLibrarySearch('?tag=%20&foo=bar&client=')).toEqual({ filters: {}, search: '' })
  })

  it('writes keys in a stable order, leaving out empty ones', () => {
    expect(formatLibrarySearch({ filters: { tag: 'summer', asset_type: 'Banner', client: '' }, search: ' ' })).toBe('asset_type=Banner&tag=summer')
    expect(formatLibrarySearch({ filters: {}, search: 'a & b' })).toBe('search=a+%26+b')
  })

  it('round-trips', () => {
    const state = { filters: { asset_type: 'Social post', client: 'Ünïcode Co', product: 'P/1', tag: 'a+b', q: '"quoted" -not' }, search: '' }
    expect(parseLibrarySearch(formatLibrarySearch(state))).toEqual(state)
    const pictured = { filters: { tag: 'brand', color: 'blue' as const, provenance: 'ai' as const }, search: '' }
    expect(formatLibrarySearch(pictured)).toBe('tag=brand&color=blue&provenance=ai')
    expect(parseLibrarySearch(formatLibrarySearch(pictured))).toEqual(pictured)
    const searching = { filters: { client: 'Ünïcode Co', tag: 'a+b' }, search: 'blue' }
    expect(parseLibrarySearch(formatLibrarySearch(searching))).toEqual(searching)
  })

  it('lets a search replace the text filter, so the search sends the search text and not the filter', () => {
    expect(parseLibrarySearch('?q=foo&search=bar&tag=x')).toEqual({ filters: { tag: 'x' }, search: 'bar' })
    expect(formatLibrarySearch({ filters: { q: 'foo', tag: 'x' }, search: 'bar' })).toBe('tag=x&search=bar')
  })

  it('links to the library with the state', () => {
    expect(libraryHref({ filters: {}, search: '' })).toBe('/')
    expect(libraryHref({ filters: { tag: 'brand' }, search: '' })).toBe('/?tag=brand')
  })
})

describe('filter values', () => {
  it('are cleaned: trimmed, no empty fields', () => {
    expect(cleanFilters({ tag: ' brand ', client: '', product: undefined })).toEqual({ tag: 'brand' })
    expect(hasFilters({ tag: '  ' })).toBe(false)
    expect(hasFilters({ q: 'x' })).toBe(true)
  })

  it('compare by their cleaned fields', () => {
    expect(sameFilters({ tag: 'a', client: '' }, { tag: 'a ' })).toBe(true)
    expect(sameFilters({ tag: 'a' }, { tag: 'b' })).toBe(false)
  })
})
