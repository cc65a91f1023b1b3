/**
 * The distances `NEAR_DUPLICATE_DISTANCE` chooses between (issue 36 part 1): the dHash distance of a
 * picture to its re-encodes, resizes and crops, against the distances between different pictures.
 *
 * The corpus: `BENCH_PICTURES` (60) generated scenes (test/support/scenes.ts: a gradient and twelve
 * shapes, 480×360, one seed each) and the two photographs this checkout has (the README's screenshot,
 * docs/screenshots/library.png, and the `sample.jpg` of @fastify/static's tests). Every variant is
 * hashed through `perceptualHash`, as the derivation hashes a push.
 *
 *   npx tsx bench/near-duplicate-thresholds.ts
 */
import { readFileSync } from 'node:fs'
import sharp from 'sharp'
import { ImageProcessor } from '../src/platform/images/images.js'
import { hammingDistance, perceptualHash } from '../src/platform/images/perceptual-hash.js'
import { scenePng } from '../test/support/scenes.js'
import { percentile } from './support/child.js'
import { envNumber } from './support/env.js'

const PICTURES = envNumber('BENCH_PICTURES', 60)
const PHOTOS = ['docs/screenshots/library.png', 'node_modules/@fastify/static/test/static/shallow/sample.jpg']

/** What may happen to a picture between two pushes of it, and what makes another picture of it. */
const VARIANTS: Record<string, (image: Buffer) => Promise<Buffer>> = {
  'JPEG quality 90': (image) => sharp(image).jpeg({ quality: 90 }).toBuffer(),
  'JPEG quality 50': (image) => sharp(image).jpeg({ quality: 50 }).toBuffer(),
  'JPEG quality 20': (image) => sharp(image).jpeg({ quality: 20 }).toBuffer(),
  'WebP quality 75': (image) => sharp(image).webp({ quality: 75 }).toBuffer(),
  'resized to 50%': async (image) => sharp(image).resize(Math.round(((await sharp(image).metadata()).width ?? 2) / 2)).png().toBuffer(),
  'resized to 25%': async (image) => sharp(image).resize(Math.round(((await sharp(image).metadata()).width ?? 4) / 4)).png().toBuffer(),
  'brighter by 10%': (image) => sharp(image).modulate({ brightness: 1.1 }).png().toBuffer(),
  'greyscale': (image) => sharp(image).greyscale().png().toBuffer(),
  'cropped 5% each side': (image) => crop(image, 0.05),
  'cropped 10% each side': (image) => crop(image, 0.1),
  'cropped 20% each side': (image) => crop(image, 0.2),
  'mirrored': (image) => sharp(image).flop().png().toBuffer(),
}

async function crop(image: Buffer, share: number): Promise<Buffer> {
  const { width = 1, height = 1 } = await sharp(image).metadata()
  const left = Math.round(width * share)
  const top = Math.round(height * share)
  return sharp(image).extract({ left, top, width: width - 2 * left, height: height - 2 * top }).png().toBuffer()
}

const images = new ImageProcessor()
/** The hash of a picture of the corpus, every one detailed enough to have one. */
async function hashOf(image: Buffer): Promise<bigint> {
  const hash = await perceptualHash(images, image)
  if (hash === null) throw new Error('a picture of the corpus was found too plain to hash')
  return hash
}
try {
  const corpus = [...(await Promise.all(Array.from({ length: PICTURES }, (_, i) => scenePng(i + 1)))), ...PHOTOS.map((path) => readFileSync(path))]
  const hashes = await Promise.all(corpus.map((image) => hashOf(image)))
  console.log(`${corpus.length} pictures (${PICTURES} generated scenes, ${PHOTOS.length} photographs)\n`)
  console.log('| change | max | p95 | p50 | within 6 |\n|---|---|---|---|---|')
  for (const [name, variant] of Object.entries(VARIANTS)) {
    const distances = await Promise.all(corpus.map(async (image, i) => hammingDistance(hashes[i]!, await hashOf(await variant(image)))))
    const within = distances.filter((distance) => distance <= 6).length
    console.log(`| ${name} | ${Math.max(...distances)} | ${percentile(distances, 95)} | ${percentile(distances, 50)} | ${within}/${distances.length} |`)
  }
  const others: number[] = []
  for (let i = 0; i < hashes.length; i++) for (let j = i + 1; j < hashes.length; j++) others.push(hammingDistance(hashes[i]!, hashes[j]!))
  const closest = Math.min(...others)
  console.log(`\ndifferent pictures (${others.length} pairs): min ${closest}, p1 ${percentile(others, 1)}, p5 ${percentile(others, 5)}, p50 ${percentile(others, 50)}; within 6: ${others.filter((d) => d <= 6).length}, within 10: ${others.filter((d) => d <= 10).length}`)
} finally {
  images.close()
}
