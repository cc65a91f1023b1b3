import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { Page } from '../../platform/http/pagination.js'
import { uuidv7 } from '../../platform/ids.js'

export type RegistryTable = 'asset_types' | 'clients' | 'products'
export type AssetColumn = 'asset_type' | 'client' | 'product'

export const DEFAULT_ASSET_TYPES = ['Banner', 'Icon', 'Illustration', 'Logo', 'Mockup', 'Photo', 'Presentation', 'Social post', 'Other']

/** Adds names to a registry; names already there (in any case) are left as they are. */
export async function register(db: Db, table: RegistryTable, organizationId: string, names: string[]): Promise<void> {
  if (names.length === 0) return
  await db
    .insertInto(table)
    .values(names.map((name) => ({ id: uuidv7(), organization_id: organizationId, name })))
    .onConflict((oc) => oc.expression(sql`organization_id, lower(name)`).doNothing())
    .execute()
}

export async function unregister(db: Db, table: RegistryTable, organizationId: string, name: string): Promise<boolean> {
  const result = await db
    .deleteFrom(table)
    .where('organization_id', '=', organizationId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** The registered spelling of `name`, matched case-insensitively. */
export async function registeredName(db: Db, table: RegistryTable, organizationId: string, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom(table)
    .select('name')
    .where('organization_id', '=', organizationId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst()
  return row?.name
}

export async function registeredNames(db: Db, table: RegistryTable, organizationId: string): Promise<string[]> {
  const rows = await db.selectFrom(table).select('name').where('organization_id', '=', organizationId).orderBy(sql`lower(name)`).execute()
  return rows.map((row) => row.name)
}

export interface CatalogEntry {
  name: string
  registered: boolean
  asset_count: number
}

export interface ListOptions {
  prefix?: string
  page: Page
}

/**
 * Registered names and the names assets use (from their kept counts), merged case-insensitively, most used first.
 * `onlyRegistered` lists the registry alone (the asset-type catalogue).
 */
export async function listEntries(
  db: Db,
  table: RegistryTable,
  column: AssetColumn,
  organizationId: string,
  options: ListOptions & { onlyRegistered: boolean },
): Promise<{ entries: CatalogEntry[]; total: number }> {
  const join = options.onlyRegistered ? sql`left join` : sql`full join`
  return pageOfRows<CatalogEntry>(
    db,
    sql`
      with used as (
        select key, min(name) as name, sum(asset_count)::int as n
        from asset_name_counts where organization_id = ${organizationId} and field = ${column} and asset_count > 0
        group by key
      ),
      registered as (
        select lower(name) as key, name from ${sql.table(table)} where organization_id = ${organizationId}
      )
      select coalesce(registered.name, used.name) as name, registered.key is not null as registered,
             coalesce(used.n, 0) as asset_count
      from registered ${join} used on registered.key = used.key
    `,
    options,
  )
}

export function listTags(db: Db, organizationId: string, options: ListOptions) {
  return pageOfRows<{ name: string; asset_count: number }>(
    db,
    sql`select name, asset_count from tags where organization_id = ${organizationId}`,
    options,
  )
}

/** One page of `rows` (which have name and asset_count) filtered by name prefix, with the total, in one query. */
async function pageOfRows<T>(db: Db, rows: RawBuilder<unknown>, options: ListOptions): Promise<{ entries: T[]; total: number }> {
  const prefix = options.prefix ? `${escapeLike(options.prefix.toLowerCase())}%` : '%'
  const result = await sql<{ total: number; entries: T[] }>`
    with filtered as (select * from (${rows}) as all_rows where lower(name) like ${prefix})
    select (select count(*)::int from filtered) as total,
           coalesce((select json_agg(page order by page.asset_count desc, lower(page.name)) from (
             select * from filtered order by asset_count desc, lower(name)
             limit ${options.page.limit} offset ${options.page.offset}
           ) as page), '[]') as entries
  `.execute(db)
  const row = result.rows[0]!
  return { entries: row.entries, total: row.total }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** A field whose assets are counted per name in `asset_name_counts`: a catalogue column, the declared origin, a colour name. */
export type CountedField = AssetColumn | 'provenance' | 'color'

/** A scalar subquery: how many assets have `name` (any spelling) as their `column` (kept by triggers, so no count). */
export function namedCountOf(column: CountedField, organizationId: string, name: string): RawBuilder<number> {
  return sql<number>`coalesce((select sum(asset_count)::int from asset_name_counts where organization_id = ${organizationId} and field = ${column} and key = ${name.toLowerCase()}), 0)`
}

/** A scalar subquery: the registered spelling of `name` (matched case-insensitively), or null. */
export function registeredNameOf(table: RegistryTable, organizationId: string, name: string): RawBuilder<string | null> {
  return sql<string | null>`(select name from ${sql.table(table)} where organization_id = ${organizationId} and lower(name) = ${name.toLowerCase()})`
}

/** A scalar subquery: the catalogue's spellings of those of `names` it holds (matched case-insensitively). */
export function knownTagsOf(organizationId: string, names: string[]): RawBuilder<string[]> {
  const keys = names.map((name) => name.toLowerCase())
  return sql<string[]>`(select coalesce(array_agg(name), '{}') from tags where organization_id = ${organizationId} and lower(name) = any(${keys}::text[]))`
}

/** A scalar subquery: how many assets carry the tag `name` (kept by triggers, so no count). */
export function taggedCountOf(organizationId: string, name: string): RawBuilder<number> {
  return sql<number>`coalesce((select asset_count from tags where organization_id = ${organizationId} and lower(name) = ${name.toLowerCase()}), 0)`
}

/**
 * Adds tags used for the first time and answers the catalogue's spellings of `names`. It locks no
 * existing tag (the tag counts' trigger does, in its own order): a name that another request added
 * after this statement's snapshot is read back by a second statement, which sees it.
 */
export async function addTags(db: Db, organizationId: string, names: string[]): Promise<string[]> {
  const added = await db
    .insertInto('tags')
    .values(names.map((name) => ({ id: uuidv7(), organization_id: organizationId, name })))
    .onConflict((oc) => oc.expression(sql`organization_id, lower(name)`).doNothing())
    .returning('name')
    .execute()
  const addedKeys = new Set(added.map((row) => row.name.toLowerCase()))
  const others = names.filter((name) => !addedKeys.has(name.toLowerCase()))
  if (others.length === 0) return added.map((row) => row.name)
  return [...added.map((row) => row.name), ...(await knownTags(db, organizationId, others))]
}

/** The catalogue's spellings of those of `names` it holds. */
export async function knownTags(db: Db, organizationId: string, names: string[]): Promise<string[]> {
  const { rows } = await sql<{ names: string[] }>`select ${knownTagsOf(organizationId, names)} as names`.execute(db)
  return rows[0]!.names
}
