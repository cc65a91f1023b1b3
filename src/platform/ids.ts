import { randomBytes } from 'node:crypto'
import { v7 } from 'uuid'

/**
 * UUID v7 (RFC 9562): a millisecond timestamp, then a counter, then random bits. Ids made by this process
 * sort in the order they were made, within one millisecond too, so the outbox order follows commit order.
 */
export function uuidv7(): string {
  return v7()
}

/** A v7 id for a given time (seeding data with past timestamps). */
export function uuidv7At(time: number): string {
  return v7({ msecs: time })
}

/** URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}
