import { sql, type Kysely } from 'kysely'

/**
 * SVG and renditions (issue 34).
 * - `file_text` is the text an image file carries for people (an SVG's `<title>` and `<desc>`), on the
 *   asset and on each version; full text searches it with the type, client and product (weight B).
 *   Re-adding the generated `search` column computes it for every existing row.
 * - `rendition_presets` are an organization's named renditions (`web-1200`, `og-image`); the built-in
 *   `thumbnail` and `original` are not rows.
 * - `renditions` lists every rendition file in the blob store's `renditions/` prefix: by the SHA-256 of
 *   the file it was made from, so the sweep that removes that file removes them; by size and last use,
 *   so `RENDITIONS_MAX_BYTES` evicts the least recently used first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table assets add column file_text text;
    alter table asset_versions add column file_text text;
    drop index assets_search_idx;
    alter table assets drop column search;
    alter table assets add column search tsvector generated always as (asset_library_search_vector(
      title || ' ' || tag_text,
      coalesce(asset_type, '') || ' ' || coalesce(client, '') || ' ' || coalesce(product, '') || ' ' || coalesce(file_text, '')
    )) stored;
    create index assets_search_idx on assets using gin (search);

    create table rendition_presets (
      organization_id uuid not null references organizations(id) on delete cascade,
      name text not null,
      width integer check (width > 0),
      height integer check (height > 0),
      fit text not null default 'contain' check (fit in ('contain', 'cover', 'inside')),
      format text not null check (format in ('png', 'jpeg', 'webp', 'avif')),
      quality integer check (quality between 20 and 100),
      background text check (background ~ '^([0-9a-f]{6}|[0-9a-f]{8})$'),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (organization_id, name)
    );

    create table renditions (
      key text primary key,
      sha256 text not null,
      byte_size bigint not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz not null default now()
    );
    create index renditions_sha256_idx on renditions (sha256);
    create index renditions_last_used_idx on renditions (last_used_at);
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table renditions;
    drop table rendition_presets;
    drop index assets_search_idx;
    alter table assets drop column search;
    alter table assets add column search tsvector generated always as (asset_library_search_vector(
      title || ' ' || tag_text,
      coalesce(asset_type, '') || ' ' || coalesce(client, '') || ' ' || coalesce(product, '')
    )) stored;
    create index assets_search_idx on assets using gin (search);
    alter table asset_versions drop column file_text;
    alter table assets drop column file_text;
  `.execute(db)
}
