import { sql, type Kysely } from 'kysely'
import { countNamedAssetsFunction, NAMED as NAMED_BEFORE } from './0009_name_counts.js'

/**
 * How many assets of an organization have each colour name in their palette (`color_names`) and each
 * declared origin (`provenance_source`), kept in `asset_name_counts` (0009) beside the asset types,
 * clients and products, by the same trigger: `color=` or `provenance=` alone then has its total from
 * one lookup instead of a count over the library (bench/color-filter.ts measured a lone `color=white`
 * 9 to 18 times slower than a lone tag of the same size before).
 *
 * A push inserts the asset with no colour and no origin; the analyses' updates add them, and a new
 * version's update, a trash (delete) and a restore (insert) take them away and back, all through the
 * transition tables the trigger already reads.
 */
const FIELDS_BEFORE = sql`asset_type, client, product`
const FIELDS_NOW = sql`asset_type, client, product, provenance_source, color_names`

/** One (field, name) row per field an asset uses, its colour names one row each. */
const NAMED_NOW = sql`cross join lateral (
  select * from (values ('asset_type', asset_type), ('client', client), ('product', product), ('provenance', provenance_source)) as scalar (field, name)
  union all
  select 'color', colour_name from unnest(color_names) as colour_name
) as named (field, name)`

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- As in 0009: no change between the backfill's snapshot and the new trigger function is counted by neither.
    lock table assets in share row exclusive mode;
    alter table asset_name_counts drop constraint asset_name_counts_field_check;
    alter table asset_name_counts add constraint asset_name_counts_field_check check (field in ('asset_type', 'client', 'product', 'provenance', 'color'));
    insert into asset_name_counts (organization_id, field, key, name, asset_count)
      select organization_id, field, lower(name), name, count(*) from assets ${NAMED_NOW}
        where name is not null and field in ('provenance', 'color') group by organization_id, field, name;
    ${countNamedAssetsFunction(NAMED_NOW, FIELDS_NOW)};
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    lock table assets in share row exclusive mode;
    ${countNamedAssetsFunction(NAMED_BEFORE, FIELDS_BEFORE)};
    delete from asset_name_counts where field in ('provenance', 'color');
    alter table asset_name_counts drop constraint asset_name_counts_field_check;
    alter table asset_name_counts add constraint asset_name_counts_field_check check (field in ('asset_type', 'client', 'product'));
  `.execute(db)
}
