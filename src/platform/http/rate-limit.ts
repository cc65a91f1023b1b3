import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import { AppError } from './errors.js'

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

  close(): void {
    clearInterval(this.sweeper)
  }

  private sweep(): void {
    const now = Date.now()
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key)
  }
}

/** One round trip: count, start the window's expiry on the first hit, and read what is left of it. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }
`
const ERROR_LOG_INTERVAL_MS = 30_000

type RedisWithHit = Redis & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> }

/** Counters shared by every process that uses the same Redis and namespace. */
export class RedisStore implements RateLimitStore {
  private readonly redis: RedisWithHit
  private lastLogged = 0

  constructor(
    redis: Redis,
    private readonly namespace: string,
    private readonly logger: FastifyBaseLogger,
  ) {
    if (!('rateLimitHit' in redis)) redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT })
    this.redis = redis as RedisWithHit
  }

  async hit(key: string, windowMs: number): Promise<WindowCount | null> {
    try {
      const [count, resetMs] = await this.redis.rateLimitHit(`${this.namespace}${key}`, windowMs)
      return { count, resetMs }
    } catch (error) {
      const now = Date.now()
      if (now - this.lastLogged >= ERROR_LOG_INTERVAL_MS) {
        this.lastLogged = now
        this.logger.warn({ err: { message: (error as Error).message } }, 'rate-limit store unreachable; requests pass uncounted')
      }
      return null
    }
  }

  close(): void {}
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

/** Counts every request of the scope under `keyOf(request)` and refuses those over `limit`. */
export function limitEveryRoute(
  scope: FastifyInstance,
  limiter: RateLimiter,
  keyOf: (request: FastifyRequest) => string,
  limit: number,
): void {
  scope.addHook('onRequest', (request, reply, done) => {
    const count = limiter.hit(keyOf(request))
    if (count instanceof Promise) count.then((c) => done(applyLimit(reply, limit, c)), done)
    else done(applyLimit(reply, limit, count))
  })
}
