import { sql, type Kysely } from 'kysely'

/**
 * Which assets store a blob is asked by content hash, across organizations (a failed push, a delete, the
 * sweep of unreferenced files); the unique index leads with the organization, so it cannot answer that.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index assets_sha256_idx on assets (sha256)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index assets_sha256_idx`.execute(db)
}
