import { sql, type Kysely } from 'kysely'

/**
 * A key's own per-window limits in the `expensive` and `cheap` buckets, for bulk imports; null keeps the
 * server's (`RATE_LIMIT_EXPENSIVE`, `RATE_LIMIT_CHEAP`). The API caps them (see the keys module); the
 * table only refuses what no limit can be.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table api_keys
      add column limit_expensive integer check (limit_expensive > 0),
      add column limit_cheap integer check (limit_cheap > 0);
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_keys drop column limit_cheap, drop column limit_expensive`.execute(db)
}
