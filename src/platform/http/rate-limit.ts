import type { FastifyBaseLogger, FastifyReply } from 'fastify'
import type * as IORedis from 'ioredis'
import type { Redis } from 'ioredis'
import { CircuitBreaker } from '../circuit-breaker.js'
import { loadOnUse } from '../load-on-use.js'
import { REDIS_COMMAND_TIMEOUT_MS } from '../redis.js'
import { AppError } from './errors.js'

/** ioredis: loaded by now where Redis is configured (connectRedis made the client), and only there. */
const ioredis = loadOnUse<typeof IORedis>('ioredis')

/** The limits per window of each bucket (`RATE_LIMIT_*`). */
export interface RateLimitConfig {
  windowMs: number
  expensive: number
  cheap: number
  standard: number
  anonymous: number
  /** Per IP: password logins and invitation acceptances. */
  signIn: number
  /** Per account (the email signed in with, known or not): wrong passwords in `signInAccountWindowMs`. */
  signInAccount: number
  signInAccountWindowMs: number
  /** Per account (the email given, known or not): requests for a password reset link in `passwordResetAccountWindowMs`. */
  passwordResetAccount: number
  passwordResetAccountWindowMs: number
  /** Per IP: signed file downloads (`/files/*`) and public share links (`/s/*`) together. */
  files: number
  /**
   * Per user: the web app's session on /api/v1, in the same buckets as a key. A person at a screen
   * (an upload of a few dozen files, the library in another tab), not an automation: the spec's limits stay the keys'.
   */
  session: { expensive: number; cheap: number; standard: number }
}

/** Where a key stands in its current window. */
export interface WindowCount {
  count: number
  /** Milliseconds until the window resets. */
  resetMs: number
}

/**
 * Counts hits per key in fixed windows. The memory store answers synchronously, which keeps the
 * per-request cost of a guarded route to a Map lookup; Redis answers with a promise, or null when it
 * is unreachable (the caller then lets the request through: limits fail open).
 */
export interface RateLimitStore {
  hit(key: string, windowMs: number): WindowCount | Promise<WindowCount | null>
  /** The key's count without counting: zero when it has no window. */
  peek(key: string): WindowCount | Promise<WindowCount | null>
  close(): void
}

export class MemoryStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>()
  private readonly sweeper: NodeJS.Timeout

  constructor(sweepIntervalMs: number) {
    this.sweeper = setInterval(() => this.sweep(), sweepIntervalMs)
    this.sweeper.unref()
  }

  hit(key: string, windowMs: number): WindowCount {
    const now = Date.now()
    let window = this.windows.get(key)
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs }
      this.windows.set(key, window)
    }
    window.count++
    return { count: window.count, resetMs: window.resetAt - now }
  }

  peek(key: string): WindowCount {
    const now = Date.now()
    const window = this.windows.get(key)
    return window && window.resetAt > now ? { count: window.count, resetMs: window.resetAt - now } : { count: 0, resetMs: 0 }
  }

  close(): void {
    clearInterval(this.sweeper)
  }

  private sweep(): void {
    const now = Date.now()
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key)
  }
}

/**
 * One round trip: count, start the window's expiry on the first hit, and read what is left of it.
 * A hit that Redis runs after its deadline (ARGV[2], in ms on Redis's own clock) is not counted and
 * answers nil: its caller has given up on it and let the request through already. This is what keeps
 * a hung Redis (SIGSTOP, a long stall) from applying the hits queued meanwhile when it resumes: they
 * sit in its socket buffer whatever the client does, so only Redis itself can tell that they are late.
 * Reading TIME before a write needs Redis 5 or later (scripts replicated by their effects).
 */
const HIT_SCRIPT = `
local time = redis.call('TIME')
if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > tonumber(ARGV[2]) then return false end
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }
`
/** A read: nothing to apply late, so it needs no deadline. */
const PEEK_SCRIPT = `
local count = redis.call('GET', KEYS[1])
if not count then return { 0, 0 } end
return { tonumber(count), math.max(redis.call('PTTL', KEYS[1]), 0) }
`
/** Failed hits in a row after which Redis is not asked for a while (each failure cost a command timeout). */
const FAILURES_TO_OPEN = 3
const PROBE_INTERVAL_MS = 1_000
const PROBE_TIMEOUT_MS = 250
/** Either host's clock may be stepped (NTP): the offset between them is measured again this often. */
const CLOCK_REFRESH_MS = 60_000

type RedisWithHit = Redis & {
  rateLimitHit(key: string, windowMs: number, deadlineMs: number): Promise<[number, number] | null>
  rateLimitPeek(key: string): Promise<[number, number]>
}

/**
 * Counters shared by every process that uses the same Redis and namespace. After a few failed hits in
 * a row the circuit opens: hits fail open at once, without asking Redis, until a background probe gets
 * an answer. Each hit carries a deadline on Redis's clock (see HIT_SCRIPT), computed from the offset
 * between the two clocks that each probe measures, so skew between the hosts does not matter.
 */
export class RedisStore implements RateLimitStore {
  private readonly redis: RedisWithHit
  private readonly breaker: CircuitBreaker
  /** Redis's clock minus this process's monotonic clock, in ms; unknown until first measured. */
  private clockOffsetMs: number | undefined
  private clockMeasuredAt = Number.NEGATIVE_INFINITY
  private clockRefresh: Promise<void> | undefined

  constructor(
    redis: Redis,
    private readonly namespace: string,
    logger: FastifyBaseLogger,
  ) {
    if (!('rateLimitHit' in redis)) redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT })
    if (!('rateLimitPeek' in redis)) redis.defineCommand('rateLimitPeek', { numberOfKeys: 1, lua: PEEK_SCRIPT })
    this.redis = redis as RedisWithHit
    this.breaker = new CircuitBreaker({
      failuresToOpen: FAILURES_TO_OPEN,
      probeIntervalMs: PROBE_INTERVAL_MS,
      probe: () => this.measureClock(),
      onOpen: (error) => logger.warn({ err: { message: error.message } }, 'Redis does not answer; rate limits fail open, without asking it, until it does'),
      onClose: () => logger.info('Redis answers again; rate limits count again'),
    })
  }

  async hit(key: string, windowMs: number): Promise<WindowCount | null> {
    if (this.breaker.isOpen) return null
    // Measured on the first hit rather than at start, where building the app blocks the event loop
    // for longer than the measurement may take.
    if (this.clockOffsetMs === undefined) await this.refreshClock()
    else if (performance.now() - this.clockMeasuredAt > CLOCK_REFRESH_MS) void this.refreshClock()
    if (this.clockOffsetMs === undefined) return null
    try {
      const deadline = Math.round(performance.now() + this.clockOffsetMs + REDIS_COMMAND_TIMEOUT_MS)
      const counted = await this.redis.rateLimitHit(`${this.namespace}${key}`, windowMs, deadline)
      this.breaker.succeeded()
      // Late, yet answered before the command timeout: the measured offset is stale.
      if (counted === null) void this.refreshClock()
      return counted && { count: counted[0], resetMs: counted[1] }
    } catch (error) {
      this.breaker.failed(error as Error)
      return null
    }
  }

  async peek(key: string): Promise<WindowCount | null> {
    if (this.breaker.isOpen) return null
    try {
      const [count, resetMs] = await this.redis.rateLimitPeek(`${this.namespace}${key}`)
      this.breaker.succeeded()
      return { count, resetMs }
    } catch (error) {
      this.breaker.failed(error as Error)
      return null
    }
  }

  close(): void {
    this.breaker.stop()
  }

  /** One measurement at a time; a failed one counts as a failed hit. */
  private refreshClock(): Promise<void> {
    return (this.clockRefresh ??= this.measureClock()
      .catch((error: Error) => this.breaker.failed(error))
      .finally(() => {
        this.clockRefresh = undefined
      }))
  }

  /** Reads Redis's TIME with a timeout of its own; the offset is taken at the round trip's midpoint. */
  private async measureClock(): Promise<void> {
    const time = new (ioredis().Command)('time', [], { replyEncoding: 'utf8' })
    time.setTimeout(PROBE_TIMEOUT_MS)
    const sentAt = performance.now()
    const [seconds, microseconds] = (await this.redis.sendCommand(time)) as [string, string]
    const answeredAt = performance.now()
    this.clockOffsetMs = Number(seconds) * 1000 + Number(microseconds) / 1000 - (sentAt + answeredAt) / 2
    this.clockMeasuredAt = answeredAt
  }
}

export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    readonly windowMs: number,
  ) {}

  /** The key's count in its current window; null when the store did not answer. */
  hit(key: string): WindowCount | Promise<WindowCount | null> {
    return this.store.hit(key, this.windowMs)
  }

  /** The key's count in its current window, not counting this look; null when the store did not answer. */
  peek(key: string): WindowCount | Promise<WindowCount | null> {
    return this.store.peek(key)
  }

  close(): void {
    this.store.close()
  }
}

/**
 * Writes the budget headers; returns the 429 to answer with when the limit is passed. A store that
 * did not answer leaves only the limit header: the remaining budget is unknown.
 */
export function applyLimit(reply: FastifyReply, limit: number, count: WindowCount | null): AppError | undefined {
  reply.header('x-ratelimit-limit', limit)
  if (!count) return undefined
  const resetSeconds = Math.max(1, Math.ceil(count.resetMs / 1000))
  reply.header('x-ratelimit-remaining', Math.max(0, limit - count.count))
  reply.header('x-ratelimit-reset', resetSeconds)
  if (count.count <= limit) return undefined
  reply.header('retry-after', resetSeconds)
  return new AppError('rate_limited', `Rate limit exceeded; retry in ${resetSeconds} seconds.`)
}
