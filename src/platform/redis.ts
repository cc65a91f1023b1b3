import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'

const ERROR_LOG_INTERVAL_MS = 30_000
const CONNECT_WAIT_MS = 1_000
/** How long a command may wait for its answer before the caller carries on without it. */
export const REDIS_COMMAND_TIMEOUT_MS = 500

/**
 * A Redis client that fails fast: with ioredis defaults a request waits seconds for a Redis that is
 * down. Callers treat a failed command as "no answer" and carry on (rate limits fail open).
 */
export async function connectRedis(url: string, logger: FastifyBaseLogger): Promise<Redis> {
  // Loaded only with a Redis configured: ioredis's modules are ~18 MiB of an idle embedded process.
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    connectTimeout: 500,
    // A Redis that accepts connections but hangs must not hang requests either.
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  })
  let lastLogged = 0
  redis.on('error', (error) => {
    const now = Date.now()
    if (now - lastLogged < ERROR_LOG_INTERVAL_MS) return
    lastLogged = now
    logger.warn({ err: { message: error.message } }, 'Redis unreachable; rate limits fail open until it is back')
  })
  // Commands sent before the connection is up would fail open uncounted, so give it a moment first.
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), CONNECT_WAIT_MS)
    redis.once('ready', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
  if (!ready) logger.warn('Redis did not answer at start; rate limits fail open until it does')
  return redis
}
