import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { backoffMs, type Backoff } from '../../platform/background/claims.js'
import { listen, type Listener } from '../../platform/background/listener.js'
import { Runner, type WorkQueue } from '../../platform/background/runner.js'
import { ClaimLost, importFailureOf, runImport, type ImportRunDeps } from './run.js'
import type { ImportWake } from './service.js'
import * as store from './store.js'

/** An import's lease; extended every third of it while the import runs, however long it takes. */
const LEASE_MS = 60_000
/** Finds retries and syncs that came due without a wake in this process (another process queued them). */
const POLL_INTERVAL_MS = 10_000
/** A claimed import whose file another process started running at the same moment waits this long. */
const BUSY_FILE_DELAY_MS = 1_000
/** An attempt that failed on our side (the database, the files) is tried again after this backoff. */
const RETRY_BACKOFF: Backoff = { baseMs: 5_000, factor: 2, maxMs: 10 * 60_000 }

export interface ImportJobDeps extends ImportRunDeps {
  /** Imports this process runs at once (`IMPORT_CONCURRENCY`). */
  concurrency: number
  /** Set for PostgreSQL: imports queued by other processes wake this one through LISTEN/NOTIFY. */
  databaseUrl?: string | undefined
}

/**
 * Runs queued imports on the background runner, in the HTTP app's process (with background work) and in
 * workers alike. Imports of one file never run at once: the runner keys them by file, and the claim and
 * `imports_running_file_idx` keep two processes apart too, so a second import of the file is a sync
 * after the first, never a second set of assets.
 */
export class ImportJob implements ImportWake {
  private runner: Runner<store.ClaimedImport> | undefined
  private listener: Listener | undefined
  private readonly timers = new Set<NodeJS.Timeout>()

  constructor(private readonly deps: ImportJobDeps) {}

  async start(): Promise<void> {
    if (this.runner) return
    const runner = this.createRunner()
    this.runner = runner
    runner.start()
    if (this.deps.databaseUrl) this.listener = await listen(this.deps.databaseUrl, [store.IMPORTS_CHANNEL], () => runner.wake(), this.deps.logger)
  }

  async stop(timeoutMs: number): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer)
    this.timers.clear()
    await this.listener?.close()
    this.listener = undefined
    await this.runner?.stop(timeoutMs)
    this.runner = undefined
  }

  wake(): void {
    this.runner?.wake()
  }

  wakeIn(delayMs: number): void {
    if (!this.runner) return
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      this.wake()
    }, delayMs + 10)
    timer.unref()
    this.timers.add(timer)
  }

  private createRunner(): Runner<store.ClaimedImport> {
    const owner = `${hostname()}:${process.pid}:imports:${randomBytes(4).toString('hex')}`
    return new Runner(new ImportQueue(this.deps, owner, this), {
      logger: this.deps.logger,
      batchSize: 1,
      concurrency: this.deps.concurrency,
      perKeyConcurrency: 1,
      leaseMs: LEASE_MS,
      pollIntervalMs: POLL_INTERVAL_MS,
      owner,
    })
  }
}

/** `imports` as the runner's queue: one import per work() call, keyed by its file. */
class ImportQueue implements WorkQueue<store.ClaimedImport> {
  readonly name = 'imports'

  constructor(
    private readonly deps: ImportJobDeps,
    private readonly owner: string,
    private readonly wakes: ImportWake,
  ) {}

  claim(request: { owner: string; limit: number; leaseMs: number }): Promise<store.ClaimedImport[]> {
    return store.claimImports(this.deps.db, request)
  }

  keyOf(item: store.ClaimedImport): string {
    return `${item.organization_id}:${item.file_key}`
  }

  async work(items: store.ClaimedImport[], signal: AbortSignal): Promise<boolean[]> {
    const outcomes: boolean[] = []
    for (const item of items) outcomes.push(await this.run(item, signal))
    return outcomes
  }

  release(owner: string, ids: string[]): Promise<void> {
    return store.releaseImports(this.deps.db, owner, ids)
  }

  extend(owner: string, ids: string[], leaseMs: number): Promise<string[]> {
    return store.extendImports(this.deps.db, owner, ids, leaseMs)
  }

  /**
   * One attempt at the import's run, its lease extended meanwhile. A lease lost to another runner stops
   * it, writing nothing more; a shutdown gives it back, so another process goes on with it at once.
   */
  private async run(item: store.ClaimedImport, shutdown: AbortSignal): Promise<boolean> {
    const { db, logger } = this.deps
    const started = await store.startRun(db, item.id, this.owner)
    if (started === 'busy') {
      await store.postpone(db, item.id, this.owner, BUSY_FILE_DELAY_MS)
      this.wakes.wakeIn(BUSY_FILE_DELAY_MS)
      return true
    }
    if (started === undefined) return true
    const aborter = new AbortController()
    const onShutdown = () => aborter.abort(shutdown.reason)
    shutdown.addEventListener('abort', onShutdown)
    const leaseKeeper = setInterval(() => {
      store.extendImports(db, this.owner, [item.id], LEASE_MS).then(
        (held) => held.length === 0 && aborter.abort(new ClaimLost()),
        (error: unknown) => logger.warn({ err: error, import_id: item.id }, 'extending an import\u2019s lease failed; retrying at the next third of the lease'),
      )
    }, LEASE_MS / 3)
    try {
      await runImport(this.deps, started, this.owner, aborter.signal)
      await this.end(item.id, null)
      return true
    } catch (error) {
      if (shutdown.aborted) {
        await store.releaseImports(db, this.owner, [item.id])
        return false
      }
      if (error instanceof ClaimLost || aborter.signal.aborted) return false
      const failure = importFailureOf(error)
      if (failure) {
        await this.end(item.id, failure)
        return true
      }
      const delayMs = backoffMs(started.attempts + 1, RETRY_BACKOFF)
      logger.warn({ err: error, import_id: item.id, retry_in_ms: delayMs }, 'an import attempt failed; it goes on from where it stopped after a backoff')
      await store.retryLater(db, item.id, this.owner, delayMs, String(error))
      this.wakes.wakeIn(delayMs)
      return false
    } finally {
      clearInterval(leaseKeeper)
      shutdown.removeEventListener('abort', onShutdown)
    }
  }

  /** Ends the run; the next import of the file (or this one's pending sync) may start. */
  private async end(id: string, failure: { code: string; detail: string } | null): Promise<void> {
    await store.endRun(this.deps.db, id, this.owner, failure)
    this.wakes.wake()
  }
}
