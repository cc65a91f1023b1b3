import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import { backoffMs } from './claims.js'

const RECONNECT = { baseMs: 250, factor: 2, maxMs: 30_000 }

export interface OwnConnectionOptions {
  connectionString: string
  /** Names the connection in `pg_stat_activity`. */
  applicationName: string
  /**
   * Makes a new connection what it is for (LISTEN, a session's lock); `reconnected` once an earlier one
   * failed. A failure here counts as the connection's.
   */
  prepare: (client: pg.Client, reconnected: boolean) => Promise<void>
  /** Whether a failed first attempt is thrown (the caller cannot start without it) or retried like a drop. */
  firstAttempt: 'must-succeed' | 'may-fail'
  /** The warning logged for each failure, with the error and the delay before the next attempt. */
  failure: { message: string; context?: Record<string, unknown> }
  logger: FastifyBaseLogger
}

/**
 * A PostgreSQL connection of its own, for what the pool's connections cannot hold (they come and go):
 * a LISTEN, a session's advisory lock. One that fails or drops is logged and opened again with backoff.
 * Resolves after the first attempt.
 */
export async function openOwnConnection(options: OwnConnectionOptions): Promise<{ close(): Promise<void> }> {
  let client: pg.Client | undefined
  let closed = false
  let failures = 0
  let retry: NodeJS.Timeout | undefined

  const connect = async (first: boolean) => {
    const candidate = new pg.Client({ connectionString: options.connectionString, keepAlive: true, application_name: options.applicationName })
    client = candidate
    candidate.on('error', (error) => lost(candidate, error))
    candidate.on('end', () => lost(candidate, new Error('the connection ended')))
    try {
      await candidate.connect()
      await options.prepare(candidate, failures > 0)
    } catch (error) {
      if (first && options.firstAttempt === 'must-succeed') {
        closed = true
        clearTimeout(retry)
        await candidate.end().catch(() => undefined)
        throw error
      }
      lost(candidate, error)
      return
    }
    failures = 0
  }

  // A failing connection can report itself more than once (error, then end); only the first counts.
  const lost = (candidate: pg.Client, error: unknown) => {
    if (closed || client !== candidate) return
    client = undefined
    candidate.end().catch(() => undefined)
    failures += 1
    const delayMs = backoffMs(failures, RECONNECT)
    options.logger.warn({ err: error, ...options.failure.context, retryInMs: delayMs }, options.failure.message)
    retry = setTimeout(() => void connect(false), delayMs)
    retry.unref()
  }

  await connect(true)
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      await client?.end()
      client = undefined
    },
  }
}
