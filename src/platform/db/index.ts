import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'
import { startEmbeddedServer } from './embedded.js'
import { applySessionDefaults } from './planner.js'
import type { Database } from './schema.js'
import { startStatisticsKeeper, type StatisticsKeeper } from './statistics.js'

export type { Database } from './schema.js'
export type { StatisticsStatus } from './statistics.js'
export type Db = Kysely<Database>

export interface DatabaseHandle {
  db: Db
  kind: 'postgres' | 'embedded'
  /** PostgreSQL's URL, for a connection of its own outside the pool (a session's lock); none when embedded. */
  url: string | undefined
  /** Keeps the planner's statistics fresh where no autovacuum does (see statistics.ts). */
  statistics: StatisticsKeeper
  close(): Promise<void>
}

export interface DatabaseOptions {
  databaseUrl: string | undefined
  dataDir: string
  poolSize?: number
  logger: FastifyBaseLogger
  /** Embedded only: how often to VACUUM ANALYZE every table, whatever the counters say. */
  vacuumIntervalMs?: number
  /**
   * How often to look for tables whose changes pass autovacuum's thresholds, and analyze or vacuum them:
   * always on the embedded database, on PostgreSQL while its autovacuum is off. 0 turns it off.
   */
  statisticsCheckIntervalMs?: number
  /** Embedded only: the database worker died while serving. Defaults to logging it as fatal. */
  onCrash?: (error: Error) => void
}

const VACUUM_INTERVAL_MS = 60 * 60 * 1000
const STATISTICS_CHECK_INTERVAL_MS = 5_000

/** PostgreSQL when a URL is given, otherwise the embedded PGlite under `dataDir`; Kysely on `pg` either way. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 })
    applySessionDefaults(pool, options.logger)
    return wrap(pool, { kind: 'postgres', url: options.databaseUrl }, options, async () => {})
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
  return wrap(pool, { kind: 'embedded', url: undefined }, options, () => server.close())
}

function wrap(pool: pg.Pool, { kind, url }: Pick<DatabaseHandle, 'kind' | 'url'>, options: DatabaseOptions, closeServer: () => Promise<void>): DatabaseHandle {
  const { logger } = options
  pool.on('error', (error) => logger.error({ err: error }, 'idle database connection failed'))
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  const statistics = startStatisticsKeeper(db, {
    kind,
    checkIntervalMs: options.statisticsCheckIntervalMs ?? STATISTICS_CHECK_INTERVAL_MS,
    fullVacuumIntervalMs: options.vacuumIntervalMs ?? VACUUM_INTERVAL_MS,
    logger,
  })
  let closing: Promise<void> | undefined
  return {
    db,
    kind,
    url,
    statistics,
    close() {
      // Kysely's destroy() skips a pool it never used, so the pool is ended here as well.
      closing ??= statistics
        .stop()
        .then(() => db.destroy())
        .then(() => (pool.ended ? undefined : pool.end()))
        .then(closeServer)
      return closing
    },
  }
}

/** Runs `work` in a transaction, joining the caller's when `db` already is one. */
export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work)
}
