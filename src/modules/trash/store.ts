import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { ActorKind } from '../../platform/db/schema.js'
import type { Page } from '../../platform/http/pagination.js'
import type { Actor } from '../assets/record.js'
import type { AssetWithRelations } from '../assets/store.js'

/** Trashed assets purged per statement. */
export const PURGE_BATCH = 500

/**
 * The columns of `assets` a trashed row puts back, all but the generated `search`. Read from the stored
 * row with `jsonb_populate_record`, so each comes back with its column's type.
 */
export const RESTORED_COLUMNS = [
  'id',
  'organization_id',
  'title',
  'asset_type',
  'client',
  'product',
  'tags',
  'tag_keys',
  'tag_text',
  'source_url',
  'created_by_ai',
  'mime_type',
  'width',
  'height',
  'byte_size',
  'sha256',
  'blob_key',
  'thumbnail_key',
  'thumbnail_failure',
  'version',
  'external_id',
  'file_text',
  'perceptual_hash',
  'perceptual_hash_algorithm',
  'colors',
  'color_names',
  'metadata',
  'provenance',
  'provenance_source',
  'created_by',
  'created_by_kind',
  'created_by_name',
  'created_at',
  'updated_at',
] as const

/** The stored values of `RESTORED_COLUMNS`; a creator whose account was deleted meanwhile is forgotten, as its foreign key does for live assets. */
const restoredValues = sql.join(
  RESTORED_COLUMNS.map((column) =>
    column === 'created_by' ? sql`(select users.id from users where users.id = stored.created_by)` : sql.ref(`stored.${column}`),
  ),
)

/** The stored row as `assets` columns (`stored.*`), beside the trash row `trashed`. */
const STORED_ROW = sql`cross join lateral jsonb_populate_record(null::assets, trashed.asset) as stored`

/** The manual collections of a trashed asset that still exist, as an asset record lists them. */
const STORED_COLLECTIONS = sql<Array<{ id: string; name: string }>>`coalesce((
  select json_agg(json_build_object('id', collections.id, 'name', collections.name) order by lower(collections.name))
  from collections where collections.id = any(trashed.collection_ids) and collections.organization_id = trashed.organization_id), '[]')`

/** A trashed asset is no live asset's near-duplicate, nor has any: its pairs went with its row, and a restore finds them again. */
const NO_NEAR_DUPLICATES = sql`null::json as near_duplicates`

/** A trashed asset as the trash lists it: its row as it was, and when, by whom, until when. */
export interface TrashedRow extends AssetWithRelations {
  deleted_at: Date
  purge_at: Date
  deleted_by_kind: ActorKind
  deleted_by_name: string
}

/** The files of one version of a purged asset, to remove once nothing else uses them. */
export interface PurgedFiles {
  sha256: string
  blob_key: string
  thumbnail_key: string
}

/**
 * Moves an asset to the trash in one statement: its row leaves `assets` (and with it its memberships,
 * queued work and embedding, by their foreign keys) and enters `trashed_assets` whole, with the ids of its
 * manual collections, read in the same snapshot as the row. False when there was no such asset (with
 * `createdBy`: none that user created).
 */
export async function moveToTrash(
  tx: Db,
  organizationId: string,
  id: string,
  options: { createdBy: string | undefined; retentionDays: number; deletedBy: Actor },
): Promise<boolean> {
  const ownOnly = options.createdBy === undefined ? sql`` : sql`and created_by = ${options.createdBy}::uuid`
  const { rows } = await sql<{ id: string }>`
    with moved as (
      delete from assets where organization_id = ${organizationId} and id = ${id} ${ownOnly} returning *
    )
    insert into trashed_assets (id, organization_id, sha256, external_id, asset, collection_ids, purge_at, deleted_by_kind, deleted_by_name)
    select moved.id, moved.organization_id, moved.sha256, moved.external_id, to_jsonb(moved) - 'search',
      array(select collection_id from collection_assets where asset_id = moved.id),
      now() + make_interval(days => ${options.retentionDays}::int), ${options.deletedBy.kind}, ${options.deletedBy.name}
    from moved
    returning id
  `.execute(tx)
  return rows.length > 0
}

/** A page of the organization's trash, newest deleted first, and its total (the organization's counter), in one statement. */
export async function listTrash(db: Db, organizationId: string, page: Page): Promise<{ rows: TrashedRow[]; total: number }> {
  const { rows } = await sql<TrashedRow & { total: number }>`
    select organizations.trashed_count as total, listed.*
    from organizations
    left join lateral (
      select stored.*, ${STORED_COLLECTIONS} as collections, ${NO_NEAR_DUPLICATES}, trashed.deleted_at, trashed.purge_at, trashed.deleted_by_kind, trashed.deleted_by_name
      from (
        select * from trashed_assets where organization_id = ${organizationId}
        order by deleted_at desc, id desc limit ${page.limit} offset ${page.offset}
      ) as trashed ${STORED_ROW}
      order by trashed.deleted_at desc, trashed.id desc
    ) as listed on true
    where organizations.id = ${organizationId}
  `.execute(db)
  return { rows: rows.filter((row) => row.id !== null), total: rows[0]?.total ?? 0 }
}

/**
 * Takes the asset out of the trash (the first step of a restore, in its transaction): deletes its trash
 * row, which locks out a purge of it until the transaction ends, and returns the row as it was, with the
 * manual collections that still exist, and the stored row itself to put back. Undefined when it is not in
 * the organization's trash (never was, restored or purged meanwhile).
 */
export async function takeFromTrash(tx: Db, organizationId: string, id: string): Promise<{ row: AssetWithRelations; stored: unknown } | undefined> {
  const { rows } = await sql<AssetWithRelations & { stored_row: unknown }>`
    with trashed as (
      delete from trashed_assets where organization_id = ${organizationId} and id = ${id} returning *
    )
    select stored.*, ${STORED_COLLECTIONS} as collections, ${NO_NEAR_DUPLICATES}, trashed.asset as stored_row
    from trashed ${STORED_ROW}
  `.execute(tx)
  const taken = rows[0]
  if (!taken) return undefined
  const { stored_row: stored, ...row } = taken
  return { row, stored }
}

export interface RestoreInsert {
  /** The stored row, as `takeFromTrash` returned it. */
  stored: unknown
  /** The manual collections to put it back in (those that still exist). */
  collectionIds: string[]
  /** Clauses that must happen with the asset, each given the restored row (`select id from restored`); null: none. */
  alongside: Array<(restored: RawBuilder<{ id: string }>) => RawBuilder<unknown> | null>
}

/**
 * Puts a row taken from the trash back into `assets` as it was (its id, dates, tags, version, external
 * id; a creator whose account is gone is forgotten, as the foreign key would), with its memberships and
 * what goes with it, in one statement. A live asset holding its bytes or its external id now makes the
 * insert fail with a unique violation, which rolls the whole restore back.
 */
export async function restoreRow(tx: Db, insert: RestoreInsert): Promise<void> {
  const restored = sql<{ id: string }>`select id from restored`
  const clauses = insert.alongside
    .map((clause) => clause(restored))
    .filter((clause) => clause !== null)
    .map((clause, i) => sql`, ${sql.ref(`alongside_${i}`)} as (${clause})`)
  await sql`
    with restored as (
      insert into assets (${sql.join(RESTORED_COLUMNS.map((column) => sql.ref(column)))})
      select ${restoredValues}
      from (select ${JSON.stringify(insert.stored)}::jsonb as asset) as trashed ${STORED_ROW}
      returning id
    ),
    members as (
      insert into collection_assets (collection_id, asset_id)
      select collection_id, restored.id from restored, unnest(${insert.collectionIds}::uuid[]) as collection_id
    )${sql.join(clauses, sql``)}
    select 1
  `.execute(tx)
}

/**
 * Purges one trashed asset of the organization now: its trash row and every version's row, in one
 * statement. Returns the files of its versions, or undefined when it is not in the trash (restored or
 * purged meanwhile: a restore holding the row makes this wait, then find nothing).
 */
export async function purgeOne(db: Db, organizationId: string, id: string): Promise<PurgedFiles[] | undefined> {
  const { rows } = await sql<PurgedFiles & { purged: boolean }>`
    with purged as (
      delete from trashed_assets where organization_id = ${organizationId} and id = ${id} returning id
    ),
    versions as (
      delete from asset_versions where asset_id in (select id from purged) returning sha256, blob_key, thumbnail_key
    )
    select true as purged, files.* from purged left join lateral (select distinct * from versions) as files on true
  `.execute(db)
  if (rows.length === 0) return undefined
  return rows.filter((row) => row.sha256 !== null).map(({ sha256, blob_key, thumbnail_key }) => ({ sha256, blob_key, thumbnail_key }))
}

/**
 * Purges up to `PURGE_BATCH` trashed assets whose time has come, of every organization, in one statement:
 * claimed with `skip locked`, so concurrent purges share the work and skip what a restore holds. Returns
 * how many it purged and the files of their versions.
 */
export async function purgeDue(db: Db): Promise<{ purged: number; files: PurgedFiles[] }> {
  const { rows } = await sql<PurgedFiles & { purged: number }>`
    with due as (
      select id from trashed_assets where purge_at <= now() order by purge_at limit ${PURGE_BATCH} for update skip locked
    ),
    purged as (
      delete from trashed_assets where id in (select id from due) returning id
    ),
    versions as (
      delete from asset_versions where asset_id in (select id from purged) returning sha256, blob_key, thumbnail_key
    )
    select (select count(*)::int from purged) as purged, files.*
    from (select 1) as one left join lateral (select distinct * from versions) as files on true
  `.execute(db)
  return { purged: rows[0]?.purged ?? 0, files: rows.filter((row) => row.sha256 !== null).map(({ sha256, blob_key, thumbnail_key }) => ({ sha256, blob_key, thumbnail_key })) }
}
