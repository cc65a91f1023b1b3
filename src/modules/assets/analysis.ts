import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { FastifyBaseLogger } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import { claimAssetJobs, queueCounts, releaseClaims, retryAssetJobLater, unleased } from '../../platform/background/claims.js'
import type { ChangedRows, Derivation, DerivationCounts } from '../../platform/background/derivation.js'
import { listen, type Listener } from '../../platform/background/listener.js'
import { Runner, type WorkQueue } from '../../platform/background/runner.js'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import type { ForegroundActivity } from '../../platform/background/foreground.js'
import type { Db } from '../../platform/db/index.js'
import { ANALYSIS_QUEUES } from '../../platform/db/migrations/0021_image_analyses.js'
import { ImageError } from '../../platform/images/images.js'
import type { AssetChange } from './record.js'

/** Jobs per claim, worked one after the other: a runner reads one file at a time. */
const JOBS_PER_CLAIM = 8
/** Far longer than eight files take, so no other runner takes a batch over while it is worked. */
const LEASE_MS = 5 * 60_000
/** Jobs are claimed on a commit or a NOTIFY; the poll finds retries come due and notifications lost. */
const FALLBACK_POLL_MS = 60_000

/** One of migration 0021's queues. */
export type AnalysisQueue = (typeof ANALYSIS_QUEUES)[number][0]

/** The asset column that is null until its analysis has run on the current file: what `retry` looks for. */
export type AnalysisResultColumn = 'perceptual_hash_algorithm' | 'colors' | 'metadata' | 'provenance'

/** An asset's current file, as an analysis reads it. */
export interface AnalysedFile {
  assetId: string
  organizationId: string
  sha256: string
  mimeType: string
  width: number
  height: number
  bytes: Buffer
}

/**
 * What one derivation of issue 36 reads from a file and how it keeps it; `AnalysisDerivation` runs it.
 * `save` must write only while the asset still has the file it read (`where sha256 = file.sha256`): a
 * new version queued since makes the result stale, and its own job follows.
 */
export interface Analysis<Result> {
  /** The derivation's name in the counts and retries of the operator and the owners. */
  readonly name: string
  readonly queue: AnalysisQueue
  readonly resultColumn: AnalysisResultColumn
  /** Reads the file; throws ImageError when its image cannot be read (then `unreadable` is saved). */
  analyse(file: AnalysedFile): Promise<Result>
  /** The result to keep for an image that cannot be read, so the record stops saying "pending". */
  unreadable(file: AnalysedFile, error: ImageError): Result
  save(db: Db, file: AnalysedFile, result: Result): Promise<void>
  /** Lets go of what the analysis holds between files (a worker thread), when the derivation stops. */
  close?(): Promise<void>
}

export interface AnalysisDeps {
  db: Db
  blobs: BlobStore
  logger: FastifyBaseLogger
  /** Set for PostgreSQL: jobs committed by other processes wake this one through LISTEN/NOTIFY. */
  databaseUrl?: string | undefined
  /** The requests this process serves: each job waits for a gap between them (none in a worker). */
  foreground?: ForegroundActivity | undefined
}

/**
 * A derivation that reads each pushed (or new) file after the commit and keeps what it finds on the
 * asset: queued by the change's own statement, worked by the background runner of every process that
 * runs background work, woken by this process's commits and the others' NOTIFY.
 */
export class AnalysisDerivation<Result> implements Derivation<AssetChange> {
  readonly name: string
  private runner: Runner<{ id: string }> | undefined
  private listener: Listener | undefined

  constructor(
    private readonly analysis: Analysis<Result>,
    private readonly deps: AnalysisDeps,
  ) {
    this.name = analysis.name
  }

  /**
   * A push or a restore queues the asset; a new file queues it again at once (a job in flight for the
   * older file loses its lease, so its end does not take the new job with it); an edit of the metadata
   * changes no file.
   */
  queue(changed: ChangedRows, change: AssetChange): RawBuilder<unknown> | null {
    const table = sql.table(this.analysis.queue)
    if (change.kind === 'created') return sql`insert into ${table} (asset_id) ${changed} on conflict do nothing`
    if (!change.newFile) return null
    return sql`insert into ${table} (asset_id) ${changed}
      on conflict (asset_id) do update set next_attempt_at = now(), attempts = 0, last_error = null, locked_by = null, locked_until = null`
  }

  afterCommit(): void {
    this.runner?.wake()
  }

  async start(): Promise<void> {
    if (this.runner) return
    const runner = this.createRunner(this.deps.foreground)
    this.runner = runner
    runner.start()
    if (this.deps.databaseUrl) this.listener = await listen(this.deps.databaseUrl, [channelOf(this.analysis.queue)], () => runner.wake(), this.deps.logger)
  }

  async stop(timeoutMs: number): Promise<void> {
    await this.listener?.close()
    this.listener = undefined
    await this.runner?.stop(timeoutMs)
    this.runner = undefined
    await this.analysis.close?.()
  }

  working(): boolean {
    return this.runner !== undefined
  }

  /** An analysis needs nothing but the file: always possible. */
  async unavailableReason(): Promise<null> {
    return null
  }

  async counts(organizationId?: string): Promise<DerivationCounts> {
    const ofOrganization = organizationId === undefined ? sql<boolean>`true` : sql<boolean>`exists (select 1 from assets a where a.id = q.asset_id and a.organization_id = ${organizationId})`
    return { name: this.name, ...(await queueCounts(this.deps.db, this.analysis.queue, ofOrganization)) }
  }

  /** Queues again, in one statement, the jobs whose last attempt failed and the assets with no result and no job. */
  async retry(organizationId?: string): Promise<number> {
    const table = sql.table(this.analysis.queue)
    const result = sql.ref(`assets.${this.analysis.resultColumn}`)
    const ofOrganization = organizationId === undefined ? sql`` : sql`and assets.organization_id = ${organizationId}`
    const { rows } = await sql<{ queued: number }>`
      with requeued as (
        update ${table} j set next_attempt_at = now(), attempts = 0, last_error = null
        from assets where assets.id = j.asset_id and j.last_error is not null and ${unleased('j')} ${ofOrganization}
        returning j.asset_id
      ),
      missing as (
        insert into ${table} (asset_id) select assets.id from assets where ${result} is null ${ofOrganization}
        on conflict do nothing returning asset_id
      )
      select ((select count(*) from requeued) + (select count(*) from missing))::int as queued
    `.execute(this.deps.db)
    this.afterCommit()
    return rows[0]!.queued
  }

  /** Works every due job now, until none is left (tests, and a process that has just restored its files). */
  async drain(): Promise<void> {
    // Asked for now: it does not wait for a gap between requests.
    const runner = this.createRunner(undefined)
    await runner.drain()
    await runner.stop(0)
  }

  private createRunner(foreground: ForegroundActivity | undefined): Runner<{ id: string }> {
    const owner = `${hostname()}:${process.pid}:${this.name}:${randomBytes(4).toString('hex')}`
    return new Runner(new AnalysisJobs(this.analysis, this.deps, owner, foreground), {
      logger: this.deps.logger,
      batchSize: JOBS_PER_CLAIM,
      concurrency: 1,
      leaseMs: LEASE_MS,
      pollIntervalMs: FALLBACK_POLL_MS,
      owner,
    })
  }
}

/** The NOTIFY channel of a queue (migration 0021's trigger). */
function channelOf(queue: AnalysisQueue): string {
  return ANALYSIS_QUEUES.find(([table]) => table === queue)![1]
}

/** An analysis queue as the runner's: a job is its asset's id. */
class AnalysisJobs<Result> implements WorkQueue<{ id: string }> {
  readonly name: string

  constructor(
    private readonly analysis: Analysis<Result>,
    private readonly deps: AnalysisDeps,
    private readonly owner: string,
    private readonly foreground: ForegroundActivity | undefined,
  ) {
    this.name = analysis.name
  }

  claim(request: { owner: string; limit: number; leaseMs: number }): Promise<{ id: string }[]> {
    return claimAssetJobs(this.deps.db, this.analysis.queue, request)
  }

  /**
   * One file at a time. A job whose asset is gone, whose original is missing, or whose image cannot be
   * read is done; a failure of the files, the database or the analysis' own code is due again after a
   * backoff.
   */
  async work(jobs: { id: string }[], signal: AbortSignal): Promise<boolean[]> {
    const sources = await this.sources(jobs.map((job) => job.id))
    const outcomes: boolean[] = []
    for (const job of jobs) {
      const endTurn = await this.foreground?.turn(signal)
      if (signal.aborted) break
      try {
        const source = sources.get(job.id)
        if (source) await this.analyse(source)
        await this.finish(job.id)
        outcomes.push(true)
      } catch (error) {
        this.deps.logger.warn({ err: error, asset_id: job.id, analysis: this.name }, 'an analysis of a file failed; it is retried later')
        await retryAssetJobLater(this.deps.db, this.analysis.queue, { assetId: job.id, owner: this.owner, error: String(error) })
        outcomes.push(false)
      } finally {
        endTurn?.()
      }
    }
    await this.release(this.owner, jobs.slice(outcomes.length).map((job) => job.id))
    return outcomes
  }

  async release(owner: string, ids: string[]): Promise<void> {
    await releaseClaims(this.deps.db, { table: this.analysis.queue, idColumn: 'asset_id', owner, ids })
  }

  private async analyse({ blobKey, facts }: { blobKey: string; facts: Omit<AnalysedFile, 'bytes'> }): Promise<void> {
    const bytes = await this.deps.blobs.get(blobKey)
    if (!bytes) {
      this.deps.logger.warn({ asset_id: facts.assetId, analysis: this.name }, 'no analysis made: the original is missing')
      return
    }
    const file: AnalysedFile = { ...facts, bytes }
    let result: Result
    try {
      result = await this.analysis.analyse(file)
    } catch (error) {
      if (!(error instanceof ImageError)) throw error
      result = this.analysis.unreadable(file, error)
    }
    await this.analysis.save(this.deps.db, file, result)
  }

  private async sources(ids: string[]) {
    const rows = await this.deps.db
      .selectFrom('assets')
      .select(['id', 'organization_id', 'sha256', 'blob_key', 'mime_type', 'width', 'height'])
      .where('id', '=', sql<string>`any(${ids}::uuid[])`)
      .execute()
    return new Map(
      rows.map((row) => [
        row.id,
        {
          blobKey: row.blob_key,
          facts: { assetId: row.id, organizationId: row.organization_id, sha256: row.sha256, mimeType: row.mime_type, width: row.width, height: row.height },
        },
      ]),
    )
  }

  /** The job is done, unless a new file queued it again since it was claimed (it is no longer this runner's). */
  private async finish(assetId: string): Promise<void> {
    await sql`delete from ${sql.table(this.analysis.queue)} where asset_id = ${assetId} and locked_by = ${this.owner}`.execute(this.deps.db)
  }

}
