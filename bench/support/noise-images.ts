import { randomFillSync } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'

/** ~1 MiB images to push: each differs from every other in a few pixels, so none is a duplicate. */
const TARGET_BYTES = 1024 * 1024

export type Format = 'png' | 'jpeg'

export interface ImageSet {
  format: Format
  width: number
  height: number
  files: string[]
  bytes: { min: number; max: number }
}

/**
 * `count` images of gaussian noise that each differ in a few pixels, sized so that one encodes to about
 * 1 MiB. Noise barely compresses, so a 1 MiB PNG is ~0.5 MP; the JPEG (quality 85) is a ~3 MP photo.
 */
export async function generateImages(dir: string, format: Format, count: number): Promise<ImageSet> {
  const probe = { width: 800, height: 600 }
  const probeBytes = (await encode(format, await noise(probe.width, probe.height), probe.width, probe.height)).length
  const pixels = (TARGET_BYTES / probeBytes) * probe.width * probe.height
  const width = Math.round(Math.sqrt((pixels * 4) / 3))
  const height = Math.round((width * 3) / 4)
  const base = await noise(width, height)
  const sizes: number[] = []
  const files = await mapLimit(
    Array.from({ length: count }, (_, i) => i),
    2,
    async (i) => {
      const pixels = Buffer.from(base)
      randomFillSync(pixels, 0, 8 * 3)
      pixels.writeUInt32BE(i, 0)
      const bytes = await encode(format, pixels, width, height)
      const file = join(dir, `${format}-${i}.${format}`)
      writeFileSync(file, bytes)
      sizes.push(bytes.length)
      return file
    },
  )
  return { format, width, height, files, bytes: { min: Math.min(...sizes), max: Math.max(...sizes) } }
}

/** `count` images of the format in `dir` (made if need be), generated unless an earlier run left as many there. */
export async function imagesIn(dir: string, format: Format, count: number): Promise<ImageSet> {
  mkdirSync(dir, { recursive: true })
  const saved = join(dir, `${format}-set.json`)
  if (existsSync(saved)) {
    const set = JSON.parse(readFileSync(saved, 'utf8')) as ImageSet
    if (set.files.length >= count) return { ...set, files: set.files.slice(0, count) }
  }
  const set = await generateImages(dir, format, count)
  writeFileSync(saved, JSON.stringify(set))
  return set
}

async function noise(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 20 } } })
    .raw()
    .toBuffer()
}

function encode(format: Format, pixels: Buffer, width: number, height: number): Promise<Buffer> {
  const image = sharp(pixels, { raw: { width, height, channels: 3 } })
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 85 }).toBuffer()
}

export async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: limit }, worker))
  return results
}

