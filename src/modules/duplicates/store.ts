import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import { hashBands, PERCEPTUAL_HASH_ALGORITHM } from '../../platform/images/perceptual-hash.js'

/** The largest distance the bands find every hash within: 8 bands, so two hashes within 7 bits share one whole. */
export const BANDED_DISTANCE = 7

/**
 * The closest near-duplicates kept for one new hash. Pictures of one flat colour all hash to 0: without
 * a bound, n of them would make n² pairs; with it, each adds at most twice this many rows.
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
 * image cannot be decoded; it is marked as hashed, with no bands and so no near-duplicates.
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
 * per band, then the Hamming distance of each candidate's hash, kept in the index too.
 */
export function neighbours(organizationId: string, excluded: string | null, hash: bigint, maxDistance: number): RawBuilder<Neighbour> {
  const bands = hashBands(hash)
  const keys = sql.join(bands.map((value, band) => sql`(${sql.lit(band)}::smallint, ${sql.lit(value)}::smallint)`))
  const other = excluded === null ? sql`` : sql`and candidate.asset_id <> ${excluded}::uuid`
  return sql<Neighbour>`
    select candidate.asset_id, min(bit_count((candidate.hash # ${hash.toString()}::bigint)::bit(64)))::int as distance
    from (values ${keys}) as wanted (band, value)
    cross join lateral (
      select asset_id, hash from perceptual_hash_bands
      where perceptual_hash_bands.organization_id = ${organizationId} and perceptual_hash_bands.band = wanted.band and perceptual_hash_bands.value = wanted.value
    ) as candidate
    where bit_count((candidate.hash # ${hash.toString()}::bigint)::bit(64)) <= ${sql.lit(maxDistance)} ${other}
    group by candidate.asset_id`
}

/** The neighbours of a hash, closest first (the lookup `saveHash` makes, for the benchmark and the similar list). */
export async function findNeighbours(db: Db, organizationId: string, excluded: string | null, hash: bigint, maxDistance: number): Promise<Neighbour[]> {
  const { rows } = await sql<Neighbour>`
    select * from (${neighbours(organizationId, excluded, hash, maxDistance)}) as near order by near.distance, near.asset_id
  `.execute(db)
  return rows
}
