import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ImageError, ImageProcessor, inspectImage, makeThumbnail, processImage, type ImageErrorKind } from '../../src/platform/images/images.js'

import { animatedGif, patternNoise, pngDeclaring, solid, undecodablePng } from '../support/images.js'

async function refusal(work: Promise<unknown>): Promise<ImageErrorKind> {
  const error = await work.then(
    () => expect.fail('the image was accepted'),
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ImageError)
  return (error as ImageError).kind
}

describe('inspectImage', () => {
  const formats = [
    ['jpeg', 'image/jpeg', (s: sharp.Sharp) => s.jpeg()],
    ['png', 'image/png', (s: sharp.Sharp) => s.png()],
    ['webp', 'image/webp', (s: sharp.Sharp) => s.webp()],
    ['gif', 'image/gif', (s: sharp.Sharp) => s.gif()],
    ['avif', 'image/avif', (s: sharp.Sharp) => s.avif()],
    ['tiff', 'image/tiff', (s: sharp.Sharp) => s.tiff()],
  ] as const

  it.each(formats)('accepts %s with its real size and MIME type, and thumbnails it', async (format, mimeType, encode) => {
    const bytes = await encode(solid(40, 30)).toBuffer()
    expect(await inspectImage(bytes)).toEqual({ format, mimeType, width: 40, height: 30 })
    const { info, thumbnail } = await processImage(bytes)
    expect(info.format).toBe(format)
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 40, height: 30 })
  })

  it('reports frames of an animated image', async () => {
    const bytes = await animatedGif(3, 50)
    expect(await inspectImage(bytes)).toEqual({ format: 'gif', mimeType: 'image/gif', width: 50, height: 50, frames: 3 })
    const thumbnail = await makeThumbnail(bytes)
    const meta = await sharp(thumbnail).metadata()
    expect([meta.width, meta.height, meta.pages ?? 1]).toEqual([50, 50, 1])
  })

  it('refuses a text file whatever it is called', async () => {
    const text = Buffer.from('This is not an image, even if the upload was called logo.png.\n')
    expect(await refusal(inspectImage(text))).toBe('not_an_image')
    expect(await refusal(processImage(text))).toBe('not_an_image')
  })

  it.each([
    ['empty', Buffer.alloc(0)],
    ['PDF', Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')],
    ['raw pixels', Buffer.alloc(300, 0x7f)],
  ])('refuses %s as not an image', async (_name, bytes) => {
    expect(await refusal(processImage(bytes))).toBe('not_an_image')
  })

  it('refuses a truncated PNG or JPEG before decoding: its structure ends early', async () => {
    for (const encoded of [await patternNoise(300, 300).png().toBuffer(), await patternNoise(300, 300).jpeg().toBuffer()]) {
      const truncated = encoded.subarray(0, encoded.length / 2)
      expect(await refusal(processImage(truncated))).toBe('image_truncated')
    }
    // A PNG signature and nothing else is a PNG cut short too.
    expect(await refusal(processImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])))).toBe('image_truncated')
  })

  it('refuses a whole PNG whose pixel data cannot be decoded, when decoding', async () => {
    expect(await refusal(processImage(await undecodablePng()))).toBe('not_an_image')
  })

  it('refuses HEIC (sharp has no HEVC decoder), recognised from its brands', async () => {
    const avif = await solid(16, 16).avif().toBuffer()
    const heic = Buffer.from(avif)
    for (let at = 8; at < heic.readUInt32BE(0); at += 4) {
      if (/avi[fs]/.test(heic.toString('latin1', at, at + 4))) heic.write('heic', at, 'latin1')
    }
    expect(await refusal(processImage(heic))).toBe('unsupported_format')
  })

  it('refuses a tiny PNG declaring 50000x50000 quickly, without allocating its pixels', async () => {
    const bomb = pngDeclaring(50_000, 50_000)
    expect(bomb.length).toBeLessThan(1024)
    const rssBefore = process.memoryUsage().rss
    const started = performance.now()
    expect(await refusal(inspectImage(bomb))).toBe('too_many_pixels')
    expect(await refusal(new ImageProcessor().process(bomb))).toBe('too_many_pixels')
    expect(performance.now() - started).toBeLessThan(500)
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(50 * 1024 * 1024)
  })

  it('counts every frame: 60 frames of 1000x1000 are 60 MP', async () => {
    const gif = await animatedGif(60, 1000)
    expect(gif.length).toBeLessThan(200 * 1024)
    expect(await refusal(processImage(gif))).toBe('too_many_pixels')
    expect((await inspectImage(await animatedGif(40, 1000))).frames).toBe(40)
  })

  it('applies the configured pixel limit to the decode too', async () => {
    const bytes = await solid(200, 100).png().toBuffer()
    expect(await refusal(processImage(bytes, { maxPixels: 19_999 }))).toBe('too_many_pixels')
    expect((await processImage(bytes, { maxPixels: 20_000 })).info.width).toBe(200)
  })
})

describe('SVG with references or entities is refused by the sanitizer, before anything renders it', () => {
  let hits: string[]
  let origin: string
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    res.end('<rect width="100" height="100" fill="black"/>')
  })
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('refuses SVG with external references and entities without fetching anything', async () => {
    hits = []
    const svgs: Array<[ImageErrorKind, string]> = [
      ['svg_external_reference', `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><image href="${origin}/image.png" width="100" height="100"/></svg>`],
      ['svg_entity', `<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY xxe SYSTEM "${origin}/entity"><!ENTITY file SYSTEM "file:///etc/passwd">]>\n` +
        `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">&xxe;<text>&file;</text></svg>`],
      ['svg_entity', `\ufeff<!DOCTYPE svg SYSTEM "${origin}/dtd"><svg xmlns="http://www.w3.org/2000/svg"><style>@import url("${origin}/css");</style></svg>`],
      ['svg_external_reference', `<svg xmlns="http://www.w3.org/2000/svg"><style>@import url("${origin}/css");</style></svg>`],
    ]
    const processor = new ImageProcessor()
    for (const [kind, svg] of svgs) {
      const bytes = Buffer.from(svg)
      expect(await refusal(inspectImage(bytes))).toBe(kind)
      expect(await refusal(processor.process(bytes))).toBe(kind)
    }
    processor.close()
    // A fetch the decoder made would be made while decoding, before its refusal: once the server has
    // answered a request sent after the refusals, it has taken in any such fetch.
    expect((await fetch(`${origin}/after-the-refusals`)).status).toBe(200)
    expect(hits).toEqual(['/after-the-refusals'])
  })
})

describe('thumbnails', () => {
  it('keeps nothing in libvips.s operation cache: every file is another, so it only held memory', async () => {
    await makeThumbnail(await solid(300, 200).png().toBuffer())
    await makeThumbnail(await solid(300, 200).png().toBuffer())
    expect(sharp.cache()).toMatchObject({ memory: { current: 0, max: 0 }, items: { current: 0, max: 0 }, files: { max: 0 } })
  })

  it('fits a 2000x1000 image into 512x256 WebP', async () => {
    const thumbnail = await makeThumbnail(await solid(2000, 1000).jpeg().toBuffer())
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 512, height: 256 })
  })

  it('never upscales', async () => {
    const thumbnail = await makeThumbnail(await solid(100, 50).png().toBuffer())
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 100, height: 50 })
  })

  it('applies EXIF orientation and keeps no metadata', async () => {
    // Stored 200x100, red on the left; orientation 6 shows the left edge at the top.
    const pixels = await sharp({ create: { width: 200, height: 100, channels: 3, background: 'blue' } })
      .composite([{ input: { create: { width: 100, height: 100, channels: 3, background: 'red' } }, left: 0, top: 0 }])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer()
    expect((await sharp(pixels).metadata()).orientation).toBe(6)
    expect(await inspectImage(pixels)).toMatchObject({ width: 100, height: 200 })

    const thumbnail = await makeThumbnail(pixels)
    const meta = await sharp(thumbnail).metadata()
    expect(meta).toMatchObject({ width: 100, height: 200 })
    expect(meta.exif).toBeUndefined()
    expect(meta.orientation).toBeUndefined()
    const { data } = await sharp(thumbnail).raw().toBuffer({ resolveWithObject: true })
    const pixel = (x: number, y: number) => [...data.subarray((y * 100 + x) * 3, (y * 100 + x) * 3 + 3)]
    expect(pixel(50, 10)[0]).toBeGreaterThan(200) // red at the top
    expect(pixel(50, 190)[2]).toBeGreaterThan(200) // blue at the bottom
  })

  it('strips EXIF and GPS metadata', async () => {
    const tagged = await solid(64, 64)
      .jpeg()
      .withExif({ IFD0: { Copyright: 'secret', ImageDescription: 'at home' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer()
    expect((await sharp(tagged).metadata()).exif).toBeDefined()
    const thumbnail = await makeThumbnail(tagged)
    expect((await sharp(thumbnail).metadata()).exif).toBeUndefined()
    expect(thumbnail.includes('secret')).toBe(false)
  })
})

describe('ImageProcessor', () => {
  it('decodes at most maxConcurrent images at once and serves the rest in turn', async () => {
    const processor = new ImageProcessor({ maxConcurrent: 2 })
    const bytes = await patternNoise(1500, 1500).png().toBuffer()
    let maxActive = 0
    let maxWaiting = 0
    let done = false
    const probe = (async () => {
      while (!done) {
        maxActive = Math.max(maxActive, processor.active)
        maxWaiting = Math.max(maxWaiting, processor.waiting)
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const results = await Promise.all(Array.from({ length: 6 }, () => processor.process(bytes)))
    done = true
    await probe
    expect(results.map((r) => r.info.width)).toEqual([1500, 1500, 1500, 1500, 1500, 1500])
    expect(maxActive).toBe(2)
    expect(maxWaiting).toBe(4)
    expect([processor.active, processor.waiting]).toEqual([0, 0])
  })

  it('gives the slot back when an image is refused', async () => {
    const processor = new ImageProcessor({ maxConcurrent: 1 })
    const broken = (await patternNoise(300, 300).png().toBuffer()).subarray(0, 2000)
    const fine = await solid(10, 10).png().toBuffer()
    const outcomes = await Promise.allSettled([processor.process(broken), processor.process(broken), processor.thumbnail(fine)])
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled'])
    expect([processor.active, processor.waiting]).toEqual([0, 0])
  })

  it('uses its own limits', async () => {
    const processor = new ImageProcessor({ maxPixels: 1_000_000, thumbnailSize: 64 })
    expect(await refusal(processor.inspect(pngDeclaring(1001, 1000)))).toBe('too_many_pixels')
    const { thumbnail } = await processor.process(await solid(200, 100).png().toBuffer())
    expect(await sharp(thumbnail).metadata()).toMatchObject({ width: 64, height: 32 })
  })

  it('rejects a nonsensical concurrency', () => {
    expect(() => new ImageProcessor({ maxConcurrent: 0 })).toThrow(RangeError)
  })
})
