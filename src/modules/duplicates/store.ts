import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { Page } from '../../platform/http/pagination.js'
import { hashBands, PERCEPTUAL_HASH_ALGORITHM } from '../../platform/images/perceptual-hash.js'
import { ASSET_COLUMNS, DERIVED_COLUMNS, type AssetWithRelations } from '../assets/store.js'

/** The largest distance the bands find every hash within: 8 bands, so two hashes within 7 bits share one whole. */
export const BANDED_DISTANCE = 7

/**
 * The closest near-duplicates kept for one new hash. Flat pictures have no hash (too plain to compare),
 * but a library may still hold many pictures of one shape (the same mark on n backgrounds of one
 * brightness): without a bound, n of them would make n² pairs; with it, each adds at most twice this many rows.
 */
export const MAX_PAIRS_PER_HASH = 100

/** An asset whose perceptual hash is within some distance of another's. */
export interface Neighbour {
  asset_id: string
  distance: number
}

/**
 * Keeps the perceptual hash of an asset's file, its bands, and its near-duplicates (pairs both ways,
 * within `maxDistance`, the closest MAX_PAIRS_PER_HASH), in one transaction, only while the asset still has that file. `hash` null: the
 * image cannot be decoded or is too plain to compare; it is marked as hashed, with no bands and so no near-duplicates.
 *
 * The transaction first takes the organization's near-duplicate lock, so two hashes saved at once in
 * one organization see each other: the second one's lookup runs after the first has committed.
 */
export async function saveHash(
  db: Db,
  file: { assetId: string; organizationId: string; sha256: string },
  hash: bigint | null,
  maxDistance: number,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`near-duplicates:${file.organizationId}`}))`.execute(tx)
    const updated = await sql`
      update assets set perceptual_hash = ${hash === null ? null : hash.toString()}::bigint, perceptual_hash_algorithm = ${PERCEPTUAL_HASH_ALGORITHM}
      where id = ${file.assetId} and sha256 = ${file.sha256}
      returning id
    `.execute(tx)
    if (updated.rows.length === 0) return
    // Kept from an earlier run on the same file (a restore queues the analysis again).
    await sql`delete from perceptual_hash_bands where asset_id = ${file.assetId}`.execute(tx)
    await sql`delete from near_duplicate_pairs where asset_id = ${file.assetId} or other_id = ${file.assetId}`.execute(tx)
    if (hash === null) return
    const bands = hashBands(hash)
    await sql`
      insert into perceptual_hash_bands (organization_id, band, value, asset_id, hash)
      select ${file.organizationId}::uuid, band - 1, value, ${file.assetId}::uuid, ${hash.toString()}::bigint
      from unnest(${bands}::smallint[]) with ordinality as bands (value, band)
    `.execute(tx)
    await sql`
      with near as (
        select * from (${neighbours(file.organizationId, file.assetId, hash, maxDistance)}) as found order by found.distance, found.asset_id limit ${sql.lit(MAX_PAIRS_PER_HASH)}
      )
      insert into near_duplicate_pairs (asset_id, other_id, organization_id, distance)
      select ${file.assetId}::uuid, near.asset_id, ${file.organizationId}::uuid, near.distance from near
      union all
      select near.asset_id, ${file.assetId}::uuid, ${file.organizationId}::uuid, near.distance from near
    `.execute(tx)
  })
}

/**
 * The organization's assets (but `excluded`) whose hash is within `maxDistance` (at most
 * BANDED_DISTANCE) of `hash`, as `asset_id`, `distance`: one index-only scan of the bands' primary key
 * per band, then the Hamming distance of each candidate's hash, kept in the index too (`bit_count` of the
 * XOR's 8 bytes: PostgreSQL 14+ and PGlite; cheaper than a cast to bit(64)).
 */
export function neighbours(organizationId: string, excluded: string | null, hash: bigint, maxDistance: number): RawBuilder<Neighbour> {
  const bands = hashBands(hash)
  const keys = sql.join(bands.map((value, band) => sql`(${sql.lit(band)}::smallint, ${sql.lit(value)}::smallint)`))
  const other = excluded === null ? sql`` : sql`and candidate.asset_id <> ${excluded}::uuid`
  return sql<Neighbour>`
    select candidate.asset_id, min(bit_count(int8send(candidate.hash # ${hash.toString()}::bigint)))::int as distance
    from (values ${keys}) as wanted (band, value)
    cross join lateral (
      select asset_id, hash from perceptual_hash_bands
      where perceptual_hash_bands.organization_id = ${organizationId} and perceptual_hash_bands.band = wanted.band and perceptual_hash_bands.value = wanted.value
    ) as candidate
    where bit_count(int8send(candidate.hash # ${hash.toString()}::bigint)) <= ${sql.lit(maxDistance)} ${other}
    group by candidate.asset_id`
}

/** The neighbours of a hash, closest first (the lookup `saveHash` makes, for the benchmark and the similar list). */
export async function findNeighbours(db: Db, organizationId: string, excluded: string | null, hash: bigint, maxDistance: number): Promise<Neighbour[]> {
  const { rows } = await sql<Neighbour>`
    select * from (${neighbours(organizationId, excluded, hash, maxDistance)}) as near order by near.distance, near.asset_id
  `.execute(db)
  return rows
}

/** An asset's current perceptual hash: undefined when the organization has no such live asset, null while pending or for an image that cannot be decoded or is too plain to compare. */
export async function perceptualHashOf(db: Db, organizationId: string, assetId: string): Promise<bigint | null | undefined> {
  const row = await db.selectFrom('assets').select('perceptual_hash').where('organization_id', '=', organizationId).where('id', '=', assetId).executeTakeFirst()
  if (!row) return undefined
  return row.perceptual_hash === null ? null : BigInt(row.perceptual_hash)
}

/** The organization's live assets within BANDED_DISTANCE of `hash` (but `assetId`), closest first, then by id, as records' rows with their `distance`. */
export async function lookalikes(db: Db, organizationId: string, assetId: string, hash: bigint, limit: number): Promise<Array<AssetWithRelations & { distance: number }>> {
  const { rows } = await sql<AssetWithRelations & { distance: number }>`
    with near as (
      select * from (${neighbours(organizationId, assetId, hash, BANDED_DISTANCE)}) as found order by found.distance, found.asset_id limit ${limit}
    )
    select ${sql.join([...ASSET_COLUMNS.map((column) => sql.ref(column)), ...DERIVED_COLUMNS])}, near.distance
    from near join assets on assets.id = near.asset_id
    order by near.distance, assets.id
  `.execute(db)
  return rows
}

/** A group's asset and its newer near-duplicates' ids, closest first. */
export interface GroupRow {
  asset_id: string
  duplicates: Neighbour[]
}

/**
 * The organization's groups as CTEs: `newer`, each pair from its older asset to the newer one, and
 * `heads`, the assets that lead a group (`asset_id`, `created_at`). An asset leads one when it has a newer
 * near-duplicate, unless an older near-duplicate of it is near every one of those too: then they are all
 * in that older asset's group, and listing them again would show one cluster twice. No pair is lost: a
 * newer asset that only this asset is near keeps its group (a chain A~B~C lists A with B, and B with C).
 */
function groupsOf(organizationId: string): RawBuilder<unknown> {
  return sql`
    newer as (
      select pair.asset_id, pair.other_id, pair.distance, asset.created_at
      from near_duplicate_pairs as pair
      join assets as asset on asset.id = pair.asset_id
      join assets as other on other.id = pair.other_id
      where pair.organization_id = ${organizationId} and (other.created_at, other.id) > (asset.created_at, asset.id)
    ),
    heads as (
      select distinct head.asset_id, head.created_at from newer as head
      where not exists (
        select 1 from newer as older
        where older.other_id = head.asset_id
          and not exists (
            select 1 from newer as member
            where member.asset_id = head.asset_id
              and not exists (select 1 from near_duplicate_pairs as pair where pair.asset_id = older.asset_id and pair.other_id = member.other_id)
          )
      )
    )`
}

/**
 * A page of the organization's duplicate groups (see DuplicateGroupSchema), the group whose asset was
 * pushed last first, and their total: one statement over the organization's pairs.
 */
export async function duplicateGroups(db: Db, organizationId: string, page: Page): Promise<{ groups: GroupRow[]; total: number }> {
  const { rows } = await sql<GroupRow & { total: number }>`
    with ${groupsOf(organizationId)},
    groups as (
      select asset_id, created_at, count(*) over () as total from heads
      order by created_at desc, asset_id desc limit ${page.limit} offset ${page.offset}
    )
    select groups.asset_id, groups.total::int as total,
      (select json_agg(json_build_object('asset_id', newer.other_id, 'distance', newer.distance) order by newer.distance, newer.other_id)
        from newer where newer.asset_id = groups.asset_id) as duplicates
    from groups order by groups.created_at desc, groups.asset_id desc
  `.execute(db)
  const total = rows[0]?.total ?? (page.offset === 0 ? 0 : await countGroups(db, organizationId))
  return { groups: rows.map(({ asset_id, duplicates }) => ({ asset_id, duplicates })), total }
}

/** How many groups the organization has (for a page past the last). */
async function countGroups(db: Db, organizationId: string): Promise<number> {
  const { rows } = await sql<{ total: number }>`with ${groupsOf(organizationId)} select count(*)::int as total from heads`.execute(db)
  return rows[0]!.total
}

/** The organization's live assets of these ids, as records' rows. */
export async function assetsByIds(db: Db, organizationId: string, ids: string[]): Promise<Map<string, AssetWithRelations>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('assets')
    .select([...ASSET_COLUMNS, ...DERIVED_COLUMNS])
    .where('assets.organization_id', '=', organizationId)
    .where('assets.id', '=', sql<string>`any(${ids}::uuid[])`)
    .execute()
  return new Map(rows.map((row) => [row.id, row as AssetWithRelations]))
}

/** The tags of the organization's live assets of these ids, locked for the resolve's transaction (in id order, so two resolves never deadlock). */
export async function lockForResolve(tx: Db, organizationId: string, ids: string[]): Promise<Map<string, string[]>> {
  const { rows } = await sql<{ id: string; tags: string[] }>`
    select id, tags from assets where organization_id = ${organizationId} and id = any(${ids}::uuid[]) order by id for update
  `.execute(tx)
  return new Map(rows.map((row) => [row.id, row.tags]))
}

/** Adds the kept asset to every manual collection of the others; the ids of the collections it joined. */
export async function joinCollectionsOf(tx: Db, keep: string, others: string[]): Promise<string[]> {
  const { rows } = await sql<{ collection_id: string }>`
    insert into collection_assets (collection_id, asset_id)
    select distinct collection_id, ${keep}::uuid from collection_assets where asset_id = any(${others}::uuid[])
    on conflict do nothing
    returning collection_id
  `.execute(tx)
  return rows.map((row) => row.collection_id)
}
