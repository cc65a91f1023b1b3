import type { FastifyBaseLogger } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import { openOwnConnection } from './own-connection.js'

export interface Listener {
  close(): Promise<void>
}

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
  const deliver = (channel: string) => {
    try {
      onNotify(channel)
    } catch (error) {
      logger.warn({ err: error, channel }, 'a NOTIFY handler failed')
    }
  }
  return openOwnConnection({
    connectionString,
    applicationName: 'asset-library-listener',
    prepare: async (client, reconnected) => {
      client.on('notification', (message) => deliver(message.channel))
      for (const channel of channels) await client.query(`listen ${client.escapeIdentifier(channel)}`)
      if (reconnected) channels.forEach(deliver)
    },
    firstAttempt: 'may-fail',
    failure: { message: 'the LISTEN connection failed; reconnecting', context: { channels } },
    logger,
  })
}
