import exifr from 'exifr'
import sharp from 'sharp'
import type { EmbeddedMetadata } from '../db/schema.js'

/**
 * What a file's embedded EXIF, IPTC and XMP say (issue 36), read with exifr from JPEG, PNG, TIFF and
 * AVIF (the formats it knows; WebP, GIF and SVG carry none it reads). Nothing here trusts the file:
 * - maker notes and user comments are never read (a camera's maker note can be a megabyte of anything);
 * - a segment exifr cannot parse (malformed IPTC) is left out, the others are kept;
 * - an XMP packet with a DTD is ignored whole: XMP forbids DTDs, and only an entity bomb would bring
 *   one. exifr never expands entities anyway; only XML's five and character references are decoded;
 * - an XMP packet longer than MAX_XMP_CHARS, or whose elements do not nest, is ignored (exifr parses
 *   XMP with regular expressions, whose cost grows faster than the text: see `parseXmp`);
 * - text is cut to MAX_TEXT_CHARS, keywords to the tags' limits (TAG_MAX_CHARS, MAX_KEYWORDS).
 */

/** A tag's longest name (the push's `tag_names` limit), so a keyword can become a tag. */
export const TAG_MAX_CHARS = 100
/** A push's most tags. */
export const MAX_KEYWORDS = 100
/** An asset title's longest (the push's `title` limit), so an embedded title can become the title. */
export const TITLE_MAX_CHARS = 500
/** Any other text field: a caption is a paragraph, not a document. */
export const MAX_TEXT_CHARS = 2000
/** A JPEG's main XMP packet fits in one 64 KiB segment; longer ones are extended XMP, which is not read. */
export const MAX_XMP_CHARS = 65_536

/** The metadata that fills a push's empty fields: its title, description and keywords. */
export type EmbeddedText = Pick<EmbeddedMetadata, 'title' | 'description' | 'keywords'>

export interface EmbeddedMetadataOptions {
  /** Whether GPS is read at all: off (EXPOSE_GPS unset), it is never parsed, so never stored. */
  exposeGps: boolean
}

const EXIFR_FORMATS = /^image\/(jpeg|png|tiff|avif)$/

/** Raw segments as exifr gives them: untranslated keys' values, nothing revived (dates stay as the file wrote them). */
interface Segments {
  ifd0?: Record<string, unknown>
  exif?: Record<string, unknown>
  gps?: Record<string, unknown>
  iptc?: Record<string, unknown>
  xmp?: unknown
}

/**
 * The embedded metadata of an image (`mimeType` as the push's inspection named it), orientation aside
 * (`readOrientedSize` reads it with the sides it gives). A file exifr cannot read at all has none.
 */
export async function readEmbeddedMetadata(bytes: Buffer, mimeType: string, options: EmbeddedMetadataOptions): Promise<Omit<EmbeddedMetadata, 'orientation'>> {
  const segments = await readSegments(bytes, mimeType, options.exposeGps)
  const xmp = parseXmp(segments.xmp)
  const { ifd0 = {}, exif = {}, iptc = {} } = segments
  const iptcText = (key: string) => text(fromIptc(iptc[key]))
  return {
    captured_at: captureTime(exif, xmp),
    camera_make: text(ifd0.Make ?? xmpValue(xmp, 'tiff', 'Make')),
    camera_model: text(ifd0.Model ?? xmpValue(xmp, 'tiff', 'Model')),
    lens: text(exif.LensModel ?? xmpValue(xmp, 'exifEX', 'LensModel') ?? xmpValue(xmp, 'aux', 'Lens')),
    creator: text(xmpList(xmp, 'dc', 'creator').join(', ')) ?? iptcText('Byline') ?? text(ifd0.Artist),
    copyright: text(xmpValue(xmp, 'dc', 'rights')) ?? iptcText('CopyrightNotice') ?? text(ifd0.Copyright),
    credit: text(xmpValue(xmp, 'photoshop', 'Credit')) ?? iptcText('Credit'),
    title: text(xmpValue(xmp, 'dc', 'title'), TITLE_MAX_CHARS) ?? text(fromIptc(iptc.ObjectName), TITLE_MAX_CHARS),
    description: text(xmpValue(xmp, 'dc', 'description')) ?? iptcText('Caption') ?? text(ifd0.ImageDescription),
    keywords: keywords([...xmpList(xmp, 'dc', 'subject'), ...listOf(iptc.Keywords).map(fromIptc)]),
    gps: options.exposeGps && segments.gps ? position(segments.gps) : null,
  }
}

/** The title, description and keywords alone, as a push reads them to fill its empty fields. */
export async function readEmbeddedText(bytes: Buffer, mimeType: string): Promise<EmbeddedText> {
  const { title, description, keywords } = await readEmbeddedMetadata(bytes, mimeType, { exposeGps: false })
  return { title, description, keywords }
}

/**
 * The EXIF orientation (1 to 8, null when the file has none) and the sides as the image shows after
 * it, as libvips reads them: the thumbnails and renditions are turned by the same reading.
 */
export async function readOrientedSize(bytes: Buffer): Promise<{ orientation: number | null; width: number; height: number } | null> {
  try {
    const header = await sharp(bytes, { limitInputPixels: false }).metadata()
    if (!header.width || !header.height) return null
    const shown = header.autoOrient ?? header
    return { orientation: header.orientation ?? null, width: shown.width, height: shown.height }
  } catch {
    return null
  }
}

/** What exifr reads of a file: the segments `readEmbeddedMetadata` uses, raw, with or without GPS and IPTC. */
function exifrOptions(gps: boolean, iptc: boolean) {
  return {
    ifd0: {},
    exif: {},
    gps,
    iptc,
    xmp: { parse: false },
    ifd1: false,
    interop: false,
    makerNote: false,
    userComment: false,
    icc: false,
    jfif: false,
    ihdr: false,
    translateValues: false,
    reviveValues: false,
    mergeOutput: false,
  }
}

/**
 * Each reading's options, made once, IPTC first: exifr keeps every options object `parse` is given in
 * a Map it never empties (`Options.useCached`), so an object per read kept ~7 KB for as long as the
 * process ran (a push and its metadata analysis read each file: 150 MiB of heap after 10,000 pushes).
 */
const READINGS_WITH_GPS = [exifrOptions(true, true), exifrOptions(true, false)]
const READINGS_WITHOUT_GPS = [exifrOptions(false, true), exifrOptions(false, false)]

/**
 * exifr's segments. Malformed IPTC (a dataset or a resource whose size runs past its block) makes exifr
 * throw, or report an error and drop the segments it had read: the file is then read again without IPTC.
 */
async function readSegments(bytes: Buffer, mimeType: string, gps: boolean): Promise<Segments> {
  if (!EXIFR_FORMATS.test(mimeType)) return {}
  const scope = metadataScope(bytes, mimeType)
  if (!scope) return {}
  for (const options of gps ? READINGS_WITH_GPS : READINGS_WITHOUT_GPS) {
    try {
      const output = (await exifr.parse(scope, options)) as (Segments & { errors?: unknown[] }) | undefined
      // An error exifr kept silent can cost the other segments too (what it read is then dropped).
      if (options.iptc && output?.errors?.length) continue
      return output ?? {}
    } catch {
      // Read again without IPTC; a file that fails without it too tells nothing.
    }
  }
  return {}
}

/** Real files have a handful of chunks before their image data, and of top-level boxes. */
const MAX_CONTAINER_PARTS = 64

/**
 * The bytes exifr is given. exifr walks every PNG chunk and every top-level AVIF box, a few microseconds
 * each: a file of a million empty chunks or boxes (25 MiB of them) would hold the event loop for
 * seconds. So a PNG is read up to its first image data (where cameras and editors put their metadata),
 * and a file with more than MAX_CONTAINER_PARTS chunks before it, or top-level boxes, is not read at all.
 * A JPEG's segments end at its scan, where exifr stops; a TIFF's metadata is where its IFDs point.
 */
function metadataScope(bytes: Buffer, mimeType: string): Buffer | null {
  if (mimeType === 'image/png') return pngBeforeImageData(bytes)
  if (mimeType === 'image/avif') return countBoxes(bytes) <= MAX_CONTAINER_PARTS ? bytes : null
  return bytes
}

function pngBeforeImageData(bytes: Buffer): Buffer | null {
  let offset = 8
  for (let chunks = 0; chunks <= MAX_CONTAINER_PARTS && offset + 8 <= bytes.length; chunks++) {
    if (bytes.toString('latin1', offset + 4, offset + 8) === 'IDAT') return bytes.subarray(0, offset)
    offset += 12 + bytes.readUInt32BE(offset)
  }
  return null
}

/** Top-level ISO-BMFF boxes, counted up to one past the limit. */
function countBoxes(bytes: Buffer): number {
  let offset = 0
  let boxes = 0
  while (offset + 8 <= bytes.length && boxes <= MAX_CONTAINER_PARTS) {
    const size = bytes.readUInt32BE(offset)
    const length = size === 1 && offset + 16 <= bytes.length ? Number(bytes.readBigUInt64BE(offset + 8)) : size === 0 ? bytes.length - offset : size
    if (length < 8) break
    offset += length
    boxes++
  }
  return boxes
}

type Xmp = Record<string, Record<string, unknown>>

/** exifr's XMP parser, which its `parse` runs on a packet it found (`sidecar` is missing from its ES module build). */
const XmpParser = exifr.segmentParsers.get('xmp') as { parse(packet: string, options: { parse: boolean }): unknown }

/** Real XMP nests a dozen elements deep at most, and a photo desk's holds a few hundred. */
const MAX_XMP_DEPTH = 32
const MAX_XMP_ELEMENTS = 2000

/**
 * The XMP packet parsed by exifr, or nothing when there is none, it is too long, it has a DTD, or its
 * elements do not nest: exifr's regular expressions look for each element's end from its start, so a
 * packet of unclosed or deeply nested elements costs time growing with the square of its length (half
 * a second for 60 KB), where this check costs one pass; 2,000 elements cost exifr ~15 ms.
 */
function parseXmp(raw: unknown): Xmp {
  if (typeof raw !== 'string' || raw.length > MAX_XMP_CHARS || /<!(DOCTYPE|ENTITY)/i.test(raw) || !nestsProperly(raw)) return {}
  try {
    const parsed = XmpParser.parse(raw, { parse: true })
    return parsed !== null && typeof parsed === 'object' ? (parsed as Xmp) : {}
  } catch {
    return {}
  }
}

/** Whether every prefixed element that opens closes, in order, within MAX_XMP_DEPTH, and there are at most MAX_XMP_ELEMENTS. */
function nestsProperly(packet: string): boolean {
  const open: string[] = []
  let elements = 0
  for (const [, closing, name, selfClosing] of packet.matchAll(/<(\/?)([\w.-]+:[\w.-]+)[^<>]*?(\/?)>/g)) {
    if (!closing && ++elements > MAX_XMP_ELEMENTS) return false
    if (selfClosing) continue
    if (!closing) {
      if (open.push(name!) > MAX_XMP_DEPTH) return false
    } else if (open.pop() !== name) return false
  }
  return open.length === 0
}

/** A single XMP value: a language alternative's default (or first) language, a list's first item. */
function xmpValue(xmp: Xmp, namespace: string, name: string): unknown {
  const value = xmp[namespace]?.[name]
  return Array.isArray(value) ? value.map(xmpItem)[0] : xmpItem(value)
}

/** Every item of an XMP list (a bag or a sequence); a single value is a list of one. */
function xmpList(xmp: Xmp, namespace: string, name: string): string[] {
  return listOf(xmp[namespace]?.[name])
    .map(xmpItem)
    .filter((item): item is string | number => typeof item === 'string' || typeof item === 'number')
    .map(String)
}

/** exifr gives a language alternative's item as `{lang, value}`. */
function xmpItem(item: unknown): unknown {
  const value = item !== null && typeof item === 'object' && 'value' in item ? (item as { value: unknown }).value : item
  return typeof value === 'string' ? decodeXmlText(value) : value
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** XML's five predefined entities and character references; any other entity stays as written, never expanded. */
function decodeXmlText(value: string): string {
  return value.replace(/&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-f]{1,6}));/gi, (whole, name?: string, decimal?: string, hex?: string) => {
    if (name) return XML_ENTITIES[name.toLowerCase()]!
    const code = decimal ? Number(decimal) : parseInt(hex!, 16)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

/**
 * exifr reads IPTC text as Latin-1, which it most often is. A file that declares UTF-8 (IPTC 1:90,
 * which exifr does not read) holds UTF-8 bytes, which Latin-1 turns into mojibake: text whose Latin-1
 * bytes are valid UTF-8 with a character past ASCII is taken as UTF-8 (Latin-1 text almost never is).
 */
function fromIptc(value: unknown): unknown {
  if (typeof value !== 'string' || !/[\x80-\xff]/.test(value) || /[\u0100-\uffff]/.test(value)) return value
  const bytes = Buffer.from(value, 'latin1')
  const utf8 = bytes.toString('utf8')
  return utf8.includes('\ufffd') ? value : utf8
}

function listOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return []
  return Array.isArray(value) ? value : [value]
}

/** Trimmed text without control characters, cut to `max`; null for anything else or nothing. */
function text(value: unknown, max = MAX_TEXT_CHARS): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null
  // eslint-disable-next-line no-control-regex
  const clean = String(value).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim()
  return clean === '' ? null : cut(clean, max)
}

/** At most `max` characters, never splitting a surrogate pair. */
function cut(value: string, max: number): string {
  if (value.length <= max) return value
  const end = /[\ud800-\udbff]/.test(value[max - 1]!) ? max - 1 : max
  return value.slice(0, end).trimEnd()
}

/** Tags to be: each trimmed and cut to a tag's length, one of each case-insensitively, at most a push's count. */
function keywords(values: unknown[]): string[] {
  const seen = new Map<string, string>()
  for (const value of values) {
    if (seen.size >= MAX_KEYWORDS) break
    const keyword = text(value, TAG_MAX_CHARS)
    if (keyword && !seen.has(keyword.toLowerCase())) seen.set(keyword.toLowerCase(), keyword)
  }
  return [...seen.values()]
}

const EXIF_DATE = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:\d{2})?$/
const OFFSET = /^[+-]\d{2}:\d{2}$/

/**
 * When the picture was taken: EXIF's DateTimeOriginal (with its OffsetTimeOriginal when the file gives
 * one; EXIF times are the camera's local time), else its digitization time, else XMP's.
 */
function captureTime(exif: Record<string, unknown>, xmp: Xmp): string | null {
  for (const [time, offset] of [
    [exif.DateTimeOriginal, exif.OffsetTimeOriginal],
    [exif.CreateDate, exif.OffsetTimeDigitized],
  ]) {
    const match = typeof time === 'string' ? EXIF_DATE.exec(time) : null
    if (!match || match[1] === '0000') continue
    const [, year, month, day, hour, minute, second] = match
    const zone = typeof offset === 'string' && OFFSET.test(offset.trim()) ? offset.trim() : ''
    return `${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`
  }
  for (const value of [xmpValue(xmp, 'exif', 'DateTimeOriginal'), xmpValue(xmp, 'photoshop', 'DateCreated'), xmpValue(xmp, 'xmp', 'CreateDate')]) {
    if (typeof value === 'string' && ISO_DATE.test(value.trim())) return value.trim()
  }
  return null
}

/** exifr's decimal latitude and longitude (south and west negative), and the altitude (below sea level negative). */
function position(gps: Record<string, unknown>): EmbeddedMetadata['gps'] {
  const latitude = degrees(gps.GPSLatitude, gps.GPSLatitudeRef, 'S')
  const longitude = degrees(gps.GPSLongitude, gps.GPSLongitudeRef, 'W')
  if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null
  const altitude = typeof gps.GPSAltitude === 'number' && Number.isFinite(gps.GPSAltitude) ? gps.GPSAltitude * (gps.GPSAltitudeRef === 1 ? -1 : 1) : null
  return { latitude, longitude, altitude }
}

/** Degrees, minutes and seconds as EXIF writes them (three rationals) to signed decimal degrees. */
function degrees(parts: unknown, reference: unknown, negative: string): number | null {
  if (!Array.isArray(parts) || parts.length !== 3 || !parts.every((part) => typeof part === 'number' && Number.isFinite(part))) return null
  const [d, m, s] = parts as [number, number, number]
  const value = d + m / 60 + s / 3600
  return reference === negative ? -value : value
}
