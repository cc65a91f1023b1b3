import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { ImageError, ImageProcessor } from '../../src/platform/images/images.js'
import { decisiveComparisons, dhashOfGrid, hammingDistance, hashBands, perceptualHash } from '../../src/platform/images/perceptual-hash.js'
import { solid, undecodablePng } from '../support/images.js'
import { scene, scenePng } from '../support/scenes.js'

const images = new ImageProcessor()
afterAll(() => images.close())

const hashOrNull = (bytes: Buffer) => perceptualHash(images, bytes)
/** The hash of a picture with enough detail to have one. */
async function hashOf(bytes: Buffer): Promise<bigint> {
  const hash = await hashOrNull(bytes)
  if (hash === null) throw new Error('the picture was found too plain to hash')
  return hash
}

describe('dhashOfGrid', () => {
  it('sets bit 8 × row + column when a pixel is brighter than its right neighbour', () => {
    const grid = new Uint8Array(72)
    grid[0] = 200 // row 0: column 0 brighter than column 1
    grid[9 * 7 + 7] = 200 // row 7: column 7 brighter than column 8, the 64th bit
    expect(dhashOfGrid(grid)).toBe(BigInt.asIntN(64, (1n << 63n) | 1n))
    expect(dhashOfGrid(grid)).toBeLessThan(0n)
  })

  it('is 0 for a grid of one grey', () => {
    expect(dhashOfGrid(new Uint8Array(72).fill(90))).toBe(0n)
  })

  it('counts the comparisons of neighbours more than 4 grey levels apart', () => {
    const grid = new Uint8Array(72).fill(90)
    grid[0] = 95 // 5 apart from column 1: decisive
    grid[10] = 94 // 4 apart from columns 0 and 2 of row 1: noise
    expect(decisiveComparisons(grid)).toBe(1)
    expect(decisiveComparisons(Uint8Array.from({ length: 72 }, (_, i) => (i % 2) * 200))).toBe(64)
  })
})

describe('hammingDistance and hashBands', () => {
  it('counts differing bits of signed hashes', () => {
    expect(hammingDistance(0n, -1n)).toBe(64)
    expect(hammingDistance(-1n, BigInt.asIntN(64, 0x7fff_ffff_ffff_fffen))).toBe(2)
    expect(hammingDistance(5n, 5n)).toBe(0)
  })

  it('cuts a hash into 8 bands of 8 bits, low bits first', () => {
    expect(hashBands(BigInt.asIntN(64, 0x0102_0304_0506_07ffn))).toEqual([0xff, 7, 6, 5, 4, 3, 2, 1])
    expect(hashBands(-1n)).toEqual(Array(8).fill(255))
  })

  it('any two hashes within 7 bits share a band whole', () => {
    const a = 0x1234_5678_9abc_def0n
    const flips = [0, 9, 18, 27, 36, 45, 54] // seven bits, each in another band
    const b = flips.reduce((hash, bit) => hash ^ (1n << BigInt(bit)), a)
    expect(hammingDistance(a, b)).toBe(7)
    const shared = hashBands(a).filter((value, band) => hashBands(b)[band] === value)
    expect(shared).toHaveLength(1)
  })
})

describe('perceptualHash', () => {
  it('keeps a picture near itself through a re-encode, a resize and a format change, and far from another picture', async () => {
    const original = await scenePng(1)
    const hash = await hashOf(original)
    const variants = [
      await scene(1).jpeg({ quality: 40 }).toBuffer(),
      await scene(1).resize(160).png().toBuffer(),
      await scene(1).webp({ quality: 50 }).toBuffer(),
    ]
    // Within NEAR_DUPLICATE_DISTANCE's default (6); JPEG at quality 40 is the farthest, at 4.
    for (const variant of variants) expect(hammingDistance(hash, await hashOf(variant))).toBeLessThanOrEqual(6)
    for (const seed of [2, 3, 4]) expect(hammingDistance(hash, await hashOf(await scenePng(seed)))).toBeGreaterThan(10)
  })

  it('hashes the picture as shown: EXIF orientation applied', async () => {
    const upright = await hashOf(await scene(5).jpeg().toBuffer())
    // Stored turned a quarter left, with the orientation tag (6) that turns it back right.
    const stored = await scene(5).rotate(-90).jpeg().withMetadata({ orientation: 6 }).toBuffer()
    expect(hammingDistance(upright, await hashOf(stored))).toBeLessThanOrEqual(3)
  })

  it('gives no hash to a picture too plain to compare: one colour, a 1×1 image, a fully transparent one, a faint mark', async () => {
    expect(await hashOrNull(await solid(1, 1, '#ff0000').png().toBuffer())).toBeNull()
    expect(await hashOrNull(await solid(40, 30, '#0000ff').png().toBuffer())).toBeNull()
    expect(await hashOrNull(await solid(40, 30, { r: 0, g: 0, b: 0, alpha: 0 }).png().toBuffer())).toBeNull()
    const faint = await solid(90, 80, '#ffffff').composite([{ input: await solid(10, 10, '#fcfcfc').png().toBuffer(), left: 40, top: 35 }]).png().toBuffer()
    expect(await hashOrNull(faint)).toBeNull()
  })

  it('hashes the first frame of an animated GIF', async () => {
    const first = await scene(6, 120, 90).raw().toBuffer()
    const second = await scene(7, 120, 90).raw().toBuffer()
    const frames = Buffer.concat([first, second])
    const gif = await sharp(frames, { raw: { width: 120, height: 90 * 2, channels: 4, pageHeight: 90 } as sharp.CreateRaw })
      .gif()
      .toBuffer()
    expect((await sharp(gif).metadata()).pages).toBe(2)
    const hash = await hashOf(gif)
    expect(hammingDistance(hash, await hashOf(await scene(6, 120, 90).png().toBuffer()))).toBeLessThanOrEqual(4)
    expect(hammingDistance(hash, await hashOf(await scene(7, 120, 90).png().toBuffer()))).toBeGreaterThan(10)
  })

  it('hashes a 16-bit PNG and a CMYK JPEG as their 8-bit RGB picture', async () => {
    const rgb = await hashOf(await scenePng(8))
    const sixteenBit = await scene(8).toColourspace('rgb16').png().toBuffer()
    expect((await sharp(sixteenBit).metadata()).depth).toBe('ushort')
    expect(hammingDistance(rgb, await hashOf(sixteenBit))).toBeLessThanOrEqual(2)
    const cmyk = await scene(8).toColourspace('cmyk').jpeg({ quality: 90 }).toBuffer()
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk')
    expect(hammingDistance(rgb, await hashOf(cmyk))).toBeLessThanOrEqual(4)
  })

  it('hashes an SVG as drawn (in its render process)', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="90" height="80"><rect width="45" height="80" fill="#000"/></svg>')
    const drawn = await hashOf(await sharp(svg).png().toBuffer())
    expect(drawn).not.toBe(0n)
    expect(hammingDistance(drawn, await hashOf(svg))).toBeLessThanOrEqual(2)
  })

  it('refuses an image that cannot be decoded with an ImageError', async () => {
    await expect(hashOf(await undecodablePng())).rejects.toBeInstanceOf(ImageError)
  })
})
