import { sql, type Kysely } from 'kysely'

/**
 * What the picture shows, as a vector (issue 38): one row per asset in `asset_image_embeddings`, the
 * CLIP embedding of its current file, made by the image provider (`IMAGE_EMBEDDING_PROVIDER`) from a
 * 224 × 224 rendition after the push answers. The row is the derivation's queue too (the claim columns
 * of platform/background/claims.ts): a push, a restore or a new version makes it due; an organization
 * with AI off keeps it parked (next_attempt_at null), as its texts are. `embedding` (pgvector's type) is
 * added by migrate() where pgvector is, as asset_embeddings' is; `model` and `dimensions` say what made
 * it, so a change of model re-embeds and search never compares vectors of two models.
 * `embedded_sha256` is the file the vector was made from; a file that cannot be decoded is done with no
 * vector. Rows are written only while an image provider is configured: the start of a process that has
 * one queues the assets without a row (all of them, the first time), so the table starts empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table asset_image_embeddings (
      asset_id uuid primary key references assets (id) on delete cascade,
      organization_id uuid not null references organizations (id) on delete cascade,
      embedded_sha256 text,
      model text,
      dimensions integer,
      embedded_at timestamptz,
      next_attempt_at timestamptz,
      attempts integer not null default 0,
      locked_by text,
      locked_until timestamptz,
      last_error text
    );
    create index asset_image_embeddings_due_idx on asset_image_embeddings (next_attempt_at) where next_attempt_at is not null;
    create index asset_image_embeddings_org_idx on asset_image_embeddings (organization_id, model, dimensions);
    create trigger asset_image_embeddings_notify after insert or update of next_attempt_at on asset_image_embeddings
      for each row when (new.next_attempt_at is not null and new.next_attempt_at <= now())
      execute function notify_channel('asset_library_image_embeddings');
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table asset_image_embeddings`.execute(db)
}
