import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import type { Database, Db } from '../../platform/db/index.js'
import type { Page } from '../../platform/http/pagination.js'
import { uuidv7 } from '../../platform/ids.js'
import { textQuery } from './full-text.js'

/**
 * The filters of GET /api/v1/assets; smart collections store exactly this object and are evaluated
 * by the same function, so a collection and the list always agree.
 */
export interface AssetFilter {
  asset_type?: string
  client?: string
  product?: string
  tag?: string
  q?: string
}

export const ASSET_COLUMNS = [
  'assets.id',
  'assets.title',
  'assets.asset_type',
  'assets.client',
  'assets.product',
  'assets.source_url',
  'assets.created_by_ai',
  'assets.mime_type',
  'assets.width',
  'assets.height',
  'assets.byte_size',
  'assets.sha256',
  'assets.blob_key',
  'assets.thumbnail_key',
  'assets.created_at',
  'assets.updated_at',
] as const

export interface AssetRow {
  id: string
  title: string
  asset_type: string | null
  client: string | null
  product: string | null
  source_url: string | null
  created_by_ai: boolean
  mime_type: string
  width: number
  height: number
  byte_size: string
  sha256: string
  blob_key: string
  thumbnail_key: string
  created_at: Date
  updated_at: Date
}

type AssetQuery<O> = SelectQueryBuilder<Database, 'assets', O>

export interface AssetWithRelations extends AssetRow {
  tags: string[]
  collections: Array<{ id: string; name: string }>
}

/** Tags and manual collections as JSON columns of the same row, so a page costs one statement. */
export const RELATIONS = [
  sql<string[]>`coalesce((
    select json_agg(tags.name order by lower(tags.name)) from asset_tags join tags on tags.id = asset_tags.tag_id
    where asset_tags.asset_id = assets.id), '[]')`.as('tags'),
  sql<Array<{ id: string; name: string }>>`coalesce((
    select json_agg(json_build_object('id', collections.id, 'name', collections.name) order by lower(collections.name))
    from collection_assets join collections on collections.id = collection_assets.collection_id
    where collection_assets.asset_id = assets.id), '[]')`.as('collections'),
]

/** Narrows a query on `assets` to one organization and the filter; names match case-insensitively. */
export function whereFilter<O>(query: AssetQuery<O>, organizationId: string, filter: AssetFilter): AssetQuery<O> {
  let q = query.where('assets.organization_id', '=', organizationId)
  for (const column of ['asset_type', 'client', 'product'] as const) {
    const value = filter[column]
    if (value !== undefined) q = q.where(sql<string>`lower(${sql.ref(`assets.${column}`)})`, '=', value.toLowerCase())
  }
  if (filter.tag !== undefined) {
    const tag = filter.tag.toLowerCase()
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('asset_tags')
          .innerJoin('tags', 'tags.id', 'asset_tags.tag_id')
          .select(sql`1`.as('one'))
          .whereRef('asset_tags.asset_id', '=', 'assets.id')
          .where(sql<string>`lower(tags.name)`, '=', tag),
      ),
    )
  }
  if (filter.q !== undefined) q = q.where(matchesText(filter.q))
  return q
}

/** Full-text match of `query` (see full-text.ts); the tsquery is an InitPlan, built once per statement. */
export function matchesText(query: string): RawBuilder<boolean> {
  const tsquery = textQuery(query)
  return tsquery ? sql<boolean>`assets.search @@ (select ${tsquery})` : sql<boolean>`false`
}

/** `inCollection` narrows the list to a manual collection's members. */
export async function listAssets(db: Db, organizationId: string, filter: AssetFilter, page: Page, inCollection?: string) {
  const base = scopedAssets(db, inCollection)
  const [rows, total] = await Promise.all([
    whereFilter(base.select([...ASSET_COLUMNS, ...RELATIONS]), organizationId, filter)
      .orderBy('assets.created_at', 'desc')
      .orderBy('assets.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    countAssets(db, organizationId, filter, inCollection),
  ])
  return { rows: rows as AssetWithRelations[], total }
}

export async function countAssets(db: Db, organizationId: string, filter: AssetFilter, inCollection?: string): Promise<number> {
  const counted = await whereFilter(scopedAssets(db, inCollection).select(sql<number>`count(*)::int`.as('n')), organizationId, filter).executeTakeFirstOrThrow()
  return counted.n
}

/** Several counts in one statement: each scope is a filter, optionally within a manual collection. */
export async function countAssetsEach(db: Db, organizationId: string, scopes: Array<{ filter: AssetFilter; inCollection?: string }>): Promise<number[]> {
  if (scopes.length === 0) return []
  const counts = scopes.map(({ filter, inCollection }, i) => {
    const count = whereFilter(scopedAssets(db, inCollection).select(sql<number>`count(*)::int`.as('n')), organizationId, filter)
    return sql`(${count}) as ${sql.ref(`c${i}`)}`
  })
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
    .select([...ASSET_COLUMNS, ...RELATIONS])
    .where('assets.organization_id', '=', organizationId)
    .where('assets.id', '=', id)
    .executeTakeFirst()) as AssetWithRelations | undefined
}

/** For signed file URLs, which carry no organization: the signature is the capability. */
export async function findAssetFiles(db: Db, id: string) {
  return db.selectFrom('assets').select(['mime_type', 'blob_key', 'thumbnail_key']).where('id', '=', id).executeTakeFirst()
}

export async function findBySha256(db: Db, organizationId: string, sha256: string): Promise<string | undefined> {
  const row = await db.selectFrom('assets').select('id').where('organization_id', '=', organizationId).where('sha256', '=', sha256).executeTakeFirst()
  return row?.id
}

/** A row to insert: everything the database does not fill in itself. */
export type NewAsset = Omit<AssetRow, 'id' | 'byte_size' | 'created_at' | 'updated_at'> & { organization_id: string; byte_size: number; tag_text: string }

/** Undefined when the organization already has these bytes (the unique index decides, race-free). */
export async function insertAsset(db: Db, asset: NewAsset): Promise<string | undefined> {
  const row = await db
    .insertInto('assets')
    .values({ ...asset, id: uuidv7(), updated_at: sql<Date>`now()` })
    .onConflict((oc) => oc.columns(['organization_id', 'sha256']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return row?.id
}

export async function updateAsset(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<Pick<NewAsset, 'title' | 'asset_type' | 'client' | 'product' | 'source_url' | 'created_by_ai' | 'tag_text'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('assets')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function deleteAsset(db: Db, organizationId: string, id: string): Promise<AssetRow | undefined> {
  return (await db
    .deleteFrom('assets')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning(ASSET_COLUMNS.map((c) => c.replace('assets.', '')) as never)
    .executeTakeFirst()) as AssetRow | undefined
}

/** Which of these contents (SHA-256) any asset, of any organization, still stores. */
export async function contentsInUse(db: Db, sha256s: string[]): Promise<Set<string>> {
  if (sha256s.length === 0) return new Set()
  const rows = await db.selectFrom('assets').select('sha256').distinct().where('sha256', '=', sql<string>`any(${sha256s}::text[])`).execute()
  return new Set(rows.map((row) => row.sha256))
}

/**
 * Serialises, until the transaction ends, everything that writes or removes the files of one content:
 * a push of those bytes, a delete, the sweep.
 */
export async function lockContent(tx: Db, sha256: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${sha256}))`.execute(tx)
}

/** Replaces the asset's tags with these (the catalogue's tag ids). */
export async function setTags(db: Db, assetId: string, tagIds: string[]): Promise<void> {
  await db.deleteFrom('asset_tags').where('asset_id', '=', assetId).execute()
  if (tagIds.length === 0) return
  await db.insertInto('asset_tags').values(tagIds.map((tagId) => ({ asset_id: assetId, tag_id: tagId }))).execute()
}

/**
 * The organization's plan and, when it is one of `limitedPlans`, what it uses (else 0, not counted): one
 * statement, without locking anything.
 */
export async function planUsage(db: Db, organizationId: string, limitedPlans: string[]): Promise<{ plan: string; assets: number; bytes: number }> {
  const limited = sql`plan = any(${limitedPlans}::text[])`
  const row = await db
    .selectFrom('organizations')
    .select([
      'plan',
      sql<number>`case when ${limited} then (select count(*)::int from assets where organization_id = organizations.id) else 0 end`.as('assets'),
      sql<string>`case when ${limited} then (select coalesce(sum(byte_size), 0)::text from assets where organization_id = organizations.id) else '0' end`.as('bytes'),
    ])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow()
  return { plan: row.plan, assets: row.assets, bytes: Number(row.bytes) }
}

export async function usage(db: Db, organizationId: string): Promise<{ assets: number; bytes: number }> {
  const row = await db
    .selectFrom('assets')
    .select([sql<number>`count(*)::int`.as('assets'), sql<string>`coalesce(sum(byte_size), 0)::text`.as('bytes')])
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow()
  return { assets: row.assets, bytes: Number(row.bytes) }
}

/**
 * Serialises pushes of one organization, so plan limits hold under concurrency. NO KEY UPDATE, not
 * UPDATE: inserts that reference the organization (events, tags) take KEY SHARE and must not wait.
 */
export async function lockOrganization(db: Db, organizationId: string): Promise<{ plan: string }> {
  return db.selectFrom('organizations').select('plan').where('id', '=', organizationId).forNoKeyUpdate().executeTakeFirstOrThrow()
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
