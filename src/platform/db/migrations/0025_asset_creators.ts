import { sql, type Kysely } from 'kysely'

/**
 * Who did what (issue 37):
 * - `assets.created_by_kind` / `created_by_name`: who pushed the asset, an API key or a user, by the name
 *   it had at the push, as the versions and the trash record theirs. Kept on the row so a list reads it with
 *   no join. Backfilled from each asset's first version (recorded since migration 0018; before it, only a
 *   session's user was known); null where that is unknown too. Trashed assets keep their row as JSON: it
 *   gains the same two fields, so a restore and the trash's records show them.
 * - `collections.share_token_sealed`: the live share link's token, sealed under APP_SECRET (crypto.ts
 *   `seal`), so owners and admins can see the link again; lookups keep using `share_token_hash`. Links made
 *   before this migration have none: their token was never stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table assets
      add column created_by_kind text check (created_by_kind in ('key', 'user')),
      add column created_by_name text;
    update assets set created_by_kind = first.created_by_kind, created_by_name = first.created_by_name
      from asset_versions as first
      where first.asset_id = assets.id and first.version = 1 and first.created_by_kind is not null;
    update trashed_assets set asset = trashed_assets.asset || jsonb_build_object('created_by_kind', first.created_by_kind, 'created_by_name', first.created_by_name)
      from asset_versions as first
      where first.asset_id = trashed_assets.id and first.version = 1 and first.created_by_kind is not null;
    alter table collections add column share_token_sealed text;
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table collections drop column share_token_sealed;
    update trashed_assets set asset = asset - 'created_by_kind' - 'created_by_name';
    alter table assets drop column created_by_name, drop column created_by_kind;
  `.execute(db)
}
