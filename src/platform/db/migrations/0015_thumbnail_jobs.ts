import { sql, type Kysely } from 'kysely'

/**
 * Thumbnails are made after the push's commit, not before it answers (issue 25):
 * - `thumbnail_jobs` holds the thumbnails still to make, one row per pushed asset, inserted by the push's
 *   statement and claimed by the background runner (the columns of platform/background/claims.ts). A row
 *   is deleted once its thumbnail exists or its image is found undecodable; its asset's delete takes it.
 * - `assets.thumbnail_failure` says why an image that passed its header could not be decoded: the asset
 *   stays, its thumbnail URL answers 404 `thumbnail_unavailable`. Null for every other asset.
 * Existing assets have their thumbnails already, so no job is queued for them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table assets add column thumbnail_failure text;
    create table thumbnail_jobs (
      asset_id uuid primary key references assets (id) on delete cascade,
      next_attempt_at timestamptz not null default now(),
      attempts integer not null default 0,
      locked_by text,
      locked_until timestamptz,
      last_error text
    );
    create index thumbnail_jobs_due on thumbnail_jobs (next_attempt_at);
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table thumbnail_jobs;
    alter table assets drop column thumbnail_failure;
  `.execute(db)
}
