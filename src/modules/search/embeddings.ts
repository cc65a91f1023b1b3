import type { FastifyBaseLogger } from 'fastify'
import type { RawBuilder } from 'kysely'
import type { EmbeddingConfig } from '../../platform/embeddings/provider.js'
import { backoffMs } from '../../platform/background/claims.js'
import type { ChangedRows, Derivation, DerivationCounts } from '../../platform/background/derivation.js'
import { listen } from '../../platform/background/listener.js'
import { Runner, type WorkQueue } from '../../platform/background/runner.js'
import { sha256Hex } from '../../platform/crypto.js'
import type { DatabaseHandle, Db } from '../../platform/db/index.js'
import { createEmbeddingProvider, EMBEDDING_BATCH_SIZE, EmbeddingError, type EmbeddingProvider } from '../../platform/embeddings/provider.js'
import { ProviderHealth, type ProviderStatus } from '../../platform/embeddings/health.js'
import { vectorParam } from '../../platform/embeddings/vector.js'
import type { AssetChange, AssetRecord } from '../assets/record.js'
import * as store from './store.js'
import { ensureVectorIndex, type PgVector } from './vector-index.js'
import type { EmbeddingJob } from './store.js'

/** Longer texts are cut: a title and tags say what they have to say well before this. */
const MAX_TEXT_CHARS = 4000
/** A background batch may take far longer than a search's budget (a local model on a laptop). */
const BATCH_TIMEOUT_MS = 60_000
const LEASE_MS = 2 * BATCH_TIMEOUT_MS
const POLL_INTERVAL_MS = 5_000
const BATCHES_IN_FLIGHT = 2
const RETRY = { baseMs: 5_000, factor: 4, maxMs: 60 * 60 * 1000 }
/** A provider that is down or rate limiting pauses the whole queue, not only the rows it failed. */
const PAUSE = { baseMs: 5_000, factor: 2, maxMs: 5 * 60 * 1000 }
/** How often a process re-checks for vectors of another model (a rolling model change). */
const MODEL_CHECK_INTERVAL_MS = 10 * 60 * 1000
const PROBE_TEXT = 'asset library'

/** The text of an asset that its embedding is made from. Migration 0004 builds the same for existing assets. */
export function embeddingText(record: Pick<AssetRecord, 'title' | 'asset_type' | 'client' | 'product' | 'tags'>): string {
  const lines = [
    record.title,
    record.asset_type && `Type: ${record.asset_type}`,
    record.client && `Client: ${record.client}`,
    record.product && `Product: ${record.product}`,
    record.tags.length > 0 && `Tags: ${record.tags.join(', ')}`,
  ]
  return lines.filter(Boolean).join('\n').slice(0, MAX_TEXT_CHARS)
}

export type SearchModeReason = 'no_provider' | 'no_pgvector'

/** What /ready and the start-up log say about semantic search. */
export interface EmbeddingReadiness {
  mode: 'hybrid' | 'text'
  reason?: SearchModeReason
  model?: string
  dimensions?: number | null
  provider?: ProviderStatus
  index?: 'ready' | 'building' | 'failed' | 'none'
}

/** The AI status an organization's members see in the app. */
export interface OrganizationAiStatus {
  available: boolean
  unavailable_reason: SearchModeReason | null
  embeddings_pending: number
}

export interface EmbeddingsDeps {
  database: DatabaseHandle
  config: EmbeddingConfig | undefined
  logger: FastifyBaseLogger
  /** The database's pgvector, shared with the image embeddings. */
  pgvector: PgVector
  /** Set for PostgreSQL: other processes' changes wake this one through LISTEN/NOTIFY. */
  databaseUrl?: string | undefined
}

/**
 * Asset embeddings: the text each asset should be embedded from (kept in the transaction of the change),
 * the background work that embeds it with the provider, and what the provider last said.
 */
export class Embeddings implements Derivation<AssetChange> {
  readonly name = 'embeddings'
  readonly provider: EmbeddingProvider | undefined
  private readonly db: Db
  private runner: Runner<EmbeddingJob> | undefined
  private readonly health: ProviderHealth
  private indexState: NonNullable<EmbeddingReadiness['index']> = 'none'
  private stopListening: (() => Promise<void>) | undefined
  private modelCheck: NodeJS.Timeout | undefined

  constructor(private readonly deps: EmbeddingsDeps) {
    this.db = deps.database.db
    this.provider = deps.config && createEmbeddingProvider(deps.config)
    this.health = new ProviderHealth(deps.logger, 'embedding provider')
  }

  /**
   * The clause that queues the changed record's text for embedding (for the assets `changed` selects: the
   * record's asset), to run in the statement or transaction that changed it; the work is woken by afterCommit().
   */
  queue(changed: ChangedRows, change: AssetChange): RawBuilder<unknown> {
    const text = embeddingText(change.record)
    return store.queueEmbeddingText(changed, { organizationId: change.organizationId, text, hash: sha256Hex(text) })
  }

  /**
   * In the transaction that turns an organization's AI on or off: off, its texts are never sent to the
   * provider; on, what is missing or stale is due again. The work is woken by afterCommit().
   */
  followAiSetting(tx: Db, organizationId: string, enabled: boolean): Promise<void> {
    return store.setAiParking(tx, organizationId, enabled)
  }

  afterCommit(): void {
    this.runner?.wake()
  }

  /** Whether pgvector is installed; asked once per process. */
  vectorAvailable(): Promise<boolean> {
    return this.deps.pgvector.installed()
  }

  /** Hybrid search is possible: a provider is configured and pgvector is there. */
  async enabled(): Promise<boolean> {
    return this.provider !== undefined && (await this.vectorAvailable())
  }

  /** The query's meaning, within the budget of the one provider call a search makes. Throws EmbeddingError, recorded for /ready. */
  async embedQuery(text: string): Promise<number[]> {
    try {
      const [vector] = await this.provider!.embed([text], { timeoutMs: this.deps.config!.timeoutMs })
      this.recordSuccess()
      return vector!
    } catch (error) {
      if (error instanceof EmbeddingError) this.recordFailure(error, 'a search fell back to text mode')
      throw error
    }
  }

  /** The HNSW index of the configured dimension and the type it stores, when there can be one. */
  async index(): Promise<{ dimensions: number; type: store.IndexType } | undefined> {
    const dimensions = this.deps.config?.dimensions
    return dimensions === undefined ? undefined : this.deps.pgvector.indexFor(dimensions)
  }

  recordSuccess(): void {
    this.health.succeeded()
  }

  recordFailure(error: EmbeddingError, context: string): void {
    this.health.failed(error, context)
  }

  /**
   * What an organization's members are told about AI: whether this server can do it at all (and if not,
   * why), and how many of the organization's texts wait for their embedding.
   */
  async organizationStatus(organizationId: string): Promise<OrganizationAiStatus> {
    const readiness = await this.readiness()
    if (readiness.mode === 'text') return { available: false, unavailable_reason: readiness.reason ?? null, embeddings_pending: 0 }
    const counts = await this.textCounts(organizationId)
    return { available: true, unavailable_reason: null, embeddings_pending: counts.missing + counts.stale }
  }

  async readiness(): Promise<EmbeddingReadiness> {
    if (!this.provider) return { mode: 'text', reason: 'no_provider' }
    if (!(await this.vectorAvailable())) return { mode: 'text', reason: 'no_pgvector', model: this.provider.model }
    return {
      mode: 'hybrid',
      model: this.provider.model,
      dimensions: this.provider.dimensions ?? null,
      provider: this.health.status,
      index: this.indexState,
    }
  }

  /**
   * Before serving: builds the HNSW index for the configured dimension when it is missing (once; over a
   * large library this takes a while, and is logged), and makes vectors of another model due again.
   */
  async prepare(): Promise<void> {
    if (!(await this.enabled())) return
    await this.requeueOtherModels()
    const index = await this.index()
    if (index) await ensureVectorIndex(this.deps, { table: 'asset_embeddings', ...index }, (state) => (this.indexState = state))
    else if (this.deps.config?.dimensions) {
      this.deps.logger.warn({ dimensions: this.deps.config.dimensions }, 'pgvector cannot index this many dimensions: vectors are compared exactly')
    }
  }

  /** Runs the background work in this process until stop(). */
  async start(): Promise<void> {
    if (!(await this.enabled()) || this.runner) return
    this.runner = this.createRunner()
    this.runner.start()
    void this.probe()
    if (this.deps.databaseUrl) {
      const listener = await listen(this.deps.databaseUrl, [store.EMBEDDINGS_CHANNEL], () => this.runner?.wake(), this.deps.logger)
      this.stopListening = () => listener.close()
    }
    const checkModels = () =>
      this.requeueOtherModels().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'checking for vectors of another model failed'))
    this.modelCheck = setInterval(() => void checkModels(), MODEL_CHECK_INTERVAL_MS).unref()
  }

  working(): boolean {
    return this.runner !== undefined
  }

  /** In text mode (no provider, or no pgvector) no text is embedded: the reason `/ready` gives. */
  async unavailableReason(): Promise<SearchModeReason | null> {
    const readiness = await this.readiness()
    return readiness.mode === 'text' ? (readiness.reason ?? null) : null
  }

  /** Embeds every due text now; nothing without a provider and pgvector. */
  async drain(): Promise<void> {
    if (!(await this.enabled())) return
    const runner = this.createRunner()
    await runner.drain()
    await runner.stop(0)
  }

  async stop(timeoutMs: number): Promise<void> {
    clearInterval(this.modelCheck)
    await this.stopListening?.()
    await this.runner?.stop(timeoutMs)
    this.runner = undefined
  }

  async close(): Promise<void> {
    await this.provider?.close()
  }

  /** Embeds every due text now (of one organization, or all), reporting progress; for the CLI. */
  async backfill(options: { organizationId?: string; onProgress?: (embedded: number) => void }): Promise<{ embedded: number; failed: number }> {
    if (!(await this.enabled())) throw new Error('no embedding provider or no pgvector')
    await this.prepare()
    const counts = { embedded: 0, failed: 0 }
    const runner = this.createRunner({
      organizationId: options.organizationId,
      onBatch: (saved, failed) => {
        counts.embedded += saved
        counts.failed += failed
        options.onProgress?.(counts.embedded)
      },
    })
    await runner.drain()
    await runner.stop(0)
    return counts
  }

  /** The texts by the state of their vector (current, stale, missing…): what `embeddings status` shows. */
  textCounts(organizationId?: string): Promise<store.EmbeddingCounts> {
    return store.embeddingCounts(this.db, this.provider?.model, organizationId)
  }

  /**
   * The queue's counts, over the texts of organizations with AI on. Failed: texts whose last attempt
   * the provider failed or refused, waiting for their retry.
   */
  async counts(organizationId?: string): Promise<DerivationCounts> {
    return { name: this.name, ...(await store.embeddingJobCounts(this.db, organizationId)) }
  }

  /**
   * Makes due now the failed texts and the missing ones (a text of an organization with AI on whose
   * vector is absent, or of an older text or another model, and that waits for nothing), then wakes the
   * runner. Nothing without a provider and pgvector: no vector could be made.
   */
  async retry(organizationId?: string): Promise<number> {
    if (!(await this.enabled())) return 0
    const queued = await store.requeueEmbeddings(this.db, this.provider!.model, organizationId)
    this.afterCommit()
    return queued
  }

  private createRunner(options: QueueOptions = {}): Runner<EmbeddingJob> {
    const queue = new EmbeddingQueue(this.db, this.provider!, this, options)
    return new Runner(queue, {
      logger: this.deps.logger,
      batchSize: EMBEDDING_BATCH_SIZE,
      concurrency: BATCHES_IN_FLIGHT,
      leaseMs: LEASE_MS,
      pollIntervalMs: POLL_INTERVAL_MS,
    })
  }

  /** One request at start-up, so a wrong URL, key or dimension shows in the log and /ready at once. */
  private async probe(): Promise<void> {
    try {
      const [vector] = await this.provider!.embed([PROBE_TEXT], { timeoutMs: BATCH_TIMEOUT_MS })
      this.recordSuccess()
      this.deps.logger.info({ model: this.provider!.model, dimensions: vector!.length }, 'embedding provider answered')
    } catch (error) {
      if (error instanceof EmbeddingError) this.recordFailure(error, 'the start-up check failed; search runs in text mode until it answers')
      else this.deps.logger.error({ err: error }, 'embedding provider check failed')
    }
  }

  private async requeueOtherModels(): Promise<void> {
    const requeued = await store.markOtherModelsDue(this.db, this.provider!.model)
    if (requeued > 0) this.deps.logger.info({ requeued, model: this.provider!.model }, 'embeddings of another model will be made again')
  }
}

interface QueueOptions {
  organizationId?: string | undefined
  onBatch?: (saved: number, failed: number) => void
}

/**
 * Claims due texts, embeds a batch in one provider request, and stores the vectors in one statement. A
 * provider that is down or rate limiting pauses the queue (with backoff) beside each row's own retry; a
 * batch the provider refuses is split in halves until the text it refuses is alone, so one bad text
 * never holds back the others.
 */
class EmbeddingQueue implements WorkQueue<EmbeddingJob> {
  readonly name = 'embeddings'
  private pausedUntil = 0
  private outages = 0

  constructor(
    private readonly db: Db,
    private readonly provider: EmbeddingProvider,
    private readonly embeddings: Embeddings,
    private readonly options: QueueOptions,
  ) {}

  async claim(request: { owner: string; limit: number; leaseMs: number }): Promise<EmbeddingJob[]> {
    if (Date.now() < this.pausedUntil) return []
    return store.claimEmbeddings(this.db, { ...request, organizationId: this.options.organizationId })
  }

  async work(jobs: EmbeddingJob[], signal: AbortSignal): Promise<void> {
    try {
      await this.embed(jobs, signal)
    } catch (error) {
      // Stopping: what was not stored goes back at once rather than after the lease.
      if (signal.aborted) return this.release(jobs[0]!.locked_by, jobs.map((job) => job.id))
      throw error
    }
  }

  private async embed(jobs: EmbeddingJob[], signal: AbortSignal): Promise<void> {
    let vectors: number[][]
    try {
      vectors = await this.provider.embed(
        jobs.map((job) => job.source_text),
        { timeoutMs: BATCH_TIMEOUT_MS, signal },
      )
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error
      if (error.kind === 'rejected' && jobs.length > 1) {
        const half = Math.ceil(jobs.length / 2)
        await this.embed(jobs.slice(0, half), signal)
        return this.embed(jobs.slice(half), signal)
      }
      return this.failed(jobs, error)
    }
    this.outages = 0
    this.embeddings.recordSuccess()
    const rows = jobs.map((job, i) => ({ assetId: job.id, hash: job.text_hash, vector: vectorParam(vectors[i]!), dimensions: vectors[i]!.length }))
    const saved = await store.saveEmbeddings(this.db, jobs[0]!.locked_by, this.provider.model, rows)
    this.options.onBatch?.(saved, 0)
  }

  private async failed(jobs: EmbeddingJob[], error: EmbeddingError): Promise<void> {
    this.embeddings.recordFailure(error, 'background embedding failed; it will be retried')
    if (error.kind === 'unavailable' || error.kind === 'timeout') {
      this.outages += 1
      this.pausedUntil = Date.now() + backoffMs(this.outages, PAUSE)
    }
    const retries = jobs.map((job) => ({ assetId: job.id, delayMs: backoffMs(job.attempts + 1, RETRY) }))
    await store.retryEmbeddings(this.db, jobs[0]!.locked_by, retries, error.message)
    this.options.onBatch?.(0, jobs.length)
  }

  release(owner: string, ids: string[]): Promise<void> {
    return store.releaseEmbeddings(this.db, owner, ids)
  }
}


