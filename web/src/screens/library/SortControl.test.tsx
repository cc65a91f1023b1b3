import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { formatLibrarySearch, parseLibrarySearch } from './filters'
import { SortControl } from './SortControl'

describe('the sort control', () => {
  it('offers the orders in people\u2019s words, newest first by default, and reports the one picked', () => {
    const onChange = vi.fn()
    render(<SortControl value={undefined} onChange={onChange} />)
    const select = screen.getByRole('combobox', { name: 'Sort' }) as HTMLSelectElement
    expect(Array.from(select.options).map((option) => option.text)).toEqual(['Newest first', 'Oldest first', 'Title A–Z', 'Largest first', 'Recently updated'])
    expect(select.value).toBe('')
    fireEvent.change(select, { target: { value: 'title' } })
    expect(onChange).toHaveBeenLastCalledWith('title')
    fireEvent.change(select, { target: { value: '-byte_size' } })
    expect(onChange).toHaveBeenLastCalledWith('-byte_size')
  })

  it('shows the order it is given, one it does not offer too (a smart collection may store any)', () => {
    const { rerender } = render(<SortControl value="-updated_at" onChange={vi.fn()} />)
    const select = screen.getByRole('combobox', { name: 'Sort' }) as HTMLSelectElement
    expect(select.value).toBe('-updated_at')
    rerender(<SortControl value="-title" onChange={vi.fn()} />)
    expect(select.value).toBe('-title')
    expect(select.selectedOptions[0]?.text).toBe('Title Z–A')
  })
})

describe('the order in the library URL', () => {
  it('round-trips, leaves the default out, and ignores an order it does not offer', () => {
    const state = { filters: { tag_prefix: 'wall' }, search: '', sort: 'title' as const }
    expect(formatLibrarySearch(state)).toBe('tag_prefix=wall&sort=title')
    expect(parseLibrarySearch('?tag_prefix=wall&sort=title')).toEqual(state)
    expect(formatLibrarySearch({ filters: {}, search: '', sort: '' })).toBe('')
    expect(parseLibrarySearch('?sort=size')).toEqual({ filters: {}, search: '' })
    expect(parseLibrarySearch('?sort=-created_at')).toEqual({ filters: {}, search: '' })
    expect(parseLibrarySearch('?sort=-title')).toEqual({ filters: {}, search: '', sort: '-title' })
  })
})
