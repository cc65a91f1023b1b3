import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { FastifyBaseLogger } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import { claimDue } from '../../platform/background/claims.js'
import { Runner, type WorkQueue } from '../../platform/background/runner.js'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import type { Db } from '../../platform/db/index.js'
import { ImageError, type ImageProcessor } from '../../platform/images/images.js'
import * as store from './store.js'
import type { ThumbnailSource } from './store.js'

/** Jobs per claim; they are worked one after the other, so the runner decodes one image at a time. */
const JOBS_PER_CLAIM = 8
/** Far longer than eight decodes take, so no other runner takes a batch over while it is worked. */
const LEASE_MS = 5 * 60_000
const POLL_INTERVAL_MS = 5_000

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
}

/**
 * The thumbnails of pushed images, made after the push's commit instead of before its answer: by the
 * background runner from the queue the push fills, or on demand when the thumbnail's URL is asked for
 * first (or its file has gone missing). Both ways go through `ensure`, so each image is decoded once
 * in this process however many ask for it at the same time.
 */
export class Thumbnails {
  private readonly making = new Map<string, Promise<ThumbnailOutcome>>()
  private runner: Runner<{ id: string }> | undefined

  constructor(private readonly deps: ThumbnailsDeps) {}

  /** The clause for the push's statement that queues the thumbnails of the assets `assets` selects. */
  queue(assets: RawBuilder<{ id: string }>): RawBuilder<unknown> {
    return sql`insert into thumbnail_jobs (asset_id) ${assets}`
  }

  /** After the commit of a push that queued a thumbnail. */
  afterCommit(): void {
    this.runner?.wake()
  }

  /** Makes the queued thumbnails in this process until stop(). */
  start(): void {
    if (this.runner) return
    this.runner = this.createRunner()
    this.runner.start()
  }

  async stop(timeoutMs: number): Promise<void> {
    await this.runner?.stop(timeoutMs)
    this.runner = undefined
  }

  /** Makes every queued thumbnail now (tests, and a process that has just restored its files). */
  async drain(): Promise<void> {
    const runner = this.createRunner()
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

  private createRunner(): Runner<{ id: string }> {
    const owner = `${hostname()}:${process.pid}:thumbnails:${randomBytes(4).toString('hex')}`
    return new Runner(new ThumbnailQueue(this.deps, owner, (source) => this.ensure(source)), {
      logger: this.deps.logger,
      batchSize: JOBS_PER_CLAIM,
      concurrency: 1,
      leaseMs: LEASE_MS,
      pollIntervalMs: POLL_INTERVAL_MS,
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
    private readonly ensure: (source: ThumbnailSource) => Promise<ThumbnailOutcome>,
  ) {}

  async claim(request: { owner: string; limit: number; leaseMs: number }): Promise<{ id: string }[]> {
    const rows = await claimDue<{ asset_id: string }>(this.deps.db, {
      table: 'thumbnail_jobs',
      idColumn: 'asset_id',
      owner: request.owner,
      limit: request.limit,
      leaseMs: request.leaseMs,
      returning: ['asset_id'],
    })
    return rows.map((row) => ({ id: row.asset_id }))
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
