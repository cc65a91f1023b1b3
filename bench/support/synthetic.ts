/** Reproducible libraries for the benches: a seeded PRNG, the file facts of an asset that has no real file, and rows of such assets. */
import { sql } from 'kysely'
import type { Db } from '../../src/platform/db/index.js'

/** Deterministic pseudo-random numbers in [0, 1), so every run seeds the same library. */
export function mulberry32(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Plausible sizes, and blob keys that name no file (nothing reads them in a bench). */
export function syntheticFile(random: () => number, sha256: string) {
  return {
    width: 400 + Math.floor(random() * 3600),
    height: 400 + Math.floor(random() * 3600),
    byte_size: 20_000 + Math.floor(random() * 5_000_000),
    sha256,
    blob_key: sha256,
    thumbnail_key: `${sha256}.thumb.webp`,
  }
}

/**
 * `count` assets of the organization, tagged "bench", and their version rows, written straight into the
 * tables in two statements (the counters and logs follow by trigger). Their files do not exist.
 */
export async function seedAssetRows(db: Db, organizationId: string, count: number): Promise<void> {
  await sql`
    insert into assets (id, organization_id, title, mime_type, width, height, byte_size, sha256, blob_key, thumbnail_key, tags, tag_keys, tag_text, created_at, updated_at)
    select md5(${organizationId} || i)::uuid, ${organizationId}::uuid, 'Bench asset ' || i, 'image/png', 800, 600, 20000 + i % 1000,
      md5(${organizationId} || i) || md5(i || ${organizationId}), md5(${organizationId} || i) || md5(i || ${organizationId}),
      md5(${organizationId} || i) || md5(i || ${organizationId}) || '.thumb.webp', array['bench'], array['bench'], 'bench',
      now() - i * interval '1 second', now() - i * interval '1 second'
    from generate_series(1, ${count}::int) as i
  `.execute(db)
  await sql`
    insert into asset_versions (asset_id, version, organization_id, sha256, blob_key, thumbnail_key, mime_type, width, height, byte_size, created_at)
    select id, 1, organization_id, sha256, blob_key, thumbnail_key, mime_type, width, height, byte_size, created_at from assets where organization_id = ${organizationId}
  `.execute(db)
}
