import { describe, expect, it } from 'vitest'
import { ciede2000, hexOf, labOf, labOfHex } from '../../src/platform/images/cielab.js'
import { COLOR_NAMES, nearestColorName } from '../../src/platform/images/color-names.js'
import { paletteOfPixels } from '../../src/platform/images/palette.js'

/** RGBA pixels: `count` of each `[#rrggbb, alpha]`. */
function pixels(...runs: Array<[hex: string, count: number, alpha?: number]>): Uint8Array {
  const bytes: number[] = []
  for (const [hex, count, alpha = 255] of runs) {
    const value = parseInt(hex.slice(1), 16)
    for (let i = 0; i < count; i++) bytes.push((value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff, alpha)
  }
  return Uint8Array.from(bytes)
}

describe('CIELAB', () => {
  it.each([
    [{ l: 50, a: 2.6772, b: -79.7751 }, { l: 50, a: 0, b: -82.7485 }, 2.0425],
    [{ l: 50, a: 0, b: 0 }, { l: 50, a: -1, b: 2 }, 2.3669],
    [{ l: 50, a: 2.5, b: 0 }, { l: 73, a: 25, b: -18 }, 27.1492],
    [{ l: 60.2574, a: -34.0099, b: 36.2677 }, { l: 60.4626, a: -34.1751, b: 39.4387 }, 1.2644],
  ])('CIEDE2000 of %o and %o is %f (Sharma, Wu and Dalal’s test data)', (first, second, expected) => {
    expect(ciede2000(first, second)).toBeCloseTo(expected, 4)
    expect(ciede2000(second, first)).toBeCloseTo(expected, 4)
  })

  it('goes from sRGB and back to the same colour', () => {
    for (const hex of ['#000000', '#ffffff', '#ff0000', '#1e5aa8', '#808000', '#fa8072', '#0000ff']) expect(hexOf(labOfHex(hex))).toBe(hex)
    expect(labOf(255, 255, 255)).toMatchObject({ l: expect.closeTo(100, 3), a: expect.closeTo(0, 3), b: expect.closeTo(0, 3) })
  })
})

describe('naming a colour', () => {
  it('names each swatch by its own name', () => {
    for (const { name, hex } of COLOR_NAMES) expect(nearestColorName(labOfHex(hex))).toBe(name)
  })

  it.each([
    ['#ff0000', 'red'],
    ['#800000', 'red'],
    ['#000080', 'blue'],
    ['#87ceeb', 'blue'],
    ['#808000', 'green'],
    ['#98ff98', 'green'],
    ['#00ffff', 'teal'],
    ['#40e0d0', 'teal'],
    ['#ff00ff', 'pink'],
    ['#ffc0cb', 'pink'],
    ['#4b0082', 'purple'],
    ['#ffd700', 'yellow'],
    ['#ff7f50', 'orange'],
    ['#d2b48c', 'brown'],
    ['#e0ac69', 'brown'],
    ['#36454f', 'gray'],
    ['#c0c0c0', 'gray'],
    ['#0a0a0a', 'black'],
    ['#f5f5dc', 'white'],
    ['#fffdd0', 'white'],
  ])('%s is %s', (hex, name) => {
    expect(nearestColorName(labOfHex(hex))).toBe(name)
  })
})

describe('a palette of pixels', () => {
  it('counts only pixels at least half opaque', () => {
    expect(paletteOfPixels(pixels(['#ff0000', 10], ['#0000ff', 90, 127], ['#00ff00', 30, 0]))).toEqual({ colors: [{ hex: '#ff0000', share: 1, name: 'red' }], names: ['red'] })
    expect(paletteOfPixels(pixels(['#ff0000', 50, 0]))).toEqual({ colors: [], names: [] })
    expect(paletteOfPixels(new Uint8Array(0))).toEqual({ colors: [], names: [] })
  })

  it('keeps at most six colours of at least 1%, most used first, and names those with 5% or more', () => {
    const palette = paletteOfPixels(
      pixels(['#ffffff', 400], ['#000000', 200], ['#ff0000', 120], ['#0000ff', 100], ['#ffff00', 80], ['#008000', 60], ['#ffa500', 36], ['#800080', 4]),
    )
    expect(palette.colors.map((color) => [color.name, color.share])).toEqual([
      ['white', 0.4],
      ['black', 0.2],
      ['red', 0.12],
      ['blue', 0.1],
      ['yellow', 0.08],
      ['green', 0.06],
    ])
    expect(palette.names).toEqual(['white', 'black', 'red', 'blue', 'yellow', 'green'])
  })

  it('merges shades closer than the eye tells apart, and gives a name the shares of all its colours', () => {
    const palette = paletteOfPixels(pixels(['#ffffff', 920], ['#d32f2f', 40], ['#d63030', 10], ['#0d47a1', 30]))
    expect(palette.colors).toHaveLength(3)
    expect(palette.colors[1]).toMatchObject({ name: 'red', share: 0.05 })
    expect(palette.names).toEqual(['white', 'red'])
  })

  it('is the same on every run', () => {
    const noisy = Uint8Array.from({ length: 4 * 5000 }, (_, i) => (i % 4 === 3 ? 255 : Math.imul(i, 2654435761) >>> 24))
    expect(paletteOfPixels(noisy)).toEqual(paletteOfPixels(noisy))
    expect(paletteOfPixels(noisy).colors.length).toBeLessThanOrEqual(6)
  })
})
