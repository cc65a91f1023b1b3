import { sql, type Kysely } from 'kysely'

/**
 * The answers kept for `Idempotency-Key` on /api/v1 writes (issue 23): one row per organization, caller
 * (`key:<api key id>` or `user:<user id>`) and key value. A row without a `status` is a request still
 * running, held until `locked_until`; with one, it is the first answer, replayed for 24 h from `created_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      organization_id uuid not null references organizations(id) on delete cascade,
      caller text not null,
      key text not null,
      fingerprint text not null,
      claim text not null,
      locked_until timestamptz not null,
      status smallint,
      headers jsonb,
      body text,
      created_at timestamptz not null default now(),
      primary key (organization_id, caller, key)
    );
    create index idempotency_keys_created_idx on idempotency_keys (created_at);
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table idempotency_keys`.execute(db)
}
