import { sql, type Kysely, type RawBuilder } from 'kysely'

/**
 * How many assets of an organization carry each asset type, client and product, kept by triggers like
 * the tag counts (0007), so that a list filtered by one of them has its total, and GET /clients,
 * /products and /asset-types their counts, without counting the library.
 *
 * A row per exact spelling (`name`) under its case-insensitive `key`: filters match the key, so a total
 * is the sum over the key's few spellings, and the catalogue shows the smallest spelling still in use,
 * as its count over the assets did. A row that falls to zero goes.
 *
 * Lock order: the triggers of one event fire in name order, so `assets_named_counted_*` run after the
 * organization's (`assets_counted_*`, `assets_library_versioned`) and before the tags'
 * (`assets_tags_counted_*`). Every statement that changes an organization's assets has locked the
 * organization's row by then, until it commits, so no two statements change one organization's counts at
 * once: a row removed at zero cannot race a statement adding to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Until this migration commits, processes of the previous version cannot change assets between the
    -- backfill's snapshot and the triggers, where a change would be counted by neither.
    lock table assets in share row exclusive mode;
    create table asset_name_counts (
      organization_id uuid not null references organizations(id) on delete cascade,
      field text not null check (field in ('asset_type', 'client', 'product')),
      key text not null,
      name text not null,
      asset_count integer not null,
      primary key (organization_id, field, key, name)
    );
    insert into asset_name_counts (organization_id, field, key, name, asset_count)
      select organization_id, field, lower(name), name, count(*) from assets ${NAMED}
        where name is not null group by organization_id, field, name;

    ${countNamedAssetsFunction(NAMED, sql`asset_type, client, product`)};
    create trigger assets_named_counted_in after insert on assets referencing new table as added_assets
      for each statement execute function count_named_assets();
    create trigger assets_named_counted_out after delete on assets referencing old table as removed_assets
      for each statement execute function count_named_assets();
    create trigger assets_named_counted_again after update on assets referencing old table as assets_before new table as assets_after
      for each statement execute function count_named_assets();
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger assets_named_counted_in on assets;
    drop trigger assets_named_counted_out on assets;
    drop trigger assets_named_counted_again on assets;
    drop function count_named_assets;
    drop table asset_name_counts;
  `.execute(db)
}

/** The names of `rows` (with organization_id, asset_type, client, product), one row per field used. */
export const NAMED = sql`cross join lateral (values ('asset_type', asset_type), ('client', client), ('product', product)) as named(field, name)`

/**
 * The trigger function that keeps `asset_name_counts` for the fields `named` gives of an asset (a
 * lateral join yielding (field, name) rows), reading `columns` of the transition tables.
 */
export function countNamedAssetsFunction(named: RawBuilder<unknown>, columns: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    create or replace function count_named_assets() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${addToNameCounts(named, sql`select organization_id, ${columns}, 1 as delta from added_assets`)};
      elsif tg_op = 'DELETE' then
        ${addToNameCounts(named, sql`select organization_id, ${columns}, -1 as delta from removed_assets`)};
        ${removeEmptyCounts(named, sql`removed_assets`)};
      else
        ${addToNameCounts(
          named,
          sql`
          select organization_id, ${columns}, -1 as delta from assets_before
          union all
          select organization_id, ${columns}, 1 as delta from assets_after`,
        )};
        ${removeEmptyCounts(named, sql`assets_before`)};
      end if;
      return null;
    end $$`
}

/**
 * Adds each (organization, field, name)'s net change among `changes` (rows of organization_id, the
 * named columns and a ±1 delta) to its count. An update that leaves the fields as they were nets to
 * nothing and writes nothing.
 */
function addToNameCounts(named: RawBuilder<unknown>, changes: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    insert into asset_name_counts as counts (organization_id, field, key, name, asset_count)
      select organization_id, field, lower(name), name, sum(delta) from (${changes}) as changed
        ${named}
        where name is not null
        group by organization_id, field, name having sum(delta) <> 0
        order by organization_id, field, lower(name), name
      on conflict (organization_id, field, key, name) do update set asset_count = counts.asset_count + excluded.asset_count`
}

/** Deletes the counts, among the names `left` (a transition table of assets) had by `named`, that fell to zero. */
function removeEmptyCounts(named: RawBuilder<unknown>, left: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    delete from asset_name_counts as counts
      using (select distinct organization_id, field, name from ${left} ${named} where name is not null) as used
      where counts.organization_id = used.organization_id and counts.field = used.field
        and counts.key = lower(used.name) and counts.name = used.name and counts.asset_count = 0`
}
