import type pg from 'pg'
import type { FastifyBaseLogger } from 'fastify'

/**
 * The planner's cost of a page read out of order, relative to one read in order (PostgreSQL's default
 * is 4, for spinning disks). On SSDs and cached files the two cost about the same, and with 4 the planner
 * preferred reading the whole `assets` table, matching every row's words, over the full-text index for a
 * `q=` that 10% of 10,000 assets match: 9.4 ms against 1.3 ms for the count, measured in bench/list.ts.
 */
export const SSD_RANDOM_PAGE_COST = '1.1'

/**
 * What each new PostgreSQL connection sets unless the server's own value was set by someone (in
 * postgresql.conf, ALTER SYSTEM, ALTER DATABASE or ROLE, or the connection URL's `options`): an
 * operator's choice wins.
 * - random_page_cost: SSD_RANDOM_PAGE_COST (see there).
 * - jit: off. Our statements are short index reads, but a never-taken branch of the search statement is
 *   costed at a large share of the table, which at 1M assets passed `jit_above_cost`: every text search
 *   then compiled 62 functions (33 ms of a 42 ms p95; 8.8 ms with JIT off, issue 39's scale model).
 */
export const SESSION_DEFAULTS: Record<string, string> = { random_page_cost: SSD_RANDOM_PAGE_COST, jit: 'off' }

/** Sets SESSION_DEFAULTS on every new connection of the pool, in one statement sent before any other. */
export function applySessionDefaults(pool: pg.Pool, logger: FastifyBaseLogger): void {
  const wanted = Object.entries(SESSION_DEFAULTS)
  const values = wanted.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(', ')
  const statement = `select set_config(name, value, false) from (values ${values}) as wanted (name, value) join pg_settings using (name) where source = 'default'`
  pool.on('connect', (client) => {
    client
      .query(statement, wanted.flat())
      .catch((error: unknown) => logger.warn({ err: error }, 'could not apply the session defaults on a new database connection'))
  })
}
