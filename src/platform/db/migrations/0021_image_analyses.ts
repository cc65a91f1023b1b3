import { sql, type Kysely } from 'kysely'
import { SIDE_COLUMNS, assetLoggingFunctions, logChanges, versionMoved, type SideColumns } from './0016_library_changes.js'

/**
 * What the picture shows (issue 36): four derivations that read an asset's current file after the push
 * answers, each with a queue of its own (the claim columns of platform/background/claims.ts, one row
 * per asset, taken with it by its delete) whose committed jobs notify their channel:
 * - `perceptual_hash_jobs`: `assets.perceptual_hash`, a 64-bit hash of the decoded image, and
 *   `perceptual_hash_algorithm`, set when the hash is made or found impossible (an image that cannot be
 *   decoded: the hash stays null). `perceptual_hash_bands` holds each hash's eight 8-bit bands under
 *   B-tree keys, so two hashes within distance 7 meet on at least one band without a scan; the near
 *   duplicates found are kept as pairs (both ways) in `near_duplicate_pairs`.
 * - `palette_jobs`: `assets.colors`, up to six `{hex, share, name}` (empty when the image has none or
 *   cannot be decoded), and `color_names`, the names among them, which `color=` matches through a GIN
 *   index as `tag=` does.
 * - `metadata_jobs`: `assets.metadata`, what the file's EXIF, IPTC and XMP say; the job also stores the
 *   width and height as the image shows (after its EXIF orientation).
 * - `provenance_jobs`: `assets.provenance` (`{source, c2pa}`), and `provenance_source`, which
 *   `provenance=` matches.
 * Each result is null until its job has run, and a new version of the file makes it null again.
 * Every existing asset is queued for all four: the metadata jobs fix the sides of rotated photos.
 *
 * The change log of 0016 keeps, of each side of an asset's change, the two new filter columns; and a
 * `record` row says that an asset's record changed without its row (its near-duplicates), so a list
 * page that shows it is built again. The near-duplicates part (issue 36 part 1) logs those rows: a
 * trigger on `near_duplicate_pairs` writes one per asset whose pairs a statement added or removed (a
 * pair is kept both ways, so both assets are named), through 0016's `logChanges`.
 */
export const ANALYSIS_QUEUES = [
  ['perceptual_hash_jobs', 'asset_library_perceptual_hashes'],
  ['palette_jobs', 'asset_library_palettes'],
  ['metadata_jobs', 'asset_library_metadata'],
  ['provenance_jobs', 'asset_library_provenance'],
] as const

const LOGGED_COLUMNS: SideColumns = [...SIDE_COLUMNS, ['color_names', 'text[]'], ['provenance_source', 'text']]

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table assets
      add column perceptual_hash bigint,
      add column perceptual_hash_algorithm text,
      add column colors jsonb,
      add column color_names text[] not null default '{}',
      add column metadata jsonb,
      add column provenance jsonb,
      add column provenance_source text;
    create index assets_color_names_idx on assets using gin (color_names);
    create index assets_provenance_source on assets (organization_id, provenance_source);

    create table perceptual_hash_bands (
      organization_id uuid not null,
      band smallint not null,
      value smallint not null,
      asset_id uuid not null references assets (id) on delete cascade,
      hash bigint not null,
      primary key (organization_id, band, value, asset_id) include (hash)
    );
    create index perceptual_hash_bands_asset on perceptual_hash_bands (asset_id);

    create table near_duplicate_pairs (
      asset_id uuid not null references assets (id) on delete cascade,
      other_id uuid not null references assets (id) on delete cascade,
      organization_id uuid not null,
      distance smallint not null,
      primary key (asset_id, other_id)
    );
    create index near_duplicate_pairs_closest on near_duplicate_pairs (asset_id, distance, other_id);
    create index near_duplicate_pairs_other on near_duplicate_pairs (other_id);
    create index near_duplicate_pairs_organization on near_duplicate_pairs (organization_id, asset_id);

    ${sql.join(
      ANALYSIS_QUEUES.map(
        ([table, channel]) => sql`
          create table ${sql.table(table)} (
            asset_id uuid primary key references assets (id) on delete cascade,
            next_attempt_at timestamptz not null default now(),
            attempts integer not null default 0,
            locked_by text,
            locked_until timestamptz,
            last_error text
          );
          create index ${sql.raw(`${table}_due`)} on ${sql.table(table)} (next_attempt_at);
          create trigger ${sql.raw(`${table}_notify`)} after insert or update of next_attempt_at on ${sql.table(table)}
            for each row when (new.next_attempt_at <= now())
            execute function notify_channel(${sql.lit(channel)});
          insert into ${sql.table(table)} (asset_id) select id from assets;`,
      ),
      sql``,
    )}

    alter table library_changes
      add column before_color_names text[], add column after_color_names text[],
      add column before_provenance_source text, add column after_provenance_source text,
      drop constraint library_changes_kind_check,
      add constraint library_changes_kind_check check (kind in ('asset', 'member', 'record', 'all', 'none'));
    ${assetLoggingFunctions(LOGGED_COLUMNS)}

    create function log_near_duplicate_changes() returns trigger language plpgsql as $$
    begin
      ${logChanges(
        versionMoved(sql`select organization_id from changed_pairs`),
        sql`select distinct organization_id, 'record' as kind, asset_id, null::uuid as collection_id from changed_pairs`,
      )};
      return null;
    end $$;
    create trigger near_duplicate_pairs_added after insert on near_duplicate_pairs referencing new table as changed_pairs
      for each statement execute function log_near_duplicate_changes();
    create trigger near_duplicate_pairs_removed after delete on near_duplicate_pairs referencing old table as changed_pairs
      for each statement execute function log_near_duplicate_changes();
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ${assetLoggingFunctions(SIDE_COLUMNS)}
    delete from library_changes where kind = 'record';
    alter table library_changes
      drop column before_color_names, drop column after_color_names,
      drop column before_provenance_source, drop column after_provenance_source,
      drop constraint library_changes_kind_check,
      add constraint library_changes_kind_check check (kind in ('asset', 'member', 'all', 'none'));
    ${sql.raw(ANALYSIS_QUEUES.map(([table]) => `drop table ${table};`).join('\n'))}
    drop table near_duplicate_pairs;
    drop function log_near_duplicate_changes;
    drop table perceptual_hash_bands;
    alter table assets
      drop column perceptual_hash, drop column perceptual_hash_algorithm, drop column colors, drop column color_names,
      drop column metadata, drop column provenance, drop column provenance_source;
  `.execute(db)
}
