import sharp from 'sharp'
import type { PaletteColor } from '../db/schema.js'
import { distanceSquared, hexOf, labOf, type Lab } from './cielab.js'
import { nearestColorName, type ColorName } from './color-names.js'
import type { RenderOptions } from './images.js'

/** An image's dominant colours, most used first, and the names a `color=` filter finds it by. */
export interface Palette {
  colors: PaletteColor[]
  names: ColorName[]
}

/**
 * The sample a palette is read from: the image (its first frame, orientation applied, an SVG rendered
 * out of process) at most 100 px a side, alpha kept. Ten thousand pixels find the colours that cover
 * 1% of an image; decoding at that size costs a fraction of a thumbnail. Nearest-neighbour sampling
 * keeps the image's own pixels: a smooth resize would blend every edge into colours of its own (the
 * edge of a red band on white, 1% of the sample, would be a pink).
 */
export const PALETTE_SAMPLE: RenderOptions = { width: 100, height: 100, fit: 'inside', format: 'png', quality: null, background: null, kernel: 'nearest' }

export const MAX_PALETTE_COLORS = 6
/** Clusters sought before the close ones are merged: a few more than kept, so a small distinct colour is not swallowed by a large one. */
const CLUSTERS = 8
const ITERATIONS = 16
/** Clusters closer than this (CIE76) are one colour to the eye: a shade and its anti-aliased edge. */
const MERGE_DISTANCE = 12
/** A colour covering less of the opaque pixels is noise, not part of the palette. */
const MIN_COLOR_SHARE = 0.01
/**
 * A name is given to the image (`color_names`, what `color=` finds) when its colours cover at least
 * this share of the opaque pixels: a logo's 5% accent counts, a photo's stray reflections do not.
 */
export const MIN_NAME_SHARE = 0.05
/** Pixels at least this opaque count; fainter ones (shadows, soft edges) are mostly what lies behind. */
const MIN_ALPHA = 128

/** Reads the palette of a sample (PALETTE_SAMPLE), whatever its depth and colour space. */
export async function paletteOfSample(sample: Buffer): Promise<Palette> {
  const { data } = await sharp(sample).toColourspace('srgb').ensureAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true })
  return paletteOfPixels(data)
}

interface WeightedColor {
  lab: Lab
  weight: number
}

/** The palette of 8-bit sRGB pixels with alpha (RGBA, row after row). */
export function paletteOfPixels(rgba: Uint8Array): Palette {
  const { points, opaque } = histogram(rgba)
  if (opaque === 0) return { colors: [], names: [] }
  const clusters = merged(kMeans(points, Math.min(CLUSTERS, points.length)))
  const colors = clusters
    .map((cluster) => ({ cluster, share: cluster.weight / opaque }))
    .filter(({ share }) => share >= MIN_COLOR_SHARE)
    .sort((first, second) => second.share - first.share)
    .slice(0, MAX_PALETTE_COLORS)
    .map(({ cluster, share }) => ({ hex: hexOf(cluster.lab), share: Math.round(share * 10_000) / 10_000, name: nearestColorName(cluster.lab) }))
  return { colors, names: namesOf(colors) }
}

/**
 * The opaque pixels in buckets of 5 bits a channel (at most 32,768), each with the mean of its own
 * pixels in CIELAB: clustering buckets rather than pixels makes the cost independent of flat areas.
 */
function histogram(rgba: Uint8Array): { points: WeightedColor[]; opaque: number } {
  const buckets = new Map<number, { l: number; a: number; b: number; weight: number }>()
  let opaque = 0
  for (let offset = 0; offset + 3 < rgba.length; offset += 4) {
    if (rgba[offset + 3]! < MIN_ALPHA) continue
    const red = rgba[offset]!
    const green = rgba[offset + 1]!
    const blue = rgba[offset + 2]!
    const key = ((red >> 3) << 10) | ((green >> 3) << 5) | (blue >> 3)
    const lab = labOf(red, green, blue)
    const bucket = buckets.get(key)
    if (bucket) {
      bucket.l += lab.l
      bucket.a += lab.a
      bucket.b += lab.b
      bucket.weight++
    } else {
      buckets.set(key, { ...lab, weight: 1 })
    }
    opaque++
  }
  const points = [...buckets.values()].map(({ l, a, b, weight }) => ({ lab: { l: l / weight, a: a / weight, b: b / weight }, weight }))
  return { points, opaque }
}

/**
 * Weighted k-means in CIELAB, seeded deterministically (the same image always gives the same palette):
 * the heaviest bucket first, then each time the bucket that is heaviest for its distance to the seeds.
 */
function kMeans(points: WeightedColor[], count: number): WeightedColor[] {
  let centres = seeds(points, count)
  const assignment = new Int32Array(points.length).fill(-1)
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    let moved = false
    points.forEach((point, index) => {
      const nearest = nearestIndex(point.lab, centres)
      if (nearest !== assignment[index]) {
        assignment[index] = nearest
        moved = true
      }
    })
    centres = meansOf(points, assignment, centres.length)
    if (!moved) break
  }
  return centres.filter((centre) => centre.weight > 0)
}

function seeds(points: WeightedColor[], count: number): WeightedColor[] {
  const chosen = [points.reduce((heaviest, point) => (point.weight > heaviest.weight ? point : heaviest))]
  const nearestDistance = points.map((point) => distanceSquared(point.lab, chosen[0]!.lab))
  while (chosen.length < count) {
    let best = -1
    let bestScore = 0
    points.forEach((point, index) => {
      const score = point.weight * nearestDistance[index]!
      if (score > bestScore) {
        best = index
        bestScore = score
      }
    })
    if (best === -1) break
    const seed = points[best]!
    chosen.push(seed)
    points.forEach((point, index) => {
      nearestDistance[index] = Math.min(nearestDistance[index]!, distanceSquared(point.lab, seed.lab))
    })
  }
  return chosen
}

function nearestIndex(lab: Lab, centres: WeightedColor[]): number {
  let nearest = 0
  let nearestDistance = Infinity
  centres.forEach((centre, index) => {
    const distance = distanceSquared(lab, centre.lab)
    if (distance < nearestDistance) {
      nearest = index
      nearestDistance = distance
    }
  })
  return nearest
}

/** The weighted mean of each cluster's points, in one pass. */
function meansOf(points: WeightedColor[], assignment: Int32Array, count: number): WeightedColor[] {
  const sums = Array.from({ length: count }, () => ({ l: 0, a: 0, b: 0, weight: 0 }))
  points.forEach((point, index) => {
    const sum = sums[assignment[index]!]!
    sum.l += point.lab.l * point.weight
    sum.a += point.lab.a * point.weight
    sum.b += point.lab.b * point.weight
    sum.weight += point.weight
  })
  return sums.map(({ l, a, b, weight }) => (weight === 0 ? { lab: { l: 0, a: 0, b: 0 }, weight: 0 } : { lab: { l: l / weight, a: a / weight, b: b / weight }, weight }))
}

function meanOf(members: WeightedColor[]): WeightedColor {
  const weight = members.reduce((sum, member) => sum + member.weight, 0)
  if (weight === 0) return { lab: { l: 0, a: 0, b: 0 }, weight: 0 }
  const mean = (channel: keyof Lab) => members.reduce((sum, member) => sum + member.lab[channel] * member.weight, 0) / weight
  return { lab: { l: mean('l'), a: mean('a'), b: mean('b') }, weight }
}

/** Merges the two closest clusters while they are closer than MERGE_DISTANCE. */
function merged(clusters: WeightedColor[]): WeightedColor[] {
  const remaining = [...clusters]
  for (;;) {
    let pair: [number, number] | undefined
    let pairDistance = MERGE_DISTANCE ** 2
    for (let first = 0; first < remaining.length; first++) {
      for (let second = first + 1; second < remaining.length; second++) {
        const distance = distanceSquared(remaining[first]!.lab, remaining[second]!.lab)
        if (distance < pairDistance) {
          pair = [first, second]
          pairDistance = distance
        }
      }
    }
    if (!pair) return remaining
    const [first, second] = pair
    remaining[first] = meanOf([remaining[first]!, remaining[second]!])
    remaining.splice(second, 1)
  }
}

/** The names whose colours together cover MIN_NAME_SHARE of the opaque pixels, most used first. */
function namesOf(colors: PaletteColor[]): ColorName[] {
  const shares = new Map<ColorName, number>()
  for (const color of colors) shares.set(color.name, (shares.get(color.name) ?? 0) + color.share)
  return [...shares]
    .filter(([, share]) => share >= MIN_NAME_SHARE)
    .sort((first, second) => second[1] - first[1])
    .map(([name]) => name)
}
