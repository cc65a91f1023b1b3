import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { FastifyBaseLogger } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import { claimAssetJobs } from '../../platform/background/claims.js'
import type { ForegroundActivity } from '../../platform/background/foreground.js'
import type { ChangedRows, Derivation, DerivationCounts } from '../../platform/background/derivation.js'
import { listen, type Listener } from '../../platform/background/listener.js'
import { Runner, type WorkQueue } from '../../platform/background/runner.js'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import type { Db } from '../../platform/db/index.js'
import { ImageError, type ImageProcessor } from '../../platform/images/images.js'
import type { AssetChange } from './record.js'
import type { ThumbnailSource } from './store.js'
import * as store from './thumbnail-store.js'

/** Jobs per claim; they are worked one after the other, so the runner decodes one image at a time. */
const JOBS_PER_CLAIM = 8
/** Far longer than eight decodes take, so no other runner takes a batch over while it is worked. */
const LEASE_MS = 5 * 60_000
/**
 * Jobs are claimed when a commit or a NOTIFY says there are some; the poll only finds the jobs whose
 * retry came due, and any notification lost while the LISTEN connection was down.
 */
const FALLBACK_POLL_MS = 60_000
/** Assets looked at per statement, and their files per look at the store at once, when finding missing thumbnails. */
const MISSING_PAGE = 500
const MISSING_LOOKS_AT_ONCE = 16

/**
 * What making a thumbnail came to: stored (made now or before), the image failed to decode (`reason`,
 * now recorded on its assets), or the original is gone (a delete of the same bytes got there first).
 */
export type ThumbnailOutcome = { state: 'stored' } | { state: 'failed'; reason: string } | { state: 'no_original' }

export interface ThumbnailsDeps {
  db: Db
  blobs: BlobStore
  images: ImageProcessor
  logger: FastifyBaseLogger
  /** Set for PostgreSQL: jobs committed by other processes wake this one through LISTEN/NOTIFY. */
  databaseUrl?: string | undefined
  /**
   * The HTTP app's costly requests, which the background runner leaves the CPU to: with one push in
   * flight at a time, the thumbnail of the push before it decoding beside it made the push's p95 twice
   * Directus's (issue 39). A thumbnail asked for in the meantime is made on demand, so nobody waits for it.
   */
  foreground?: ForegroundActivity | undefined
}

/**
 * The thumbnails of pushed images, made after the push's commit instead of before its answer: by the
 * background runner from the queue the push fills, or on demand when the thumbnail's URL is asked for
 * first (or its file has gone missing). Both ways go through `ensure`, so each image is decoded once
 * in this process however many ask for it at the same time.
 */
export class Thumbnails implements Derivation<AssetChange> {
  readonly name = 'thumbnails'
  private readonly making = new Map<string, Promise<ThumbnailOutcome>>()
  private runner: Runner<{ id: string }> | undefined
  private listener: Listener | undefined

  constructor(private readonly deps: ThumbnailsDeps) {}

  /**
   * The clause for the push's (or new version's) statement that queues the thumbnails of the assets
   * `changed` selects; an edit of the metadata changes no image. A job still queued for an older file is
   * due again at once: it makes whatever file the asset has when it runs.
   */
  queue(changed: ChangedRows, change: AssetChange): RawBuilder<unknown> | null {
    if (change.kind === 'created') return sql`insert into thumbnail_jobs (asset_id) ${changed}`
    if (!change.newFile) return null
    return sql`insert into thumbnail_jobs (asset_id) ${changed} on conflict (asset_id) do update set next_attempt_at = now(), attempts = 0, last_error = null`
  }

  /** After the commit of a push that queued a thumbnail. */
  afterCommit(): void {
    this.runner?.wake()
  }

  /** Makes the queued thumbnails in this process until stop(), woken by this process's pushes and by the others' NOTIFY. */
  async start(): Promise<void> {
    if (this.runner) return
    const runner = this.createRunner(this.deps.foreground)
    this.runner = runner
    runner.start()
    if (this.deps.databaseUrl) this.listener = await listen(this.deps.databaseUrl, [store.THUMBNAILS_CHANNEL], () => runner.wake(), this.deps.logger)
  }

  async stop(timeoutMs: number): Promise<void> {
    await this.listener?.close()
    this.listener = undefined
    await this.runner?.stop(timeoutMs)
    this.runner = undefined
  }

  working(): boolean {
    return this.runner !== undefined
  }

  /** Thumbnails need nothing but the images: always possible. */
  async unavailableReason(): Promise<null> {
    return null
  }

  async counts(organizationId?: string): Promise<DerivationCounts> {
    return { name: this.name, ...(await store.thumbnailCounts(this.deps.db, organizationId)) }
  }

  /**
   * Queues again the failed thumbnails (see `requeueFailedThumbnails`) and the missing ones: an asset
   * with no job and no recorded failure whose thumbnail is not in the blob store (files restored from a
   * backup without their thumbnails, say). Finding those looks at the store once per such asset.
   */
  async retry(organizationId?: string): Promise<number> {
    let queued = await store.requeueFailedThumbnails(this.deps.db, organizationId)
    let after: string | null = null
    for (;;) {
      const page = await store.assetsWithoutThumbnailJob(this.deps.db, after, MISSING_PAGE, organizationId)
      if (page.length === 0) break
      queued += await store.queueThumbnailJobs(this.deps.db, await this.notStored(page))
      after = page.at(-1)!.id
    }
    this.afterCommit()
    return queued
  }

  /** The ids of the assets whose thumbnail file is not in the store. */
  private async notStored(assets: Array<{ id: string; thumbnail_key: string }>): Promise<string[]> {
    const missing: string[] = []
    for (let i = 0; i < assets.length; i += MISSING_LOOKS_AT_ONCE) {
      const looked = assets.slice(i, i + MISSING_LOOKS_AT_ONCE)
      const stored = await Promise.all(looked.map((asset) => this.deps.blobs.exists(asset.thumbnail_key)))
      missing.push(...looked.filter((_, j) => !stored[j]).map((asset) => asset.id))
    }
    return missing
  }

  /** Makes every queued thumbnail now (tests, and a process that has just restored its files). */
  async drain(): Promise<void> {
    // Asked for now: it does not wait for a gap between requests.
    const runner = this.createRunner(undefined)
    await runner.drain()
    await runner.stop(0)
  }

  /** Makes the thumbnail unless it is stored already; concurrent calls for the same thumbnail share one decode. */
  ensure(source: ThumbnailSource): Promise<ThumbnailOutcome> {
    const under = this.making.get(source.thumbnail_key)
    if (under) return under
    const made = this.make(source).finally(() => this.making.delete(source.thumbnail_key))
    this.making.set(source.thumbnail_key, made)
    return made
  }

  private async make(source: ThumbnailSource): Promise<ThumbnailOutcome> {
    if (await this.deps.blobs.exists(source.thumbnail_key)) return { state: 'stored' }
    const original = await this.deps.blobs.get(source.blob_key)
    if (!original) return { state: 'no_original' }
    let thumbnail: Buffer
    try {
      thumbnail = await this.deps.images.thumbnail(original)
    } catch (error) {
      if (!(error instanceof ImageError)) throw error
      await this.recordFailure(source.sha256, error)
      return { state: 'failed', reason: error.message }
    }
    await this.deps.blobs.putAs(source.thumbnail_key, thumbnail)
    return { state: 'stored' }
  }

  /** Every asset of these bytes says so in its record; logged by the call that recorded it, so once. */
  private async recordFailure(sha256: string, error: ImageError): Promise<void> {
    const assetIds = await store.recordThumbnailFailure(this.deps.db, sha256, error.message)
    if (assetIds.length === 0) return
    this.deps.logger.warn(
      { sha256, asset_ids: assetIds, reason: error.message, err: error.cause },
      'an image that passed its header check could not be decoded: its assets stay, without a thumbnail',
    )
  }

  private createRunner(foreground: ForegroundActivity | undefined): Runner<{ id: string }> {
    const owner = `${hostname()}:${process.pid}:thumbnails:${randomBytes(4).toString('hex')}`
    return new Runner(new ThumbnailQueue(this.deps, owner, foreground, (source) => this.ensure(source)), {
      logger: this.deps.logger,
      batchSize: JOBS_PER_CLAIM,
      concurrency: 1,
      leaseMs: LEASE_MS,
      pollIntervalMs: FALLBACK_POLL_MS,
      owner,
    })
  }
}

/** `thumbnail_jobs` as the runner's queue: a job is its asset's id. */
class ThumbnailQueue implements WorkQueue<{ id: string }> {
  readonly name = 'thumbnails'

  constructor(
    private readonly deps: ThumbnailsDeps,
    private readonly owner: string,
    private readonly foreground: ForegroundActivity | undefined,
    private readonly ensure: (source: ThumbnailSource) => Promise<ThumbnailOutcome>,
  ) {}

  claim(request: { owner: string; limit: number; leaseMs: number }): Promise<{ id: string }[]> {
    return claimAssetJobs(this.deps.db, 'thumbnail_jobs', request)
  }

  /**
   * One image at a time. A job whose asset is gone or already failed is done; a failure of the files
   * or the database (not of the image) is due again after a backoff.
   */
  async work(jobs: { id: string }[], signal: AbortSignal): Promise<boolean[]> {
    const sources = await store.thumbnailSources(this.deps.db, jobs.map((job) => job.id))
    const done: string[] = []
    const outcomes: boolean[] = []
    for (const job of jobs) {
      const endTurn = await this.foreground?.turn(signal)
      if (signal.aborted) break
      const source = sources.get(job.id)
      try {
        const outcome = source && (await this.ensure(source))
        if (outcome?.state === 'no_original') this.deps.logger.warn({ asset_id: job.id }, 'no thumbnail made: the original is missing')
        done.push(job.id)
        outcomes.push(true)
      } catch (error) {
        this.deps.logger.warn({ err: error, asset_id: job.id }, 'making a thumbnail failed; it is retried later, and made on demand if asked for first')
        await store.retryThumbnailJob(this.deps.db, job.id, this.owner, String(error))
        outcomes.push(false)
      } finally {
        endTurn?.()
      }
    }
    await store.finishThumbnailJobs(this.deps.db, done)
    await this.release(this.owner, jobs.slice(outcomes.length).map((job) => job.id))
    return outcomes
  }

  async release(owner: string, ids: string[]): Promise<void> {
    await store.releaseThumbnailJobs(this.deps.db, owner, ids)
  }
}
