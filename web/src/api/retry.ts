import { ApiError, NetworkError, retryWait } from '@asset-library/client'

const MAX_RETRIES = 2
/** Longer than this, and the person is better told (the error shows, with its Retry) than kept waiting. */
const LONGEST_WAIT_SECONDS = 30

/**
 * How a failed read is tried again, by the client package's pacing (a read is safe to repeat): a
 * gateway error or a lost connection with a growing, jittered pause, a 429 after its `Retry-After`
 * when that is short, and never another 4xx, which would only fail the same way. Undefined: not again.
 */
function nextTry(failures: number, error: unknown) {
  if (failures >= MAX_RETRIES) return undefined
  // fetch throws a TypeError when no answer came: the client's NetworkError.
  const failure = error instanceof ApiError || error instanceof NetworkError ? error : new NetworkError('GET', '', error)
  return retryWait(failure, true, failures + 1, { maxRetryAfterSeconds: LONGEST_WAIT_SECONDS, retryBaseDelayMs: 1000 })
}

export const shouldRetry = (failures: number, error: unknown): boolean => nextTry(failures, error) !== undefined

export const retryDelay = (failures: number, error: unknown): number => nextTry(failures, error)?.delayMs ?? 0
