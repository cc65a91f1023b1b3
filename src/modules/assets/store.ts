import { CompiledQuery, sql, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import type { Database, Db } from '../../platform/db/index.js'
import type { ActorKind, EmbeddedMetadata, PaletteColor, Provenance, ProvenanceSource } from '../../platform/db/schema.js'
import type { Page } from '../../platform/http/pagination.js'
import type { Actor } from './record.js'
import type { Keyset } from './cursor.js'
import { textQuery, type TermForms } from './full-text.js'
import { NEWEST_FIRST, reordersOnUpdate, type AssetSort, type SortKey } from './sort.js'

/**
 * The filters of GET /api/v1/assets; smart collections store exactly this object and are evaluated
 * by the same function, so a collection and the list always agree.
 */
export interface AssetFilter {
  asset_type?: string
  client?: string
  product?: string
  tag?: string
  /** Assets with a tag that starts with this text, case-insensitive. */
  tag_prefix?: string
  q?: string
  /** One of COLOR_NAMES: assets whose palette has a colour of that name. */
  color?: string
  provenance?: ProvenanceSource
}

export const ASSET_COLUMNS = [
  'assets.id',
  'assets.title',
  'assets.asset_type',
  'assets.client',
  'assets.product',
  'assets.tags',
  'assets.source_url',
  'assets.created_by_ai',
  'assets.mime_type',
  'assets.width',
  'assets.height',
  'assets.byte_size',
  'assets.sha256',
  'assets.blob_key',
  'assets.thumbnail_key',
  'assets.thumbnail_failure',
  'assets.version',
  'assets.external_id',
  'assets.colors',
  'assets.metadata',
  'assets.provenance',
  'assets.created_by_kind',
  'assets.created_by_name',
  // Read by DERIVED_COLUMNS' near_duplicates (null while the hash is pending), which may run over a page of these columns.
  'assets.perceptual_hash_algorithm',
  'assets.created_at',
  'assets.updated_at',
] as const

/**
 * The rest of an asset's record, computed per row: its manual collections, and its closest
 * near-duplicates (null while its hash is pending; the pairs are kept within the distance). Most assets
 * have neither, so an index probe (`exists`) answers `[]` for them before any aggregate is planned to
 * run: the aggregates' sorts and bitmap scans per row were a fifth of an unfiltered list's statement.
 * Each probe ends in `offset 0`, which keeps PostgreSQL from planning the `exists` as a hashed subplan
 * too: in a small library that plan won, and read every row of the table (every organization's
 * memberships, 1,509 rows at 10,000 assets) to answer 51 probes, a tenth of the list's statement.
 */
export const DERIVED_COLUMNS = [
  sql<Array<{ id: string; name: string }>>`case when not exists (select 1 from collection_assets where collection_assets.asset_id = assets.id offset 0) then '[]'::json else coalesce((
    select json_agg(json_build_object('id', collections.id, 'name', collections.name) order by lower(collections.name))
    from collection_assets join collections on collections.id = collection_assets.collection_id
    where collection_assets.asset_id = assets.id), '[]') end`.as('collections'),
  sql<NearDuplicate[] | null>`case when assets.perceptual_hash_algorithm is null then null
    when not exists (select 1 from near_duplicate_pairs where near_duplicate_pairs.asset_id = assets.id offset 0) then '[]'::json else coalesce((
    select json_agg(json_build_object('asset_id', closest.other_id, 'distance', closest.distance) order by closest.distance, closest.other_id)
    from (select other_id, distance from near_duplicate_pairs where near_duplicate_pairs.asset_id = assets.id order by distance, other_id limit 5) as closest), '[]') end`.as(
    'near_duplicates',
  ),
]

/** The record's columns the derivations fill after the push: null until each has run. */
export type AnalysedColumn = 'colors' | 'metadata' | 'provenance'

/** What a record shows of the derivations before any has run: a new asset's, or a new version's. */
export const NOT_ANALYSED = { colors: null, metadata: null, provenance: null, near_duplicates: null } as const

/** Another live asset whose picture is nearly the same, and how near (Hamming distance of the hashes). */
export interface NearDuplicate {
  asset_id: string
  distance: number
}

export interface AssetRow {
  id: string
  title: string
  asset_type: string | null
  client: string | null
  product: string | null
  tags: string[]
  source_url: string | null
  created_by_ai: boolean
  mime_type: string
  width: number
  height: number
  byte_size: string | number
  sha256: string
  blob_key: string
  thumbnail_key: string
  thumbnail_failure: string | null
  version: number
  external_id: string | null
  colors: PaletteColor[] | null
  metadata: EmbeddedMetadata | null
  provenance: Provenance | null
  /** Who pushed it (null for older rows where that is unknown). */
  created_by_kind: ActorKind | null
  created_by_name: string | null
  created_at: Date
  updated_at: Date
}

type AssetQuery<O> = SelectQueryBuilder<Database, 'assets', O>

export interface AssetWithRelations extends AssetRow {
  collections: Array<{ id: string; name: string }>
  near_duplicates: NearDuplicate[] | null
}

/** Narrows a query on `assets` to one organization and the filter; names match case-insensitively. */
export function whereFilter<O>(query: AssetQuery<O>, organizationId: string, filter: AssetFilter): AssetQuery<O> {
  const conditions = filterConditions(filter, (column) => sql.ref(`assets.${column}`))
  return conditions.reduce((narrowed, condition) => narrowed.where(condition), query.where('assets.organization_id', '=', organizationId))
}

/** The columns of an asset that the filters read. */
type FilteredColumn = 'asset_type' | 'client' | 'product' | 'tag_keys' | 'search' | 'color_names' | 'provenance_source'

/** The filter's conditions (none without a filter) on an asset whose columns `column` names: the asset's row or a logged side of it. */
function filterConditions(filter: AssetFilter, column: (name: FilteredColumn) => RawBuilder<unknown>): Array<RawBuilder<boolean>> {
  const conditions: Array<RawBuilder<boolean>> = []
  for (const name of ['asset_type', 'client', 'product'] as const) {
    const value = filter[name]
    if (value !== undefined) conditions.push(sql<boolean>`lower(${column(name)}) = ${value.toLowerCase()}`)
  }
  if (filter.tag !== undefined) conditions.push(sql<boolean>`${column('tag_keys')} @> array[${filter.tag.toLowerCase()}]::text[]`)
  if (filter.tag_prefix !== undefined) conditions.push(hasTagStartingWith(filter.tag_prefix, column('tag_keys')))
  if (filter.q !== undefined) conditions.push(matchesText(filter.q, column('search')))
  if (filter.color !== undefined) conditions.push(sql<boolean>`${column('color_names')} @> array[${filter.color}]::text[]`)
  if (filter.provenance !== undefined) conditions.push(sql<boolean>`${column('provenance_source')} = ${filter.provenance}`)
  return conditions
}

/** Whether a tag key (tags' lower-case names) starts with `prefix`: its `%`, `_` and `\\` are literal. */
function hasTagStartingWith(prefix: string, tagKeys: RawBuilder<unknown>): RawBuilder<boolean> {
  const pattern = `${prefix.toLowerCase().replace(/[\\%_]/g, (special) => `\\${special}`)}%`
  return sql<boolean>`exists (select 1 from unnest(${tagKeys}) as tag_key where tag_key like ${pattern} escape '\\')`
}

/**
 * Full-text match of `query` (see full-text.ts). The tsquery is a constant the planner folds (statements
 * are planned with their parameters), so it estimates the match from the column's statistics and can
 * choose the GIN index; inside a subquery it would see neither.
 */
function matchesText(query: string, search: RawBuilder<unknown>, forms: TermForms = 'both'): RawBuilder<boolean> {
  const tsquery = textQuery(query, forms)
  return tsquery ? sql<boolean>`${search} @@ ${tsquery}` : sql<boolean>`false`
}

/**
 * A page and the total it is part of, in one statement. `keptTotal` is a count kept elsewhere of what
 * the filter selects, when there is one; the whole library's is the organization's counter; anything
 * else counts its matches.
 */
export async function listAssets(db: Db, organizationId: string, filter: AssetFilter, page: Page, options: ListOptions = {}) {
  const rows = await listQuery(db, organizationId, filter, page, options).execute()
  const first = rows[0]!
  const listed = rows.filter((row) => row.id !== null) as Array<AssetWithRelations & { sort_key: string }>
  const shown = listed.slice(0, page.limit)
  const last = shown.at(-1)
  // The statement reads one row past the page: when there is one, the page is not the last.
  const next: Keyset | null = listed.length > page.limit && last ? { key: last.sort_key, id: last.id } : null
  return { rows: shown as AssetWithRelations[], total: first.total, version: first.library_version, librarySize: first.library_size ?? undefined, next }
}

/**
 * The planner's estimate of how many assets a full-text filter selects, from the column statistics (no
 * row is read): what a full-text list answers once its matches pass the count's cap. One EXPLAIN of the
 * filter twice, once with each term's stemmed form and once with its exact (or prefix) form: the larger
 * estimate stands for both, as an asset's words are in the column in both forms (see TermForms). Asking
 * for both at once estimated a word found in 10% of the titles at 19%.
 */
export async function estimatedMatches(db: Db, organizationId: string, filter: AssetFilter & { q: string }, inCollection: string | undefined): Promise<number> {
  const { q, ...others } = filter
  const matching = (forms: TermForms) =>
    whereFilter(scopedAssets(db, inCollection).select(sql`1`.as('one')), organizationId, others).where(matchesText(q, sql.ref('assets.search'), forms))
  const compiled = matching('stemmed').unionAll(matching('exact')).compile()
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]))
  const explained = rows[0]!['QUERY PLAN']
  const [{ Plan }] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as [{ Plan: PlanNode }]
  return Math.round(Math.max(...Plan.Plans!.map((alternative) => alternative['Plan Rows'])))
}

interface PlanNode {
  'Plan Rows': number
  Plans?: PlanNode[]
}

/** The organization's `library_version` (migration 0008): unchanged, so is every page of its assets. */
export async function libraryVersion(db: Db, organizationId: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('library_version').where('id', '=', organizationId).executeTakeFirst()
  return row?.library_version
}

/** A counted total of a filter (in a collection or not), and the library version it was counted at. */
export interface CountedTotal {
  version: string
  total: number
  /** The planner's estimate that stands for a full-text total whose count passed its cap. */
  estimate?: number | undefined
}

export interface ListOptions {
  /** A manual collection's members instead of the whole library. */
  inCollection?: string | undefined
  keptTotal?: RawBuilder<number> | undefined
  /** The total counted for the same filter at a library version: used, instead of counting, while the version is current. */
  countedBefore?: CountedTotal | undefined
  /** The count stops once it passes this many matches (the total is then `countCap + 1`), so a broad word does not cost its every match. */
  countCap?: number | undefined
  /** The page's order; newest first when absent. */
  sort?: AssetSort | undefined
  /** The page starts after this keyset (a cursor's) in the order, instead of at the page's offset. */
  after?: Keyset | undefined
  /** The organization's library is large (LARGE_LIBRARY): a full-text page may then come from its match set (see MATCH_SET). A list with `countCap` reads the library's size for the next one. */
  largeLibrary?: boolean | undefined
}

/**
 * From this many assets a full-text list's statement also plans its page from the match set. Below it
 * the planner's own choice costs little (a walk reads at most the library), and the second plan would
 * cost more: on the embedded database at 10,000 assets it made every full-text list ~25% slower
 * (planning both reads), while at 30,000 the page of a word in 22 titles took 4.4 ms instead of 16.6.
 */
export const LARGE_LIBRARY = 20_000

/**
 * What each sort key orders by. A title sorts case-insensitively by character code (the same order on
 * every database, whatever its collation), so an index on the expression can serve it and a keyset
 * `(key, id)` compares the same way.
 */
const SORTED_BY: Record<SortKey, RawBuilder<unknown>> = {
  created_at: sql`assets.created_at`,
  title: sql`lower(assets.title) collate "C"`,
  byte_size: sql`assets.byte_size`,
  updated_at: sql`assets.updated_at`,
}

/** The ORDER BY of a sort: its key, then the id, both in its direction, so a page ends at a keyset `(key, id)`. */
export function orderOf({ key, descending }: AssetSort): RawBuilder<unknown> {
  const direction = sql.raw(descending ? 'desc' : 'asc')
  return sql`${SORTED_BY[key]} ${direction}, assets.id ${direction}`
}

/** The ISO 8601 form of a UTC timestamp with its microseconds, which `::timestamptz` reads back exactly. */
const TIMESTAMP_TEXT = sql.lit('YYYY-MM-DD"T"HH24:MI:SS.US"Z"')

/**
 * Each sort key as text that names its value exactly (a timestamp to the microsecond, in UTC; the title's
 * lower-case form as the order compares it), and that text read back as a value of the key.
 */
const KEY_TEXT: Record<SortKey, KeyText> = {
  created_at: timestampKey(SORTED_BY.created_at),
  title: { text: sql`lower(assets.title)`, value: (text) => sql`${text}::text collate "C"` },
  byte_size: { text: sql`assets.byte_size::text`, value: (text) => sql`${text}::bigint` },
  updated_at: timestampKey(SORTED_BY.updated_at),
}

interface KeyText {
  text: RawBuilder<string>
  value: (text: string) => RawBuilder<unknown>
}

function timestampKey(column: RawBuilder<unknown>): KeyText {
  return { text: sql`to_char(${column} at time zone 'UTC', ${TIMESTAMP_TEXT})`, value: (text) => sql`${text}::timestamptz` }
}

/** The assets after a keyset in a sort's order: one row comparison, which the sort's `(organization_id, key, id)` index seeks. */
function afterKeyset({ key, descending }: AssetSort, after: Keyset): RawBuilder<boolean> {
  return sql<boolean>`(${SORTED_BY[key]}, assets.id) ${sql.raw(descending ? '<' : '>')} (${KEY_TEXT[key].value(after.key)}, ${after.id}::uuid)`
}

/**
 * The statement of `listAssets`: the total joined with the page, so an empty page still has its total,
 * and the organization's `library_version` read in the same snapshot as both.
 */
export function listQuery(db: Db, organizationId: string, filter: AssetFilter, page: Page, options: ListOptions = {}) {
  const sort = options.sort ?? NEWEST_FIRST
  const order = orderOf(sort)
  const { after } = options
  const matching = whereFilter(scopedAssets(db, options.inCollection), organizationId, filter)
  const walked = matching
    .select(ASSET_COLUMNS)
    .$if(after !== undefined, (query) => query.where(afterKeyset(sort, after!)))
    .orderBy(order)
    .limit(page.limit + 1)
    .offset(page.offset)
  const cap = matchSetCap(filter, options)
  // Both reads are planned; the total decides which one runs (a condition on it alone is a one-time
  // filter). Their columns are the walk's (the cast only names the union's type as the walk's).
  const pageColumns =
    cap === undefined
      ? walked
      : (db
          .selectFrom(walked.as('walked'))
          .selectAll()
          .where(sql<boolean>`counted.total > ${cap}`)
          .unionAll(db.selectFrom('assets').select(ASSET_COLUMNS).where('assets.id', 'in', pageOfMatchSet(sort, page, after)).where(sql<boolean>`counted.total <= ${cap}`)) as unknown as typeof walked)
  // The derived columns and the key's text over the page alone: beside the columns, PostgreSQL would
  // compute them for every row that the offset skips too.
  const pageRows = db
    .selectFrom(pageColumns.as('assets'))
    .select([...ASSET_COLUMNS, ...DERIVED_COLUMNS, KEY_TEXT[sort.key].text.as('sort_key')])
    .orderBy(order)
  // The match set is read through raw SQL only, so the statement keeps the database's type.
  const root = cap === undefined ? db : (db.with((cte) => cte(MATCH_SET).materialized(), () => matching.select(['assets.id', SORTED_COLUMN[sort.key]]).limit(cap + 1)) as unknown as Db)
  // `offset 0` keeps the total a subquery of its own: pulled up into the statement, its expression would
  // be computed again wherever the page reads `counted.total`.
  const total = cap === undefined ? totalOf(db, organizationId, filter, options) : totalOf(db, organizationId, filter, options).offset(0)
  return root
    .selectFrom(total.as('counted'))
    .leftJoinLateral(pageRows.as('page'), (join) => join.onTrue())
    .selectAll('page')
    .select('counted.total')
    .select((eb) => eb.selectFrom('organizations').select('library_version').where('id', '=', organizationId).as('library_version'))
    .$if(options.countCap !== undefined, (capped) =>
      capped.select((eb) => eb.selectFrom('organizations').select('asset_count').where('id', '=', organizationId).as('library_size')),
    )
}

/**
 * The match set of a list whose total is a capped count (full text): the first `countCap + 1` matches,
 * each an id and the column its sort orders by, read once (`materialized`) by the count and, when that
 * is all of them, by the page. The page is then a sort of at most `countCap` small rows and a primary-key
 * read per row shown, where walking the sort's index would read and match rows the count has already
 * read. The planner could not choose this alone: it estimates a word's matches from the column's
 * statistics, and at 1M assets took a word in 962 titles for 20,812, so it walked 54,309 rows to fill a
 * page.
 */
const MATCH_SET = 'matches'

/** The column of the assets that each sort key reads (see SORTED_BY). */
const SORTED_COLUMN = {
  created_at: 'assets.created_at',
  title: 'assets.title',
  byte_size: 'assets.byte_size',
  updated_at: 'assets.updated_at',
} as const satisfies Record<SortKey, `assets.${string}`>

/** The count's cap when the list reads a match set (MATCH_SET): a large library's list whose total is a capped count of its matches. */
function matchSetCap(filter: AssetFilter, options: ListOptions): number | undefined {
  return options.largeLibrary && options.countCap !== undefined && countsMatches(filter, options) ? options.countCap : undefined
}

/** The ids of a page of the match set, in the sort's order: its rows are named as the assets' so the sort's expressions apply. */
function pageOfMatchSet(sort: AssetSort, page: Page, after: Keyset | undefined): RawBuilder<string> {
  const keyset = after === undefined ? sql`true` : afterKeyset(sort, after)
  return sql<string>`(select assets.id from ${sql.table(MATCH_SET)} as assets where ${keyset} order by ${orderOf(sort)} limit ${page.limit + 1} offset ${page.offset})`
}

/**
 * How many assets the filter selects: the kept count when there is one, the organization's counter for
 * the whole library, or a count of the matches, which `countedBefore` spares while its version is current.
 */
function totalOf(db: Db, organizationId: string, filter: AssetFilter, options: ListOptions) {
  if (options.keptTotal) return db.selectNoFrom(options.keptTotal.as('total'))
  if (!countsMatches(filter, options)) return db.selectFrom('organizations').select('asset_count as total').where('id', '=', organizationId)
  const counted = countOf(db, organizationId, filter, options)
  const before = options.countedBefore
  if (!before) return counted
  // The count is a subplan that CASE runs only when it reaches it.
  const version = db.selectFrom('organizations').select('library_version').where('id', '=', organizationId)
  const unchanged = unchangedSince(organizationId, before.version, { filter, inCollection: options.inCollection })
  return db.selectNoFrom(sql<number>`case when (${version}) = ${before.version} or ${unchanged} then ${before.total}::int else (${counted}) end`.as('total'))
}

/** What a kept page or total lists: a filter, within a manual collection or not, and a page's assets (`shown`) in its order. */
export interface ListedScope {
  filter: AssetFilter
  inCollection?: string | undefined
  shown?: string[]
  sort?: AssetSort | undefined
}

/**
 * The organization's library version now, when nothing since version `since` can have changed what the
 * scope lists (see `unchangedSince`); undefined when something may have. One statement.
 */
export async function versionIfUnchanged(db: Db, organizationId: string, since: string, scope: ListedScope): Promise<string | undefined> {
  const { rows } = await sql<{ library_version: string }>`
    select library_version from organizations where id = ${organizationId} and ${unchangedSince(organizationId, since, scope)}
  `.execute(db)
  return rows[0]?.library_version
}

/**
 * Whether the change log (migration 0016) says that nothing since version `since` changed what the scope
 * lists: it holds a row for every version the organization moved since (pruned or unlogged versions are
 * a gap, so "changed"), and none of them touched the scope (`touches`). Read in the snapshot of the
 * statement it is part of, so it speaks of exactly the version that statement reads.
 */
function unchangedSince(organizationId: string, since: string, scope: ListedScope): RawBuilder<boolean> {
  return sql<boolean>`(
    select count(distinct change.version) = (select library_version from organizations where id = ${organizationId}) - ${since}::bigint
      and not coalesce(bool_or(${touches(scope)}), false)
    from library_changes as change where change.organization_id = ${organizationId} and change.version > ${since}::bigint)`
}

/**
 * Whether a logged change (`change`) may alter what the scope lists: anything may (`all`); a change to
 * a shown asset or its memberships alters its record; an asset that enters or leaves the filter alters
 * the set, so the pages and the total. In a manual collection the set moves with the collection's
 * members (an asset inserted or deleted is a member added or removed too), and with a member's update
 * into or out of the filter. An asset's place in the order (created_at, id) never changes; in any other
 * order, an update of an asset the filter selects (before or after) may move it, so it alters the pages
 * (in a manual collection, whose members the log does not name, any asset's update does).
 */
function touches({ filter, inCollection, shown = [], sort = NEWEST_FIRST }: ListedScope): RawBuilder<boolean> {
  const matches = (side: 'before' | 'after') => {
    const conditions = filterConditions(filter, (column) => sql.ref(`change.${side}_${column}`))
    return conditions.length === 0 ? sql<boolean>`true` : sql<boolean>`coalesce(${sql.join(conditions, sql` and `)}, false)`
  }
  const touching = [sql`change.kind = 'all'`]
  if (shown.length > 0) touching.push(sql`change.asset_id = any(${shown}::uuid[])`)
  if (inCollection === undefined) {
    touching.push(sql`change.kind = 'asset' and (change.before_exists and ${matches('before')}) <> (change.after_exists and ${matches('after')})`)
  } else {
    touching.push(sql`change.kind = 'member' and change.collection_id = ${inCollection}`)
    if (hasFilter(filter)) touching.push(sql`change.kind = 'asset' and change.before_exists and change.after_exists and ${matches('before')} <> ${matches('after')}`)
  }
  if (reordersOnUpdate(sort)) {
    touching.push(inCollection === undefined ? sql`change.kind = 'asset' and ((change.before_exists and ${matches('before')}) or (change.after_exists and ${matches('after')}))` : sql`change.kind = 'asset'`)
  }
  return sql.join(touching.map((condition) => sql`(${condition})`), sql` or `)
}

/** The count of what the filter selects, up to one past `countCap` when there is one: in a large library, the size of the statement's match set. */
function countOf(db: Db, organizationId: string, filter: AssetFilter, options: ListOptions) {
  if (matchSetCap(filter, options) !== undefined) return db.selectNoFrom(sql<number>`(select count(*)::int from ${sql.table(MATCH_SET)})`.as('total'))
  const cap = options.countCap
  if (cap === undefined) return whereFilter(scopedAssets(db, options.inCollection).select(sql<number>`count(*)::int`.as('total')), organizationId, filter)
  const matches = whereFilter(scopedAssets(db, options.inCollection).select(sql`1`.as('one')), organizationId, filter).limit(cap + 1)
  return db.selectFrom(matches.as('matches')).select(sql<number>`count(*)::int`.as('total'))
}

/** Whether the total of a list with these options is a count of the matches (nothing kept counts them). */
export function countsMatches(filter: AssetFilter, { inCollection, keptTotal }: ListOptions): boolean {
  return !keptTotal && (inCollection !== undefined || hasFilter(filter))
}

export function hasFilter(filter: AssetFilter): boolean {
  return Object.values(filter).some((value) => value !== undefined)
}

/** Several totals in one statement: each scope is a filter, with the options of a list. */
export async function countAssetsEach(db: Db, organizationId: string, scopes: Array<Omit<ListOptions, 'countCap'> & { filter: AssetFilter }>): Promise<number[]> {
  if (scopes.length === 0) return []
  const counts = scopes.map(({ filter, ...options }, i) => sql`(${totalOf(db, organizationId, filter, options)}) as ${sql.ref(`c${i}`)}`)
  const { rows } = await sql<Record<string, number>>`select ${sql.join(counts)}`.execute(db)
  return scopes.map((_, i) => rows[0]![`c${i}`]!)
}

function scopedAssets(db: Db, inCollection: string | undefined) {
  return inCollection
    ? db.selectFrom('assets').where(({ exists, selectFrom }) =>
        exists(
          selectFrom('collection_assets')
            .select(sql`1`.as('one'))
            .whereRef('collection_assets.asset_id', '=', 'assets.id')
            .where('collection_assets.collection_id', '=', inCollection),
        ),
      )
    : db.selectFrom('assets')
}

export async function findAsset(db: Db, organizationId: string, id: string): Promise<AssetWithRelations | undefined> {
  return (await db
    .selectFrom('assets')
    .select([...ASSET_COLUMNS, ...DERIVED_COLUMNS])
    .where('assets.organization_id', '=', organizationId)
    .where('assets.id', '=', id)
    .executeTakeFirst()) as AssetWithRelations | undefined
}

/** The live asset of the organization with this `external_id`, if the filter selects it. */
/** The user whose session pushed the asset (null: a key, or unknown); undefined when there is no such asset. */
export async function findCreator(db: Db, organizationId: string, id: string): Promise<{ created_by: string | null } | undefined> {
  return db.selectFrom('assets').select('created_by').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
}

export async function findByExternalId(db: Db, organizationId: string, externalId: string, filter: AssetFilter): Promise<AssetWithRelations | undefined> {
  const query = db.selectFrom('assets').select([...ASSET_COLUMNS, ...DERIVED_COLUMNS]).where('assets.external_id', '=', externalId)
  return (await whereFilter(query, organizationId, filter).executeTakeFirst()) as AssetWithRelations | undefined
}

/** What a picture standing for a group of assets needs: the asset and its size. */
export interface FirstAsset {
  id: string
  version: number
  width: number
  height: number
}


/**
 * The first asset each manual collection lists (newest first), for many collections in one set-based
 * statement: each collection's members are read through the primary key of `collection_assets`. A
 * collection with no member, or not of the organization, has no row.
 */
export async function firstInCollections(db: Db, organizationId: string, collectionIds: string[]): Promise<Map<string, FirstAsset>> {
  if (collectionIds.length === 0) return new Map()
  const { rows } = await sql<FirstAsset & { collection_id: string }>`
    select wanted.collection_id, first.id, first.version, first.width, first.height
    from unnest(${collectionIds}::uuid[]) as wanted(collection_id)
    cross join lateral (
      select assets.id, assets.version, assets.width, assets.height from collection_assets
      join assets on assets.id = collection_assets.asset_id
      where collection_assets.collection_id = wanted.collection_id and assets.organization_id = ${organizationId}
      order by ${orderOf(NEWEST_FIRST)} limit 1
    ) as first`.execute(db)
  return new Map(rows.map(({ collection_id, ...first }) => [collection_id, first]))
}

/** The first asset each filter lists (newest first), null where nothing matches: one statement for all. */
export async function firstMatchingEach(db: Db, organizationId: string, filters: AssetFilter[]): Promise<Array<FirstAsset | null>> {
  if (filters.length === 0) return []
  const firsts = filters.map((filter, i) => {
    const first = whereFilter(db.selectFrom('assets').select(['assets.id', 'assets.version', 'assets.width', 'assets.height']), organizationId, filter).orderBy(orderOf(NEWEST_FIRST)).limit(1)
    return sql`(select json_build_object('id', first.id, 'version', first.version, 'width', first.width, 'height', first.height) from (${first}) as first) as ${sql.ref(`f${i}`)}`
  })
  const { rows } = await sql<Record<string, FirstAsset | null>>`select ${sql.join(firsts)}`.execute(db)
  return filters.map((_, i) => rows[0]![`f${i}`] ?? null)
}

/** What a thumbnail is made from, and where it goes. */
export interface ThumbnailSource {
  sha256: string
  blob_key: string
  thumbnail_key: string
}

/** An asset's files, as a signed file URL reads them. */
export interface AssetFileRow extends ThumbnailSource {
  mime_type: string
  /** The image's size, which a rendition's is worked out from. */
  width: number
  height: number
  thumbnail_failure: string | null
}

/**
 * For signed file URLs, which carry no organization: the signature is the capability. With `version`,
 * that version's files, whether the asset is live or in the trash (a thumbnail failure is recorded on the
 * live asset, for its current bytes); without, the live asset's current files (links made before versions).
 */
export async function findAssetFiles(db: Db, id: string, version?: number): Promise<AssetFileRow | undefined> {
  if (version === undefined) {
    return db.selectFrom('assets').select(['mime_type', 'sha256', 'blob_key', 'thumbnail_key', 'width', 'height', 'thumbnail_failure']).where('id', '=', id).executeTakeFirst()
  }
  return db
    .selectFrom('asset_versions')
    .leftJoin('assets', (join) => join.onRef('assets.id', '=', 'asset_versions.asset_id').onRef('assets.sha256', '=', 'asset_versions.sha256'))
    .select([
      'asset_versions.mime_type',
      'asset_versions.sha256',
      'asset_versions.blob_key',
      'asset_versions.thumbnail_key',
      'asset_versions.width',
      'asset_versions.height',
      'assets.thumbnail_failure',
    ])
    .where('asset_versions.asset_id', '=', id)
    .where('asset_versions.version', '=', version)
    .executeTakeFirst()
}

export async function findBySha256(db: Db, organizationId: string, sha256: string): Promise<string | undefined> {
  const row = await db.selectFrom('assets').select('id').where('organization_id', '=', organizationId).where('sha256', '=', sha256).executeTakeFirst()
  return row?.id
}

/**
 * The assets of the organization holding each of these contents, by SHA-256: one statement on (organization_id, sha256).
 * The hashes come in through a sub-select so the planner does not see them: estimating 1,000 constants one
 * by one cost PGlite 11 ms of planning for a 6 ms scan, and PostgreSQL 15 chose the organization's whole
 * index and a filter instead of the unique index.
 */
export async function assetIdsBySha256(db: Db, organizationId: string, sha256s: string[]): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('assets')
    .select(['sha256', 'id'])
    .where('organization_id', '=', organizationId)
    .where('sha256', '=', sql<string>`any((select ${sha256s}::text[])::text[])`)
    .execute()
  return new Map(rows.map((row) => [row.sha256, row.id]))
}

/** A row to insert, complete: the push knows every value before the statement, so nothing is read back. */
export interface NewAsset extends Omit<AssetRow, 'byte_size' | 'updated_at' | AnalysedColumn | 'created_by_kind' | 'created_by_name'> {
  organization_id: string
  byte_size: number
  /** The user whose session pushed it; null for an API key. */
  created_by: string | null
  /** Who pushed it, as its first version records. */
  pushed_by: Actor
  /** The text the file carries (an SVG's title and description): searched as full text, never shown. */
  file_text: string | null
}

export interface PushContext<T> {
  plan: string
  /** What the organization uses, from its counters. */
  used: { assets: number; bytes: number }
  /** The asset of the organization with these bytes, if there is one. */
  duplicateOf: string | null
  /** Else the asset in the organization's trash with these bytes, if there is one: the push restores it. */
  trashedOf: string | null
  /** The caller's lookups (scalar subqueries), answered in the same statement. */
  lookups: T
}

/** Scalar subqueries (a push's lookups) answered in one statement. */
export async function selectLookups<T extends Record<string, unknown>>(db: Db, lookups: { [K in keyof T]: RawBuilder<T[K]> }): Promise<T> {
  const names = Object.keys(lookups)
  const row = await db.selectNoFrom(names.map((name) => lookups[name]!.as(name))).executeTakeFirstOrThrow()
  return row as unknown as T
}

/** What a push must know before it decodes anything, in one statement: the plan and usage, a duplicate, and the caller's lookups. */
export async function pushContext<T extends Record<string, unknown>>(
  db: Db,
  organizationId: string,
  sha256: string,
  lookups: { [K in keyof T]: RawBuilder<T[K]> },
): Promise<PushContext<T>> {
  const names = Object.keys(lookups)
  const row = await db
    .selectFrom('organizations')
    .select([
      'plan',
      'asset_count',
      'trashed_count',
      'stored_byte_count',
      (eb) => eb.selectFrom('assets').select('id').where('organization_id', '=', organizationId).where('sha256', '=', sha256).as('duplicate_of'),
      (eb) =>
        eb
          .selectFrom('trashed_assets')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('sha256', '=', sha256)
          .orderBy('deleted_at', 'desc')
          .orderBy('id', 'desc')
          .limit(1)
          .as('trashed_of'),
      ...names.map((name) => lookups[name]!.as(name)),
    ])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow()
  const record = row as unknown as Record<string, unknown>
  return {
    plan: row.plan,
    used: { assets: row.asset_count + row.trashed_count, bytes: Number(row.stored_byte_count) },
    duplicateOf: row.duplicate_of,
    trashedOf: row.trashed_of,
    lookups: Object.fromEntries(names.map((name) => [name, record[name]])) as T,
  }
}

export interface AssetInsert {
  asset: NewAsset
  /** The plans with limits (the organization's counters are checked against its plan's, under its lock). */
  planLimits: Record<string, { maxAssets?: number | undefined; maxBytes?: number | undefined }>
  /** Clauses that must happen with the asset, each given the inserted rows (`select id from inserted`); null: none. */
  alongside: Array<(inserted: RawBuilder<{ id: string }>) => RawBuilder<unknown> | null>
}

export type InsertOutcome = 'inserted' | 'duplicate' | 'over_plan'

/**
 * Inserts a pushed asset and what goes with it (tags are on the row; the callers add collection
 * membership, the embedding queue and the event) in one statement, so atomic without a transaction:
 * - the organization's row is locked first, so its counters (kept by triggers) are exact when the plan
 *   is checked, and pushes of one organization take their turns;
 * - then the content lock, always in that order: it keeps a delete of the same bytes from removing the
 *   files between the caller's writing them and this commit (see `lockContent`);
 * - the unique index on (organization, sha256) is the duplicate check: a lost race inserts nothing, and
 *   nothing goes with it.
 */
export async function insertAsset(db: Db, insert: AssetInsert): Promise<InsertOutcome> {
  const { asset } = insert
  const inserted = sql<{ id: string }>`select id from inserted`
  const clauses = insert.alongside
    .map((clause) => clause(inserted))
    .filter((clause) => clause !== null)
    .map((clause, i) => sql`, ${sql.ref(`alongside_${i}`)} as (${clause})`)
  const limits = JSON.stringify(insert.planLimits)
  const result = await sql<{ allowed: boolean; inserted: boolean }>`
    with organization as (
      select plan, asset_count + trashed_count as asset_count, stored_byte_count from organizations where id = ${asset.organization_id} for no key update
    ),
    content_locked as (select pg_advisory_xact_lock(hashtext(${asset.sha256})) from organization),
    allowed as (
      select 1 from organization, content_locked, lateral (select ${limits}::jsonb -> organization.plan as plan_limit) as limits
      where coalesce(organization.asset_count + 1 <= (plan_limit ->> 'maxAssets')::bigint, true)
        and coalesce(organization.stored_byte_count + ${asset.byte_size} <= (plan_limit ->> 'maxBytes')::bigint, true)
    ),
    inserted as (
      insert into assets (id, organization_id, title, asset_type, client, product, tags, tag_keys, tag_text, source_url, created_by_ai,
        mime_type, width, height, byte_size, sha256, blob_key, thumbnail_key, external_id, file_text, created_by, created_by_kind, created_by_name, created_at, updated_at)
      select ${asset.id}::uuid, ${asset.organization_id}::uuid, ${asset.title}, ${asset.asset_type}, ${asset.client}, ${asset.product},
        ${asset.tags}::text[], ${asset.tags.map((tag) => tag.toLowerCase())}::text[], ${tagText(asset.tags)}, ${asset.source_url},
        ${asset.created_by_ai}, ${asset.mime_type}, ${asset.width}::int, ${asset.height}::int, ${asset.byte_size}::bigint, ${asset.sha256},
        ${asset.blob_key}, ${asset.thumbnail_key}, ${asset.external_id}, ${asset.file_text}, ${asset.created_by}::uuid, ${asset.pushed_by.kind}, ${asset.pushed_by.name},
        ${asset.created_at}::timestamptz, ${asset.created_at}::timestamptz
      from allowed
      on conflict (organization_id, sha256) do nothing
      returning id
    ),
    first_version as (
      insert into asset_versions (asset_id, version, organization_id, sha256, blob_key, thumbnail_key, mime_type, width, height, byte_size,
        file_text, created_at, created_by_kind, created_by_name)
      select id, 1, ${asset.organization_id}::uuid, ${asset.sha256}, ${asset.blob_key}, ${asset.thumbnail_key}, ${asset.mime_type},
        ${asset.width}::int, ${asset.height}::int, ${asset.byte_size}::bigint, ${asset.file_text}, ${asset.created_at}::timestamptz, ${asset.pushed_by.kind}, ${asset.pushed_by.name}
      from inserted
    )${sql.join(clauses, sql``)}
    select exists (select 1 from allowed) as allowed, exists (select 1 from inserted) as inserted
  `.execute(db)
  const outcome = result.rows[0]!
  return outcome.inserted ? 'inserted' : outcome.allowed ? 'duplicate' : 'over_plan'
}

/** What the full-text column reads of the tags; case and spelling do not matter to it. */
function tagText(tags: string[]): string {
  return tags.join(' ')
}

export type AssetChanges = Partial<Pick<NewAsset, 'title' | 'asset_type' | 'client' | 'product' | 'source_url' | 'created_by_ai' | 'tags' | 'external_id'>>

export async function updateAsset(db: Db, organizationId: string, id: string, changes: AssetChanges): Promise<boolean> {
  const { tags, ...fields } = changes
  const result = await db
    .updateTable('assets')
    .set({
      ...fields,
      ...(tags && { tags, tag_keys: tags.map((tag) => tag.toLowerCase()), tag_text: tagText(tags) }),
      updated_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** The organization's live assets among `ids` with their relations, locked for update until the transaction ends (in id order, so two edits never deadlock). */
export async function lockAssetsForEdit(tx: Db, organizationId: string, ids: string[]): Promise<AssetWithRelations[]> {
  if (ids.length === 0) return []
  return (await tx
    .selectFrom('assets')
    .select([...ASSET_COLUMNS, ...DERIVED_COLUMNS])
    .where('assets.organization_id', '=', organizationId)
    .where('assets.id', '=', sql<string>`any(${ids}::uuid[])`)
    .orderBy('assets.id')
    .forUpdate()
    .execute()) as AssetWithRelations[]
}

/** One asset's new values in a bulk edit: the fields every edited asset is given, and its own tags. */
export interface AssetEdit {
  id: string
  tags: string[]
}

/** Edits many assets in one statement: `fields` on every one, each its own tags, all at `updatedAt`. */
export async function updateAssets(tx: Db, organizationId: string, edits: AssetEdit[], fields: Omit<AssetChanges, 'tags'>, updatedAt: Date): Promise<void> {
  if (edits.length === 0) return
  const rows = edits.map(({ id, tags }) => ({ id, tags, tag_keys: tags.map((tag) => tag.toLowerCase()), tag_text: tagText(tags) }))
  const assignments = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => sql`${sql.ref(column)} = ${value}`)
  await sql`
    update assets set ${sql.join(assignments.concat(sql`tags = edit.tags, tag_keys = edit.tag_keys, tag_text = edit.tag_text, updated_at = ${updatedAt}::timestamptz`))}
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as edit(id uuid, tags text[], tag_keys text[], tag_text text)
    where assets.organization_id = ${organizationId} and assets.id = edit.id
  `.execute(tx)
}

/** Runs these clauses (inserts, updates) as one statement, each a data-modifying `with` of it; none: no statement. */
export async function runTogether(tx: Db, clauses: Array<RawBuilder<unknown>>): Promise<void> {
  if (clauses.length === 0) return
  const parts = clauses.map((clause, i) => sql`${sql.ref(`together_${i}`)} as (${clause})`)
  await sql`with ${sql.join(parts)} select 1`.execute(tx)
}

/**
 * Which of these contents (SHA-256) any asset, of any organization, still stores: as its current file, or
 * as any version of a live or trashed asset (`asset_versions` holds them all; the current file is read
 * too, so a row is never without its file whatever the order of their writes).
 */
export async function contentsInUse(db: Db, sha256s: string[]): Promise<Set<string>> {
  if (sha256s.length === 0) return new Set()
  const wanted = sql<string>`any(${sha256s}::text[])`
  const rows = await db
    .selectFrom('assets')
    .select('sha256')
    .where('sha256', '=', wanted)
    .union(db.selectFrom('asset_versions').select('sha256').where('sha256', '=', wanted))
    .execute()
  return new Set(rows.map((row) => row.sha256))
}

/**
 * Serialises, until the transaction ends, everything that writes or removes the files of one content:
 * a push of those bytes, a delete, the sweep.
 */
export async function lockContent(tx: Db, sha256: string): Promise<void> {
  await lockContents(tx, [sha256])
}

/** `lockContent` for several contents in one statement, in the order of their locks, so two such calls never deadlock. */
export async function lockContents(tx: Db, sha256s: string[]): Promise<void> {
  await sql`select pg_advisory_xact_lock(lock) from (select distinct hashtext(sha256) as lock from unnest(${sha256s}::text[]) as sha256 order by lock) as locks`.execute(tx)
}

/** The organization's plan and what it uses, from its counters: assets live or in the trash, and the bytes of all their versions. */
export async function planUsage(db: Db, organizationId: string): Promise<{ plan: string; assets: number; bytes: number }> {
  const row = await db.selectFrom('organizations').select(['plan', 'asset_count', 'trashed_count', 'stored_byte_count']).where('id', '=', organizationId).executeTakeFirstOrThrow()
  return { plan: row.plan, assets: row.asset_count + row.trashed_count, bytes: Number(row.stored_byte_count) }
}

/** The ids among `ids` that are assets of the organization. */
export async function existingAssetIds(db: Db, organizationId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await db.selectFrom('assets').select('id').where('organization_id', '=', organizationId).where('id', 'in', ids).execute()
  return new Set(rows.map((row) => row.id))
}

/** Whether the asset is one the filter selects. */
export async function assetMatches(db: Db, organizationId: string, assetId: string, filter: AssetFilter): Promise<boolean> {
  const row = await whereFilter(db.selectFrom('assets').select('assets.id').where('assets.id', '=', assetId), organizationId, filter).executeTakeFirst()
  return row !== undefined
}

/** The files of up to `limit` contents after `after` (in sha256 order): what `blobs migrate` copies, a page at a time. */
export async function contentFilesAfter(db: Db, after: string, limit: number): Promise<Array<{ sha256: string; blob_key: string; thumbnail_key: string }>> {
  return db
    .selectFrom('asset_versions')
    .distinctOn('sha256')
    .select(['sha256', 'blob_key', 'thumbnail_key'])
    .where('sha256', '>', after)
    .orderBy('sha256')
    .limit(limit)
    .execute()
}

export async function countContents(db: Db): Promise<number> {
  const row = await db.selectFrom('asset_versions').select(sql<number>`count(distinct sha256)::int`.as('count')).executeTakeFirstOrThrow()
  return row.count
}

/** An asset's file as one of its versions holds it. */
export interface VersionFile {
  sha256: string
  blob_key: string
  thumbnail_key: string
  mime_type: string
  width: number
  height: number
  byte_size: number
  /** The text the file carries (an SVG's title and description), which full text searches while the version is the asset's. */
  file_text: string | null
}

export interface VersionContext {
  /** The asset as it is now, with its collections; undefined when it is not a live asset of the organization. */
  asset: AssetWithRelations | undefined
  plan: string
  used: { assets: number; bytes: number }
  /** Another asset of the organization whose bytes these are, live or in the trash. */
  otherOwner: string | null
}

/** What a new version must know before any file is written, in one statement: the asset, the plan and its usage, and who else has the bytes. */
export async function versionContext(db: Db, organizationId: string, assetId: string, sha256: string): Promise<VersionContext> {
  // A plain join: a lateral subquery costs the embedded database more to plan than the read itself.
  const row = await db
    .selectFrom('organizations')
    .leftJoin('assets', (join) => join.onRef('assets.organization_id', '=', 'organizations.id').on('assets.id', '=', assetId))
    .select([...ASSET_COLUMNS, ...DERIVED_COLUMNS])
    .select(['organizations.plan', 'organizations.asset_count', 'organizations.trashed_count', 'organizations.stored_byte_count', otherOwnerOf(organizationId, assetId, sha256).as('other_owner')])
    .where('organizations.id', '=', organizationId)
    .executeTakeFirstOrThrow()
  const { plan, asset_count, trashed_count, stored_byte_count, other_owner, ...found } = row as typeof row & AssetWithRelations
  return {
    asset: found.id === null ? undefined : (found as AssetWithRelations),
    plan,
    used: { assets: asset_count + trashed_count, bytes: Number(stored_byte_count) },
    otherOwner: other_owner,
  }
}

/** The asset of the organization, other than `assetId`, whose bytes `sha256` are: a live one, else one in the trash. */
function otherOwnerOf(organizationId: string, assetId: string, sha256: string): RawBuilder<string | null> {
  return sql<string | null>`coalesce(
    (select id from assets where organization_id = ${organizationId} and sha256 = ${sha256} and id <> ${assetId}),
    (select id from trashed_assets where organization_id = ${organizationId} and sha256 = ${sha256} limit 1))`
}

/** The other owner of these bytes, when adding a version found one (see `addVersion`). */
export async function otherOwner(db: Db, organizationId: string, assetId: string, sha256: string): Promise<string | null> {
  const { rows } = await sql<{ id: string | null }>`select ${otherOwnerOf(organizationId, assetId, sha256)} as id`.execute(db)
  return rows[0]?.id ?? null
}

/** A version to add: the file it makes current, and the metadata that changes with it (a push with a known `external_id`). */
export interface NewVersion {
  organization_id: string
  asset_id: string
  /** The version the caller read as current: the new one is this plus one, or nothing is written (`stale`). */
  current_version: number
  file: VersionFile
  created_at: Date
  created_by: Actor
  metadata: AssetChanges
}

export interface VersionInsert {
  version: NewVersion
  planLimits: AssetInsert['planLimits']
  /** Clauses that must happen with the version, each given the changed asset (`select id from updated`). */
  alongside: AssetInsert['alongside']
}

/** `stale`: the asset is gone or another version came first; `taken`: another asset has the bytes now. */
export type VersionWrite = 'added' | 'stale' | 'over_plan' | 'taken'

/**
 * Makes a file the asset's newest version, in one statement, so atomic without a transaction, taking its
 * locks in the order every change of an asset does (the asset's row, then its organization's, as the
 * counters' triggers do; then the content lock, after the organization's as the push takes them):
 * - the asset's row, only while its version is still `current_version`: of concurrent versions one
 *   goes first and the others find the row changed (`stale`) and read it again, so none is lost;
 * - the organization's row, so its stored bytes are exact when the plan is checked;
 * - the content lock, so no push of the same bytes, nor a delete of them, runs meanwhile; a push that
 *   committed them just before is the unique index's conflict, answered `taken` too.
 */
export async function addVersion(db: Db, insert: VersionInsert): Promise<VersionWrite> {
  const { version } = insert
  const { file, organization_id: organizationId, asset_id: assetId } = version
  const changed = sql<{ id: string }>`select id from updated`
  const clauses = insert.alongside
    .map((clause) => clause(changed))
    .filter((clause) => clause !== null)
    .map((clause, i) => sql`, ${sql.ref(`alongside_${i}`)} as (${clause})`)
  const metadata = Object.entries(metadataColumns(version.metadata)).map(([column, value]) => sql`, ${sql.ref(column)} = ${value}`)
  try {
    const result = await sql<{ found: boolean; allowed: boolean; taken: boolean; updated: boolean }>`
      with target as (
        select id from assets where id = ${assetId} and organization_id = ${organizationId} and version = ${version.current_version}::int for update
      ),
      organization as (
        select plan, stored_byte_count from organizations where id = (select ${organizationId}::uuid from target) for no key update
      ),
      content_locked as (select pg_advisory_xact_lock(hashtext(${file.sha256})) from organization),
      allowed as (
        select 1 from organization, content_locked, lateral (select ${JSON.stringify(insert.planLimits)}::jsonb -> organization.plan as plan_limit) as limits
        where coalesce(organization.stored_byte_count + ${file.byte_size} <= (plan_limit ->> 'maxBytes')::bigint, true)
      ),
      taken as (select 1 from allowed where ${otherOwnerOf(organizationId, assetId, file.sha256)} is not null),
      updated as (
        update assets set version = version + 1, sha256 = ${file.sha256}, blob_key = ${file.blob_key}, thumbnail_key = ${file.thumbnail_key},
          mime_type = ${file.mime_type}, width = ${file.width}::int, height = ${file.height}::int, byte_size = ${file.byte_size}::bigint,
          file_text = ${file.file_text}, thumbnail_failure = null, updated_at = ${version.created_at}::timestamptz, ${NO_ANALYSES}${sql.join(metadata, sql``)}
        from allowed where assets.id = ${assetId} and not exists (select 1 from taken)
        returning assets.id
      ),
      old_bands as (delete from perceptual_hash_bands where asset_id = (select id from updated)),
      old_pairs as (delete from near_duplicate_pairs where asset_id = (select id from updated) or other_id = (select id from updated)),
      new_version as (
        insert into asset_versions (asset_id, version, organization_id, sha256, blob_key, thumbnail_key, mime_type, width, height, byte_size,
          file_text, created_at, created_by_kind, created_by_name)
        select id, ${version.current_version + 1}::int, ${organizationId}::uuid, ${file.sha256}, ${file.blob_key}, ${file.thumbnail_key}, ${file.mime_type},
          ${file.width}::int, ${file.height}::int, ${file.byte_size}::bigint, ${file.file_text}, ${version.created_at}::timestamptz, ${version.created_by.kind}, ${version.created_by.name}
        from updated
      )${sql.join(clauses, sql``)}
      select exists (select 1 from target) as found, exists (select 1 from allowed) as allowed, exists (select 1 from taken) as taken, exists (select 1 from updated) as updated
    `.execute(db)
    const outcome = result.rows[0]!
    return outcome.updated ? 'added' : !outcome.found ? 'stale' : !outcome.allowed ? 'over_plan' : 'taken'
  } catch (error) {
    // A push of the same bytes that committed after this statement began: its row holds them now.
    if (isUniqueViolation(error, 'assets_sha256_key')) return 'taken'
    throw error
  }
}

/** What a new file makes unknown again until the derivations have read it (see migration 0021). */
const NO_ANALYSES = sql`perceptual_hash = null, perceptual_hash_algorithm = null, colors = null, color_names = '{}', metadata = null, provenance = null, provenance_source = null`

/** The columns an edit of these fields sets (the tags with their lowercase keys and their text). */
function metadataColumns(changes: AssetChanges): Record<string, unknown> {
  const { tags, ...fields } = changes
  return { ...fields, ...(tags && { tags: sql`${tags}::text[]`, tag_keys: sql`${tags.map((tag) => tag.toLowerCase())}::text[]`, tag_text: tagText(tags) }) }
}

/** The unique index of `external_id` among an organization's live assets (migration 0018). */
export const EXTERNAL_ID_INDEX = 'assets_external_id_key'

/** A scalar subquery: the live asset of the organization with this `external_id`, or null. */
export function assetWithExternalId(organizationId: string, externalId: string): RawBuilder<string | null> {
  return sql<string | null>`(select id from assets where organization_id = ${organizationId} and external_id = ${externalId})`
}

/** A scalar subquery: the asset in the organization's trash with this `external_id` (the newest trashed, should there be several), or null. */
export function trashedAssetWithExternalId(organizationId: string, externalId: string): RawBuilder<string | null> {
  return sql<string | null>`(select id from trashed_assets where organization_id = ${organizationId} and external_id = ${externalId} order by deleted_at desc limit 1)`
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const failure = error as { code?: string; constraint?: string; message?: string }
  return failure.code === '23505' && (failure.constraint ?? failure.message ?? '').includes(constraint)
}

/** A version of an asset as its history lists it. */
export interface VersionRow extends Omit<VersionFile, 'file_text'> {
  version: number
  created_at: Date
  created_by_kind: 'key' | 'user' | null
  created_by_name: string | null
}

/** A version's file, as its history lists it and as a restore copies it. */
const VERSION_FILE_COLUMNS = [
  'asset_versions.sha256',
  'asset_versions.blob_key',
  'asset_versions.thumbnail_key',
  'asset_versions.mime_type',
  'asset_versions.width',
  'asset_versions.height',
  'asset_versions.byte_size',
] as const

/** Every version of a live asset of the organization, newest first; undefined when there is no such asset. */
export async function listVersions(db: Db, organizationId: string, assetId: string): Promise<VersionRow[] | undefined> {
  const rows = await db
    .selectFrom('assets')
    .leftJoin('asset_versions', 'asset_versions.asset_id', 'assets.id')
    .select([
      'assets.id',
      'asset_versions.version',
      ...VERSION_FILE_COLUMNS,
      'asset_versions.created_at',
      'asset_versions.created_by_kind',
      'asset_versions.created_by_name',
    ])
    .where('assets.organization_id', '=', organizationId)
    .where('assets.id', '=', assetId)
    .orderBy('asset_versions.version', 'desc')
    .execute()
  if (rows.length === 0) return undefined
  return rows.filter((row) => row.version !== null).map(({ id: _id, ...row }) => ({ ...row, byte_size: Number(row.byte_size) }) as VersionRow)
}

/** One version's file, of a live asset of the organization. */
export async function findVersion(db: Db, organizationId: string, assetId: string, version: number): Promise<VersionFile | undefined> {
  const row = await db
    .selectFrom('asset_versions')
    .innerJoin('assets', 'assets.id', 'asset_versions.asset_id')
    .select([...VERSION_FILE_COLUMNS, 'asset_versions.file_text'])
    .where('assets.organization_id', '=', organizationId)
    .where('asset_versions.asset_id', '=', assetId)
    .where('asset_versions.version', '=', version)
    .executeTakeFirst()
  return row && { ...row, byte_size: Number(row.byte_size) }
}
