import { sql, type Kysely } from 'kysely'

/** Public share links: only a hash of the link's token is kept, like API keys. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table collections add column share_token_hash text unique;
    alter table collections add column shared_at timestamptz;
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table collections drop column share_token_hash, drop column shared_at`.execute(db)
}
