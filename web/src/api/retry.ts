import { retrySeconds } from './pacing'
import { ApiError } from './problem'

const MAX_RETRIES = 2
/** Longer than this, and the person is better told (the error shows, with its Retry) than kept waiting. */
const LONGEST_WAIT_MS = 30_000

/**
 * When a failed read is tried again: a server error or a lost connection twice, a 429 after its
 * `Retry-After` (when that is short), and never a 4xx that would only fail the same way.
 */
export function shouldRetry(failures: number, error: unknown): boolean {
  if (failures >= MAX_RETRIES) return false
  if (!(error instanceof ApiError)) return true
  if (error.status === 429) return retryDelay(failures, error) <= LONGEST_WAIT_MS
  return error.status >= 500
}

/** A 429 waits what it asks; anything else backs off exponentially from one second. */
export function retryDelay(failures: number, error: unknown): number {
  if (error instanceof ApiError && error.status === 429) return retrySeconds(error.retryAfter) * 1000
  return Math.min(1000 * 2 ** failures, LONGEST_WAIT_MS)
}
