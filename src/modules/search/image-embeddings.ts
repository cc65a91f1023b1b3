import type { FastifyBaseLogger } from 'fastify'
import { backoffMs } from '../../platform/background/claims.js'
import type { ChangedRows, Derivation, DerivationCounts } from '../../platform/background/derivation.js'
import type { ForegroundActivity } from '../../platform/background/foreground.js'
import { listen } from '../../platform/background/listener.js'
import { Runner, type WorkQueue } from '../../platform/background/runner.js'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import type { DatabaseHandle, Db } from '../../platform/db/index.js'
import { ProviderHealth, type ProviderStatus } from '../../platform/embeddings/health.js'
import { IMAGE_EMBEDDING_SIZE, type ImageEmbeddingConfig, type ImageEmbeddingProvider } from '../../platform/embeddings/image-provider.js'
import { createImageEmbeddingProvider } from '../../platform/embeddings/image-providers.js'
import { EmbeddingError } from '../../platform/embeddings/provider.js'
import { vectorParam } from '../../platform/embeddings/vector.js'
import { ImageError, type ImageProcessor, type RenderOptions } from '../../platform/images/images.js'
import type { AssetChange } from '../assets/record.js'
import * as store from './image-store.js'
import type { ImageJob } from './image-store.js'
import type { SearchModeReason } from './embeddings.js'
import { ensureVectorIndex, type IndexState, type PgVector } from './vector-index.js'

/** The picture CLIP sees: the middle square at 224 px, flattened on white (a logo's transparency is no colour to it). */
export const CLIP_RENDITION: RenderOptions = { width: IMAGE_EMBEDDING_SIZE, height: IMAGE_EMBEDDING_SIZE, fit: 'cover', format: 'jpeg', quality: 90, background: 'ffffff' }

const JOBS_PER_CLAIM = 4
/** Two images in flight: one being rendered here while the provider embeds the other. */
const CLAIMS_IN_FLIGHT = 2
const LEASE_MS = 5 * 60_000
const POLL_INTERVAL_MS = 5_000
const RETRY = { baseMs: 5_000, factor: 4, maxMs: 60 * 60 * 1000 }
/** A provider that is down or too slow pauses the whole queue, not only the images it failed. */
const PAUSE = { baseMs: 5_000, factor: 2, maxMs: 5 * 60 * 1000 }
const MODEL_CHECK_INTERVAL_MS = 10 * 60 * 1000
const PROBE_TEXT = 'a picture'

/** What /ready and `embeddings status --images` say of image embeddings. */
export interface ImageEmbeddingReadiness {
  provider: ImageEmbeddingConfig['provider']
  model: string
  /** Learnt from the provider's first answer; null until then. */
  dimensions: number | null
  status: ProviderStatus
  index: IndexState
}

export interface ImageEmbeddingsDeps {
  database: DatabaseHandle
  config: ImageEmbeddingConfig | undefined
  logger: FastifyBaseLogger
  blobs: BlobStore
  images: ImageProcessor
  /** The database's pgvector, shared with the text embeddings. */
  pgvector: PgVector
  /** Set for PostgreSQL: other processes' changes wake this one through LISTEN/NOTIFY. */
  databaseUrl?: string | undefined
  /** The requests this process serves: each image waits for a gap between them (none in a worker). */
  foreground?: ForegroundActivity | undefined
}

/**
 * The `image_embeddings` derivation: the CLIP vector of each asset's current file, made by the image
 * provider after the push answers, which hybrid search compares with the query's words and `similar`
 * with other pictures. Nothing is queued, and no row is written by a push, while no image provider is
 * configured: when one is, the start queues what has no vector yet (the whole library, the first time).
 */
export class ImageEmbeddings implements Derivation<AssetChange> {
  readonly name = 'image_embeddings'
  private readonly db: Db
  private created: Promise<ImageEmbeddingProvider> | undefined
  private readonly health: ProviderHealth
  private runner: Runner<ImageJob> | undefined
  private dimensions: number | null = null
  private indexState: IndexState = 'none'
  private stopListening: (() => Promise<void>) | undefined
  private modelCheck: NodeJS.Timeout | undefined

  constructor(private readonly deps: ImageEmbeddingsDeps) {
    this.db = deps.database.db
    this.health = new ProviderHealth(deps.logger, 'image embedding provider')
  }

  /**
   * The provider, made on first use: an operator command that never embeds does not load a model. The
   * start's prepare() uses it first, so a missing model folder fails the start.
   */
  private provider(): Promise<ImageEmbeddingProvider> {
    this.created ??= createImageEmbeddingProvider(this.deps.config!)
    return this.created
  }

  /** The model's name, when an image provider is configured. */
  get model(): string | undefined {
    return this.deps.config?.model
  }

  queue(changed: ChangedRows, change: AssetChange) {
    if (!this.deps.config || (change.kind !== 'created' && !change.newFile)) return null
    return store.queueImageEmbedding(changed, change.organizationId)
  }

  /** In the transaction that turns an organization's AI on or off (see `Embeddings.followAiSetting`). */
  async followAiSetting(tx: Db, organizationId: string, enabled: boolean): Promise<void> {
    if (this.deps.config) await store.setImageAiParking(tx, organizationId, enabled, this.deps.config.model)
  }

  afterCommit(): void {
    this.runner?.wake()
  }

  /** An image provider is configured and pgvector is there. */
  async enabled(): Promise<boolean> {
    return this.deps.config !== undefined && (await this.deps.pgvector.installed())
  }

  async unavailableReason(): Promise<SearchModeReason | null> {
    if (!this.deps.config) return 'no_provider'
    return (await this.enabled()) ? null : 'no_pgvector'
  }

  /** The query's words in the images' space, within the search's budget. Throws EmbeddingError, recorded for /ready. */
  async embedQuery(text: string): Promise<number[]> {
    try {
      const vector = await (await this.provider()).embedText(text, { timeoutMs: this.deps.config!.timeoutMs })
      this.health.succeeded()
      return vector
    } catch (error) {
      if (error instanceof EmbeddingError) this.health.failed(error, 'a search fell back to text mode')
      throw error
    }
  }

  async readiness(): Promise<ImageEmbeddingReadiness | undefined> {
    if (!this.deps.config) return undefined
    return { provider: this.deps.config.provider, model: this.deps.config.model, dimensions: this.dimensions, status: this.health.status, index: this.indexState }
  }

  /**
   * Before serving: the provider is created (a missing model folder fails the start here), assets with
   * no image row are queued, images of another model are due again, and the index of the dimensions
   * already stored is built.
   */
  async prepare(): Promise<void> {
    if (!this.deps.config) return
    await this.provider()
    if (!(await this.enabled())) return
    const queued = await store.queueMissingImages(this.db)
    if (queued > 0) this.deps.logger.info({ queued }, 'images queued for their embedding')
    await this.requeueOtherModels()
    for (const dimensions of await store.storedDimensions(this.db, this.deps.config.model)) await this.ensureIndex(dimensions)
  }

  async start(): Promise<void> {
    if (!(await this.enabled()) || this.runner) return
    this.runner = await this.createRunner(this.deps.foreground)
    this.runner.start()
    void this.probe()
    if (this.deps.databaseUrl) {
      const listener = await listen(this.deps.databaseUrl, [store.IMAGE_EMBEDDINGS_CHANNEL], () => this.runner?.wake(), this.deps.logger)
      this.stopListening = () => listener.close()
    }
    const checkModels = () => this.requeueOtherModels().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'checking for image vectors of another model failed'))
    this.modelCheck = setInterval(() => void checkModels(), MODEL_CHECK_INTERVAL_MS).unref()
  }

  working(): boolean {
    return this.runner !== undefined
  }

  async stop(timeoutMs: number): Promise<void> {
    clearInterval(this.modelCheck)
    await this.stopListening?.()
    this.stopListening = undefined
    await this.runner?.stop(timeoutMs)
    this.runner = undefined
  }

  async close(): Promise<void> {
    await (await this.created?.catch(() => undefined))?.close()
  }

  /** Embeds every due image now; nothing without a provider and pgvector. */
  async drain(): Promise<void> {
    if (!(await this.enabled())) return
    const runner = await this.createRunner(undefined)
    await runner.drain()
    await runner.stop(0)
  }

  /** Queues what has no vector and embeds every due image now (of one organization, or all), reporting progress; for the CLI. */
  async backfill(options: { organizationId?: string; onProgress?: (embedded: number) => void }): Promise<{ embedded: number; failed: number }> {
    if (!(await this.enabled())) throw new Error('no image embedding provider or no pgvector')
    await this.prepare()
    const counts = { embedded: 0, failed: 0 }
    const runner = await this.createRunner(undefined, {
      organizationId: options.organizationId,
      onImage: (embedded) => {
        counts[embedded ? 'embedded' : 'failed'] += 1
        options.onProgress?.(counts.embedded)
      },
    })
    await runner.drain()
    await runner.stop(0)
    return counts
  }

  /** The images by the state of their vector; only with an image provider (whose model they are counted against). */
  imageCounts(organizationId?: string): Promise<store.ImageEmbeddingCounts> {
    return store.imageEmbeddingCounts(this.db, this.deps.config!.model, organizationId)
  }

  async counts(organizationId?: string): Promise<DerivationCounts> {
    return { name: this.name, ...(await store.imageJobCounts(this.db, organizationId)) }
  }

  /** Makes due now the failed images and those with no vector of the model (queued first if they have no row). */
  async retry(organizationId?: string): Promise<number> {
    if (!this.deps.config || !(await this.enabled())) return 0
    const queued = (await store.queueMissingImages(this.db, organizationId)) + (await store.requeueImageEmbeddings(this.db, this.deps.config.model, organizationId))
    this.afterCommit()
    return queued
  }

  /** A vector was stored: its dimension's index is built if it is the first of its size. */
  async stored(dimensions: number): Promise<void> {
    this.health.succeeded()
    if (this.dimensions === dimensions) return
    this.dimensions = dimensions
    await this.ensureIndex(dimensions)
  }

  failed(error: EmbeddingError, context: string): void {
    this.health.failed(error, context)
  }

  private async ensureIndex(dimensions: number): Promise<void> {
    const index = await this.deps.pgvector.indexFor(dimensions)
    if (!index) return
    await ensureVectorIndex(this.deps, { table: 'asset_image_embeddings', ...index }, (state) => (this.indexState = state))
  }

  private async createRunner(foreground: ForegroundActivity | undefined, options: ImageQueueOptions = {}): Promise<Runner<ImageJob>> {
    const queue = new ImageQueue({ ...this.deps, provider: await this.provider(), jobTimeoutMs: this.deps.config!.jobTimeoutMs, embeddings: this, foreground, options })
    return new Runner(queue, { logger: this.deps.logger, batchSize: JOBS_PER_CLAIM, concurrency: CLAIMS_IN_FLIGHT, leaseMs: LEASE_MS, pollIntervalMs: POLL_INTERVAL_MS })
  }

  /** One text at start-up, so a wrong URL or model shows in the log and /ready at once. */
  private async probe(): Promise<void> {
    try {
      const vector = await (await this.provider()).embedText(PROBE_TEXT, { timeoutMs: this.deps.config!.jobTimeoutMs })
      this.health.succeeded()
      this.deps.logger.info({ model: this.model, dimensions: vector.length }, 'image embedding provider answered')
    } catch (error) {
      if (error instanceof EmbeddingError) this.health.failed(error, 'the start-up check failed; search does not see the pictures until it answers')
      else this.deps.logger.error({ err: error }, 'image embedding provider check failed')
    }
  }

  private async requeueOtherModels(): Promise<void> {
    const requeued = await store.markOtherImageModelsDue(this.db, this.deps.config!.model)
    if (requeued > 0) this.deps.logger.info({ requeued, model: this.model }, 'image embeddings of another model will be made again')
  }
}

interface ImageQueueOptions {
  organizationId?: string | undefined
  /** After each image: whether its vector (or its lack of one, for a file that cannot be decoded) was stored. */
  onImage?: (embedded: boolean) => void
}

interface ImageQueueDeps {
  database: DatabaseHandle
  logger: FastifyBaseLogger
  blobs: BlobStore
  images: ImageProcessor
  provider: ImageEmbeddingProvider
  jobTimeoutMs: number
  embeddings: ImageEmbeddings
  foreground: ForegroundActivity | undefined
  options: ImageQueueOptions
}

/**
 * Claims due images and embeds them one at a time: reads the original, renders CLIP's 224 px square
 * (in one of the process's decoding slots), sends it, stores the vector. A provider that is down or
 * too slow pauses the queue (with backoff) beside each image's own retry.
 */
class ImageQueue implements WorkQueue<ImageJob> {
  readonly name = 'image_embeddings'
  private pausedUntil = 0
  private outages = 0

  constructor(private readonly deps: ImageQueueDeps) {}

  async claim(request: { owner: string; limit: number; leaseMs: number }): Promise<ImageJob[]> {
    if (Date.now() < this.pausedUntil) return []
    return store.claimImageEmbeddings(this.deps.database.db, { ...request, organizationId: this.deps.options.organizationId })
  }

  async work(jobs: ImageJob[], signal: AbortSignal): Promise<void> {
    let done = 0
    for (const job of jobs) {
      const endTurn = await this.deps.foreground?.turn(signal)
      try {
        if (signal.aborted || Date.now() < this.pausedUntil) break
        await this.embed(job, signal)
      } finally {
        endTurn?.()
      }
      done += 1
    }
    const left = jobs.slice(done)
    if (left.length > 0) await this.release(left[0]!.locked_by, left.map((job) => job.id))
  }

  release(owner: string, ids: string[]): Promise<void> {
    return store.releaseImageEmbeddings(this.deps.database.db, owner, ids)
  }

  private async embed(job: ImageJob, signal: AbortSignal): Promise<void> {
    const target = { assetId: job.id, owner: job.locked_by, sha256: job.sha256 }
    const model = this.deps.provider.model
    const rendition = await this.rendition(job)
    if (!rendition) {
      await store.saveImageEmbedding(this.deps.database.db, target, { model, vector: null, dimensions: null })
      return this.deps.options.onImage?.(true)
    }
    let vector: number[]
    try {
      vector = await this.deps.provider.embedImage(rendition, { timeoutMs: this.deps.jobTimeoutMs, signal })
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error
      return this.failed(job, error)
    }
    this.outages = 0
    await store.saveImageEmbedding(this.deps.database.db, target, { model, vector: vectorParam(vector), dimensions: vector.length })
    await this.deps.embeddings.stored(vector.length)
    this.deps.options.onImage?.(true)
  }

  /** The 224 px square to embed, or undefined when the original is missing or cannot be decoded (done, with no vector). */
  private async rendition(job: ImageJob): Promise<Buffer | undefined> {
    const bytes = await this.deps.blobs.get(job.blob_key)
    if (!bytes) {
      this.deps.logger.warn({ asset_id: job.id }, 'no image embedding made: the original is missing')
      return undefined
    }
    try {
      return (await this.deps.images.render(bytes, CLIP_RENDITION)).data
    } catch (error) {
      if (error instanceof ImageError) return undefined
      throw error
    }
  }

  private async failed(job: ImageJob, error: EmbeddingError): Promise<void> {
    this.deps.embeddings.failed(error, 'an image embedding failed; it will be retried')
    if (error.kind === 'unavailable' || error.kind === 'timeout') {
      this.outages += 1
      this.pausedUntil = Date.now() + backoffMs(this.outages, PAUSE)
    }
    await store.retryImageEmbedding(this.deps.database.db, { assetId: job.id, owner: job.locked_by }, backoffMs(job.attempts + 1, RETRY), error.message)
    this.deps.options.onImage?.(false)
  }
}
