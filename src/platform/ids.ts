import { randomBytes } from 'node:crypto'

/** The last millisecond used and the counter within it (RFC 9562, method 1: 12 bits of rand_a). */
let lastMs = -1
let counter = 0
const COUNTER_MAX = 0xfff

/**
 * UUID v7: 48-bit millisecond timestamp, then a counter, then random bits. Ids made by this process sort
 * in the order they were made, within one millisecond too (and across a clock that steps back).
 */
export function uuidv7(): string {
  const now = Date.now()
  if (now > lastMs) {
    lastMs = now
    // Start low in the counter's range, so a millisecond has room for thousands of ids.
    counter = randomBytes(2).readUInt16BE(0) & 0x3ff
  } else if (++counter > COUNTER_MAX) {
    lastMs += 1
    counter = 0
  }
  return format(lastMs, counter)
}

/** A v7 id for a given time (seeding data with past timestamps); no ordering within the millisecond. */
export function uuidv7At(time: number): string {
  return format(time, randomBytes(2).readUInt16BE(0) & COUNTER_MAX)
}

function format(ms: number, sequence: number): string {
  const bytes = randomBytes(16)
  bytes.writeUIntBE(ms, 0, 6)
  bytes[6] = 0x70 | (sequence >> 8)
  bytes[7] = sequence & 0xff
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}
