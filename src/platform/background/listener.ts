import type { FastifyBaseLogger } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import pg from 'pg'
import { backoffMs } from './claims.js'

export interface Listener {
  close(): Promise<void>
}

const RECONNECT = { baseMs: 250, factor: 2, maxMs: 30_000 }

/**
 * `pg_notify(channel, '')`, for use inside a producer's own statement: PostgreSQL delivers it when
 * that transaction commits, and never if it rolls back, so a runner is not woken for work it cannot
 * see yet.
 */
export function notify(channel: string): RawBuilder<unknown> {
  return sql`pg_notify(${channel}, '')`
}

/**
 * Calls `onNotify(channel)` for each NOTIFY on `channels` committed by any process, over one
 * dedicated connection (PostgreSQL only: the embedded database has one process, which wakes its
 * runners in process). A dropped connection is logged and reopened with backoff; notifications sent
 * meanwhile are lost, so every channel is reported once after a reconnect.
 *
 * Resolves after the first attempt to connect, whether it succeeded or not: wake-ups only speed up
 * what polling does anyway, so they must not stop the server from starting.
 */
export async function listen(
  connectionString: string,
  channels: string[],
  onNotify: (channel: string) => void,
  logger: FastifyBaseLogger,
): Promise<Listener> {
  let client: pg.Client | undefined
  let closed = false
  let failures = 0
  let retry: NodeJS.Timeout | undefined

  const deliver = (channel: string) => {
    try {
      onNotify(channel)
    } catch (error) {
      logger.warn({ err: error, channel }, 'a NOTIFY handler failed')
    }
  }

  const connect = async () => {
    const candidate = new pg.Client({ connectionString, keepAlive: true, application_name: 'asset-library-listener' })
    client = candidate
    candidate.on('notification', (message) => deliver(message.channel))
    candidate.on('error', (error) => lost(candidate, error))
    candidate.on('end', () => lost(candidate, new Error('the connection ended')))
    try {
      await candidate.connect()
      for (const channel of channels) await candidate.query(`listen ${candidate.escapeIdentifier(channel)}`)
    } catch (error) {
      lost(candidate, error)
      return
    }
    if (failures > 0) channels.forEach(deliver)
    failures = 0
  }

  // A failing connection can report itself more than once (error, then end); only the first counts.
  const lost = (candidate: pg.Client, error: unknown) => {
    if (closed || client !== candidate) return
    client = undefined
    candidate.end().catch(() => undefined)
    failures += 1
    const delayMs = backoffMs(failures, RECONNECT)
    logger.warn({ err: error, channels, retryInMs: delayMs }, 'the LISTEN connection failed; reconnecting')
    retry = setTimeout(() => void connect(), delayMs)
    retry.unref()
  }

  await connect()
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      await client?.end()
      client = undefined
    },
  }
}
