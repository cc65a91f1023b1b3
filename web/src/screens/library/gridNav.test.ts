import { describe, expect, it } from 'vitest'
import { columnsOf, moveInGrid, rangeOf } from './gridNav'

describe('moving in the grid', () => {
  // 10 cards in rows of 4: 0-3, 4-7, 8-9.
  const move = (index: number, key: string) => moveInGrid(index, key, 10, 4)

  it('moves sideways and stops at the ends', () => {
    expect(move(0, 'ArrowRight')).toBe(1)
    expect(move(3, 'ArrowRight')).toBe(4)
    expect(move(9, 'ArrowRight')).toBe(9)
    expect(move(0, 'ArrowLeft')).toBe(0)
    expect(move(4, 'ArrowLeft')).toBe(3)
  })

  it('moves by rows, and into a shorter last row lands on its last card', () => {
    expect(move(1, 'ArrowDown')).toBe(5)
    expect(move(5, 'ArrowDown')).toBe(9)
    expect(move(7, 'ArrowDown')).toBe(9)
    expect(move(9, 'ArrowDown')).toBe(9)
    expect(move(9, 'ArrowUp')).toBe(5)
    expect(move(2, 'ArrowUp')).toBe(2)
  })

  it('jumps with Home, End and the page keys', () => {
    expect(move(6, 'Home')).toBe(0)
    expect(move(1, 'End')).toBe(9)
    expect(move(0, 'PageDown')).toBe(9)
    expect(move(9, 'PageUp')).toBe(0)
  })

  it('ignores other keys and empty grids', () => {
    expect(move(2, 'a')).toBeNull()
    expect(moveInGrid(0, 'ArrowRight', 0, 4)).toBeNull()
  })

  it('clamps a stale index', () => {
    expect(moveInGrid(12, 'ArrowLeft', 10, 4)).toBe(8)
  })
})

describe('the grid layout', () => {
  it('counts the cards on the first row', () => {
    expect(columnsOf([{ offsetTop: 0 }, { offsetTop: 0 }, { offsetTop: 0 }, { offsetTop: 180 }])).toBe(3)
    expect(columnsOf([])).toBe(1)
    expect(columnsOf([{ offsetTop: 0 }, { offsetTop: 0 }])).toBe(2)
  })

  it('selects a range either way', () => {
    expect(rangeOf(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['b', 'c', 'd'])
    expect(rangeOf(['a', 'b', 'c', 'd'], 0, 0)).toEqual(['a'])
  })
})
