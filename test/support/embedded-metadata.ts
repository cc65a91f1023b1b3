import { pngChunk, solid } from './images.js'
/**
 * Hand-made EXIF, IPTC and XMP, put into JPEG and PNG files, for the metadata tests: what a camera or a
 * photo desk writes, and what a hostile file could (a maker note of a megabyte, IPTC that lies about
 * its sizes, XMP with an entity bomb). Built here byte by byte, since no encoder writes the bad ones.
 */

/** One entry of a TIFF IFD. `count` overrides the real one (a file that lies). */
export interface TiffEntry {
  tag: number
  type: 'ascii' | 'short' | 'long' | 'rational' | 'undefined'
  /** ascii: text (Latin-1) or its bytes; short and long: numbers; rational: [numerator, denominator] pairs flattened; undefined: bytes. */
  value: string | number[] | Buffer
  count?: number
}

const TYPE_CODES = { ascii: 2, short: 3, long: 4, rational: 5, undefined: 7 } as const
const TYPE_SIZES = { ascii: 1, short: 2, long: 4, rational: 8, undefined: 1 } as const

export const TAGS = {
  imageDescription: 0x010e,
  make: 0x010f,
  model: 0x0110,
  orientation: 0x0112,
  artist: 0x013b,
  copyright: 0x8298,
  exifIfd: 0x8769,
  gpsIfd: 0x8825,
  dateTimeOriginal: 0x9003,
  offsetTimeOriginal: 0x9011,
  makerNote: 0x927c,
  lensModel: 0xa434,
  gpsLatitudeRef: 0x0001,
  gpsLatitude: 0x0002,
  gpsLongitudeRef: 0x0003,
  gpsLongitude: 0x0004,
  gpsAltitudeRef: 0x0005,
  gpsAltitude: 0x0006,
} as const

function valueBytes(entry: TiffEntry): Buffer {
  const { type, value } = entry
  if (type === 'ascii') return Buffer.concat([Buffer.isBuffer(value) ? value : Buffer.from(value as string, 'latin1'), Buffer.from([0])])
  if (type === 'undefined') return value as Buffer
  const numbers = value as number[]
  const width = type === 'short' ? 2 : 4
  const bytes = Buffer.alloc(numbers.length * width)
  numbers.forEach((number, i) => (width === 2 ? bytes.writeUInt16LE(number, i * 2) : bytes.writeUInt32LE(number, i * 4)))
  return bytes
}

/** A little-endian TIFF structure (what an EXIF block is) with IFD0 and, when given, its EXIF and GPS IFDs. */
export function exifTiff(ifd0: TiffEntry[], exif: TiffEntry[] = [], gps: TiffEntry[] = []): Buffer {
  const ifds: TiffEntry[][] = [[...ifd0]]
  if (exif.length > 0) ifds.push(exif)
  if (gps.length > 0) ifds.push(gps)
  // Pointers first, patched once the offsets are known.
  const pointers: [number, TiffEntry[]][] = []
  if (exif.length > 0) pointers.push([TAGS.exifIfd, exif])
  if (gps.length > 0) pointers.push([TAGS.gpsIfd, gps])
  const pointerEntries = pointers.map(([tag]) => ({ tag, type: 'long' as const, value: [0] }))
  ifds[0]!.push(...pointerEntries)
  const chunks: Buffer[] = []
  const offsets = new Map<TiffEntry[], number>()
  let offset = 8
  const layouts = ifds.map((entries) => {
    entries.sort((a, b) => a.tag - b.tag)
    const start = offset
    offsets.set(entries, start)
    const tableSize = 2 + entries.length * 12 + 4
    let dataOffset = start + tableSize
    const data: Buffer[] = []
    const placed = entries.map((entry) => {
      const bytes = valueBytes(entry)
      if (bytes.length <= 4) return { entry, bytes, at: null }
      const at = dataOffset
      const padded = bytes.length % 2 ? Buffer.concat([bytes, Buffer.alloc(1)]) : bytes
      data.push(padded)
      dataOffset += padded.length
      return { entry, bytes, at }
    })
    offset = dataOffset
    return { entries, start, placed, data }
  })
  for (const [index, [, target]] of pointers.entries()) pointerEntries[index]!.value = [offsets.get(target)!]
  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00])
  chunks.push(header)
  for (const layout of layouts) {
    const table = Buffer.alloc(2 + layout.placed.length * 12 + 4)
    table.writeUInt16LE(layout.placed.length, 0)
    layout.placed.forEach(({ entry, at }, i) => {
      const bytes = valueBytes(entry) // pointers patched above
      const base = 2 + i * 12
      table.writeUInt16LE(entry.tag, base)
      table.writeUInt16LE(TYPE_CODES[entry.type], base + 2)
      table.writeUInt32LE(entry.count ?? bytes.length / TYPE_SIZES[entry.type], base + 4)
      if (at === null) bytes.copy(table, base + 8)
      else table.writeUInt32LE(at, base + 8)
    })
    chunks.push(table, ...layout.data)
  }
  return Buffer.concat(chunks)
}

const ascii = (tag: number, value: string | Buffer): TiffEntry => ({ tag, type: 'ascii', value })

/** What a camera writes: make, model, lens, capture time, orientation; GPS when `gps`. */
export function cameraExif(options: { orientation?: number; gps?: boolean; makerNote?: Buffer; makerNoteCount?: number } = {}): Buffer {
  const ifd0 = [ascii(TAGS.make, 'FUJIFILM'), ascii(TAGS.model, 'X-T5'), ascii(TAGS.artist, 'Dana Reyes'), ascii(TAGS.copyright, '(c) 2026 Initech')]
  if (options.orientation !== undefined) ifd0.push({ tag: TAGS.orientation, type: 'short', value: [options.orientation] })
  const exif = [ascii(TAGS.dateTimeOriginal, '2026:06:14 09:31:05'), ascii(TAGS.offsetTimeOriginal, '+02:00'), ascii(TAGS.lensModel, 'XF23mmF1.4 R LM WR')]
  if (options.makerNote) exif.push({ tag: TAGS.makerNote, type: 'undefined', value: options.makerNote, ...(options.makerNoteCount !== undefined && { count: options.makerNoteCount }) })
  const gps: TiffEntry[] = options.gps
    ? [
        ascii(TAGS.gpsLatitudeRef, 'N'),
        { tag: TAGS.gpsLatitude, type: 'rational', value: [48, 1, 51, 1, 30, 1] },
        ascii(TAGS.gpsLongitudeRef, 'W'),
        { tag: TAGS.gpsLongitude, type: 'rational', value: [2, 1, 21, 1, 0, 1] },
        { tag: TAGS.gpsAltitudeRef, type: 'undefined', value: Buffer.from([0, 0, 0, 0]), count: 1 },
        { tag: TAGS.gpsAltitude, type: 'rational', value: [35, 1] },
      ]
    : []
  return exifTiff(ifd0, exif, gps)
}

/** An IPTC dataset of record 2 (or `record`): the bytes as given (`string`s as UTF-8). */
export interface IptcDataset {
  dataset: number
  value: string | Buffer
  record?: number
  /** The size the dataset claims, when it lies. */
  size?: number
}

/** Photoshop's image resources holding one IPTC block, as an APP13 segment carries them. */
export function iptcResources(datasets: IptcDataset[]): Buffer {
  const iptc = Buffer.concat(
    datasets.map(({ dataset, value, record = 2, size }) => {
      const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8')
      const head = Buffer.from([0x1c, record, dataset, 0, 0])
      head.writeUInt16BE(size ?? bytes.length, 3)
      return Buffer.concat([head, bytes])
    }),
  )
  const resource = Buffer.alloc(12)
  resource.write('8BIM', 0, 'latin1')
  resource.writeUInt16BE(0x0404, 4)
  // An empty name (a zero length, padded to even) and the block's size.
  resource.writeUInt32BE(iptc.length, 8)
  return Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource, iptc, Buffer.alloc(iptc.length % 2)])
}

/** IPTC's "this text is UTF-8" (1:90, ESC % G), which a photo desk's software writes before record 2. */
export const IPTC_UTF8: IptcDataset = { record: 1, dataset: 90, value: Buffer.from([0x1b, 0x25, 0x47]) }

/** An XMP packet with Dublin Core's title, description, creator, rights and subjects, and Photoshop's credit. */
export function xmpPacket(fields: { title?: string; description?: string; creator?: string; rights?: string; credit?: string; subjects?: string[]; doctype?: string }): string {
  const alt = (value: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${value}</rdf:li></rdf:Alt>`
  return [
    fields.doctype ?? '',
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"',
    fields.credit === undefined ? '' : ` photoshop:Credit="${fields.credit}"`,
    '>',
    fields.title === undefined ? '' : `<dc:title>${alt(fields.title)}</dc:title>`,
    fields.description === undefined ? '' : `<dc:description>${alt(fields.description)}</dc:description>`,
    fields.rights === undefined ? '' : `<dc:rights>${alt(fields.rights)}</dc:rights>`,
    fields.creator === undefined ? '' : `<dc:creator><rdf:Seq><rdf:li>${fields.creator}</rdf:li></rdf:Seq></dc:creator>`,
    fields.subjects === undefined ? '' : `<dc:subject><rdf:Bag>${fields.subjects.map((subject) => `<rdf:li>${subject}</rdf:li>`).join('')}</rdf:Bag></dc:subject>`,
    '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
  ].join('')
}

/** The billion laughs: ten entities of ten of the one before, a gigabyte if anything expanded them. */
export function xmpBomb(): string {
  const entities = ['<!ENTITY lol0 "lol">']
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`)
  return xmpPacket({ doctype: `<!DOCTYPE x:xmpmeta [${entities.join('')}]>`, title: '&lol9;', subjects: ['&lol9;'] })
}

export interface Segments {
  exif?: Buffer
  /** An APP13 payload (see `iptcResources`). */
  iptc?: Buffer
  xmp?: string
}

function jpegSegment(marker: number, payload: Buffer): Buffer {
  if (payload.length + 2 > 0xffff) throw new RangeError('a JPEG segment holds at most 65533 bytes')
  const head = Buffer.from([0xff, marker, 0, 0])
  head.writeUInt16BE(payload.length + 2, 2)
  return Buffer.concat([head, payload])
}

let painted = 0

/** A JPEG of `width` × `height` (as stored) with the segments given, right after its start marker; each call's pixels are a new colour. */
export async function jpegWith(segments: Segments, width = 40, height = 20): Promise<Buffer> {
  painted += 1
  const plain = await solid(width, height, `#${(painted * 0x10307).toString(16).padStart(6, '0').slice(-6)}`).jpeg().toBuffer()
  const added: Buffer[] = []
  if (segments.exif) added.push(jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), segments.exif])))
  if (segments.xmp !== undefined) added.push(jpegSegment(0xe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(segments.xmp, 'utf8')])))
  if (segments.iptc) added.push(jpegSegment(0xed, segments.iptc))
  return Buffer.concat([plain.subarray(0, 2), ...added, plain.subarray(2)])
}

/** A PNG with an eXIf chunk holding `exif` (which, unlike a JPEG segment, may be any size), after its header and `emptyChunks` empty private chunks. */
export async function pngWithExif(exif: Buffer, emptyChunks = 0): Promise<Buffer> {
  const plain = await solid(40, 20, '#2980b9').png().toBuffer()
  const afterHeader = 8 + 25
  const padding = Array.from({ length: emptyChunks }, () => pngChunk('prVt', Buffer.alloc(0)))
  return Buffer.concat([plain.subarray(0, afterHeader), ...padding, pngChunk('eXIf', exif), plain.subarray(afterHeader)])
}
