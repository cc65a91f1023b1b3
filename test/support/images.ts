import { randomBytes } from 'node:crypto'
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { expect } from 'vitest'

/** One colour over the whole image; a colour with `alpha` gives the image an alpha channel. */
export const solid = (width: number, height: number, background: string | { r: number; g: number; b: number; alpha: number } = '#336699') =>
  sharp({ create: { width, height, channels: typeof background === 'string' ? 3 : 4, background } })

/** A PNG of one colour. */
export const solidPng = (width: number, height: number, background?: string) => solid(width, height, background).png().toBuffer()

/** A photo-like picture (640 × 480): mostly `color`, with a band of another across its foot, so no two are the same file. */
export const bandedPicture = (color: string, band = '#777777') =>
  solid(640, 480, color)
    .composite([{ input: { create: { width: 640, height: 60, channels: 3, background: band } }, top: 420, left: 0 }])
    .png()
    .toBuffer()

/** The same noise on every run (a hash of each byte's position), to encode in any format. */
export function patternNoise(width: number, height: number): sharp.Sharp {
  const pixels = Buffer.alloc(width * height * 3)
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.imul(i, 2654435761) >>> 24
  return sharp(pixels, { raw: { width, height, channels: 3 } })
}

/** Grey with gaussian noise: encoded uncompressed, its file is about 3 bytes a pixel (large files that stream in many chunks). */
export const gaussianNoise = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })

/** Hand-made image files for the refusals: decompression bombs a few hundred bytes long. */

/** A PNG chunk: its length, type, data and the CRC of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(8 + body.length)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), 4 + body.length)
  return out
}

/** A valid PNG header declaring any size, followed by a little image data: a few hundred bytes. */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64 * 1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** `count` copies of one solid frame, assembled by hand: encoding 60 MP with sharp takes seconds. */
export async function animatedGif(count: number, side: number): Promise<Buffer> {
  const gif = await solid(side, side).gif().toBuffer()
  const flags = gif[10]!
  const colourTable = flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0
  const blocksStart = 13 + colourTable
  expect(gif.at(-1)).toBe(0x3b) // trailer
  const frame = gif.subarray(blocksStart, gif.length - 1)
  return Buffer.concat([gif.subarray(0, blocksStart), ...Array<Buffer>(count).fill(frame), Buffer.from([0x3b])])
}

let drawn = 0

/** A PNG whose bytes no earlier call in this process made: each call paints the next of 16.7 million colours. */
export function uniquePng(width = 16, height = 16): Promise<Buffer> {
  drawn += 1
  return solid(width, height, `#${drawn.toString(16).padStart(6, '0')}`).png().toBuffer()
}

/** Random noise, so every call gives new bytes that barely compress (~120 KB at 200 px). */
export const noisePng = (side = 300) => sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()

/**
 * A PNG whose structure is whole (every chunk inside the file with its CRC, up to IEND) but whose pixel
 * data is not zlib: it passes the push's checks, and its decode fails. Random data, so each is new bytes.
 */
export async function undecodablePng(): Promise<Buffer> {
  const png = Buffer.from(await noisePng(64))
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset)
    if (png.toString('latin1', offset + 4, offset + 8) === 'IDAT') {
      randomBytes(length).copy(png, offset + 8)
      png[offset + 8] = 0x5a // not deflate (compression method 10): the zlib header is refused at once
      png.writeUInt32BE(crc32(png.subarray(offset + 4, offset + 8 + length)), offset + 8 + length)
    }
    offset += 12 + length
  }
  return png
}

/** Noise cut in half: the push refuses it (`image_truncated`). */
export async function truncatedPng(): Promise<Buffer> {
  const whole = await noisePng()
  return whole.subarray(0, whole.length >> 1)
}
