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
 * On PostgreSQL, each new connection of the pool takes SSD_RANDOM_PAGE_COST unless the server's own
 * `random_page_cost` was set by someone (in postgresql.conf, ALTER SYSTEM, ALTER DATABASE or ROLE, or
 * the connection URL's `options`): an operator's choice wins. One statement, sent before any other on the
 * connection.
 */
export function preferSsdCosts(pool: pg.Pool, logger: FastifyBaseLogger): void {
  pool.on('connect', (client) => {
    client
      .query(
        `select set_config('random_page_cost', '${SSD_RANDOM_PAGE_COST}', false)
         where (select source from pg_settings where name = 'random_page_cost') = 'default'`,
      )
      .catch((error: unknown) => logger.warn({ err: error }, 'could not set random_page_cost on a new database connection'))
  })
}
