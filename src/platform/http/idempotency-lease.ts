import { randomInt } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { sql, type RawBuilder, type SqlBool } from 'kysely'
import { openOwnConnection } from '../background/own-connection.js'
import type { DatabaseHandle } from '../db/index.js'

/**
 * The first key of the advisory locks that are process leases (`pg_advisory_lock(int, int)`); the second
 * is the lease's id. Other locks of this codebase take one bigint key, which PostgreSQL keeps apart.
 */
const LEASES = 0x1de7

/**
 * A serving process's proof of life, held as long as it runs: a session-level advisory lock, which the
 * database drops as soon as the process's session ends. A process that is killed (or crashes) takes its
 * session with it: on PostgreSQL the kernel closes its socket and the server ends that backend at once;
 * the embedded database lives inside the process. A key claimed by a request names its process's lease,
 * so a retry tells a request still running (409) from one that died with its process (run again at once),
 * instead of waiting out the claim's 60 s.
 */
export interface ProcessLease {
  /** Written into every claim this process makes (see `claimOf`). */
  readonly id: number
  close(): Promise<void>
}

/**
 * Takes this process's lease: on PostgreSQL on a connection of its own (the pool's come and go), opened
 * again if it drops; on the embedded database in its one session, which lasts as long as the process.
 */
export async function holdProcessLease(database: DatabaseHandle, logger: FastifyBaseLogger): Promise<ProcessLease> {
  if (database.url !== undefined) return holdOnOwnConnection(database.url, logger)
  const { db } = database
  const id = await newLease(async (candidate) => (await sql<{ taken: boolean }>`select pg_try_advisory_lock(${LEASES}, ${candidate}) as taken`.execute(db)).rows[0]!.taken)
  return {
    id,
    // A database closed first has ended the session, and the lease with it.
    close: () => sql`select pg_advisory_unlock(${LEASES}, ${id})`.execute(db).then(() => undefined, () => undefined),
  }
}

/**
 * This process's lease, taken when a request first claims a key (building the app, as the OpenAPI
 * generator does, touches no database) and let go at `close`. A failed attempt is tried again by the next
 * request.
 */
export function leaseOnFirstUse(database: DatabaseHandle, logger: FastifyBaseLogger): { get(): Promise<ProcessLease>; close(): Promise<void> } {
  let taking: Promise<ProcessLease> | undefined
  return {
    get() {
      taking ??= holdProcessLease(database, logger).catch((error: unknown) => {
        taking = undefined
        throw error
      })
      return taking
    },
    async close() {
      const taken = await taking?.catch(() => undefined)
      taking = undefined
      await taken?.close()
    },
  }
}

/** A random id (a positive int4, as `pg_locks` shows it in `objid`) that no live process holds, locked by `tryLock`. */
async function newLease(tryLock: (id: number) => Promise<boolean>): Promise<number> {
  for (;;) {
    const id = randomInt(1, 2 ** 31)
    if (await tryLock(id)) return id
  }
}

/**
 * The lease on a connection of its own. While that connection is down (the database restarted, say) the
 * process's keys look abandoned, and a retry in that window runs again: as after a crash, which is what a
 * restart of the database means for the requests of that moment. Reconnected, it takes the same lease
 * again, waiting if need be for the database to let the lost session go.
 */
async function holdOnOwnConnection(connectionString: string, logger: FastifyBaseLogger): Promise<ProcessLease> {
  let id = 0
  const connection = await openOwnConnection({
    connectionString,
    applicationName: 'asset-library-lease',
    prepare: async (client, reconnected) => {
      if (reconnected) await client.query('select pg_advisory_lock($1, $2)', [LEASES, id])
      else id = await newLease(async (candidate) => (await client.query<{ taken: boolean }>('select pg_try_advisory_lock($1, $2) as taken', [LEASES, candidate])).rows[0]!.taken)
    },
    // A server that cannot reach its database does not start.
    firstAttempt: 'must-succeed',
    failure: { message: 'the connection holding this process\u2019s Idempotency-Key lease failed; reconnecting' },
    logger,
  })
  return { id, close: () => connection.close() }
}

/** A claim token naming the lease of the process that makes it: `<lease id>:<random>`. */
export function claimOf(lease: ProcessLease, random: string): string {
  return `${lease.id}:${random}`
}

/**
 * Whether the process named in `claim` no longer holds its lease, in this database (advisory locks are
 * per database). A claim without a lease id (from before leases) is never taken for abandoned.
 */
export function abandoned(claim: RawBuilder<string>): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${claim} like '%:%' and not exists (
    select 1 from pg_locks
    where locktype = 'advisory' and classid = ${LEASES} and objsubid = 2 and granted
      and database = (select oid from pg_database where datname = current_database())
      and ${claim} like objid::text || ':%'
  ))`
}

