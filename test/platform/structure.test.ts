import { crc32 } from 'node:zlib'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { ImageError } from '../../src/platform/images/image-error.js'
import { inspectImage } from '../../src/platform/images/images.js'
import { checkStructure, type StructuredFormat } from '../../src/platform/images/structure.js'
import { animatedGif, patternNoise } from '../support/images.js'

/** Each format, encoded by sharp from the same noise (a GIF of three frames). */
async function encoded(format: StructuredFormat): Promise<Buffer> {
  if (format === 'gif') return animatedGif(3, 48)
  const image = patternNoise(96, 64)
  if (format === 'jpeg') return image.jpeg({ progressive: true }).toBuffer()
  if (format === 'tiff') return image.tiff({ compression: 'lzw' }).toBuffer()
  return image.toFormat(format).toBuffer()
}

const FORMATS: StructuredFormat[] = ['png', 'jpeg', 'gif', 'webp', 'avif', 'tiff']

/** What checkStructure says of the bytes: `whole`, or the refusal's kind. */
function verdict(format: StructuredFormat, bytes: Buffer): string {
  try {
    checkStructure(format, bytes)
    return 'whole'
  } catch (error) {
    if (!(error instanceof ImageError)) throw error
    return error.kind
  }
}

describe('checkStructure', () => {
  it.each(FORMATS)('passes a whole %s, and one with bytes after its end', async (format) => {
    const bytes = await encoded(format)
    expect(verdict(format, bytes)).toBe('whole')
    // Trailing data is allowed in the formats that end with a marker (a phone's motion photo appends a video).
    if (format === 'png' || format === 'jpeg' || format === 'gif') expect(verdict(format, Buffer.concat([bytes, Buffer.from('trailing')]))).toBe('whole')
  })

  it.each(FORMATS)('refuses a %s cut anywhere after its header', async (format) => {
    const bytes = await encoded(format)
    for (const share of [0.25, 0.5, 0.9, 0.99]) {
      expect(verdict(format, bytes.subarray(0, Math.floor(bytes.length * share))), `cut at ${share}`).toBe('image_truncated')
    }
    expect(verdict(format, bytes.subarray(0, bytes.length - 1)), 'the last byte gone').toBe('image_truncated')
  })

  it('refuses a PNG chunk whose CRC does not match, and names the chunk', async () => {
    const png = Buffer.from(await encoded('png'))
    const idat = png.indexOf('IDAT', 8, 'latin1')
    png[idat + 10] = png[idat + 10]! ^ 0xff
    expect(() => checkStructure('png', png)).toThrow(/IDAT chunk's CRC does not match/)
  })

  it('refuses a PNG chunk that claims more bytes than the file has, though its CRC would pass', async () => {
    const png = Buffer.from(await encoded('png'))
    const idat = png.indexOf('IDAT', 8, 'latin1') - 4
    png.writeUInt32BE(0x7fffffff, idat)
    expect(verdict('png', png)).toBe('image_truncated')
    // A rebuilt PNG with every CRC right passes: the check is of the structure, not the pixels.
    const rebuilt = Buffer.from(await encoded('png'))
    const at = rebuilt.indexOf('IDAT', 8, 'latin1')
    const length = rebuilt.readUInt32BE(at - 4)
    rebuilt[at + 4] = 0x5a
    rebuilt.writeUInt32BE(crc32(rebuilt.subarray(at, at + 4 + length)), at + 4 + length)
    expect(verdict('png', rebuilt)).toBe('whole')
  })

  it('refuses a WebP whose RIFF size is larger than the file, and a chunk past the RIFF size', async () => {
    const webp = Buffer.from(await encoded('webp'))
    const lying = Buffer.from(webp)
    lying.writeUInt32LE(webp.length, 4)
    expect(verdict('webp', lying)).toBe('image_truncated')
    const chunkPast = Buffer.from(webp)
    chunkPast.writeUInt32LE(webp.length, 16)
    expect(verdict('webp', chunkPast)).toBe('image_truncated')
  })

  it('refuses a TIFF whose strip lies outside the file, and an IFD chain that loops', async () => {
    const tiff = await encoded('tiff')
    const ifd = tiff.readUInt32LE(4)
    const looping = Buffer.from(tiff)
    const entries = looping.readUInt16LE(ifd)
    looping.writeUInt32LE(ifd, ifd + 2 + entries * 12)
    expect(() => checkStructure('tiff', looping)).toThrow(/loop/)
    const stripsOutside = Buffer.from(tiff)
    for (let i = 0; i < entries; i++) {
      const entry = ifd + 2 + i * 12
      if (stripsOutside.readUInt16LE(entry) === 279 && stripsOutside.readUInt32LE(entry + 4) === 1) stripsOutside.writeUInt32LE(tiff.length, entry + 8)
    }
    expect(verdict('tiff', stripsOutside)).toBe('image_truncated')
  })

  it('refuses a JPEG with a segment of impossible length, and one cut inside its scan data', async () => {
    const jpeg = Buffer.from(await encoded('jpeg'))
    const broken = Buffer.from(jpeg)
    broken.writeUInt16BE(1, 4)
    expect(verdict('jpeg', broken)).toBe('image_truncated')
    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]))
    expect(verdict('jpeg', jpeg.subarray(0, sos + 40))).toBe('image_truncated')
  })

  it('is what the header check runs: a cut image is refused before sharp reads it', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer()
    await expect(inspectImage(png.subarray(0, png.length - 12))).rejects.toMatchObject({ kind: 'image_truncated' })
    await expect(inspectImage(png)).resolves.toMatchObject({ format: 'png', width: 8, height: 8 })
  })
})
