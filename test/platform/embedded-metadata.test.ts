import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { inspectImage } from '../../src/platform/images/images.js'
import { readEmbeddedMetadata, readEmbeddedText, readOrientedSize } from '../../src/platform/images/embedded-metadata.js'
import { cameraExif, IPTC_UTF8, iptcResources, jpegWith, pngWithExif, xmpBomb, xmpPacket } from '../support/embedded-metadata.js'
import { solid } from '../support/images.js'

const hidden = { exposeGps: false }
const exposed = { exposeGps: true }

describe('readEmbeddedMetadata', () => {
  it('reads what a camera and a photo desk write: EXIF, IPTC and XMP', async () => {
    const bytes = await jpegWith({
      exif: cameraExif({ gps: true }),
      iptc: iptcResources([
        { dataset: 80, value: 'IPTC Byline' },
        { dataset: 110, value: 'Dana Reyes / Initech' },
        { dataset: 25, value: 'summer' },
        { dataset: 25, value: 'towel' },
      ]),
      xmp: xmpPacket({ title: 'Summer campaign hero', description: 'Stapler &amp; towel', creator: 'Dana Reyes', rights: '© 2026 Initech', subjects: ['summer', 'beach'] }),
    })
    expect(await readEmbeddedMetadata(bytes, 'image/jpeg', hidden)).toEqual({
      captured_at: '2026-06-14T09:31:05+02:00',
      camera_make: 'FUJIFILM',
      camera_model: 'X-T5',
      lens: 'XF23mmF1.4 R LM WR',
      creator: 'Dana Reyes',
      copyright: '© 2026 Initech',
      credit: 'Dana Reyes / Initech',
      title: 'Summer campaign hero',
      description: 'Stapler & towel',
      // XMP's first, then IPTC's not already there, one of each.
      keywords: ['summer', 'beach', 'towel'],
      gps: null,
    })
  })

  it('reads GPS only when the instance exposes it', async () => {
    const bytes = await jpegWith({ exif: cameraExif({ gps: true }) })
    expect((await readEmbeddedMetadata(bytes, 'image/jpeg', hidden)).gps).toBeNull()
    const { gps } = await readEmbeddedMetadata(bytes, 'image/jpeg', exposed)
    expect(gps).toEqual({ latitude: expect.closeTo(48.858333, 5), longitude: expect.closeTo(-2.35, 5), altitude: 35 })
  })

  it('takes EXIF fields when the file has no IPTC or XMP', async () => {
    const metadata = await readEmbeddedMetadata(await jpegWith({ exif: cameraExif() }), 'image/jpeg', hidden)
    expect(metadata).toMatchObject({ creator: 'Dana Reyes', copyright: '(c) 2026 Initech', title: null, description: null, keywords: [] })
  })

  it('reads nothing from a file without metadata, or a format exifr does not know', async () => {
    const empty = { captured_at: null, camera_make: null, camera_model: null, lens: null, creator: null, copyright: null, credit: null, title: null, description: null, keywords: [], gps: null }
    expect(await readEmbeddedMetadata(await solid(8, 8).jpeg().toBuffer(), 'image/jpeg', hidden)).toEqual(empty)
    expect(await readEmbeddedMetadata(await solid(8, 8).webp().toBuffer(), 'image/webp', hidden)).toEqual(empty)
    expect(await readEmbeddedMetadata(await solid(8, 8).gif().toBuffer(), 'image/gif', hidden)).toEqual(empty)
  })

  it('skips a 1 MB maker note, and one whose size lies', async () => {
    const png = await pngWithExif(cameraExif({ makerNote: Buffer.alloc(1024 * 1024, 0xa5) }))
    expect(png.length).toBeGreaterThan(1024 * 1024)
    const inPng = await readEmbeddedMetadata(png, 'image/png', hidden)
    expect(inPng).toMatchObject({ camera_make: 'FUJIFILM', lens: 'XF23mmF1.4 R LM WR', captured_at: '2026-06-14T09:31:05+02:00' })
    expect(JSON.stringify(inPng).length).toBeLessThan(1000)
    // In a JPEG, whose segments hold 64 KiB, a maker note can only claim a megabyte.
    const lying = await jpegWith({ exif: cameraExif({ makerNote: Buffer.alloc(64, 0xa5), makerNoteCount: 1024 * 1024 }) })
    expect(await readEmbeddedMetadata(lying, 'image/jpeg', hidden)).toMatchObject({ camera_make: 'FUJIFILM', camera_model: 'X-T5' })
  })

  it('does not read a PNG with more chunks before its image data than a real one has, nor an AVIF of too many boxes', async () => {
    expect(await readEmbeddedMetadata(await pngWithExif(cameraExif(), 10), 'image/png', hidden)).toMatchObject({ camera_make: 'FUJIFILM' })
    const padded = await pngWithExif(cameraExif(), 10_000)
    expect(await inspectImage(padded)).toMatchObject({ width: 40, height: 20 })
    expect(await readEmbeddedMetadata(padded, 'image/png', hidden)).toMatchObject({ camera_make: null })
    const avif = await solid(16, 16).avif().withExif({ IFD0: { Make: 'FUJIFILM' } }).toBuffer()
    const boxes = Buffer.concat([avif, ...Array.from({ length: 10_000 }, () => Buffer.from([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65]))])
    expect(await readEmbeddedMetadata(boxes, 'image/avif', hidden)).toMatchObject({ camera_make: null, keywords: [] })
  })

  it('keeps the rest of a file whose IPTC is malformed', async () => {
    const cases = [
      // A dataset claiming more bytes than the block holds.
      iptcResources([{ dataset: 25, value: 'short', size: 60_000 }]),
      // Not IPTC at all after the resource header.
      iptcResources([]).fill(0xff, 26),
      // A resource block whose own size runs past the segment.
      (() => {
        const block = iptcResources([{ dataset: 25, value: 'x' }])
        block.writeUInt32BE(0x7fffffff, 22)
        return block
      })(),
    ]
    for (const iptc of cases) {
      const bytes = await jpegWith({ exif: cameraExif(), iptc, xmp: xmpPacket({ title: 'Still here' }) })
      const metadata = await readEmbeddedMetadata(bytes, 'image/jpeg', hidden)
      expect(metadata).toMatchObject({ camera_make: 'FUJIFILM', title: 'Still here', credit: null })
      for (const keyword of metadata.keywords) expect(keyword.length).toBeLessThanOrEqual(100)
      // The image itself is as readable as ever.
      expect(await inspectImage(bytes)).toMatchObject({ width: 40, height: 20 })
    }
  })

  it('ignores XMP that carries an XML bomb, never expanding it', async () => {
    const bytes = await jpegWith({ exif: cameraExif(), xmp: xmpBomb() })
    const metadata = await readEmbeddedMetadata(bytes, 'image/jpeg', hidden)
    expect(metadata).toMatchObject({ camera_make: 'FUJIFILM', title: null, keywords: [] })
    expect(JSON.stringify(metadata)).not.toContain('lol')
  })

  it.each([
    ['unclosed elements', '<a:b>'.repeat(12_000)],
    ['elements nested 5,000 deep', `${'<a:b>'.repeat(5000)}${'</a:b>'.repeat(5000)}`],
    ['5,000 elements', '<a:b>x</a:b>'.repeat(5000)],
  ])('ignores XMP made of %s, which would cost exifr’s regular expressions dearly', async (_shape, hostile) => {
    const packet = xmpPacket({ title: 'Ignored' }).replace('<dc:title>', `${hostile}<dc:title>`)
    expect(packet.length).toBeLessThan(65_000)
    const metadata = await readEmbeddedMetadata(await jpegWith({ exif: cameraExif(), xmp: packet }), 'image/jpeg', hidden)
    expect(metadata).toMatchObject({ camera_make: 'FUJIFILM', title: null })
  })

  it('leaves an unknown entity as written in XMP without a DTD', async () => {
    const bytes = await jpegWith({ xmp: xmpPacket({ title: 'A &lol9; B &#233;' }) })
    expect((await readEmbeddedMetadata(bytes, 'image/jpeg', hidden)).title).toBe('A &lol9; B é')
  })

  it('reads IPTC keywords in Latin-1, and in UTF-8 when the file says so', async () => {
    const latin1 = await jpegWith({ iptc: iptcResources([{ dataset: 25, value: Buffer.from('café', 'latin1') }, { dataset: 25, value: Buffer.from('Zürich', 'latin1') }]) })
    expect((await readEmbeddedMetadata(latin1, 'image/jpeg', hidden)).keywords).toEqual(['café', 'Zürich'])
    const utf8 = await jpegWith({ iptc: iptcResources([IPTC_UTF8, { dataset: 25, value: 'café' }, { dataset: 25, value: '東京' }, { dataset: 5, value: 'Crème brûlée' }]) })
    const metadata = await readEmbeddedMetadata(utf8, 'image/jpeg', hidden)
    expect(metadata.keywords).toEqual(['café', '東京'])
    expect(metadata.title).toBe('Crème brûlée')
  })

  it('trims keywords 10,000 characters long to a tag, and keeps at most 100 of them', async () => {
    const long = 'k'.repeat(10_000)
    const subjects = [long, ...Array.from({ length: 150 }, (_, i) => `keyword ${i}`)]
    // In XMP (a JPEG segment holds 64 KiB: the long one and the 150 short ones) and in IPTC.
    const bytes = await jpegWith({ xmp: xmpPacket({ subjects, title: 't'.repeat(10_000) }), iptc: iptcResources([{ dataset: 25, value: `${'i'.repeat(10_000)}` }]) })
    const { keywords, title } = await readEmbeddedMetadata(bytes, 'image/jpeg', hidden)
    expect(keywords).toHaveLength(100)
    expect(keywords[0]).toBe('k'.repeat(100))
    expect(keywords.every((keyword) => keyword.length >= 1 && keyword.length <= 100)).toBe(true)
    expect(title).toHaveLength(500)
  })

  it('keeps nothing of a file once read (exifr keeps every options object it is given)', async () => {
    setFlagsFromString('--expose-gc')
    const collectGarbage = runInNewContext('gc') as () => void
    const bytes = await jpegWith({ exif: cameraExif({ gps: true }), xmp: xmpPacket({ title: 'Summer campaign hero' }) })
    const heapAfterReads = async (reads: number) => {
      for (let i = 0; i < reads; i++) await readEmbeddedMetadata(bytes, 'image/jpeg', i % 2 === 0 ? hidden : exposed)
      collectGarbage()
      return process.memoryUsage().heapUsed
    }
    const before = await heapAfterReads(100)
    // An options object per read kept ~7 KB each: 14 MB here.
    expect((await heapAfterReads(2_000)) - before).toBeLessThan(5 * 1024 * 1024)
  })

  it('gives a push the title, description and keywords', async () => {
    const bytes = await jpegWith({ exif: cameraExif(), xmp: xmpPacket({ title: 'Hero', description: 'On the beach', subjects: ['summer'] }) })
    expect(await readEmbeddedText(bytes, 'image/jpeg')).toEqual({ title: 'Hero', description: 'On the beach', keywords: ['summer'] })
  })
})

describe('readOrientedSize', () => {
  it('gives the sides as shown after the EXIF orientation', async () => {
    const stored = await solid(40, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer()
    expect(await readOrientedSize(stored)).toEqual({ orientation: 6, width: 20, height: 40 })
    expect(await readOrientedSize(await solid(40, 20).jpeg().toBuffer())).toEqual({ orientation: null, width: 40, height: 20 })
    expect(await readOrientedSize(Buffer.from('not an image'))).toBeNull()
  })

  it('agrees with the thumbnail, which is turned', async () => {
    const stored = await solid(40, 20).jpeg().withMetadata({ orientation: 8 }).toBuffer()
    const turned = await sharp(stored).autoOrient().toBuffer({ resolveWithObject: true })
    expect(await readOrientedSize(stored)).toMatchObject({ width: turned.info.width, height: turned.info.height })
  })
})
