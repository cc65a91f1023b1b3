import { sql, type Kysely } from 'kysely'

/**
 * Nothing is lost (issue 33): versions of an asset, a trash, and an id from the system an asset came from.
 * - `asset_versions` holds every version of every asset, the current one included, live or in the trash:
 *   the files and image facts of each. Version 1 of each existing asset is copied from its row. It has no
 *   foreign key to `assets`, since a trashed asset's versions stay while its row is in `trashed_assets`;
 *   the purge removes them.
 * - The trash is a table of its own: moving an asset there deletes its row from `assets`, so every read,
 *   count, catalogue count and change log that follows `assets` sees it leave with no filter to forget,
 *   and the list costs the same whatever the trash holds. `asset` keeps the row as it was (to_jsonb), and
 *   `collection_ids` its manual collections, to put both back on restore.
 * - The plan counts what is stored: `stored_byte_count` sums the bytes of every version, live or trashed,
 *   and `trashed_count` the assets in the trash, both kept by triggers like the live counters.
 * - `external_id` is unique per organization among live assets; a trashed asset keeps its own in its row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table assets add column version integer not null default 1, add column external_id text;
    create unique index assets_external_id_key on assets (organization_id, external_id) where external_id is not null;

    create table asset_versions (
      asset_id uuid not null,
      version integer not null,
      organization_id uuid not null references organizations(id) on delete cascade,
      sha256 text not null,
      blob_key text not null,
      thumbnail_key text not null,
      mime_type text not null,
      width integer not null,
      height integer not null,
      byte_size bigint not null,
      created_at timestamptz not null default now(),
      created_by_kind text check (created_by_kind in ('key', 'user')),
      created_by_name text,
      primary key (asset_id, version)
    );
    create index asset_versions_sha256_idx on asset_versions (sha256);
    insert into asset_versions (asset_id, version, organization_id, sha256, blob_key, thumbnail_key, mime_type, width, height, byte_size, created_at, created_by_kind, created_by_name)
      select assets.id, 1, assets.organization_id, assets.sha256, assets.blob_key, assets.thumbnail_key, assets.mime_type, assets.width, assets.height,
        assets.byte_size, assets.created_at, case when users.id is null then null else 'user' end, users.name
      from assets left join users on users.id = assets.created_by;

    create table trashed_assets (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      sha256 text not null,
      external_id text,
      asset jsonb not null,
      collection_ids uuid[] not null default '{}',
      deleted_at timestamptz not null default now(),
      purge_at timestamptz not null,
      deleted_by_kind text not null check (deleted_by_kind in ('key', 'user')),
      deleted_by_name text not null
    );
    create index trashed_assets_org_deleted_idx on trashed_assets (organization_id, deleted_at desc, id desc);
    create index trashed_assets_sha256_idx on trashed_assets (organization_id, sha256);
    create index trashed_assets_external_id_idx on trashed_assets (organization_id, external_id) where external_id is not null;
    create index trashed_assets_purge_idx on trashed_assets (purge_at);

    alter table organizations add column stored_byte_count bigint not null default 0, add column trashed_count integer not null default 0;
    update organizations set stored_byte_count = stored.bytes
      from (select organization_id, sum(byte_size) as bytes from asset_versions group by organization_id) as stored
      where stored.organization_id = organizations.id;

    create function count_stored_versions() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update organizations set stored_byte_count = stored_byte_count + changed.bytes
          from (select organization_id, sum(byte_size) as bytes from changed_versions group by organization_id) as changed
          where changed.organization_id = organizations.id;
      else
        update organizations set stored_byte_count = stored_byte_count - changed.bytes
          from (select organization_id, sum(byte_size) as bytes from changed_versions group by organization_id) as changed
          where changed.organization_id = organizations.id;
      end if;
      return null;
    end $$;
    create trigger asset_versions_counted_in after insert on asset_versions referencing new table as changed_versions
      for each statement execute function count_stored_versions();
    create trigger asset_versions_counted_out after delete on asset_versions referencing old table as changed_versions
      for each statement execute function count_stored_versions();

    create function count_trashed_assets() returns trigger language plpgsql as $$
    begin
      update organizations set trashed_count = trashed_count + changed.assets
        from (select organization_id, count(*) * (case when tg_op = 'INSERT' then 1 else -1 end) as assets from changed_trash group by organization_id) as changed
        where changed.organization_id = organizations.id;
      return null;
    end $$;
    create trigger trashed_assets_counted_in after insert on trashed_assets referencing new table as changed_trash
      for each statement execute function count_trashed_assets();
    create trigger trashed_assets_counted_out after delete on trashed_assets referencing old table as changed_trash
      for each statement execute function count_trashed_assets();
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table trashed_assets;
    drop function count_trashed_assets;
    drop table asset_versions;
    drop function count_stored_versions;
    alter table organizations drop column stored_byte_count, drop column trashed_count;
    drop index assets_external_id_key;
    alter table assets drop column version, drop column external_id;
  `.execute(db)
}
