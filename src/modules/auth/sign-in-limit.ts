import { sha256Hex } from '../../platform/crypto.js'
import { AppError } from '../../platform/http/errors.js'
import type { RateLimiter } from '../../platform/http/rate-limit.js'

/**
 * Attempts counted per account, whatever address they come from: past the limit, the account's attempts
 * are refused until its window ends, so attempts spread over many addresses get nowhere. Keyed by the
 * email as given, known or not, so that the answers are the same for both (no account enumeration);
 * hashed, so that Redis holds no addresses.
 */
export class AccountLimit {
  constructor(
    /** A limiter whose window is the account limit's. */
    private readonly limiter: RateLimiter,
    private readonly limit: number,
    /** The counter's name, and what the refusal says is too many ("Too many wrong passwords for this account"). */
    private readonly purpose: { key: string; refusal: string },
  ) {}

  /** Refuses with 429 `rate_limited` once the email has had `limit` attempts counted in its window. */
  async check(email: string): Promise<void> {
    const count = await this.limiter.peek(this.keyOf(email))
    if (!count || count.count < this.limit) return
    const retryAfterSeconds = Math.max(1, Math.ceil(count.resetMs / 1000))
    const error = new AppError('rate_limited', `${this.purpose.refusal}; retry in ${retryAfterSeconds} seconds.`)
    error.retryAfterSeconds = retryAfterSeconds
    throw error
  }

  /** Counts one attempt. */
  async hit(email: string): Promise<void> {
    await this.limiter.hit(this.keyOf(email))
  }

  /** Refuses an attempt over the limit, else counts it. */
  async take(email: string): Promise<void> {
    await this.check(email)
    await this.hit(email)
  }

  private keyOf(email: string): string {
    return `${this.purpose.key}:${sha256Hex(email.trim().toLowerCase())}`
  }
}

/**
 * Wrong passwords per account. Only failures count: a user who signs in often is never limited, and one
 * person's success resets nobody's counter.
 */
export function signInAccountLimit(limiter: RateLimiter, limit: number): AccountLimit {
  return new AccountLimit(limiter, limit, { key: 'sign-in-account', refusal: 'Too many wrong passwords for this account' })
}

/** Requests for a password reset link per account: each counts, so nobody floods an inbox. */
export function passwordResetAccountLimit(limiter: RateLimiter, limit: number): AccountLimit {
  return new AccountLimit(limiter, limit, { key: 'password-reset-account', refusal: 'Too many reset links asked for this account' })
}
