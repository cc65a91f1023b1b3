/**
 * A reproducible library for bench/search.ts: asset texts from a small vocabulary, and vectors with the
 * structure of real embeddings in a space of a given dimension (384 for the texts' model, 512 for CLIP
 * ViT-B-32's images), made by the same generator that the bench's embedding provider uses for queries
 * (so a query lands near the assets that share its words).
 *
 * Every word has a fixed random direction (seeded by the word). An asset's vector is the centroid of its
 * topic (theme x subject: 300 clusters, each the sum of its two words plus a direction of its own), plus
 * the directions of its other words (mood, type, client, product, tags, a rare word) at smaller weights,
 * plus gaussian noise, normalised. A query's vector is the normalised sum of its words' directions.
 * The noise has a stream of its own, so the assets' texts are the same in every space.
 */
import { foldText } from '../../src/modules/assets/full-text.js'
import { DEFAULT_ASSET_TYPES } from '../../src/modules/catalog/store.js'
import { mulberry32 } from './synthetic.js'

/** Where the vectors live: `dimensions` long, each word's direction fixed per space. */
export interface VectorSpace {
  dimensions: number
  /** What the bench's embedding provider answers for `text`: the normalised sum of its words' directions. */
  textVector(text: string): number[]
  /** An asset's vector (see the top of this file); `noise` draws its gaussian part. */
  assetVector(asset: AssetWords, noise: () => number): number[]
}

/** The words an asset's vector is made of. */
export interface AssetWords {
  theme: string
  subject: string
  mood: string | undefined
  rare: string | undefined
  asset_type: string | null
  client: string | null
  product: string | null
  tags: string[]
}

/** Weighted: "summer" is in ~11% of titles, "kids" in ~4%. */
export const THEMES: ReadonlyArray<readonly [string, number]> = [
  ['Summer', 11],
  ['Winter', 10],
  ['Holiday', 9],
  ['Spring', 8],
  ['Launch', 8],
  ['Sale', 7],
  ['Autumn', 7],
  ['Brand', 6],
  ['Retro', 6],
  ['Wellness', 5],
  ['Travel', 5],
  ['Sports', 5],
  ['Food', 5],
  ['Tech', 4],
  ['Kids', 4],
]
export const SUBJECTS = [
  'hero', 'banner', 'poster', 'teaser', 'header', 'story', 'thumbnail', 'packshot', 'flyer', 'billboard',
  'newsletter', 'carousel', 'cover', 'badge', 'lookbook', 'storyboard', 'moodboard', 'sticker', 'wallpaper', 'infographic',
]
export const MOODS = ['red', 'blue', 'green', 'pastel', 'neon', 'minimal', 'bold', 'vintage', 'dark', 'playful']
export const CLIENTS = ['Acme', 'Initech', 'Globex', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Enterprises', 'Wonka']
export const PRODUCTS = ['Stapler', 'Widget', 'Rocket Skates', 'Anvil', 'Soda', 'Chocolate Bar', 'Phone', 'Sneakers', 'Coffee', 'Backpack']
export const TAGS = ['red', 'blue', 'green', 'black', 'white', 'summer', 'winter', 'hero', 'social', 'print', 'draft', 'approved', 'v2', 'square', 'portrait', 'landscape']
/** At most one per title; per-mille of titles: "aurora" ~0.5%, "zeppelin" ~0.05%. */
export const RARE_WORDS: ReadonlyArray<readonly [string, number]> = [
  ['aurora', 5],
  ['lighthouse', 3],
  ['flamingo', 2],
  ['origami', 1],
  ['zeppelin', 0.5],
  ['kaleidoscope', 0.3],
]

/** What the hybrid and text runs rotate through: common words, rare words, two-word queries, one with no text match. */
export const QUERIES = [
  'summer', 'acme', 'banner', 'winter', 'hero', 'neon', 'packshot', 'red',
  'aurora', 'lighthouse', 'origami', 'zeppelin',
  'summer poster', 'neon banner', 'holiday packshot', 'acme sticker', 'retro wallpaper', 'pastel lookbook', 'initech flyer', 'winter sale',
  'sunny beach',
]

const WEIGHTS = { cluster: 0.6, mood: 0.5, type: 0.4, client: 0.4, product: 0.4, tag: 0.3, rare: 0.9 }

/** Standard normal (Box-Muller). */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

function hash(text: string): number {
  let h = 2166136261
  for (const char of text) h = Math.imul(h ^ char.codePointAt(0)!, 16777619)
  return h >>> 0
}

/** The folded words of a text: case and accents do not change its vector. */
export function wordsOf(text: string): string[] {
  return foldText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean)
}

function normalise(vector: Float32Array): Float32Array {
  let sum = 0
  for (const value of vector) sum += value * value
  const norm = Math.sqrt(sum) || 1
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm
  return vector
}

const spaces = new Map<number, VectorSpace>()

/** The space of `dimensions` (one per size, its directions cached). */
export function vectorSpace(dimensions: number): VectorSpace {
  let space = spaces.get(dimensions)
  if (!space) {
    space = createSpace(dimensions)
    spaces.set(dimensions, space)
  }
  return space
}

function createSpace(dimensions: number): VectorSpace {
  /** Per dimension, so the noise vector's length is ~0.5 against a signal of length ~1.5 to 2. */
  const noiseSigma = 0.5 / Math.sqrt(dimensions)
  const directions = new Map<string, Float32Array>()

  /** A fixed unit direction per word (or per any key). */
  const direction = (key: string): Float32Array => {
    let vector = directions.get(key)
    if (!vector) {
      const random = mulberry32(hash(key))
      vector = new Float32Array(dimensions)
      for (let i = 0; i < dimensions; i++) vector[i] = gaussian(random)
      normalise(vector)
      directions.set(key, vector)
    }
    return vector
  }

  const add = (target: Float32Array, d: Float32Array, weight: number) => {
    for (let i = 0; i < dimensions; i++) target[i]! += weight * d[i]!
  }

  const addWords = (target: Float32Array, text: string, weight: number): void => {
    const words = wordsOf(text)
    // A phrase counts as much as a word: its words share the weight.
    const each = weight / Math.sqrt(words.length || 1)
    for (const word of words) add(target, direction(word), each)
  }

  return {
    dimensions,
    textVector(text) {
      const vector = new Float32Array(dimensions)
      addWords(vector, text, 1)
      return Array.from(normalise(vector))
    },
    assetVector(asset, noise) {
      const vector = new Float32Array(dimensions)
      addWords(vector, asset.theme, 1)
      addWords(vector, asset.subject, 1)
      add(vector, direction(`#cluster ${asset.theme} ${asset.subject}`), WEIGHTS.cluster)
      if (asset.mood) addWords(vector, asset.mood, WEIGHTS.mood)
      if (asset.rare) addWords(vector, asset.rare, WEIGHTS.rare)
      if (asset.asset_type) addWords(vector, asset.asset_type, WEIGHTS.type)
      if (asset.client) addWords(vector, asset.client, WEIGHTS.client)
      if (asset.product) addWords(vector, asset.product, WEIGHTS.product)
      for (const tag of asset.tags) addWords(vector, tag, WEIGHTS.tag)
      for (let i = 0; i < dimensions; i++) vector[i]! += noiseSigma * gaussian(noise)
      return Array.from(normalise(vector))
    },
  }
}

export interface GeneratedAsset {
  title: string
  asset_type: string | null
  client: string | null
  product: string | null
  /** Sorted as the app lists them (by lower-case name). */
  tags: string[]
  vector: number[]
}

/** The same sequence of assets for the same seed, with their vectors in `space`. */
export function assetGenerator(seed: number, space: VectorSpace): { next(): GeneratedAsset; random: () => number } {
  const random = mulberry32(seed)
  const noise = mulberry32(seed ^ 0x5eed)
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!
  const weighted = <T>(items: ReadonlyArray<readonly [T, number]>, total: number): T | undefined => {
    let r = random() * total
    for (const [item, weight] of items) {
      r -= weight
      if (r < 0) return item
    }
    return undefined
  }
  const themeTotal = THEMES.reduce((sum, [, w]) => sum + w, 0)
  return {
    random,
    next() {
      const theme = weighted(THEMES, themeTotal)!
      const subject = pick(SUBJECTS)
      const mood = random() < 0.6 ? pick(MOODS) : undefined
      const rare = weighted(RARE_WORDS, 1000)
      const asset_type = random() < 0.9 ? pick(DEFAULT_ASSET_TYPES) : null
      const client = random() < 0.95 ? pick(CLIENTS) : null
      const product = random() < 0.8 ? pick(PRODUCTS) : null
      const tagCount = Math.floor(random() * 4)
      const tags = [...new Set(Array.from({ length: tagCount }, () => pick(TAGS)))].sort((a, b) => a.localeCompare(b))
      const title = [theme, mood, subject, rare].filter(Boolean).join(' ')
      const vector = space.assetVector({ theme, subject, mood, rare, asset_type, client, product, tags }, noise)
      return { title, asset_type, client, product, tags, vector }
    },
  }
}

/** `count` query texts of one to three words from the whole vocabulary, for recall. */
export function randomQueries(seed: number, count: number): string[] {
  const random = mulberry32(seed)
  const vocabulary = [
    ...THEMES.map(([w]) => w), ...SUBJECTS, ...MOODS, ...CLIENTS, ...PRODUCTS, ...TAGS, ...RARE_WORDS.map(([w]) => w), ...DEFAULT_ASSET_TYPES,
  ]
  return Array.from({ length: count }, () => {
    const words = 1 + Math.floor(random() * 3)
    return Array.from({ length: words }, () => vocabulary[Math.floor(random() * vocabulary.length)]!).join(' ').toLowerCase()
  })
}

/** A UUIDv7 for `time` whose random part comes from `random`, so ids are reproducible too. */
export function seededUuidv7(time: number, random: () => number): string {
  const bytes = Buffer.alloc(16)
  bytes.writeUIntBE(time, 0, 6)
  for (let i = 6; i < 16; i++) bytes[i] = Math.floor(random() * 256)
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
