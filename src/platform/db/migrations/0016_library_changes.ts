import { sql, type Kysely, type RawBuilder } from 'kysely'

/**
 * A short log of what each move of `organizations.library_version` (0008) changed, so a list page kept
 * under an older version can be reused when none of the changes since could alter it (see
 * `unchangedSince` in the assets store). The triggers that move the version now write the log in the
 * same statement, every move at least one row under the version it moved to:
 * - `asset`: an asset inserted, updated or deleted, with what a filter reads of it before and after
 *   (`*_exists` false on the side where it is not);
 * - `member`: an asset added to or removed from a manual collection;
 * - `all`: anything may have changed (a collection renamed or deleted, or more than
 *   `LOGGED_PER_STATEMENT` rows of one organization changed by one statement);
 * - `none`: nothing a list shows changed (a collection's description, sharing or query).
 * A reader knows the log is whole since a version when it holds as many versions since as the
 * organization moved; a version moved by anything that does not log is a gap, and a gap is "changed".
 *
 * Each logging statement drops its organization's rows more than `KEPT_VERSIONS` versions old, so the
 * log stays bounded by about `KEPT_VERSIONS` × `LOGGED_PER_STATEMENT` rows per organization, and a page
 * older than that is rebuilt.
 */
const LOGGED_PER_STATEMENT = 100
const KEPT_VERSIONS = 1000

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table library_changes (
      organization_id uuid not null references organizations(id) on delete cascade,
      version bigint not null,
      kind text not null check (kind in ('asset', 'member', 'all', 'none')),
      asset_id uuid,
      collection_id uuid,
      ${sql.join(['before', 'after'].map((side) => sql.raw(SIDE_COLUMNS.map(([name, type]) => `${side}_${name} ${type}`).join(', '))))}
    );
    create index library_changes_since on library_changes (organization_id, version);

    ${assetLoggingFunctions(SIDE_COLUMNS)}
    drop trigger assets_library_versioned on assets;
    -- The same name, so it fires where it did among the triggers of an update (see 0008 and 0009).
    create trigger assets_library_versioned after update on assets referencing old table as assets_before new table as assets_after
      for each statement execute function log_asset_updates();

    create or replace function bump_library_version_of_members() returns trigger language plpgsql as $$
    begin
      ${logChanges(
        versionMoved(sql`select collections.organization_id from collections join changed_members on changed_members.collection_id = collections.id`),
        sql`select collections.organization_id, 'member' as kind, changed_members.asset_id, changed_members.collection_id
          from changed_members join collections on collections.id = changed_members.collection_id`,
      )};
      return null;
    end $$;

    create function log_collection_updates() returns trigger language plpgsql as $$
    begin
      ${logChanges(
        versionMoved(sql`select organization_id from collections_after`),
        sql`select distinct on (changed.organization_id) changed.organization_id,
            case when changed.name is distinct from previous.name then 'all' else 'none' end as kind, null::uuid as asset_id, null::uuid as collection_id
          from collections_after as changed join collections_before as previous using (id)
          order by changed.organization_id, changed.name is distinct from previous.name desc`,
      )};
      return null;
    end $$;
    drop trigger collections_versioned_update on collections;
    create trigger collections_versioned_update after update on collections referencing old table as collections_before new table as collections_after
      for each statement execute function log_collection_updates();

    -- A deleted collection's members are removed after it, when their trigger no longer finds its organization.
    create function log_collection_deletes() returns trigger language plpgsql as $$
    begin
      ${logChanges(versionMoved(sql`select organization_id from changed_rows`), sql`select distinct organization_id, 'all' as kind, null::uuid as asset_id, null::uuid as collection_id from changed_rows`)};
      return null;
    end $$;
    drop trigger collections_versioned_delete on collections;
    create trigger collections_versioned_delete after delete on collections referencing old table as changed_rows
      for each statement execute function log_collection_deletes();
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger assets_library_versioned on assets;
    create trigger assets_library_versioned after update on assets referencing new table as changed_rows
      for each statement execute function bump_library_version();
    drop trigger collections_versioned_update on collections;
    create trigger collections_versioned_update after update on collections referencing new table as changed_rows
      for each statement execute function bump_library_version();
    drop trigger collections_versioned_delete on collections;
    create trigger collections_versioned_delete after delete on collections referencing old table as changed_rows
      for each statement execute function bump_library_version();
    drop function log_asset_updates, log_collection_updates, log_collection_deletes;

    create or replace function bump_library_version_of_members() returns trigger language plpgsql as $$
    begin
      update organizations set library_version = library_version + 1
        where id in (select collections.organization_id from collections join changed_members on changed_members.collection_id = collections.id);
      return null;
    end $$;
    ${sql.raw(['+', '-'].map((sign) => `
    create or replace function ${COUNTER_FUNCTIONS[sign as '+' | '-']}() returns trigger language plpgsql as $$
    begin
      update organizations set asset_count = asset_count ${sign} changed.assets, byte_count = byte_count ${sign} changed.bytes, library_version = library_version + 1
        from (select organization_id, count(*) as assets, sum(byte_size) as bytes from ${sign === '+' ? 'added_assets' : 'removed_assets'} group by organization_id) as changed
        where changed.organization_id = organizations.id;
      return null;
    end $$;`).join(''))}
    drop table library_changes;
  `.execute(db)
}

const COUNTER_FUNCTIONS = { '+': 'count_added_assets', '-': 'count_removed_assets' }

/** What the log keeps of an asset on each side of a change: a column and its type. */
export type SideColumns = ReadonlyArray<readonly [string, string]>

/** What this migration's log keeps of each side: what the list's filters read then (0021 adds more). */
export const SIDE_COLUMNS = [
  ['exists', 'boolean'],
  ['asset_type', 'text'],
  ['client', 'text'],
  ['product', 'text'],
  ['tag_keys', 'text[]'],
  ['search', 'tsvector'],
] as const

/** An update of organizations, returning `id` and the moved `version`: the counters of 0007, and the version, as 0008 moved them. */
function countersMoved(sign: '+' | '-', rows: string): RawBuilder<unknown> {
  return sql.raw(`
    update organizations set asset_count = asset_count ${sign} changed.assets, byte_count = byte_count ${sign} changed.bytes, library_version = library_version + 1
      from (select organization_id, count(*) as assets, sum(byte_size) as bytes from ${rows} group by organization_id) as changed
      where changed.organization_id = organizations.id
      returning organizations.id, organizations.library_version as version`)
}

/** Moves the version of the organizations `organizations` selects, returning `id` and the moved `version`. */
export function versionMoved(organizations: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`update organizations set library_version = library_version + 1 where id in (${organizations}) returning id, library_version as version`
}

/**
 * One statement: `moved` (an update of organizations returning `id`, `version`), then a log row per
 * `changes` row (organization_id, kind, asset_id, collection_id, and optionally the `sides` columns of both
 * sides) under its organization's new version, or one `all` row for an organization with more than
 * LOGGED_PER_STATEMENT; and the organization's rows past KEPT_VERSIONS go. The organizations `moved`
 * does not find (one being deleted) log nothing.
 */
export function logChanges(moved: RawBuilder<unknown>, changes: RawBuilder<unknown>, sides: SideColumns | null = null): RawBuilder<unknown> {
  const sideColumns = sides ? `, ${['before', 'after'].flatMap((side) => sides.map(([name]) => `${side}_${name}`)).join(', ')}` : ''
  return sql`
    with moved as (${moved}),
    pruned as (
      delete from library_changes using moved
      where library_changes.organization_id = moved.id and library_changes.version <= moved.version - ${sql.lit(KEPT_VERSIONS)}
    ),
    changes as (select *, count(*) over (partition by organization_id) as in_statement from (${changes}) as changes)
    insert into library_changes (organization_id, version, kind, asset_id, collection_id${sql.raw(sideColumns)})
      select moved.id, moved.version, changes.kind, changes.asset_id, changes.collection_id${sql.raw(sideColumns.replace(/, /g, ', changes.'))}
        from moved join changes on changes.organization_id = moved.id
        where changes.in_statement <= ${sql.lit(LOGGED_PER_STATEMENT)}
      union all
      select moved.id, moved.version, 'all', null, null${sql.raw(sideColumns.replace(/, [a-z_]+/g, ', null'))}
        from moved where (select count(*) from changes where changes.organization_id = moved.id) > ${sql.lit(LOGGED_PER_STATEMENT)}`
}

/**
 * The three functions that log an asset's inserts, deletes and updates with `columns` of each side
 * (`create or replace`): a later migration that gives a filter a new column re-creates them with it.
 */
export function assetLoggingFunctions(columns: SideColumns): RawBuilder<unknown> {
  return sql`
    create or replace function count_added_assets() returns trigger language plpgsql as $$
    begin
      ${logAssetChanges(columns, countersMoved('+', 'added_assets'), sql`from added_assets as changed`, { before: null, after: 'changed' })};
      return null;
    end $$;
    create or replace function count_removed_assets() returns trigger language plpgsql as $$
    begin
      ${logAssetChanges(columns, countersMoved('-', 'removed_assets'), sql`from removed_assets as changed`, { before: 'changed', after: null })};
      return null;
    end $$;
    create or replace function log_asset_updates() returns trigger language plpgsql as $$
    begin
      ${logAssetChanges(columns, versionMoved(sql`select organization_id from assets_after`), sql`from assets_after as changed join assets_before as previous using (id)`, { before: 'previous', after: 'changed' })};
      return null;
    end $$;`
}

/** `logChanges` for assets: `from` names the changed rows, and `sides` which of its tables is the asset before and after (null: none). */
function logAssetChanges(columns: SideColumns, moved: RawBuilder<unknown>, from: RawBuilder<unknown>, sides: { before: string | null; after: string | null }): RawBuilder<unknown> {
  const side = (name: 'before' | 'after') => {
    const table = sides[name]
    return columns.map(([column, type]) =>
      column === 'exists' ? `${table !== null} as ${name}_exists` : `${table === null ? `null::${type}` : `${table}.${column}`} as ${name}_${column}`,
    ).join(', ')
  }
  return logChanges(moved, sql`select changed.organization_id, 'asset' as kind, changed.id as asset_id, null::uuid as collection_id, ${sql.raw(side('before'))}, ${sql.raw(side('after'))} ${from}`, columns)
}
