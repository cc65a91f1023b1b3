import { sql, type RawBuilder } from 'kysely'
import { claimDue, queueCounts, releaseClaims, unleased, type QueueCounts } from '../../platform/background/claims.js'
import type { Db } from '../../platform/db/index.js'

/** Notified by the trigger `asset_image_embeddings_notify` (migration 0026) when an image becomes due. */
export const IMAGE_EMBEDDINGS_CHANNEL = 'asset_library_image_embeddings'

const TABLE = 'asset_image_embeddings'

/** Whether the organization has AI on, as a due time: now, or parked (null) until AI is on again. */
function dueUnlessAiOff(organizationId: string): RawBuilder<Date | null> {
  return sql`(select case when ai_enabled then now() end from organizations where id = ${organizationId})`
}

/**
 * Queues the image of each asset `assets` selects, in the statement of its push, restore or new version.
 * A new version finds its row: it is due again at once, and a runner working the older file loses its
 * claim, so that result is not saved.
 */
export function queueImageEmbedding(assets: RawBuilder<{ id: string }>, organizationId: string): RawBuilder<unknown> {
  return sql`
    insert into asset_image_embeddings (asset_id, organization_id, next_attempt_at)
    select changed.id, ${organizationId}, ${dueUnlessAiOff(organizationId)} from (${assets}) as changed
    on conflict (asset_id) do update set next_attempt_at = excluded.next_attempt_at, attempts = 0, last_error = null, locked_by = null, locked_until = null`
}

/** A claimed image and the file to embed: the asset's current one. */
export interface ImageJob {
  id: string
  attempts: number
  sha256: string
  blob_key: string
  locked_by: string
}

/** Due images of organizations with AI on (of one organization, for a backfill), with their current file. */
export async function claimImageEmbeddings(
  db: Db,
  request: { owner: string; limit: number; leaseMs: number; organizationId?: string | undefined },
): Promise<ImageJob[]> {
  const claimed = await claimDue<{ asset_id: string; attempts: number; locked_by: string }>(db, {
    table: TABLE,
    idColumn: 'asset_id',
    owner: request.owner,
    limit: request.limit,
    leaseMs: request.leaseMs,
    where: queuedImages(request.organizationId, TABLE),
    returning: ['asset_id', 'attempts', 'locked_by'],
  })
  if (claimed.length === 0) return []
  const files = await db
    .selectFrom('assets')
    .select(['id', 'sha256', 'blob_key'])
    .where('id', '=', sql<string>`any(${claimed.map((job) => job.asset_id)}::uuid[])`)
    .execute()
  const fileOf = new Map(files.map((file) => [file.id, file]))
  return claimed.flatMap((job) => {
    const file = fileOf.get(job.asset_id)
    return file ? [{ id: job.asset_id, attempts: job.attempts, locked_by: job.locked_by, sha256: file.sha256, blob_key: file.blob_key }] : []
  })
}

/**
 * Stores the vector made from the file `sha256` (null: the file cannot be decoded, so it has none), if
 * `owner` still holds the row: a new version queued since took the claim away, and its own job follows.
 */
export async function saveImageEmbedding(
  db: Db,
  job: { assetId: string; owner: string; sha256: string },
  made: { model: string; vector: Buffer | null; dimensions: number | null },
): Promise<void> {
  await sql`
    update asset_image_embeddings set
      embedding = ${made.vector}::vector, dimensions = ${made.dimensions}::int, model = ${made.model}, embedded_sha256 = ${job.sha256}, embedded_at = now(),
      next_attempt_at = null, attempts = 0, last_error = null, locked_by = null, locked_until = null
    where asset_id = ${job.assetId} and locked_by = ${job.owner}
  `.execute(db)
}

/** A failed attempt: due again after `delayMs`. */
export async function retryImageEmbedding(db: Db, job: { assetId: string; owner: string }, delayMs: number, error: string): Promise<void> {
  await sql`
    update asset_image_embeddings set
      attempts = attempts + 1, last_error = ${error.slice(0, 1000)}, locked_by = null, locked_until = null,
      next_attempt_at = now() + make_interval(secs => ${delayMs / 1000})
    where asset_id = ${job.assetId} and locked_by = ${job.owner}
  `.execute(db)
}

export function releaseImageEmbeddings(db: Db, owner: string, ids: string[]): Promise<void> {
  return releaseClaims(db, { table: TABLE, idColumn: 'asset_id', owner, ids })
}

/**
 * AI off parks the organization's due images; AI on makes due again those without a vector of
 * `model`. A new version made while AI was off left its row parked, due again here.
 */
export async function setImageAiParking(db: Db, organizationId: string, enabled: boolean, model: string): Promise<void> {
  if (!enabled) {
    await db.updateTable(TABLE).set({ next_attempt_at: null }).where('organization_id', '=', organizationId).where('next_attempt_at', 'is not', null).execute()
    return
  }
  await sql`
    update asset_image_embeddings e set next_attempt_at = now(), attempts = 0
    from assets a
    where a.id = e.asset_id and e.organization_id = ${organizationId} and e.next_attempt_at is null
      and (e.embedded_sha256 is distinct from a.sha256 or e.model is distinct from ${model})
  `.execute(db)
}

/** Images embedded by another model are due again (a model change); search uses only the current model's meanwhile. */
export async function markOtherImageModelsDue(db: Db, model: string): Promise<number> {
  const result = await sql`
    update asset_image_embeddings q set next_attempt_at = now(), attempts = 0
    where q.embedded_sha256 is not null and q.model is distinct from ${model} and q.next_attempt_at is null
      and exists (select 1 from organizations o where o.id = q.organization_id and o.ai_enabled)
  `.execute(db)
  return Number(result.numAffectedRows ?? 0)
}

/** The images of organizations with AI on, which the queue works (of one organization, or all). */
function queuedImages(organizationId: string | undefined, alias: string): RawBuilder<boolean> {
  const ofOrganization = organizationId === undefined ? sql`` : sql`and ${sql.ref(`${alias}.organization_id`)} = ${organizationId}`
  return sql<boolean>`exists (select 1 from organizations o where o.id = ${sql.ref(`${alias}.organization_id`)} and o.ai_enabled) ${ofOrganization}`
}

/** The image queue's counts (see `queueCounts`). */
export function imageJobCounts(db: Db, organizationId?: string): Promise<QueueCounts> {
  return queueCounts(db, TABLE, queuedImages(organizationId, 'q'))
}

export interface ImageEmbeddingCounts {
  /** A vector of the current model from the current file. */
  current: number
  /** A vector of an older file or another model: used (if of this model) until the new one is made. */
  stale: number
  missing: number
  /** Files that cannot be decoded: done, with no vector. */
  unreadable: number
  failing: number
  ai_disabled: number
}

/** The images by the state of their vector, for `embeddings status --images`. */
export async function imageEmbeddingCounts(db: Db, model: string, organizationId?: string): Promise<ImageEmbeddingCounts> {
  const ofOrganization = organizationId === undefined ? sql`` : sql`where e.organization_id = ${organizationId}`
  const sameModel = sql`e.model is not distinct from ${model}`
  const fresh = sql`e.embedded_sha256 = a.sha256`
  const { rows } = await sql<ImageEmbeddingCounts>`
    select
      count(*) filter (where e.embedding is not null and ${fresh} and ${sameModel})::int as current,
      count(*) filter (where e.embedded_sha256 is not null and not (${fresh} and ${sameModel}))::int as stale,
      count(*) filter (where e.embedded_sha256 is null)::int as missing,
      count(*) filter (where e.embedding is null and e.embedded_sha256 is not null and ${fresh} and ${sameModel})::int as unreadable,
      count(*) filter (where e.last_error is not null)::int as failing,
      count(*) filter (where not o.ai_enabled and (e.embedded_sha256 is null or not ${fresh}))::int as ai_disabled
    from asset_image_embeddings e join assets a on a.id = e.asset_id join organizations o on o.id = e.organization_id
    ${ofOrganization}
  `.execute(db)
  return rows[0]!
}

/**
 * Makes due now, in one statement, the images whose last attempt failed and those with no result of
 * `model` for their current file while nothing has them due; returns how many.
 */
export async function requeueImageEmbeddings(db: Db, model: string, organizationId?: string): Promise<number> {
  const result = await sql`
    update asset_image_embeddings q set next_attempt_at = now(), attempts = 0, last_error = null
    from assets a
    where a.id = q.asset_id and ${queuedImages(organizationId, 'q')} and ${unleased('q')}
      and (q.last_error is not null
        or (q.next_attempt_at is null and (q.embedded_sha256 is distinct from a.sha256 or q.model is distinct from ${model}::text)))
  `.execute(db)
  return Number(result.numAffectedRows ?? 0)
}

/** The dimensions of the vectors of `model` already stored: the HNSW indexes to have. */
export async function storedDimensions(db: Db, model: string): Promise<number[]> {
  const { rows } = await sql<{ dimensions: number }>`
    select distinct dimensions from asset_image_embeddings where model = ${model} and dimensions is not null
  `.execute(db)
  return rows.map((row) => row.dimensions)
}

/**
 * Queues, in one statement, the assets (of one organization, or all) that have no image row: those
 * pushed while no image provider was configured. Parked for organizations with AI off.
 */
export async function queueMissingImages(db: Db, organizationId?: string): Promise<number> {
  const ofOrganization = organizationId === undefined ? sql`` : sql`and assets.organization_id = ${organizationId}`
  const result = await sql`
    insert into asset_image_embeddings (asset_id, organization_id, next_attempt_at)
    select assets.id, assets.organization_id, case when organizations.ai_enabled then now() end
    from assets join organizations on organizations.id = assets.organization_id
    where not exists (select 1 from asset_image_embeddings e where e.asset_id = assets.id) ${ofOrganization}
    on conflict do nothing
  `.execute(db)
  return Number(result.numAffectedRows ?? 0)
}
