import type { Bucket, RateLimitState } from '../transport.js'

/**
 * Keeps a bulk run under the server's per-minute limits: a call starts only while the bucket's last
 * known `remaining` (its whole limit once the window has reset), less the calls of that bucket already in
 * flight, leaves room; otherwise it waits for the window's reset instead of meeting a 429 (the SDK still
 * waits out `Retry-After` should one come). A bucket no answer has described yet lets one call through,
 * and the others wait for its answer: four pushes at once against a limit of two would meet two 429s.
 */
export class Pacer {
  private readonly inFlight = new Map<Bucket, number>()
  private answered: Array<() => void> = []
  /** When the run is waiting for a window to reset: that reset (ms since the epoch), for the progress line. */
  waitingUntil: number | undefined

  constructor(
    private readonly state: (bucket: Bucket) => RateLimitState | undefined,
    private readonly signal: AbortSignal,
  ) {}

  async run<T>(bucket: Bucket, work: () => Promise<T>): Promise<T> {
    await this.reserve(bucket)
    try {
      return await work()
    } finally {
      this.inFlight.set(bucket, this.inFlight.get(bucket)! - 1)
      const waiting = this.answered
      this.answered = []
      for (const wake of waiting) wake()
    }
  }

  /** Calls per second the bucket's limit allows, once an answer has said it (windows are a minute). */
  ceiling(bucket: Bucket): number | undefined {
    const state = this.state(bucket)
    return state ? state.limit / 60 : undefined
  }

  /** Takes a place in flight once there is room; the check and the taking are one synchronous step, so two callers cannot both take the last place. */
  private async reserve(bucket: Bucket): Promise<void> {
    for (;;) {
      this.signal.throwIfAborted()
      const state = this.state(bucket)
      const now = Date.now()
      const inFlight = this.inFlight.get(bucket) ?? 0
      const remaining = !state ? 1 : now >= state.resetAt ? state.limit : state.remaining
      if (remaining - inFlight > 0) {
        this.inFlight.set(bucket, inFlight + 1)
        return
      }
      if (!state || now >= state.resetAt) {
        // The room is taken by calls in flight, whose answers describe the window: wait for one.
        await new Promise<void>((resolve) => this.answered.push(resolve))
        continue
      }
      this.waitingUntil = state.resetAt
      // A little past the reset, so this machine's clock and the server's agree that it has passed.
      await sleep(state.resetAt - now + 200, this.signal)
      this.waitingUntil = undefined
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms)
    const abort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', abort, { once: true })
    function done() {
      signal.removeEventListener('abort', abort)
      resolve()
    }
  })
}
