import { describe, expect, it } from 'vitest'
import { uuidv7, uuidv7At } from '../../src/platform/ids.js'

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('uuidv7', () => {
  it('sorts in the order the ids were made, within one millisecond too', () => {
    // Thousands of ids a millisecond: most share their timestamp with their neighbours.
    const ids = Array.from({ length: 20_000 }, () => uuidv7())
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids.slice(0, 50)) expect(id).toMatch(V7)
  })

  it('carries its time in the first 48 bits', () => {
    const before = Date.now()
    const id = uuidv7()
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16)
    expect(ms).toBeGreaterThanOrEqual(before)
    expect(ms).toBeLessThanOrEqual(Date.now() + 1)
    expect(parseInt(uuidv7At(Date.UTC(2020, 0, 1)).replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2020, 0, 1))
    expect(uuidv7At(0)).toMatch(V7)
  })
})
