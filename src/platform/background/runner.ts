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
   * Items the runner holds per key, in flight or waiting to start, and the per-key limit of items in
   * flight: a queue that claims at most the room each key has left saves the runner giving the rest
   * back. Items over the room are given back otherwise.
   */
  keysHeld: ReadonlyMap<string, number>
  perKeyLimit: number | undefined
  /**
   * How many items each key that had items lately may hold now: its window (see
   * `RunnerOptions.perKeyStartWindow`), or, for a key at its full window, `perKeyLimit` times the
   * runner's `claimAhead` (no more than `perKeyLimit` of them in flight). Other keys have
   * `keyStartWindow`. The claim keeps to them (the runner gives back only what exceeds the larger of
   * `perKeyLimit` and the key's window), and may let work that must keep its schedule (retries) use the
   * rest of `perKeyLimit`.
   */
  keyWindows: ReadonlyMap<string, number>
  keyStartWindow: number | undefined
  /**
   * Items held per group of keys (webhooks: an organization). To share the slots fairly, a claim takes
   * first from the group, then the key, that holds the fewest.
   */
  groupsHeld: ReadonlyMap<string, number>
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
  /**
   * Extends the lease of claimed items to `leaseMs` from now, in one statement; returns the ids `owner`
   * still holds. Needed when the runner claims ahead (`RunnerOptions.claimAhead`).
   */
  extend?(owner: string, ids: string[], leaseMs: number): Promise<string[]>
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
  /**
   * Items claimed per free slot (default 1). Above 1, what cannot start at once waits in memory, its
   * lease extended every third of a lease, and starts as slots free: one claim serves several rounds of
   * slots. Only keys at their full window claim ahead, and a key's failure gives its waiting items back.
   * Needs `WorkQueue.extend`.
   */
  claimAhead?: number
  /** Fallback poll; a wake() claims at once. */
  pollIntervalMs: number
  /** Names this runner in `locked_by`. Default: `${hostname}:${pid}:${random}`. */
  owner?: string
}

/**
 * Claims due items of one queue and works them with bounded concurrency, overall and per key (each key
 * within a window that its successes widen and a failure narrows), counting what each group holds.
 * Claims are serialised within a runner and sized to the free slots (times `claimAhead`). Items claimed
 * ahead wait here under a lease the runner extends; a free slot goes to the waiting item whose group,
 * then key, has the fewest in flight. A wake() that finds no free slot makes the next freed slot claim
 * first, so new work of a quiet group is ranked ahead of what waits.
 */
export class Runner<T extends { id: string }> {
  private readonly owner: string
  private readonly aborter = new AbortController()
  private readonly inFlight = new Set<Promise<void>>()
  private readonly keysInFlight = new Map<string, number>()
  private readonly groupsInFlight = new Map<string, number>()
  /** Items claimed ahead, in claim order, waiting for a slot. */
  private waiting: T[] = []
  private leaseExtender: NodeJS.Timeout | undefined
  /** A wake, a poll or a drain since the last claim: new work may be due. */
  private woken = true
  /** Keys whose items finished since the last claim ('' without keys): a claim is due when one runs low. */
  private readonly finishedKeys = new Set<string>()
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
    if (this.claimAhead() > 1 && !queue.extend) throw new Error(`${queue.name}: claiming ahead needs WorkQueue.extend`)
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
    this.woken = true
    this.pump()
  }

  /**
   * Claims and works until a claim finds nothing and nothing is in flight (a backfill, tests). Items
   * whose work() threw stay claimed, so they end the drain instead of coming back. Rejects when a
   * claim fails, so a backfill does not report success with the database down.
   */
  async drain(): Promise<void> {
    while (!this.stopped) {
      this.woken = true
      const started = await this.claimInTurn()
      if (started === 0 && this.inFlight.size === 0) return
      if (started === 0 || this.freeSlots() === 0) await Promise.race(this.inFlight)
    }
  }

  /**
   * Stops claiming and lets work in flight finish within `timeoutMs`; after that its signal aborts,
   * and work that reacts within a short grace can give its items back (what does not keeps them until
   * the lease runs out). Items waiting to start, and a claim that returns after the stop, are given back
   * unworked at once.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true
    clearTimeout(this.pollTimer)
    const givenBack = this.release(this.takeWaiting(() => true))
    const settled = Promise.all([this.claimTurn, givenBack, ...this.inFlight])
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
    this.pollTimer = setTimeout(() => this.wake(), this.options.pollIntervalMs)
    this.pollTimer.unref()
  }

  /** Two claims at once would both size themselves to the same free slots. */
  private claimInTurn(): Promise<number> {
    const claimed = this.claimTurn.then(() => this.claimAndStart())
    this.claimTurn = claimed.catch(() => undefined)
    return claimed
  }

  /**
   * Claims first if a claim is wanted (so that new work is ranked with what waits), then starts waiting
   * items in the free slots; returns how many items it started. Items that came back over their key's
   * room were given back, and that key is now busy, so it claims again for the slots they left:
   * otherwise one key with the oldest backlog would hold the other keys off.
   */
  private async claimAndStart(): Promise<number> {
    let started = 0
    while (!this.stopped && this.freeSlots() > 0 && this.claimWanted()) {
      this.woken = false
      this.finishedKeys.clear()
      const claimed = await this.queue.claim({
        owner: this.owner,
        limit: this.freeSlots() * this.options.batchSize * this.claimAhead(),
        leaseMs: this.options.leaseMs,
        keysHeld: this.heldCounts(this.keysInFlight, (item) => this.queue.keyOf?.(item)),
        perKeyLimit: this.perKeyLimit(),
        keyWindows: new Map([...(this.keyWindows?.current() ?? [])].map(([key, size]) => [key, this.claimRoom(size)])),
        keyStartWindow: this.keyStartWindow() === undefined ? undefined : this.claimRoom(this.keyStartWindow()!),
        groupsHeld: this.heldCounts(this.groupsInFlight, (item) => this.queue.groupOf?.(item)),
      })
      if (this.stopped) {
        await this.release(claimed)
        break
      }
      const overRoom = this.hold(claimed)
      started += this.startWaiting()
      await this.release(overRoom)
      if (overRoom.length === 0 || overRoom.length === claimed.length) break
      this.woken = true
    }
    return started + this.startWaiting()
  }

  /** Adds claimed items to the waiting ones; returns those over their key's room, to give back. */
  private hold(claimed: T[]): T[] {
    const limit = this.perKeyLimit()
    if (limit === undefined) {
      this.waiting.push(...claimed)
      return []
    }
    const windows = this.keyWindows!.current()
    const held = this.heldCounts(this.keysInFlight, (item) => this.queue.keyOf!(item))
    const overRoom: T[] = []
    for (const item of claimed) {
      const key = this.queue.keyOf!(item)
      const count = held.get(key) ?? 0
      if (count < Math.max(limit, this.claimRoom(windows.get(key) ?? this.keyStartWindow()!))) {
        held.set(key, count + 1)
        this.waiting.push(item)
      } else {
        overRoom.push(item)
      }
    }
    return overRoom
  }

  /**
   * Starts waiting items while slots are free: each time the item whose group, then key, has the fewest
   * in flight (the oldest claimed among equals), within its key's limit. Returns how many it started.
   */
  private startWaiting(): number {
    let started = 0
    while (!this.stopped && this.freeSlots() > 0) {
      const batch = this.nextBatch()
      if (batch.length === 0) break
      this.startWork(batch)
      started += batch.length
    }
    this.extendLeasesWhileWaiting()
    return started
  }

  private nextBatch(): T[] {
    const limit = this.perKeyLimit()
    const keys = new Map(this.keysInFlight)
    const groups = new Map(this.groupsInFlight)
    const batch: T[] = []
    while (batch.length < this.options.batchSize) {
      let best = -1
      let bestRank: [number, number] = [Infinity, Infinity]
      this.waiting.forEach((item, i) => {
        const keyCount = limit === undefined ? 0 : (keys.get(this.queue.keyOf!(item)) ?? 0)
        if (limit !== undefined && keyCount >= limit) return
        const groupCount = this.queue.groupOf ? (groups.get(this.queue.groupOf(item)) ?? 0) : 0
        if (groupCount < bestRank[0] || (groupCount === bestRank[0] && keyCount < bestRank[1])) {
          best = i
          bestRank = [groupCount, keyCount]
        }
      })
      if (best < 0) break
      const [item] = this.waiting.splice(best, 1)
      if (limit !== undefined) addCounts(keys, [this.queue.keyOf!(item!)], 1)
      if (this.queue.groupOf) addCounts(groups, [this.queue.groupOf(item!)], 1)
      batch.push(item!)
    }
    return batch
  }

  private startWork(items: T[]): void {
    const keys = this.perKeyLimit() === undefined ? [] : items.map((item) => this.queue.keyOf!(item))
    const groups = this.queue.groupOf ? items.map((item) => this.queue.groupOf!(item)) : []
    for (const key of keys) this.keyWindows!.record(key, undefined)
    addCounts(this.keysInFlight, keys, 1)
    addCounts(this.groupsInFlight, groups, 1)
    const done = this.work(items).then(async (succeeded) => {
      this.inFlight.delete(done)
      keys.forEach((key, i) => this.keyWindows!.record(key, succeeded?.[i]))
      addCounts(this.keysInFlight, keys, -1)
      addCounts(this.groupsInFlight, groups, -1)
      const failedKeys = new Set(keys.filter((_, i) => succeeded?.[i] === false))
      // Claimed while the key had its full window, which a failure took away.
      if (failedKeys.size > 0) await this.release(this.takeWaiting((item) => failedKeys.has(this.queue.keyOf!(item))))
      for (const key of keys.length > 0 ? keys : ['']) this.finishedKeys.add(key)
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

  /**
   * After a wake, or when a key whose items finished has fewer waiting than one round of its slots (a
   * key not claimed ahead has none): judged when the claim would be made, not when the items finished,
   * so items finishing during a claim do not make another one that its rows have made needless.
   */
  private claimWanted(): boolean {
    const limit = this.perKeyLimit()
    const runsLow = (key: string) =>
      limit === undefined
        ? this.waiting.length < this.options.concurrency * this.options.batchSize
        : this.waiting.filter((item) => this.queue.keyOf!(item) === key).length < limit
    return this.woken || [...this.finishedKeys].some(runsLow)
  }

  /** Removes the waiting items that `matches` accepts and returns them. */
  private takeWaiting(matches: (item: T) => boolean): T[] {
    const taken = this.waiting.filter(matches)
    if (taken.length > 0) this.waiting = this.waiting.filter((item) => !matches(item))
    this.extendLeasesWhileWaiting()
    return taken
  }

  /** Counts in flight plus the waiting items, by the name `nameOf` gives each. */
  private heldCounts(inFlight: ReadonlyMap<string, number>, nameOf: (item: T) => string | undefined): Map<string, number> {
    const counts = new Map(inFlight)
    const names = this.waiting.map(nameOf).filter((name) => name !== undefined)
    addCounts(counts, names, 1)
    return counts
  }

  /**
   * Every third of a lease while items wait, one statement extends all their leases; an item whose
   * lease another runner took over meanwhile (this process stalled past it) is dropped, not worked twice
   * at once. A queue that does not claim ahead has none: its items wait only when a claim returned more
   * than it was asked for, and start within moments.
   */
  private extendLeasesWhileWaiting(): void {
    if (this.waiting.length === 0) {
      clearInterval(this.leaseExtender)
      this.leaseExtender = undefined
    } else if (!this.leaseExtender && this.queue.extend) {
      this.leaseExtender = setInterval(() => void this.extendLeases(), this.options.leaseMs / 3)
      this.leaseExtender.unref()
    }
  }

  private async extendLeases(): Promise<void> {
    const ids = this.waiting.map((item) => item.id)
    try {
      const held = new Set(await this.queue.extend!(this.owner, ids, this.options.leaseMs))
      const lost = new Set(ids.filter((id) => !held.has(id)))
      if (lost.size > 0) this.takeWaiting((item) => lost.has(item.id))
    } catch (error) {
      this.options.logger.warn(
        { err: error, queue: this.queue.name, items: ids.length },
        'extending the lease of waiting work failed; retrying at the next third of the lease',
      )
    }
  }

  private freeSlots(): number {
    return Math.max(0, this.options.concurrency - this.inFlight.size)
  }

  private claimAhead(): number {
    return this.options.claimAhead ?? 1
  }

  /** How many items a key with this window may hold: a key at its full window claims ahead. */
  private claimRoom(window: number): number {
    const limit = this.perKeyLimit()
    return limit !== undefined && window >= limit ? limit * this.claimAhead() : window
  }

  private perKeyLimit(): number | undefined {
    return this.queue.keyOf ? this.options.perKeyConcurrency : undefined
  }

  private keyStartWindow(): number | undefined {
    const limit = this.perKeyLimit()
    return limit === undefined ? undefined : Math.min(limit, this.options.perKeyStartWindow ?? limit)
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
