import { basename, extname } from 'node:path'
import { ApiError, NetworkError } from '../errors.js'
import type { NodeAssetLibraryClient } from '../node.js'
import type { PushFields, PushResult } from '../types.js'
import { fingerprint, reason, refusedBySize, walk, type Found } from './files.js'
import type { HashCache } from './hash-cache.js'
import { nearDuplicatesOf } from './near-duplicates.js'
import { Pacer } from './pacer.js'
import { Reporter, type Counts, type FileEvent, type Outcome, type Progress, type RunMode, type Summary } from './report.js'
import { FatalError } from './usage.js'

/** The most hashes one `assets/check` takes, and the most asset ids one collection add takes. */
const CHECK_BATCH = 1000
const COLLECTION_BATCH = 100
/**
 * While pushes are about to run out of work, a partial batch is checked once it holds twice as many files
 * as the last partial one did (from twice the pushes in flight), or after this long: quick to start, and
 * never many checks (the cheap bucket allows 120 a minute by default) when the files are mostly known.
 */
const PARTIAL_CHECK_EVERY_MS = 1000

export interface TransferPlan {
  paths: string[]
  ignore: string[]
  concurrency: number
  /** `dry-run` and `check` ask which files the library has and push nothing. */
  mode: RunMode
  fields: PushFields
  /** --sync: each file is pushed with the `external_id` `path:<its relative path>`, so changed bytes make a new version of its asset. */
  sync: boolean
  /** The manual collection every file ends up in; pushes name it, files already there are added by id. */
  collection: { id: string; name: string } | undefined
}

interface Hashed {
  path: string
  size: number
  sha256: string
  /** With --sync: `path:` and the path relative to the folder pushed. */
  externalId?: string
}

/**
 * Walks, hashes (or takes the hash from the cache), asks the library which hashes it has in batches,
 * and pushes the rest, `concurrency` at a time, paced by the rate limits. `stop` (Ctrl-C) lets requests in
 * flight finish, ends every wait (the pacer's, a retry's) at once and starts nothing new. A refused key or a lost server stops the run the same way and
 * is thrown as a FatalError once the calls in flight have settled.
 */
export async function transfer(
  client: NodeAssetLibraryClient,
  plan: TransferPlan,
  cache: HashCache,
  output: { json: boolean },
  stop: AbortController,
): Promise<Summary> {
  const pacer = new Pacer(client.rateLimit, stop.signal)
  /**
   * Every call's waits between attempts (a 429's Retry-After, a backoff) end at the stop: no call is sent
   * again after it. The requests in flight are let finish, as the client's fetch ignores the signal (see connect).
   */
  const waits = { signal: stop.signal }
  const counts: Counts = { pushed: 0, updated: 0, duplicate: 0, missing: 0, skipped: 0, failed: 0 }
  /** The files this run made an asset or a version of: their near-duplicates are reported at the end. */
  const created: Array<{ path: string; asset_id: string }> = []
  const progress: Progress = { found: 0, walkDone: false, settled: 0, bytesToPush: 0, bytesPushed: 0, toPush: 0, pushed: 0, startedAt: Date.now(), ceiling: undefined, waitingUntil: undefined }
  let bytesRead = 0
  let fatal: FatalError | undefined
  const stopped = () => stop.signal.aborted
  /** Stopped while waiting its turn: the file is left for the next run, not failed. */
  const leftForNextRun = (error: unknown) => stopped() && error === stop.signal.reason
  const reporter = new Reporter({
    ...output,
    mode: plan.mode,
    progress: () => ({ ...progress, ceiling: pacer.ceiling('expensive'), waitingUntil: pacer.waitingUntil }),
  })

  const settle = (event: Outcome, path: string, details: { asset_id?: string; reason?: string } = {}) => {
    counts[event] += 1
    progress.settled += 1
    reporter.file({ event, path, asset_id: details.asset_id ?? null, reason: details.reason ?? null } satisfies FileEvent)
  }
  const giveUp = (error: unknown): string => {
    const fatalReason = fatalReasonOf(error)
    if (fatalReason && !fatal) {
      fatal = new FatalError(`${fatalReason}. Once that is fixed, run the same command again to resume: files already in the library are not pushed again.`)
      stop.abort(fatal)
    }
    return describeFailure(error)
  }

  const batch: Hashed[] = []
  const toPush: Hashed[] = []
  const changed = new Wakeup()
  let hashingDone = false
  let checkingDone = false
  stop.signal.addEventListener('abort', () => changed.notify(), { once: true })
  /** The first file to push each hash, so a second copy in this run waits for its answer instead of pushing the same bytes. */
  const pushing = new Map<string, Promise<string | undefined>>()
  /** --dry-run's counterpart: the first file of each hash the library lacks, the one a real run would push. */
  const wouldPush = new Map<string, string>()

  reporter.start()
  const found = walk(plan.paths, plan.ignore, stopped)
  const hashers = Array.from({ length: plan.concurrency }, async () => {
    for (let next = await found.next(); !next.done; next = await found.next()) {
      progress.found += 1
      await hashOne(next.value)
      if (stopped()) break
    }
  })
  const hashing = Promise.all(hashers).then(() => {
    hashingDone = true
    progress.walkDone = true
    changed.notify()
  })

  async function hashOne(item: Found): Promise<void> {
    if ('skipped' in item) return settle('skipped', item.path, { reason: item.skipped })
    if ('failed' in item) return settle('failed', item.path, { reason: item.failed })
    const { size, mtimeMs } = item.stats
    const tooBig = refusedBySize(size)
    if (tooBig) return settle('skipped', item.path, { reason: tooBig })
    let print = cache.get(item.path, size, mtimeMs)
    if (!print) {
      try {
        print = await fingerprint(item.path, (bytes) => (bytesRead += bytes))
      } catch (error) {
        return settle('failed', item.path, { reason: `cannot read: ${reason(error)}` })
      }
      cache.set(item.path, size, mtimeMs, print)
    }
    if ('skipped' in print) return settle('skipped', item.path, { reason: print.skipped })
    batch.push({ path: item.path, size, sha256: print.sha256, ...(plan.sync && { externalId: `path:${item.relative}` }) })
    changed.notify()
  }

  /** The queue would run dry before a check's answer: fewer files wait than pushes can be in flight. */
  const starved = () => toPush.length < plan.concurrency
  let lastCheckAt = 0
  let partialAtLeast = 2 * plan.concurrency
  const checking = (async () => {
    while (!stopped()) {
      if (batch.length === 0 && hashingDone) break
      const sinceLast = Date.now() - lastCheckAt
      const partial = batch.length > 0 && starved() && (batch.length >= partialAtLeast || sinceLast >= PARTIAL_CHECK_EVERY_MS)
      const ready = batch.length >= CHECK_BATCH || (batch.length > 0 && hashingDone) || partial
      if (!ready) {
        await changed.wait(batch.length > 0 && starved() ? PARTIAL_CHECK_EVERY_MS - sinceLast : undefined)
        continue
      }
      if (batch.length < CHECK_BATCH && !hashingDone) partialAtLeast = Math.min(CHECK_BATCH, 2 * partialAtLeast)
      lastCheckAt = Date.now()
      const items = batch.splice(0, CHECK_BATCH)
      try {
        await checkBatch(items)
      } catch (error) {
        if (leftForNextRun(error)) break
        const failure = giveUp(error)
        for (const item of items) settle('failed', item.path, { reason: `cannot ask the library: ${failure}` })
      }
    }
    changed.notify()
  })()

  async function checkBatch(items: Hashed[]): Promise<void> {
    const hashes = [...new Set(items.map((item) => item.sha256))]
    const answer = await pacer.run('cheap', () => client.assets.check(hashes, waits))
    const found = new Map(answer.found.map((hit) => [hit.sha256, hit.asset_id]))
    const inLibrary = items.filter((item) => found.has(item.sha256))
    await addToCollection(inLibrary.map((item) => ({ ...item, assetId: found.get(item.sha256)! })))
    for (const item of items) {
      if (found.has(item.sha256)) continue
      if (plan.mode !== 'push') {
        settleMissing(item)
        continue
      }
      toPush.push(item)
      progress.toPush += 1
      progress.bytesToPush += item.size
    }
    changed.notify()
  }

  /** A file the library lacks, when nothing is pushed: a dry run reports a copy as the real run would, a duplicate of the one pushed. */
  function settleMissing(item: Hashed): void {
    if (plan.mode === 'check') return settle('missing', item.path, { reason: 'not in the library' })
    const first = wouldPush.get(item.sha256)
    if (first !== undefined) return settle('duplicate', item.path, { reason: `the same bytes as ${first}, which would be pushed` })
    wouldPush.set(item.sha256, item.path)
    settle('missing', item.path, { reason: 'would be pushed' })
  }

  async function addToCollection(items: Array<Hashed & { assetId: string }>): Promise<void> {
    for (let start = 0; start < items.length; start += COLLECTION_BATCH) {
      const chunk = items.slice(start, start + COLLECTION_BATCH)
      if (plan.collection && plan.mode === 'push') {
        try {
          await pacer.run('standard', () => client.collections.addAssets(plan.collection!.id, [...new Set(chunk.map((item) => item.assetId))], waits))
        } catch (error) {
          if (leftForNextRun(error)) return
          const failure = giveUp(error)
          for (const item of chunk) settle('failed', item.path, { asset_id: item.assetId, reason: `in the library, but not added to ${plan.collection.name}: ${failure}` })
          continue
        }
      }
      for (const item of chunk) settle('duplicate', item.path, { asset_id: item.assetId })
    }
  }

  const pushers = Array.from({ length: plan.mode === 'push' ? plan.concurrency : 0 }, async () => {
    for (;;) {
      const item = toPush.shift()
      if (!item) {
        if (checkingDone || stopped()) return
        await changed.wait()
        continue
      }
      if (stopped()) return
      // Taking a file may leave the queue short: the check loop looks again.
      changed.notify()
      await pushOne(item)
    }
  })
  void checking.then(() => {
    checkingDone = true
    changed.notify()
  })

  async function pushOne(item: Hashed): Promise<void> {
    const first = pushing.get(item.sha256)
    if (first) {
      const assetId = await first
      if (assetId) return settle('duplicate', item.path, { asset_id: assetId })
    }
    const attempt = pushFile(item)
    pushing.set(item.sha256, attempt)
    await attempt
  }

  async function pushFile(item: Hashed): Promise<string | undefined> {
    const fields: PushFields = { title: titleOf(item.path), ...plan.fields }
    if (plan.collection) fields.collection_name = plan.collection.name
    if (item.externalId !== undefined) fields.external_id = item.externalId
    try {
      // Pushed by path: the SDK streams the file as it is now; the server hashes what it receives.
      const answer = await pacer.run('expensive', () => client.assets.push(item.path, fields, waits))
      progress.pushed += 1
      progress.bytesPushed += item.size
      const outcome = outcomeOf(answer)
      settle(outcome, item.path, { asset_id: answer.asset_id })
      if (outcome !== 'duplicate') created.push({ path: item.path, asset_id: answer.asset_id })
      return answer.asset_id
    } catch (error) {
      if (leftForNextRun(error)) return undefined
      settle('failed', item.path, { reason: giveUp(error) })
      return undefined
    }
  }

  await Promise.all([hashing, checking, ...pushers])
  if (created.length > 0 && !stopped()) {
    for (const report of await nearDuplicatesOf(client, created, plan.concurrency, stop.signal)) reporter.nearDuplicates(report)
  }
  const summary: Summary = {
    event: 'summary',
    files: progress.found,
    ...counts,
    pending: progress.found - progress.settled,
    bytes_read: bytesRead,
    bytes_pushed: progress.bytesPushed,
    seconds: (Date.now() - progress.startedAt) / 1000,
    dry_run: plan.mode === 'dry-run',
    stopped: stopped(),
  }
  reporter.finish(summary)
  if (fatal) throw fatal
  return summary
}

/** A push's answer as a file's outcome: new bytes under a known `external_id` made a version after the first. */
function outcomeOf(answer: PushResult): Outcome {
  if (answer.duplicate) return 'duplicate'
  return 'version' in answer && typeof answer.version === 'number' && answer.version > 1 ? 'updated' : 'pushed'
}

/** The title a pushed file gets: its name without the extension. */
export function titleOf(path: string): string {
  const name = basename(path)
  const title = name.slice(0, name.length - extname(name).length).trim()
  return title === '' ? name : title
}

/** An error after which no other call can succeed: a refused key, a server out of reach. */
function fatalReasonOf(error: unknown): string | undefined {
  if (error instanceof NetworkError) return `the server stopped answering (${error.message})`
  if (error instanceof ApiError && error.status === 401) return `the API key was refused (401 ${error.code ?? ''}): ${error.detail ?? ''}`.trim()
  if (error instanceof ApiError && error.status === 403) return `the API key may not do this (403 ${error.code ?? ''}): ${error.detail ?? ''}`.trim()
  return undefined
}

function describeFailure(error: unknown): string {
  if (error instanceof ApiError) return `${error.status} ${error.code ?? ''}: ${error.detail ?? error.message}`.replace(' :', ':')
  if (error instanceof NetworkError) return error.message
  return reason(error)
}

/** Lets a loop sleep until something it waits on changes (or a timeout passes). */
class Wakeup {
  private waiters: Array<() => void> = []

  notify(): void {
    const waiters = this.waiters
    this.waiters = []
    for (const wake of waiters) wake()
  }

  wait(timeoutMs?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = timeoutMs !== undefined ? setTimeout(resolve, Math.max(0, timeoutMs)) : undefined
      this.waiters.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }
}
