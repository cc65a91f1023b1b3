import { crc32 } from 'node:zlib'
import { ImageError } from './image-error.js'

/** The raster formats whose structure is walked before a push stores them. */
export type StructuredFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'avif' | 'tiff'

/** IFDs a TIFF may chain (a loop in the chain would otherwise never end). */
const MAX_TIFF_IFDS = 1024

/**
 * Checks that a raster image's structure is whole without decoding a pixel: its chunks, markers, blocks,
 * boxes or IFDs all lie inside the file and it reaches its end marker. A file cut short (a failed
 * upload, a partial download) or whose structure is broken is refused with `image_truncated`; before
 * this, sharp's header read accepted a PNG cut anywhere after its header, and the image failed only
 * when its thumbnail was made. Costs one pass over the bytes at most (a PNG's CRCs), native where it reads.
 */
export function checkStructure(format: StructuredFormat, bytes: Buffer): void {
  CHECKS[format](new Reader(bytes, format))
}

const CHECKS: Record<StructuredFormat, (reader: Reader) => void> = {
  png: checkPng,
  jpeg: checkJpeg,
  gif: checkGif,
  webp: checkWebp,
  avif: checkBoxes,
  tiff: checkTiff,
}

/** Reads within the file, refusing any read past its end. */
class Reader {
  constructor(
    readonly bytes: Buffer,
    private readonly format: StructuredFormat,
  ) {}

  get length(): number {
    return this.bytes.length
  }

  /** That `count` bytes from `offset` lie inside the file; `what` names them in the refusal. */
  need(offset: number, count: number, what: string): void {
    if (offset < 0 || count < 0 || offset + count > this.bytes.length) throw this.broken(`${what} runs past the end of the file`)
  }

  u8(offset: number, what: string): number {
    this.need(offset, 1, what)
    return this.bytes[offset]!
  }

  u16be(offset: number, what: string): number {
    this.need(offset, 2, what)
    return this.bytes.readUInt16BE(offset)
  }

  u32be(offset: number, what: string): number {
    this.need(offset, 4, what)
    return this.bytes.readUInt32BE(offset)
  }

  u32le(offset: number, what: string): number {
    this.need(offset, 4, what)
    return this.bytes.readUInt32LE(offset)
  }

  broken(reason: string): ImageError {
    return new ImageError('image_truncated', `The ${FORMAT_NAMES[this.format]} is truncated or damaged: ${reason}.`)
  }
}

const FORMAT_NAMES: Record<StructuredFormat, string> = { png: 'PNG', jpeg: 'JPEG', gif: 'GIF', webp: 'WebP', avif: 'AVIF', tiff: 'TIFF' }

/** Chunks from after the signature to `IEND`, each inside the file and with the CRC of its type and data. */
function checkPng(reader: Reader): void {
  let offset = 8
  for (;;) {
    const length = reader.u32be(offset, 'a chunk header')
    const type = reader.bytes.toString('latin1', offset + 4, offset + 8)
    reader.need(offset + 4, 4 + length + 4, `the ${type} chunk`)
    const stored = reader.bytes.readUInt32BE(offset + 8 + length)
    if (crc32(reader.bytes.subarray(offset + 4, offset + 8 + length)) !== stored) throw reader.broken(`the ${type} chunk's CRC does not match`)
    if (type === 'IEND') return
    offset += 12 + length
  }
}

/** Markers from SOI to EOI; a scan's entropy-coded data runs to the next marker that is not a restart. */
function checkJpeg(reader: Reader): void {
  const { bytes } = reader
  let offset = 2
  for (;;) {
    if (reader.u8(offset, 'a marker') !== 0xff) throw reader.broken('a segment does not start with a marker')
    let marker = reader.u8(offset + 1, 'a marker')
    while (marker === 0xff) marker = reader.u8(++offset + 1, 'a marker')
    offset += 2
    if (marker === 0xd9) return
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue
    const length = reader.u16be(offset, 'a segment length')
    if (length < 2) throw reader.broken('a segment has an impossible length')
    reader.need(offset, length, 'a segment')
    offset += length
    if (marker === 0xda) offset = nextMarkerAfterScan(bytes, offset, reader)
  }
}

/** The offset of the first marker after entropy-coded data at `offset`: 0xFF followed by neither 0x00 (a stuffed byte) nor a restart. */
function nextMarkerAfterScan(bytes: Buffer, offset: number, reader: Reader): number {
  let at = offset
  for (;;) {
    at = bytes.indexOf(0xff, at)
    if (at < 0 || at + 1 >= bytes.length) throw reader.broken('the image data ends before the end-of-image marker')
    const next = bytes[at + 1]!
    if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return at
    at += next === 0xff ? 1 : 2
  }
}

/** The header, colour tables, extensions and images, block by block, to the trailer. */
function checkGif(reader: Reader): void {
  const flags = reader.u8(10, 'the screen descriptor')
  let offset = 13 + colorTableSize(flags)
  for (;;) {
    const introducer = reader.u8(offset, 'a block')
    if (introducer === 0x3b) return
    if (introducer === 0x21) {
      offset = skipSubBlocks(reader, offset + 2)
    } else if (introducer === 0x2c) {
      const imageFlags = reader.u8(offset + 9, 'an image descriptor')
      offset = skipSubBlocks(reader, offset + 10 + colorTableSize(imageFlags) + 1)
    } else {
      throw reader.broken('a block has an unknown introducer')
    }
  }
}

function colorTableSize(flags: number): number {
  return flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0
}

/** Past a chain of data sub-blocks (each its length, then that many bytes) and its zero terminator. */
function skipSubBlocks(reader: Reader, start: number): number {
  let offset = start
  for (;;) {
    const size = reader.u8(offset, 'a data sub-block')
    offset += 1
    if (size === 0) return offset
    reader.need(offset, size, 'a data sub-block')
    offset += size
  }
}

/** The RIFF size covers the chunks, and every chunk (padded to an even size) lies within it. */
function checkWebp(reader: Reader): void {
  const end = 8 + reader.u32le(4, 'the RIFF header')
  reader.need(0, end, 'the RIFF container')
  let offset = 12
  while (offset < end) {
    const size = reader.u32le(offset + 4, 'a chunk header')
    const padded = 8 + size + (size % 2)
    if (offset + padded > end) throw reader.broken('a chunk runs past the RIFF container')
    offset += padded
  }
}

/** ISO-BMFF boxes at the top level, each inside the file (a size of 0 runs to the end). */
function checkBoxes(reader: Reader): void {
  let offset = 0
  while (offset < reader.length) {
    let size = reader.u32be(offset, 'a box header')
    reader.need(offset + 4, 4, 'a box header')
    let header = 8
    if (size === 1) {
      reader.need(offset + 8, 8, 'a box header')
      size = Number(reader.bytes.readBigUInt64BE(offset + 8))
      header = 16
    } else if (size === 0) {
      size = reader.length - offset
    }
    if (size < header) throw reader.broken('a box has an impossible size')
    reader.need(offset, size, `the ${reader.bytes.toString('latin1', offset + 4, offset + 8)} box`)
    offset += size
  }
}

/** Every IFD, the values its entries point at, and the strips or tiles they name, inside the file. */
function checkTiff(reader: Reader): void {
  const tiff = new TiffReader(reader)
  const big = tiff.u16(2) === 43
  let ifd = big ? tiff.u64(8) : tiff.u32(4)
  const seen = new Set<number>()
  while (ifd !== 0) {
    if (seen.has(ifd) || seen.size >= MAX_TIFF_IFDS) throw reader.broken('its IFDs form a loop or are too many')
    seen.add(ifd)
    ifd = big ? checkBigIfd(tiff, ifd) : checkIfd(tiff, ifd)
  }
}

/** Sizes of the TIFF field types, by type number; an unknown type is skipped as 1 byte per value. */
const TIFF_TYPE_SIZES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4, 0, 0, 8, 8, 8]
/** StripOffsets/StripByteCounts and TileOffsets/TileByteCounts: where the image data lies. */
const DATA_TAGS = new Map([
  [273, 279],
  [324, 325],
])

/** A TIFF's numbers in its byte order. */
class TiffReader {
  readonly little: boolean

  constructor(readonly reader: Reader) {
    this.little = reader.bytes.toString('latin1', 0, 2) === 'II'
  }

  u16(offset: number): number {
    this.reader.need(offset, 2, 'an IFD')
    return this.little ? this.reader.bytes.readUInt16LE(offset) : this.reader.bytes.readUInt16BE(offset)
  }

  u32(offset: number): number {
    this.reader.need(offset, 4, 'an IFD')
    return this.little ? this.reader.bytes.readUInt32LE(offset) : this.reader.bytes.readUInt32BE(offset)
  }

  u64(offset: number): number {
    this.reader.need(offset, 8, 'an IFD')
    return Number(this.little ? this.reader.bytes.readBigUInt64LE(offset) : this.reader.bytes.readBigUInt64BE(offset))
  }

  /** The values of an entry (as numbers, for the offset and count tags), wherever they are stored. */
  values(type: number, count: number, at: number): number[] {
    const size = TIFF_TYPE_SIZES[type] ?? 1
    const read = size === 2 ? (offset: number) => this.u16(offset) : size === 8 ? (offset: number) => this.u64(offset) : (offset: number) => this.u32(offset)
    return Array.from({ length: count }, (_, i) => read(at + i * size))
  }
}

/** A classic IFD (12-byte entries); returns the next IFD's offset. */
function checkIfd(tiff: TiffReader, offset: number): number {
  const count = tiff.u16(offset)
  tiff.reader.need(offset + 2, count * 12 + 4, 'an IFD')
  checkEntries(tiff, count, (i) => {
    const entry = offset + 2 + i * 12
    return { tag: tiff.u16(entry), type: tiff.u16(entry + 2), count: tiff.u32(entry + 4), inline: entry + 8, inlineBytes: 4, pointer: () => tiff.u32(entry + 8) }
  })
  return tiff.u32(offset + 2 + count * 12)
}

/** A BigTIFF IFD (20-byte entries); returns the next IFD's offset. */
function checkBigIfd(tiff: TiffReader, offset: number): number {
  const count = tiff.u64(offset)
  tiff.reader.need(offset + 8, count * 20 + 8, 'an IFD')
  checkEntries(tiff, count, (i) => {
    const entry = offset + 8 + i * 20
    return { tag: tiff.u16(entry), type: tiff.u16(entry + 2), count: tiff.u64(entry + 4), inline: entry + 12, inlineBytes: 8, pointer: () => tiff.u64(entry + 12) }
  })
  return tiff.u64(offset + 8 + count * 20)
}

interface TiffEntry {
  tag: number
  type: number
  count: number
  inline: number
  inlineBytes: number
  pointer: () => number
}

/** Each entry's values lie inside the file, and so does each strip or tile the offset tags name. */
function checkEntries(tiff: TiffReader, count: number, entryAt: (i: number) => TiffEntry): void {
  const where = new Map<number, number>()
  const entries: TiffEntry[] = []
  for (let i = 0; i < count; i++) {
    const entry = entryAt(i)
    const bytes = entry.count * (TIFF_TYPE_SIZES[entry.type] ?? 1)
    const at = bytes <= entry.inlineBytes ? entry.inline : entry.pointer()
    tiff.reader.need(at, bytes, `the values of tag ${entry.tag}`)
    where.set(entry.tag, at)
    entries.push(entry)
  }
  for (const [offsetsTag, countsTag] of DATA_TAGS) {
    const offsets = entries.find((entry) => entry.tag === offsetsTag)
    const counts = entries.find((entry) => entry.tag === countsTag)
    if (!offsets || !counts || offsets.count !== counts.count) continue
    const starts = tiff.values(offsets.type, offsets.count, where.get(offsetsTag)!)
    const sizes = tiff.values(counts.type, counts.count, where.get(countsTag)!)
    starts.forEach((start, i) => tiff.reader.need(start, sizes[i]!, 'the image data'))
  }
}
