import { sql, type Kysely } from 'kysely'

/** The organization's catalogue (asset types, clients, products, tags), assets, and collections. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The four name lists of an organization share one shape: a name, unique without case.
  for (const table of ['asset_types', 'clients', 'products', 'tags']) {
    await sql`
      create table ${sql.table(table)} (
        id uuid primary key,
        organization_id uuid not null references organizations(id) on delete cascade,
        name text not null,
        created_at timestamptz not null default now()
      );
      create unique index ${sql.id(`${table}_name_key`)} on ${sql.table(table)} (organization_id, lower(name));
    `.execute(db)
  }

  await sql`
    create table assets (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      title text not null default '',
      asset_type text,
      client text,
      product text,
      source_url text,
      created_by_ai boolean not null default true,
      mime_type text not null,
      width integer not null,
      height integer not null,
      byte_size bigint not null,
      sha256 text not null,
      blob_key text not null,
      thumbnail_key text not null,
      -- title, tags, type, client and product, kept by the service so one index serves q=
      search_text text not null default '',
      search tsvector generated always as (to_tsvector('simple', search_text)) stored,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index assets_sha256_key on assets (organization_id, sha256);
    create index assets_org_created_idx on assets (organization_id, created_at desc, id desc);
    create index assets_org_type_idx on assets (organization_id, lower(asset_type));
    create index assets_org_client_idx on assets (organization_id, lower(client));
    create index assets_org_product_idx on assets (organization_id, lower(product));
    create index assets_search_idx on assets using gin (search);

    create table asset_tags (
      asset_id uuid not null references assets(id) on delete cascade,
      tag_id uuid not null references tags(id) on delete cascade,
      primary key (asset_id, tag_id)
    );
    create index asset_tags_tag_idx on asset_tags (tag_id);

    create table collections (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      name text not null,
      description text not null default '',
      kind text not null check (kind in ('manual', 'smart')),
      query jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((kind = 'smart') = (query is not null))
    );
    create unique index collections_name_key on collections (organization_id, lower(name));

    create table collection_assets (
      collection_id uuid not null references collections(id) on delete cascade,
      asset_id uuid not null references assets(id) on delete cascade,
      added_at timestamptz not null default now(),
      primary key (collection_id, asset_id)
    );
    create index collection_assets_asset_idx on collection_assets (asset_id);
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table collection_assets, collections, asset_tags, assets, tags, products, clients, asset_types
  `.execute(db)
}
