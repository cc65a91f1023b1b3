import { sql } from 'kysely'
import { queueCounts, releaseClaims, retryAssetJobLater, unleased, type QueueCounts } from '../../platform/background/claims.js'
import type { Db } from '../../platform/db/index.js'
import type { ThumbnailSource } from './store.js'

/** The channel a committed thumbnail job notifies (migration 0017's trigger), so every process's runner wakes. */
export const THUMBNAILS_CHANNEL = 'asset_library_thumbnails'

/** The thumbnail sources of these assets, by id, leaving out the assets whose image failed to decode. */
export async function thumbnailSources(db: Db, ids: string[]): Promise<Map<string, ThumbnailSource>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('assets')
    .select(['id', 'sha256', 'blob_key', 'thumbnail_key'])
    .where('id', '=', sql<string>`any(${ids}::uuid[])`)
    .where('thumbnail_failure', 'is', null)
    .execute()
  return new Map(rows.map(({ id, ...source }) => [id, source]))
}

/** Records on every asset of these bytes that they failed to decode; returns the assets it changed. */
export async function recordThumbnailFailure(db: Db, sha256: string, reason: string): Promise<string[]> {
  const rows = await db
    .updateTable('assets')
    .set({ thumbnail_failure: reason })
    .where('sha256', '=', sha256)
    .where('thumbnail_failure', 'is', null)
    .returning('id')
    .execute()
  return rows.map((row) => row.id)
}

/** The jobs whose thumbnail is made (or can never be). */
export async function finishThumbnailJobs(db: Db, assetIds: string[]): Promise<void> {
  if (assetIds.length > 0) await db.deleteFrom('thumbnail_jobs').where('asset_id', '=', sql<string>`any(${assetIds}::uuid[])`).execute()
}

/** A job that failed for a reason other than its image: due again after a backoff (see `retryAssetJobLater`). */
export function retryThumbnailJob(db: Db, assetId: string, owner: string, error: string): Promise<void> {
  return retryAssetJobLater(db, 'thumbnail_jobs', { assetId, owner, error })
}

export function releaseThumbnailJobs(db: Db, owner: string, assetIds: string[]): Promise<void> {
  return releaseClaims(db, { table: 'thumbnail_jobs', idColumn: 'asset_id', owner, ids: assetIds })
}


/**
 * The thumbnail queue's counts (of one organization's assets, or all). Failed: jobs whose last attempt
 * failed for the files or the database (waiting for their backoff), and assets whose image could not be
 * decoded (recorded in the asset; they have no job left).
 */
export function thumbnailCounts(db: Db, organizationId?: string): Promise<QueueCounts> {
  const ofOrganization = organizationId === undefined ? sql<boolean>`true` : sql<boolean>`exists (select 1 from assets a where a.id = q.asset_id and a.organization_id = ${organizationId})`
  const assetsOf = organizationId === undefined ? sql`` : sql`and organization_id = ${organizationId}`
  return queueCounts(db, 'thumbnail_jobs', ofOrganization, sql<number>`(select count(*) from assets where thumbnail_failure is not null ${assetsOf})`)
}

/**
 * Queues again, in one statement, every failed thumbnail of the scope: a job whose attempt failed is due
 * now, and an asset whose image failed to decode loses its recorded failure and gets a job (a newer
 * decoder may read it; if not, the failure is recorded again). Returns how many jobs it queued.
 */
export async function requeueFailedThumbnails(db: Db, organizationId?: string): Promise<number> {
  const ofOrganization = organizationId === undefined ? sql`` : sql`and organization_id = ${organizationId}`
  const jobsOf =
    organizationId === undefined ? sql`` : sql`and exists (select 1 from assets a where a.id = j.asset_id and a.organization_id = ${organizationId})`
  const { rows } = await sql<{ queued: number }>`
    with cleared as (
      update assets set thumbnail_failure = null where thumbnail_failure is not null ${ofOrganization} returning id
    ),
    requeued as (
      update thumbnail_jobs j set next_attempt_at = now(), attempts = 0, last_error = null
      where j.last_error is not null and ${unleased('j')} ${jobsOf}
      returning j.asset_id
    ),
    queued as (insert into thumbnail_jobs (asset_id) select id from cleared on conflict do nothing returning asset_id)
    select ((select count(*) from requeued) + (select count(*) from queued))::int as queued
  `.execute(db)
  return rows[0]!.queued
}

/** Up to `limit` assets after `after` (in id order) that have no thumbnail job and no recorded failure: those whose file may be missing. */
export async function assetsWithoutThumbnailJob(db: Db, after: string | null, limit: number, organizationId?: string): Promise<Array<{ id: string; thumbnail_key: string }>> {
  return db
    .selectFrom('assets')
    .select(['id', 'thumbnail_key'])
    .where('thumbnail_failure', 'is', null)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('thumbnail_jobs').select('thumbnail_jobs.asset_id').whereRef('thumbnail_jobs.asset_id', '=', 'assets.id'))))
    .$if(after !== null, (query) => query.where('id', '>', after!))
    .$if(organizationId !== undefined, (query) => query.where('organization_id', '=', organizationId!))
    .orderBy('id')
    .limit(limit)
    .execute()
}

/** Queues a thumbnail job for each of these assets that has none; returns how many it queued. */
export async function queueThumbnailJobs(db: Db, assetIds: string[]): Promise<number> {
  if (assetIds.length === 0) return 0
  const { rows } = await sql<{ asset_id: string }>`
    insert into thumbnail_jobs (asset_id) select id from assets where id = any(${assetIds}::uuid[]) on conflict do nothing returning asset_id
  `.execute(db)
  return rows.length
}
