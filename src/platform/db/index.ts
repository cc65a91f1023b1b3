import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'
import { startEmbeddedServer } from './embedded.js'
import type { Database } from './schema.js'

export type { Database } from './schema.js'
export type Db = Kysely<Database>

export interface DatabaseHandle {
  db: Db
  kind: 'postgres' | 'embedded'
  close(): Promise<void>
}

export interface DatabaseOptions {
  databaseUrl: string | undefined
  dataDir: string
  poolSize?: number
  logger: FastifyBaseLogger
  /** Embedded only: how often to run VACUUM ANALYZE. */
  vacuumIntervalMs?: number
  /** Embedded only: the database worker died while serving. Defaults to logging it as fatal. */
  onCrash?: (error: Error) => void
}

const VACUUM_INTERVAL_MS = 60 * 60 * 1000

/** PostgreSQL when a URL is given, otherwise the embedded PGlite under `dataDir`; Kysely on `pg` either way. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 })
    return wrap(pool, 'postgres', options.logger, async () => {})
  }
  const onCrash =
    options.onCrash ?? ((error: Error) => options.logger.fatal({ err: error }, 'the embedded database stopped; queries will fail'))
  const server = await startEmbeddedServer(options.dataDir, onCrash)
  // The embedded server multiplexes one session: a larger pool only resets connections.
  const pool = new pg.Pool({
    host: server.socketDir,
    port: server.socketPort,
    user: 'postgres',
    database: 'postgres',
    max: 1,
  })
  const handle = wrap(pool, 'embedded', options.logger, () => server.close())
  scheduleVacuum(handle, options.vacuumIntervalMs ?? VACUUM_INTERVAL_MS, options.logger)
  return handle
}

function wrap(
  pool: pg.Pool,
  kind: DatabaseHandle['kind'],
  logger: FastifyBaseLogger,
  closeServer: () => Promise<void>,
): DatabaseHandle {
  pool.on('error', (error) => logger.error({ err: error }, 'idle database connection failed'))
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  let closing: Promise<void> | undefined
  return {
    db,
    kind,
    close() {
      // Kysely's destroy() skips a pool it never used, so the pool is ended here as well.
      closing ??= db
        .destroy()
        .then(() => (pool.ended ? undefined : pool.end()))
        .then(closeServer)
      return closing
    },
  }
}

/** PGlite has no autovacuum. */
function scheduleVacuum(handle: DatabaseHandle, intervalMs: number, logger: FastifyBaseLogger): void {
  const timer = setInterval(() => {
    sql`vacuum analyze`.execute(handle.db).catch((error: unknown) => logger.warn({ err: error }, 'vacuum failed'))
  }, intervalMs)
  timer.unref()
  const close = handle.close
  handle.close = () => {
    clearInterval(timer)
    return close()
  }
}

/** Runs `work` in a transaction, joining the caller's when `db` already is one. */
export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work)
}
