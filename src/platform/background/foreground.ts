import { setTimeout as sleep } from 'node:timers/promises'

export interface ForegroundOptions {
  /** How long the process must have served no costly request before deferred work goes on. */
  quietMs?: number
  /** The longest deferred work waits for a quiet moment: under steady costly traffic it still goes on, slowly. */
  maxDeferMs?: number
  /** How long after its last read the process still counts as serving reads. */
  readQuietMs?: number
  /** The share of the time that deferred work may take while reads are served, one job at a time. */
  shareUnderReads?: number
}

/** What the process serves: a costly request (a push, a search) or a read. */
export type RequestWeight = 'costly' | 'read'

/** Called when a job that waited for its turn is over. */
export type EndTurn = () => void

/** How often a waiting job looks again. */
const LOOK_EVERY_MS = 20

const NOTHING_TO_END: EndTurn = () => undefined

/**
 * The requests this process is serving, so background work that can wait (thumbnails, the analyses of
 * issue 36, image embeddings) leaves them the CPU. A worker process serves nothing and never waits. A
 * thumbnail asked for while its job waits is made on demand.
 *
 * - Costly requests (the app's `expensive` bucket): work waits for a gap between them, `maxDeferMs` at
 *   most, then goes on paced as beside reads. On two cores, four decoders working while pushes arrive
 *   made a push's answer 2 to 3 times slower.
 * - Reads: work goes on one job at a time, paced to a share of the time, so a steady read load keeps
 *   most of the CPU (a backlog of derivations halved a list's throughput) and a client polling for a
 *   result still gets it.
 */
export class ForegroundActivity {
  private readonly inFlight: Record<RequestWeight, number> = { costly: 0, read: 0 }
  private readonly lastEnded: Record<RequestWeight, number> = { costly: 0, read: 0 }
  private pacedJobRunning = false
  private nextPacedStart = 0
  private readonly quietMs: number
  private readonly maxDeferMs: number
  private readonly readQuietMs: number
  /** How long the queues rest after a paced job, per ms it took. */
  private readonly restPerWork: number

  constructor(options: ForegroundOptions = {}) {
    this.quietMs = options.quietMs ?? 250
    this.maxDeferMs = options.maxDeferMs ?? 10_000
    this.readQuietMs = options.readQuietMs ?? 50
    const share = options.shareUnderReads ?? 0.2
    this.restPerWork = (1 - share) / share
  }

  /** A request began; `ended` when its response is closed (sent or aborted). */
  begin(weight: RequestWeight): () => void {
    this.inFlight[weight]++
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.inFlight[weight]--
      this.lastEnded[weight] = Date.now()
    }
  }

  /**
   * Resolves when a deferred job may start, or at once when `signal` aborts. The job calls what it
   * resolves to when it is over: while reads are served, that paces the next.
   */
  async turn(signal?: AbortSignal): Promise<EndTurn> {
    const deadline = Date.now() + this.maxDeferMs
    for (;;) {
      if (signal?.aborted) return NOTHING_TO_END
      const costly = this.serving('costly', this.quietMs)
      // Past its longest wait, a job goes on beside the costly requests as beside reads: paced, so the
      // jobs of every queue whose wait ends at once do not all decode beside a push.
      if (!costly && !this.serving('read', this.readQuietMs)) return NOTHING_TO_END
      const held = costly && Date.now() < deadline
      if (!held && !this.pacedJobRunning && Date.now() >= this.nextPacedStart) return this.startPacedJob()
      await sleep(LOOK_EVERY_MS)
    }
  }

  private serving(weight: RequestWeight, quietMs: number): boolean {
    return this.inFlight[weight] > 0 || Date.now() - this.lastEnded[weight] < quietMs
  }

  private startPacedJob(): EndTurn {
    this.pacedJobRunning = true
    const started = Date.now()
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.pacedJobRunning = false
      this.nextPacedStart = Date.now() + (Date.now() - started) * this.restPerWork
    }
  }
}
