import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import type { EmbeddingConfig } from '../../config.js'
import { backoffMs } from '../../platform/background/claims.js'
import { listen } from '../../platform/background/listener.js'
import { Runner, type WorkQueue } from '../../platform/background/runner.js'
import { sha256Hex } from '../../platform/crypto.js'
import type { DatabaseHandle, Db } from '../../platform/db/index.js'
import { hasVector } from '../../platform/db/migrate.js'
import { createEmbeddingProvider, EMBEDDING_BATCH_SIZE, EmbeddingError, type EmbeddingProvider } from '../../platform/embeddings/provider.js'
import { vectorParam } from '../../platform/embeddings/vector.js'
import type { AssetRecord } from '../assets/service.js'
import * as store from './store.js'
import type { EmbeddingJob } from './store.js'

/** Longer texts are cut: a title and tags say what they have to say well before this. */
const MAX_TEXT_CHARS = 4000
/** A background batch may take far longer than a search's budget (a local model on a laptop). */
const BATCH_TIMEOUT_MS = 60_000
const LEASE_MS = 2 * BATCH_TIMEOUT_MS
const POLL_INTERVAL_MS = 5_000
const BATCHES_IN_FLIGHT = 2
const RETRY = { baseMs: 5_000, factor: 4, maxMs: 60 * 60 * 1000 }
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
  provider?: { status: 'unknown' | 'ok' | 'failing'; error?: string; checked_at?: string }
  index?: 'ready' | 'building' | 'none'
}

export interface EmbeddingsDeps {
  database: DatabaseHandle
  config: EmbeddingConfig | undefined
  logger: FastifyBaseLogger
  /** Set for PostgreSQL: other processes' changes wake this one through LISTEN/NOTIFY. */
  databaseUrl?: string | undefined
}

/**
 * Asset embeddings: the text each asset should be embedded from (kept in the transaction of the change),
 * the background work that embeds it with the provider, and what the provider last said.
 */
export class Embeddings {
  readonly provider: EmbeddingProvider | undefined
  private readonly db: Db
  private runner: Runner<EmbeddingJob> | undefined
  private vector: Promise<boolean> | undefined
  private providerState: NonNullable<EmbeddingReadiness['provider']> = { status: 'unknown' }
  private indexState: NonNullable<EmbeddingReadiness['index']> = 'none'
  private stopListening: (() => Promise<void>) | undefined
  private modelCheck: NodeJS.Timeout | undefined

  constructor(private readonly deps: EmbeddingsDeps) {
    this.db = deps.database.db
    this.provider = deps.config && createEmbeddingProvider(deps.config)
  }

  /** In the transaction that changed the asset; the work is woken by afterCommit(). */
  async enqueue(tx: Db, organizationId: string, record: AssetRecord): Promise<void> {
    const text = embeddingText(record)
    await store.setEmbeddingText(tx, { organizationId, assetId: record.id, text, hash: sha256Hex(text) })
  }

  afterCommit(): void {
    this.runner?.wake()
  }

  /** Whether pgvector is installed; asked once per process. */
  vectorAvailable(): Promise<boolean> {
    this.vector ??= hasVector(this.db)
    return this.vector
  }

  /** Hybrid search is possible: a provider is configured and pgvector is there. */
  async enabled(): Promise<boolean> {
    return this.provider !== undefined && (await this.vectorAvailable())
  }

  /** The budget of the one provider call a search makes. */
  get searchTimeoutMs(): number {
    return this.deps.config?.timeoutMs ?? 0
  }

  /** The dimension the HNSW index is built for, when the operator fixed one. */
  get indexedDimensions(): number | undefined {
    return this.deps.config?.dimensions
  }

  recordSuccess(): void {
    this.providerState = { status: 'ok', checked_at: new Date().toISOString() }
  }

  /** Logged once per distinct problem, so a provider that is down does not flood the log. */
  recordFailure(error: EmbeddingError, context: string): void {
    const repeated = this.providerState.status === 'failing' && this.providerState.error === error.message
    this.providerState = { status: 'failing', error: error.message, checked_at: new Date().toISOString() }
    if (repeated) return
    const level = error.kind === 'dimension_mismatch' ? 'error' : 'warn'
    this.deps.logger[level]({ kind: error.kind, detail: error.message }, `embedding provider: ${context}`)
  }

  async readiness(): Promise<EmbeddingReadiness> {
    if (!this.provider) return { mode: 'text', reason: 'no_provider' }
    if (!(await this.vectorAvailable())) return { mode: 'text', reason: 'no_pgvector', model: this.provider.model }
    return {
      mode: 'hybrid',
      model: this.provider.model,
      dimensions: this.provider.dimensions ?? null,
      provider: this.providerState,
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
    const dimensions = this.indexedDimensions
    if (dimensions !== undefined) await this.ensureIndex(dimensions)
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
    this.modelCheck = setInterval(() => void this.requeueOtherModels().catch(() => undefined), MODEL_CHECK_INTERVAL_MS).unref()
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

  counts(organizationId?: string): Promise<store.EmbeddingCounts> {
    return store.embeddingCounts(this.db, this.provider?.model, organizationId)
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

  /** Under an advisory lock, so processes starting together build it once; CONCURRENTLY on PostgreSQL, so writes go on. */
  private async ensureIndex(dimensions: number): Promise<void> {
    const name = `asset_embeddings_hnsw_${dimensions}`
    await this.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(hashtext(${name}))`.execute(connection)
      try {
        const state = await store.hasEmbeddingIndex(connection, name)
        if (state === 'valid') {
          this.indexState = 'ready'
          return
        }
        this.indexState = 'building'
        const concurrently = sql.raw(this.deps.database.kind === 'postgres' ? 'concurrently' : '')
        if (state === 'invalid') await sql`drop index ${concurrently} ${sql.id(name)}`.execute(connection)
        this.deps.logger.info({ index: name }, 'building the vector index (once per dimension; large libraries take a while)')
        const started = Date.now()
        await sql`set maintenance_work_mem = '512MB'`.execute(connection)
        await sql`
          create index ${concurrently} ${sql.id(name)} on asset_embeddings
          using hnsw ((embedding::vector(${sql.raw(String(dimensions))})) vector_cosine_ops) where dimensions = ${sql.raw(String(dimensions))}
        `.execute(connection)
        await sql`reset maintenance_work_mem`.execute(connection)
        this.indexState = 'ready'
        this.deps.logger.info({ index: name, ms: Date.now() - started }, 'vector index built')
      } finally {
        await sql`select pg_advisory_unlock(hashtext(${name}))`.execute(connection)
      }
    })
  }
}

interface QueueOptions {
  organizationId?: string | undefined
  onBatch?: (saved: number, failed: number) => void
}

/** Claims due texts, embeds a batch in one provider request, and stores the vectors in one statement. */
class EmbeddingQueue implements WorkQueue<EmbeddingJob> {
  readonly name = 'embeddings'

  constructor(
    private readonly db: Db,
    private readonly provider: EmbeddingProvider,
    private readonly embeddings: Embeddings,
    private readonly options: QueueOptions,
  ) {}

  claim(request: { owner: string; limit: number; leaseMs: number }): Promise<EmbeddingJob[]> {
    return store.claimEmbeddings(this.db, { ...request, organizationId: this.options.organizationId })
  }

  async work(jobs: EmbeddingJob[], signal: AbortSignal): Promise<void> {
    const owner = jobs[0]!.locked_by
    let vectors: number[][]
    try {
      vectors = await this.provider.embed(
        jobs.map((job) => job.source_text),
        { timeoutMs: BATCH_TIMEOUT_MS, signal },
      )
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error
      this.embeddings.recordFailure(error, 'background embedding failed; it will be retried')
      const retries = jobs.map((job) => ({ assetId: job.id, delayMs: backoffMs(job.attempts + 1, RETRY) }))
      await store.retryEmbeddings(this.db, owner, retries, error.message)
      this.options.onBatch?.(0, jobs.length)
      return
    }
    this.embeddings.recordSuccess()
    const rows = jobs.map((job, i) => ({ assetId: job.id, hash: job.text_hash, vector: vectorParam(vectors[i]!), dimensions: vectors[i]!.length }))
    const saved = await store.saveEmbeddings(this.db, owner, this.provider.model, rows)
    this.options.onBatch?.(saved, 0)
  }

  release(owner: string, ids: string[]): Promise<void> {
    return store.releaseEmbeddings(this.db, owner, ids)
  }
}
