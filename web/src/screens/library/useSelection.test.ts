import { act, renderHook } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useSelection } from './useSelection'

const list = (...ids: string[]) => ids.map((id) => ({ id }))

describe('the library selection', () => {
  it('drops selected assets that a filter hides, so clearing the filter does not bring them back', () => {
    const all = list('a', 'b', 'c')
    const { result, rerender } = renderHook(({ items }) => useSelection(items), { initialProps: { items: all } })
    act(() => result.current.toggle('a', 0, false))
    act(() => result.current.toggle('b', 1, false))
    expect(result.current.ids).toEqual(['a', 'b'])
    rerender({ items: list('a', 'c') })
    expect(result.current.ids).toEqual(['a'])
    rerender({ items: all })
    expect(result.current.ids).toEqual(['a'])
  })

  it('ranges from the asset last clicked, even when new items moved it', () => {
    const { result, rerender } = renderHook(({ items }) => useSelection(items), { initialProps: { items: list('a', 'b', 'c', 'd') } })
    act(() => result.current.toggle('c', 2, false))
    // A new asset arrives at the top: "c" is now at index 3.
    rerender({ items: list('new', 'a', 'b', 'c', 'd') })
    act(() => result.current.toggle('d', 4, true))
    expect([...result.current.selected].sort()).toEqual(['c', 'd'])
  })

  it('forgets the range start when that asset is no longer shown', () => {
    const { result, rerender } = renderHook(({ items }) => useSelection(items), { initialProps: { items: list('a', 'b', 'c') } })
    act(() => result.current.toggle('a', 0, false))
    act(() => result.current.toggle('a', 0, false))
    rerender({ items: list('b', 'c') })
    act(() => result.current.toggle('c', 1, true))
    expect(result.current.ids).toEqual(['c'])
  })
})
