import { sql, type Kysely } from 'kysely'

/**
 * The password reset link a user asked for by email: one per user, so asking again replaces it (the
 * older link stops working), and using it deletes it (single use). Only the token's SHA-256 is kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table password_resets (
      user_id uuid primary key references users(id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null
    );
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table password_resets`.execute(db)
}
