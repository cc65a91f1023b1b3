import { setTimeout as sleep } from 'node:timers/promises'

export interface ForegroundOptions {
  /** How long the process must have served no request before deferred work goes on. */
  quietMs?: number
  /** The longest deferred work waits for a quiet moment: under steady traffic it still goes on, slowly. */
  maxDeferMs?: number
}
/** How often a waiting job looks again. */
const LOOK_EVERY_MS = 50

/**
 * The costly requests this process is serving (the app counts its `expensive` bucket), so background
 * work that can wait (thumbnails, the analyses of issue 36, image embeddings) runs in the gaps between
 * them instead of beside them: on two cores, four decoders working while pushes arrive made a push's
 * answer 2 to 3 times slower. A worker process serves nothing and never waits. A thumbnail asked for
 * while its job waits is made on demand.
 */
export class ForegroundActivity {
  private inFlight = 0
  private lastEnded = 0
  private readonly quietMs: number
  private readonly maxDeferMs: number

  constructor(options: ForegroundOptions = {}) {
    this.quietMs = options.quietMs ?? 250
    this.maxDeferMs = options.maxDeferMs ?? 10_000
  }

  /** A request began; `ended` when its response is closed (sent or aborted). */
  begin(): () => void {
    this.inFlight++
    let ended = false
    return () => {
      if (ended) return
      ended = true
      this.inFlight--
      this.lastEnded = Date.now()
    }
  }

  /** Whether no request is in flight and none ended within `quietMs`. */
  isQuiet(): boolean {
    return this.inFlight === 0 && Date.now() - this.lastEnded >= this.quietMs
  }

  /** Resolves at the next quiet moment, after `maxDeferMs` at the latest, or when `signal` aborts. */
  async quiet(signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + this.maxDeferMs
    while (!this.isQuiet() && Date.now() < deadline && !signal?.aborted) await sleep(LOOK_EVERY_MS)
  }
}
