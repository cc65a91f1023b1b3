import { crc32 } from 'node:zlib'

export interface ReadEntry {
  name: string
  /** 0: stored, 8: deflated. */
  method: number
  bytes: Buffer
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50
const CENTRAL_HEADER = 0x02014b50
const LOCAL_HEADER = 0x04034b50

/**
 * The entries of a small zip (no Zip64, no comment), read from its central directory as an unzip tool
 * does, each checked against its local header and its CRC-32. Throws on anything else.
 */
export function readZip(zip: Buffer): ReadEntry[] {
  const end = zip.length - 22
  if (zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) throw new Error('no end of central directory record where expected')
  const count = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  const entries: ReadEntry[] = []
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_HEADER) throw new Error(`entry ${i}: no central directory header`)
    const method = zip.readUInt16LE(at + 10)
    const crc = zip.readUInt32LE(at + 16)
    const size = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const local = zip.readUInt32LE(at + 42)
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength)
    if (zip.readUInt32LE(local) !== LOCAL_HEADER) throw new Error(`${name}: no local header at ${local}`)
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const bytes = zip.subarray(start, start + size)
    if (crc32(bytes) !== crc) throw new Error(`${name}: CRC-32 mismatch`)
    entries.push({ name, method, bytes })
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return entries
}
