import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { FastifyBaseLogger } from 'fastify'

/** How long aborted work gets to give its items back before stop() returns. */
const ABORT_GRACE_MS = 500
/** How long a key's window outlives its last item: a key between items keeps what it earned. */
const WINDOW_MEMORY_MS = 60_000

/**
 * A source of background work kept in a table of its own (see claims.ts for the columns).
 *
 * The runner never opens a transaction: `claim` and `release` are one statement each, and `work`
 * writes each outcome with a statement of its own, so no transaction is held across network I/O.
 */
export interface ClaimRequest {
  owner: string
  limit: number
  leaseMs: number
  /**
   * Items in flight per key, and the per-key limit: a queue that claims at most the room each key has
   * left saves the runner giving the rest back. Items over the room are given back otherwise.
   */
  keysInFlight: ReadonlyMap<string, number>
  perKeyLimit: number | undefined
  /**
   * The window of each key that had items lately: how many items it may hold now (see
   * `RunnerOptions.perKeyStartWindow`); other keys have `keyStartWindow`. The claim keeps to them (the
   * runner gives back only what exceeds `perKeyLimit`), and may let work that must keep its schedule
   * (retries) use the rest of `perKeyLimit`.
   */
  keyWindows: ReadonlyMap<string, number>
  keyStartWindow: number | undefined
  /**
   * Items in flight per group of keys (webhooks: an organization). To share the slots fairly, a claim
   * takes first from the group, then the key, that holds the fewest.
   */
  groupsInFlight: ReadonlyMap<string, number>
}

export interface WorkQueue<T extends { id: string }> {
  readonly name: string
  /** Claims up to `limit` due items for `owner` with a lease, minding each key's room. One statement. */
  claim(request: ClaimRequest): Promise<T[]>
  /**
   * Works a batch of claimed items and records every outcome itself: done, or due again later with
   * a backoff. Each write should be guarded by `locked_by = <the claiming owner>` so that a runner
   * whose lease ran out cannot overwrite the runner that took the item over. If `work` throws, the
   * runner only logs it: the items stay claimed until their lease runs out, which is their backoff.
   * It should stop soon after `signal` aborts (shutdown). It may resolve with whether each item's
   * work succeeded, in order: that sizes its key's window (see `ClaimRequest.keyWindows`).
   */
  work(items: T[], signal: AbortSignal): Promise<void | readonly boolean[]>
  /** Gives claimed items back unworked. */
  release(owner: string, ids: string[]): Promise<void>
  /** Items with the same key share a per-key concurrency limit (webhooks: one endpoint). */
  keyOf?(item: T): string
  /** Keys of the same group share the slots fairly with other groups (webhooks: an organization). */
  groupOf?(item: T): string
}

export interface RunnerOptions {
  logger: FastifyBaseLogger
  /** Items per work() call (embeddings: 64; webhooks: 1). */
  batchSize: number
  /** work() calls in flight at once. */
  concurrency: number
  /** Items of one key in flight at once. */
  perKeyConcurrency?: number
  /**
   * Items of one key in flight while it has not proven itself: a key with nothing in flight starts
   * with this window and earns one more slot for each item that work() reports succeeded, up to
   * `perKeyConcurrency`; a failure drops it back to 1 (TCP's slow start and additive increase).
   * Default: `perKeyConcurrency`, no ramp.
   */
  perKeyStartWindow?: number
  leaseMs: number
  /** Fallback poll; a wake() claims at once. */
  pollIntervalMs: number
  /** Names this runner in `locked_by`. Default: `${hostname}:${pid}:${random}`. */
  owner?: string
}

/**
 * Claims due items of one queue and works them with bounded concurrency, overall and per key (each key
 * within a window that its successes widen and a failure narrows), counting what each group holds.
 * Claims are serialised within a runner and sized to the free slots, so nothing claimed waits here
 * while its lease runs.
 */
export class Runner<T extends { id: string }> {
  private readonly owner: string
  private readonly aborter = new AbortController()
  private readonly inFlight = new Set<Promise<void>>()
  private readonly keysInFlight = new Map<string, number>()
  private readonly groupsInFlight = new Map<string, number>()
  private readonly keyWindows: KeyWindows | undefined
  /** The latest claim; the next one starts after it. Never rejects. */
  private claimTurn: Promise<unknown> = Promise.resolve()
  private started = false
  private stopped = false
  private pumping = false
  private pumpAgain = false
  private pollTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly queue: WorkQueue<T>,
    private readonly options: RunnerOptions,
  ) {
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
    const limit = this.perKeyLimit()
    if (limit !== undefined) this.keyWindows = new KeyWindows(this.keyStartWindow()!, limit)
  }

  start(): void {
    if (this.started || this.stopped) return
    this.started = true
    this.pump()
  }

  /**
   * Claims at once instead of at the next poll: call it after a commit that made work, or on NOTIFY.
   * Does nothing before start() or after stop().
   */
  wake(): void {
    this.pump()
  }

  /**
   * Claims and works until a claim finds nothing and nothing is in flight (a backfill, tests). Items
   * whose work() threw stay claimed, so they end the drain instead of coming back. Rejects when a
   * claim fails, so a backfill does not report success with the database down.
   */
  async drain(): Promise<void> {
    while (!this.stopped) {
      const started = await this.claimInTurn()
      if (started === 0 && this.inFlight.size === 0) return
      if (started === 0 || this.freeSlots() === 0) await Promise.race(this.inFlight)
    }
  }

  /**
   * Stops claiming and lets work in flight finish within `timeoutMs`; after that its signal aborts,
   * and work that reacts within a short grace can give its items back (what does not keeps them until
   * the lease runs out). A claim that returns after the stop is given back unworked.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true
    clearTimeout(this.pollTimer)
    const settled = Promise.all([this.claimTurn, ...this.inFlight])
    if (await settlesWithin(settled, timeoutMs)) return
    this.options.logger.warn(
      { queue: this.queue.name, batches: this.inFlight.size },
      'background work still running at the end of the shutdown budget; aborting it',
    )
    this.aborter.abort()
    await settlesWithin(settled, ABORT_GRACE_MS)
  }

  /** Claims in the background; many wake-ups during one claim make one more claim, not many. */
  private pump(): void {
    if (!this.started || this.stopped) return
    if (this.pumping) {
      this.pumpAgain = true
      return
    }
    this.pumping = true
    clearTimeout(this.pollTimer)
    void this.claimInTurn()
      .catch((error: unknown) =>
        this.options.logger.warn({ err: error, queue: this.queue.name }, 'claiming background work failed; retrying at the next poll'),
      )
      .then(() => {
        this.pumping = false
        if (this.pumpAgain) {
          this.pumpAgain = false
          this.pump()
        } else {
          this.schedulePoll()
        }
      })
  }

  private schedulePoll(): void {
    clearTimeout(this.pollTimer)
    if (this.stopped) return
    this.pollTimer = setTimeout(() => this.pump(), this.options.pollIntervalMs)
    this.pollTimer.unref()
  }

  /** Two claims at once would both size themselves to the same free slots. */
  private claimInTurn(): Promise<number> {
    const claimed = this.claimTurn.then(() => this.claimAndStart())
    this.claimTurn = claimed.catch(() => undefined)
    return claimed
  }

  /**
   * Claims for the free slots and starts the work; returns how many items it started. Items that
   * came back over their key's limit were given back, and that key is now busy, so it claims again
   * for the slots they left: otherwise one key with the oldest backlog would hold the other keys off.
   */
  private async claimAndStart(): Promise<number> {
    let started = 0
    while (!this.stopped && this.freeSlots() > 0) {
      const claimed = await this.queue.claim({
        owner: this.owner,
        limit: this.freeSlots() * this.options.batchSize,
        leaseMs: this.options.leaseMs,
        keysInFlight: new Map(this.keysInFlight),
        perKeyLimit: this.perKeyLimit(),
        keyWindows: this.keyWindows?.current() ?? new Map(),
        keyStartWindow: this.keyStartWindow(),
        groupsInFlight: new Map(this.groupsInFlight),
      })
      if (this.stopped) {
        await this.release(claimed)
        break
      }
      const { accepted, overLimit } = this.splitByKeyLimit(claimed)
      for (let i = 0; i < accepted.length; i += this.options.batchSize) {
        this.startWork(accepted.slice(i, i + this.options.batchSize))
      }
      started += accepted.length
      await this.release(overLimit)
      if (overLimit.length === 0 || accepted.length === 0) break
    }
    return started
  }

  private startWork(items: T[]): void {
    const keys = this.perKeyLimit() === undefined ? [] : items.map((item) => this.queue.keyOf!(item))
    const groups = this.queue.groupOf ? items.map((item) => this.queue.groupOf!(item)) : []
    for (const key of keys) this.keyWindows!.record(key, undefined)
    addCounts(this.keysInFlight, keys, 1)
    addCounts(this.groupsInFlight, groups, 1)
    const done = this.work(items).then((succeeded) => {
      this.inFlight.delete(done)
      keys.forEach((key, i) => this.keyWindows!.record(key, succeeded?.[i]))
      addCounts(this.keysInFlight, keys, -1)
      addCounts(this.groupsInFlight, groups, -1)
      this.pump()
    })
    this.inFlight.add(done)
  }

  /** Whether each item succeeded, when work() says; never rejects. */
  private async work(items: T[]): Promise<void | readonly boolean[]> {
    try {
      return await this.queue.work(items, this.aborter.signal)
    } catch (error) {
      this.options.logger.warn(
        { err: error, queue: this.queue.name, items: items.length },
        'background work failed; its items come back when their lease runs out',
      )
    }
  }

  private async release(items: T[]): Promise<void> {
    if (items.length === 0) return
    try {
      await this.queue.release(
        this.owner,
        items.map((item) => item.id),
      )
    } catch (error) {
      this.options.logger.warn(
        { err: error, queue: this.queue.name, items: items.length },
        'giving back claimed work failed; it comes back when its lease runs out',
      )
    }
  }

  private freeSlots(): number {
    return Math.max(0, this.options.concurrency - this.inFlight.size)
  }

  private perKeyLimit(): number | undefined {
    return this.queue.keyOf ? this.options.perKeyConcurrency : undefined
  }

  private keyStartWindow(): number | undefined {
    const limit = this.perKeyLimit()
    return limit === undefined ? undefined : Math.min(limit, this.options.perKeyStartWindow ?? limit)
  }

  /** A claim can return more items of one key than the key has room for; those go back. */
  private splitByKeyLimit(items: T[]): { accepted: T[]; overLimit: T[] } {
    const limit = this.perKeyLimit()
    if (limit === undefined) return { accepted: items, overLimit: [] }
    const counts = new Map(this.keysInFlight)
    const accepted: T[] = []
    const overLimit: T[] = []
    for (const item of items) {
      const key = this.queue.keyOf!(item)
      const count = counts.get(key) ?? 0
      if (count < limit) {
        counts.set(key, count + 1)
        accepted.push(item)
      } else {
        overLimit.push(item)
      }
    }
    return { accepted, overLimit }
  }
}

/**
 * Each key's window (see `RunnerOptions.perKeyStartWindow`), forgotten once the key has had no item for
 * a while. The map is kept in order of use, so forgetting stops at the first key used lately.
 */
class KeyWindows {
  private readonly windows = new Map<string, { size: number; usedAt: number }>()

  constructor(
    private readonly start: number,
    private readonly limit: number,
  ) {}

  current(): Map<string, number> {
    const forgetBefore = Date.now() - WINDOW_MEMORY_MS
    for (const [key, { usedAt }] of this.windows) {
      if (usedAt >= forgetBefore) break
      this.windows.delete(key)
    }
    return new Map([...this.windows].map(([key, { size }]) => [key, size]))
  }

  /** An item of `key` started (undefined) or ended: one more slot for a success, back to one for a failure. */
  record(key: string, succeeded: boolean | undefined): void {
    const size = this.windows.get(key)?.size ?? this.start
    this.windows.delete(key)
    this.windows.set(key, { size: succeeded === undefined ? size : succeeded ? Math.min(this.limit, size + 1) : 1, usedAt: Date.now() })
  }
}

/** Adds `delta` to the count of each name, dropping the names whose count falls to 0. */
function addCounts(counts: Map<string, number>, names: string[], delta: number): void {
  for (const name of names) {
    const count = (counts.get(name) ?? 0) + delta
    if (count === 0) counts.delete(name)
    else counts.set(name, count)
  }
}

/** Whether `promise` (which must not reject) settles within `ms`. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    timer.unref()
    void promise.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}
