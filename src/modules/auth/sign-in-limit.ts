import { sha256Hex } from '../../platform/crypto.js'
import { AppError } from '../../platform/http/errors.js'
import type { RateLimiter } from '../../platform/http/rate-limit.js'

/**
 * Wrong passwords counted per account, whatever address they come from: past the limit, the account's
 * sign-ins are refused until its window ends, the right password's too, so guesses spread over many
 * addresses get nowhere. Keyed by the email as given, known or not, so that the answers are the same for
 * both (no account enumeration); hashed, so that Redis holds no addresses. Only failures count: a user
 * who signs in often is never limited, and one person's success resets nobody's counter.
 */
export class AccountSignInLimit {
  constructor(
    /** A limiter whose window is the account limit's. */
    private readonly limiter: RateLimiter,
    private readonly limit: number,
  ) {}

  /** Refuses with 429 `rate_limited` once the email has had `limit` failures in its window. */
  async check(email: string): Promise<void> {
    const count = await this.limiter.peek(keyOf(email))
    if (!count || count.count < this.limit) return
    const retryAfterSeconds = Math.max(1, Math.ceil(count.resetMs / 1000))
    const error = new AppError('rate_limited', `Too many wrong passwords for this account; retry in ${retryAfterSeconds} seconds.`)
    error.retryAfterSeconds = retryAfterSeconds
    throw error
  }

  async failed(email: string): Promise<void> {
    await this.limiter.hit(keyOf(email))
  }
}

function keyOf(email: string): string {
  return `sign-in-account:${sha256Hex(email.trim().toLowerCase())}`
}
