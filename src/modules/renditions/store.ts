import { sql } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import { findVersion } from '../assets/store.js'

/** What a rendition of an asset's version is made from, and what the API needs to answer about it. */
export interface RenditionSource {
  id: string
  version: number
  sha256: string
  blob_key: string
  mime_type: string
  width: number
  height: number
}

/**
 * The organization's asset's current version (or `version`, while the asset is live), or undefined: an
 * unknown id, another organization's asset, an asset in the trash, a version it does not have.
 */
export async function findRenditionSource(db: Db, organizationId: string, id: string, version?: number): Promise<RenditionSource | undefined> {
  if (version === undefined) {
    return db
      .selectFrom('assets')
      .select(['id', 'version', 'sha256', 'blob_key', 'mime_type', 'width', 'height'])
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst()
  }
  const row = await findVersion(db, organizationId, id, version)
  return row && { id, version, sha256: row.sha256, blob_key: row.blob_key, mime_type: row.mime_type, width: row.width, height: row.height }
}

/** Whether the rendition file `key` is recorded as stored. */
export async function isRecorded(db: Db, key: string): Promise<boolean> {
  return (await db.selectFrom('renditions').select('key').where('key', '=', key).executeTakeFirst()) !== undefined
}

/** Records a stored rendition file (again, when its row went and its file stayed: as used now). */
export async function recordRendition(db: Db, key: string, sha256: string, byteSize: number): Promise<void> {
  await db
    .insertInto('renditions')
    .values({ key, sha256, byte_size: byteSize })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ last_used_at: sql`now()` }))
    .execute()
}

/** Records the last use of each of these renditions, in one statement. */
export async function touchRenditions(db: Db, uses: ReadonlyMap<string, Date>): Promise<void> {
  if (uses.size === 0) return
  await sql`
    update renditions r set last_used_at = greatest(r.last_used_at, u.used_at)
    from unnest(${[...uses.keys()]}::text[], ${[...uses.values()].map((at) => at.toISOString())}::timestamptz[]) as u(key, used_at)
    where r.key = u.key
  `.execute(db)
}

/** Removes the rows of every rendition made from these contents; returns their keys, whose files go next. */
export async function forgetRenditionsOf(db: Db, sha256s: string[]): Promise<string[]> {
  if (sha256s.length === 0) return []
  const rows = await db.deleteFrom('renditions').where('sha256', '=', sql<string>`any(${sha256s}::text[])`).returning('key').execute()
  return rows.map((row) => row.key)
}

/**
 * The contents that renditions are recorded for and no asset or version has any more (a render that
 * finished while its original was purged), up to `limit`.
 */
export async function orphanedRenditionContents(db: Db, limit: number): Promise<string[]> {
  const { rows } = await sql<{ sha256: string }>`
    select distinct r.sha256 from renditions r
    where not exists (select 1 from assets a where a.sha256 = r.sha256)
      and not exists (select 1 from asset_versions v where v.sha256 = r.sha256)
    limit ${limit}
  `.execute(db)
  return rows.map((row) => row.sha256)
}

/** The bytes the recorded renditions hold. */
export async function storedBytes(db: Db): Promise<number> {
  const row = await db.selectFrom('renditions').select(sql<string>`coalesce(sum(byte_size), 0)`.as('bytes')).executeTakeFirstOrThrow()
  return Number(row.bytes)
}

/**
 * Removes the rows of the least recently used renditions until at least `bytes` are freed (or none are
 * left), in one statement; returns the keys removed, whose files go next.
 */
export async function forgetLeastRecentlyUsed(db: Db, bytes: number): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    with ranked as (
      select key, sum(byte_size) over (order by last_used_at, key) - byte_size as freed_before from renditions
    )
    delete from renditions r using ranked where r.key = ranked.key and ranked.freed_before < ${bytes}
    returning r.key
  `.execute(db)
  return rows.map((row) => row.key)
}
