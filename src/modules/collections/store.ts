import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { Page } from '../../platform/http/pagination.js'
import { uuidv7 } from '../../platform/ids.js'
import type { NamedCollection } from '../assets/push.js'
import type { AssetFilter } from '../assets/store.js'

/** A smart collection's query: the filters of the asset list, and optionally the order (`sort`) it lists them in. */
export type SmartQuery = AssetFilter & { sort?: string }

export interface CollectionRow {
  id: string
  name: string
  description: string
  kind: 'manual' | 'smart'
  query: SmartQuery | null
  shared_at: Date | null
  created_at: Date
  updated_at: Date
}

const COLUMNS = ['id', 'name', 'description', 'kind', 'query', 'shared_at', 'created_at', 'updated_at'] as const

/** Undefined when the organization already has a collection of that name (in any case). */
export async function insertCollection(
  db: Db,
  organizationId: string,
  fields: { name: string; description: string; kind: 'manual' | 'smart'; query: SmartQuery | null; createdBy: string | null },
): Promise<CollectionRow | undefined> {
  return (await db
    .insertInto('collections')
    .values({
      id: uuidv7(),
      organization_id: organizationId,
      name: fields.name,
      description: fields.description,
      kind: fields.kind,
      query: fields.query === null ? null : JSON.stringify(fields.query),
      created_by: fields.createdBy,
      updated_at: sql<Date>`now()`,
    })
    .onConflict((oc) => oc.expression(sql`organization_id, lower(name)`).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst()) as CollectionRow | undefined
}

export async function findCollection(db: Db, organizationId: string, id: string): Promise<CollectionRow | undefined> {
  return (await db.selectFrom('collections').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()) as
    | CollectionRow
    | undefined
}

/** The user whose session created the collection (null: a key, or unknown); undefined when there is no such collection. */
export async function findCreator(db: Db, organizationId: string, id: string): Promise<{ created_by: string | null } | undefined> {
  return db.selectFrom('collections').select('created_by').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
}

/** The organization's collections among `ids`; an id of another organization's finds nothing. */
export async function findCollections(db: Db, organizationId: string, ids: string[]): Promise<CollectionRow[]> {
  if (ids.length === 0) return []
  return (await db.selectFrom('collections').select(COLUMNS).where('organization_id', '=', organizationId).where('id', 'in', ids).execute()) as CollectionRow[]
}

export type SharedRow = CollectionRow & { organization_id: string; organization_name: string }

/** The collection shared with this token, with the name of its organization (the share page shows it). */
export async function findShared(db: Db, tokenHash: string): Promise<SharedRow | undefined> {
  return (await db
    .selectFrom('collections')
    .innerJoin('organizations', 'organizations.id', 'collections.organization_id')
    .select([...COLUMNS.map((column) => `collections.${column}` as const), 'collections.organization_id', 'organizations.name as organization_name'])
    .where('collections.share_token_hash', '=', tokenHash)
    .executeTakeFirst()) as SharedRow | undefined
}

/**
 * What a share's file link is checked against, by primary key: the collection's current share (its
 * token hash, null when unshared) and, for a manual collection, whether the asset is a member.
 */
export async function findShareForFile(db: Db, collectionId: string, assetId: string) {
  return (await db
    .selectFrom('collections')
    .select(({ exists, selectFrom }) => [
      'organization_id',
      'kind',
      'query',
      'share_token_hash',
      exists(
        selectFrom('collection_assets').select(sql`1`.as('one')).where('collection_id', '=', collectionId).where('asset_id', '=', assetId),
      ).as('member'),
    ])
    .where('id', '=', collectionId)
    .executeTakeFirst()) as
    | { organization_id: string; kind: 'manual' | 'smart'; query: SmartQuery | null; share_token_hash: string | null; member: boolean }
    | undefined
}

/** A scalar subquery: the collection named `name` (case-insensitively) as JSON, or null. */
export function collectionNamed(organizationId: string, name: string): RawBuilder<NamedCollection | null> {
  return sql<NamedCollection | null>`(select json_build_object('id', id, 'name', name, 'kind', kind) from collections
    where organization_id = ${organizationId} and lower(name) = ${name.toLowerCase()})`
}

/** A clause of a larger statement: adds the assets `assets` selects (rows with an `id`), each once. */
export function memberInsert(collectionId: string, assets: RawBuilder<{ id: string }>): RawBuilder<unknown> {
  return sql`insert into collection_assets (collection_id, asset_id) select ${collectionId}, added.id from (${assets}) as added
    on conflict (collection_id, asset_id) do nothing`
}

export async function listCollections(db: Db, organizationId: string, filter: { kind?: 'manual' | 'smart'; q?: string }, page: Page) {
  let query = db.selectFrom('collections').where('organization_id', '=', organizationId)
  if (filter.kind) query = query.where('kind', '=', filter.kind)
  if (filter.q) query = query.where(sql<string>`lower(name)`, 'like', `%${filter.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
  const [rows, counted] = await Promise.all([
    query.select(COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows: rows as CollectionRow[], total: counted.n }
}

/** Undefined when the collection does not exist, or when the new name is taken (`taken` says which). */
export async function updateCollection(
  db: Db,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string; query?: SmartQuery },
): Promise<CollectionRow | 'name_taken' | undefined> {
  try {
    return (await db
      .updateTable('collections')
      .set({
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.description !== undefined && { description: changes.description }),
        ...(changes.query !== undefined && { query: JSON.stringify(changes.query) }),
        updated_at: sql<Date>`now()`,
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst()) as CollectionRow | undefined
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return 'name_taken'
    throw error
  }
}

/** With `createdBy`, only a collection that user created. */
export async function deleteCollection(db: Db, organizationId: string, id: string, createdBy?: string): Promise<boolean> {
  const result = await db
    .deleteFrom('collections')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .$if(createdBy !== undefined, (query) => query.where('created_by', '=', createdBy!))
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

export async function addMembers(db: Db, collectionId: string, assetIds: string[]): Promise<number> {
  if (assetIds.length === 0) return 0
  const added = await db
    .insertInto('collection_assets')
    .values(assetIds.map((assetId) => ({ collection_id: collectionId, asset_id: assetId })))
    .onConflict((oc) => oc.columns(['collection_id', 'asset_id']).doNothing())
    .returning('asset_id')
    .execute()
  return added.length
}

export async function removeMembers(db: Db, collectionId: string, assetIds: string[]): Promise<number> {
  if (assetIds.length === 0) return 0
  const result = await db.deleteFrom('collection_assets').where('collection_id', '=', collectionId).where('asset_id', 'in', assetIds).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** The new `shared_at` (null when unshared), or undefined when there is no such collection. */
/** A new link's token, as stored: its hash for lookups, and the token sealed so owners and admins can see it again. */
export interface StoredShareToken {
  hash: string
  sealed: string
}

export async function setShareToken(db: Db, organizationId: string, id: string, token: StoredShareToken | null): Promise<Date | null | undefined> {
  const row = await db
    .updateTable('collections')
    .set({ share_token_hash: token?.hash ?? null, share_token_sealed: token?.sealed ?? null, shared_at: token ? sql<Date>`now()` : null })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning('shared_at')
    .executeTakeFirst()
  return row?.shared_at
}

/** The collection's live link as stored: undefined for no such collection; nulls when it is not shared (or, for `sealed`, shared before tokens were kept). */
export async function findShareToken(db: Db, organizationId: string, id: string): Promise<{ sealed: string | null; shared_at: Date | null } | undefined> {
  return db
    .selectFrom('collections')
    .select(['share_token_sealed as sealed', 'shared_at'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
}
