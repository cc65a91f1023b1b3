import { sql, type Kysely } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from './schema.js'

type Db = Kysely<Database>

/** What GET /ready says about the planner's statistics. */
export interface StatisticsStatus {
  /** The server's autovacuum runs (with `track_counts`). Never on the embedded database, which has none. */
  autovacuum: boolean
  /** This process analyzes and vacuums the tables whose changes pass autovacuum's thresholds. */
  analyzer: boolean
  detail: string
}

export interface StatisticsKeeper {
  status(): Promise<StatisticsStatus>
  /** Stops the timers and waits for a pass under way (it stops between two tables). */
  stop(): Promise<void>
}

export interface StatisticsOptions {
  kind: 'postgres' | 'embedded'
  /** How often to look for tables over threshold; 0 turns the check off. */
  checkIntervalMs: number
  /** Embedded only: how often to VACUUM ANALYZE everything (PGlite's counters restart at zero with every start). */
  fullVacuumIntervalMs: number
  logger: FastifyBaseLogger
}

interface DueTable {
  schema: string
  table: string
  vacuum: boolean
  analyze: boolean
}

/** A table whose VACUUM or ANALYZE failed (permissions, say) is left alone this long before it is tried again. */
const FAILURE_BACKOFF_MS = 10 * 60_000
/**
 * A table is visited at most once per this many checks (a minute at the default 5 s, autovacuum's
 * naptime): a VACUUM that cannot remove dead rows an old snapshot still sees leaves the table due, and
 * it must not be scanned again every few seconds.
 */
const CHECKS_BETWEEN_VISITS = 12
/** The same error of the check itself is logged again after this. */
const ERROR_LOG_INTERVAL_MS = 10 * 60_000

/**
 * Keeps the planner's statistics fresh where no autovacuum does: always on the embedded database (PGlite
 * has no autovacuum launcher, although its `autovacuum` setting reads `on`), and on PostgreSQL while the
 * server's autovacuum is off.
 *
 * Every `checkIntervalMs` one small statement reads the cumulative statistics (`n_mod_since_analyze`,
 * `n_dead_tup`, `n_ins_since_vacuum`, which PGlite keeps too) and picks the tables over autovacuum's own
 * thresholds, read from the server's settings: analyze when changes since the last ANALYZE pass
 * `autovacuum_analyze_threshold + autovacuum_analyze_scale_factor × reltuples` (50 + 0.1 × rows by
 * default); vacuum on dead rows, on inserts (for the visibility map, so index-only scans stay cheap) and
 * against transaction-id wraparound. Then it runs one statement per table, so on the embedded database's
 * single connection the requests queued meanwhile go between two tables. Passes never overlap; on
 * PostgreSQL an advisory lock keeps two processes from working at once, and `skip_locked` skips a table
 * that something else is vacuuming.
 */
export function startStatisticsKeeper(db: Db, options: StatisticsOptions): StatisticsKeeper {
  const { kind, checkIntervalMs, logger } = options
  const timers: NodeJS.Timeout[] = []
  const failedUntil = new Map<string, number>()
  const visitedAt = new Map<string, number>()
  let running: Promise<void> | undefined
  let stopped = false
  let fullVacuumDue = false
  let firstPass = true
  let lastError: { message: string; at: number } | undefined

  const tick = (): Promise<void> => {
    if (running || stopped) return running ?? Promise.resolve()
    running = pass()
      .then(() => (lastError = undefined))
      .catch((error: unknown) => {
        const message = (error as Error).message
        if (lastError?.message !== message || Date.now() - lastError.at > ERROR_LOG_INTERVAL_MS) {
          logger.warn({ err: error }, 'keeping planner statistics fresh failed; trying again later')
          lastError = { message, at: Date.now() }
        }
      })
      .finally(() => {
        running = undefined
        // A full vacuum that fell due during a pass runs now, not an interval later.
        if (fullVacuumDue && !stopped) void tick()
      })
    return running
  }

  const pass = async (): Promise<void> => {
    if (firstPass) {
      firstPass = false
      await warnWhenAutovacuumIsOff()
    }
    if (fullVacuumDue) {
      fullVacuumDue = false
      await timed('vacuum analyze (hourly)', () => sql`vacuum analyze`.execute(db))
      return
    }
    if (checkIntervalMs === 0) return
    if (kind === 'embedded') {
      // Statement by statement through the pool: the one connection is free between two tables.
      await maintain(db, await dueTables(db))
      return
    }
    // PostgreSQL: the check runs alone while autovacuum is on (it returns nothing then); only when
    // tables are due, one process takes the pass, and looks again under the lock.
    if ((await dueTables(db)).length === 0) return
    await db.connection().execute(async (connection) => {
      const lock = sql`hashtext('asset-library'), hashtext('statistics')`
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${lock}) as locked`.execute(connection)
      if (!rows[0]?.locked) return
      try {
        await maintain(connection, await dueTables(connection))
      } finally {
        await sql`select pg_advisory_unlock(${lock})`.execute(connection)
      }
    })
  }

  const maintain = async (executor: Db, due: DueTable[]): Promise<void> => {
    for (const table of due) {
      if (stopped) return
      const name = `${table.schema}.${table.table}`
      if ((failedUntil.get(name) ?? 0) > Date.now()) continue
      if (Date.now() - (visitedAt.get(name) ?? -Infinity) < CHECKS_BETWEEN_VISITS * checkIntervalMs) continue
      visitedAt.set(name, Date.now())
      const relation = sql.id(table.schema, table.table)
      try {
        if (table.vacuum) await timed(`vacuum ${name}`, () => sql`vacuum (skip_locked) ${relation}`.execute(executor))
        if (table.analyze) await timed(`analyze ${name}`, () => sql`analyze (skip_locked) ${relation}`.execute(executor))
        failedUntil.delete(name)
      } catch (error) {
        if (stopped) return
        logger.warn({ err: error, table: name }, 'vacuum or analyze failed; the table is left alone for 10 minutes')
        failedUntil.set(name, Date.now() + FAILURE_BACKOFF_MS)
      }
    }
  }

  const timed = async (what: string, work: () => Promise<unknown>): Promise<void> => {
    const started = performance.now()
    await work()
    logger.debug({ ms: Math.round(performance.now() - started) }, what)
  }

  const dueTables = async (executor: Db): Promise<DueTable[]> => (await dueTablesQuery(kind).execute(executor)).rows

  const serverSettings = async () =>
    (
      await sql<{ autovacuum: boolean; track_counts: boolean }>`
        select current_setting('autovacuum')::bool as autovacuum, current_setting('track_counts')::bool as track_counts
      `.execute(db)
    ).rows[0]!

  const status = async (): Promise<StatisticsStatus> => {
    const every = `checking every ${formatInterval(checkIntervalMs)}`
    if (kind === 'embedded') {
      return checkIntervalMs > 0
        ? { autovacuum: false, analyzer: true, detail: `The embedded database has no autovacuum: this process analyzes and vacuums the tables whose changes pass autovacuum's thresholds (${every}), and vacuums everything hourly.` }
        : { autovacuum: false, analyzer: false, detail: 'The embedded database has no autovacuum and STATISTICS_CHECK_INTERVAL_MS is 0: only the hourly VACUUM ANALYZE refreshes the statistics, so lists may pick slow plans after large changes.' }
    }
    const settings = await serverSettings()
    if (!settings.track_counts) {
      return { autovacuum: false, analyzer: false, detail: 'track_counts is off on the database server: nothing records which tables changed, so the planner statistics go stale. Turn track_counts and autovacuum on (see docs/operations.md).' }
    }
    if (settings.autovacuum) return { autovacuum: true, analyzer: false, detail: "The server's autovacuum keeps the planner statistics fresh." }
    return checkIntervalMs > 0
      ? { autovacuum: false, analyzer: true, detail: `Autovacuum is off on the database server: this process analyzes and vacuums the tables whose changes pass autovacuum's thresholds (${every}). Turn autovacuum on (see docs/operations.md).` }
      : { autovacuum: false, analyzer: false, detail: 'Autovacuum is off on the database server and STATISTICS_CHECK_INTERVAL_MS is 0: nothing keeps the planner statistics fresh, so lists may pick slow plans. Turn autovacuum on (see docs/operations.md).' }
  }

  const warnWhenAutovacuumIsOff = async (): Promise<void> => {
    if (kind !== 'postgres') return
    const current = await status()
    if (!current.autovacuum) logger.warn({ statistics: current }, current.detail)
  }

  if (checkIntervalMs > 0) {
    // The first pass (and on PostgreSQL the warning about autovacuum) comes soon after the start.
    timers.push(setTimeout(() => void tick(), Math.min(checkIntervalMs, 1000)))
    timers.push(setInterval(() => void tick(), checkIntervalMs))
  }
  if (kind === 'embedded') {
    timers.push(
      setInterval(() => {
        fullVacuumDue = true
        void tick()
      }, options.fullVacuumIntervalMs),
    )
  }
  for (const timer of timers) timer.unref()

  return {
    status,
    async stop() {
      stopped = true
      for (const timer of timers) clearTimeout(timer)
      await running
    },
  }
}

/**
 * Tables over autovacuum's thresholds, each with what it needs. Catalogs count too (migrations churn
 * pg_attribute and pg_depend, ANALYZE itself pg_statistic); shared catalogs and other sessions'
 * temporary tables do not, and neither do tables this role may not vacuum. On PostgreSQL nothing is due
 * while the server's autovacuum runs.
 */
function dueTablesQuery(kind: 'postgres' | 'embedded') {
  const ours = kind === 'postgres' ? sql`not (current_setting('autovacuum')::bool and current_setting('track_counts')::bool)` : sql`true`
  return sql<DueTable>`
    with settings as (
      select
        current_setting('autovacuum_analyze_threshold')::float8 as analyze_base,
        current_setting('autovacuum_analyze_scale_factor')::float8 as analyze_scale,
        current_setting('autovacuum_vacuum_threshold')::float8 as vacuum_base,
        current_setting('autovacuum_vacuum_scale_factor')::float8 as vacuum_scale,
        -- PostgreSQL 18 caps the dead-row threshold; -1 (or an older server) means no cap.
        coalesce(nullif(current_setting('autovacuum_vacuum_max_threshold', true), '-1')::float8, 'infinity') as vacuum_max,
        nullif(current_setting('autovacuum_vacuum_insert_threshold'), '-1')::float8 as insert_base,
        current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as insert_scale,
        current_setting('autovacuum_freeze_max_age')::float8 as freeze_max_age,
        current_setting('autovacuum_multixact_freeze_max_age')::float8 as multixact_freeze_max_age,
        pg_has_role((select datdba from pg_database where datname = current_database()), 'usage') as database_owner
      where ${ours}
    ),
    tables as (
      select n.nspname as schema, c.relname as "table",
        pg_stat_get_dead_tuples(c.oid) > least(s.vacuum_base + s.vacuum_scale * greatest(c.reltuples, 0), s.vacuum_max)
          or pg_stat_get_ins_since_vacuum(c.oid) > s.insert_base + s.insert_scale * greatest(c.reltuples, 0)
          or age(c.relfrozenxid) > s.freeze_max_age
          or mxid_age(c.relminmxid) > s.multixact_freeze_max_age as "vacuum",
        -- ANALYZE skips pg_statistic, so its counter would never go down (autovacuum leaves it out too).
        c.oid <> 'pg_catalog.pg_statistic'::regclass
          and pg_stat_get_mod_since_analyze(c.oid) > s.analyze_base + s.analyze_scale * greatest(c.reltuples, 0) as "analyze"
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      cross join settings s
      where c.relkind in ('r', 'm') and c.relpersistence <> 't' and not c.relisshared
        and n.nspname not in ('pg_toast', 'information_schema')
        and (s.database_owner or pg_has_role(c.relowner, 'usage'))
    )
    select schema, "table", coalesce("vacuum", false) as "vacuum", coalesce("analyze", false) as "analyze"
    from tables
    where "vacuum" or "analyze"
    order by schema = 'pg_catalog', "table"
  `
}

function formatInterval(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
