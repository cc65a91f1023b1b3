import sharp from 'sharp'
import type { ImageProcessor } from './images.js'

/** The name stored beside each hash (`assets.perceptual_hash_algorithm`). */
export const PERCEPTUAL_HASH_ALGORITHM = 'dhash'

/** Bands of a hash: 8 of 8 bits, so two hashes within distance 7 share at least one band whole (pigeonhole). */
export const HASH_BANDS = 8

/**
 * The side the picture is first brought down to, in a decoding slot of the process (an SVG in its
 * render process): the dHash grid is then made from this small PNG, whatever the original's format.
 */
const PREVIEW_SIDE = 128

/** The dHash grid: 9 columns, so each of the 8 rows gives 8 comparisons of neighbours. */
const GRID_WIDTH = 9
const GRID_HEIGHT = 8

/** Neighbours closer than this (of 255 grey levels) are alike: which one is brighter is noise. */
const DECISIVE_DIFFERENCE = 4

/**
 * A picture with fewer comparisons that decide their bit than this is too plain to compare by shape:
 * one flat colour hashes to 0 whatever the colour, so a red and a blue square would be the same picture,
 * and a library of swatches one group of n² near-duplicates.
 */
export const MIN_DECISIVE_COMPARISONS = 8

/**
 * The 64-bit difference hash (dHash) of an image as it is shown: EXIF orientation applied, first frame,
 * transparency flattened on white, brought to a 9×8 greyscale grid (the aspect ratio is not kept), and
 * bit `8 × row + column` set when a pixel is brighter than its right neighbour. Returned as a signed
 * 64-bit integer, as PostgreSQL's bigint keeps it; null when the picture is too plain to compare
 * (MIN_DECISIVE_COMPARISONS). Throws ImageError when the image cannot be decoded.
 */
export async function perceptualHash(images: ImageProcessor, bytes: Buffer): Promise<bigint | null> {
  const preview = await images.render(bytes, { width: PREVIEW_SIDE, height: PREVIEW_SIDE, fit: 'inside', format: 'png', quality: null, background: null })
  const { data, info } = await sharp(preview.data)
    .flatten({ background: '#ffffff' })
    .resize(GRID_WIDTH, GRID_HEIGHT, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true })
  if (info.channels !== 1 || data.length !== GRID_WIDTH * GRID_HEIGHT) throw new Error(`unexpected dHash grid: ${info.width}×${info.height}×${info.channels}`)
  return decisiveComparisons(data) < MIN_DECISIVE_COMPARISONS ? null : dhashOfGrid(data)
}

/** How many of a 9×8 grid's 64 neighbour comparisons differ by more than DECISIVE_DIFFERENCE. */
export function decisiveComparisons(grid: Uint8Array): number {
  let decisive = 0
  for (let row = 0; row < GRID_HEIGHT; row++) {
    for (let column = 0; column < GRID_WIDTH - 1; column++) {
      if (Math.abs(grid[row * GRID_WIDTH + column]! - grid[row * GRID_WIDTH + column + 1]!) > DECISIVE_DIFFERENCE) decisive++
    }
  }
  return decisive
}

/** The dHash of a 9×8 greyscale grid, row by row (see `perceptualHash`). */
export function dhashOfGrid(grid: Uint8Array): bigint {
  let hash = 0n
  for (let row = 0; row < GRID_HEIGHT; row++) {
    for (let column = 0; column < GRID_WIDTH - 1; column++) {
      const left = grid[row * GRID_WIDTH + column]!
      const right = grid[row * GRID_WIDTH + column + 1]!
      if (left > right) hash |= 1n << BigInt(row * (GRID_WIDTH - 1) + column)
    }
  }
  return BigInt.asIntN(64, hash)
}

/** Bits that differ between two 64-bit hashes (signed or not). */
export function hammingDistance(a: bigint, b: bigint): number {
  let differing = BigInt.asUintN(64, a ^ b)
  let count = 0
  while (differing !== 0n) {
    differing &= differing - 1n
    count++
  }
  return count
}

/** The 8 bands of a hash, band `i` its bits 8i to 8i+7 (the grid's row i), each 0-255. */
export function hashBands(hash: bigint): number[] {
  const unsigned = BigInt.asUintN(64, hash)
  return Array.from({ length: HASH_BANDS }, (_, band) => Number((unsigned >> BigInt(8 * band)) & 0xffn))
}
