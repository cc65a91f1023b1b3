import { AppError } from '../../platform/http/errors.js'

/**
 * The per-process bound on first renders: `concurrency` at once, at most `queueMax` waiting in arrival
 * order, and beyond that an immediate 503 `render_busy` with a `Retry-After` worked out from how long
 * renders take here: a client is told to come back, never left to time out.
 *
 * A waiting render holds nothing but its place: the caller reads the original only once it runs, so
 * the memory of 500 requests at once is that of `concurrency` renders.
 */
export class RenderQueue {
  private running = 0
  private readonly waiting: Array<() => void> = []
  /** A moving average of how long a render takes, for `Retry-After`; a guess until the first one. */
  private averageMs = 250

  constructor(private readonly limits: { concurrency: number; queueMax: number }) {}

  /** Runs `render` in a slot, after those ahead of it; throws `render_busy` at once when the queue is full. */
  async run<T>(render: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.concurrency) this.running++
    else if (this.waiting.length >= this.limits.queueMax) throw this.busy()
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    const started = performance.now()
    try {
      return await render()
    } finally {
      this.averageMs = this.averageMs * 0.8 + (performance.now() - started) * 0.2
      // The slot goes straight to the next in line, so a newcomer cannot overtake the queue.
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }

  /** Renders under way and waiting, for tests and the logs. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length }
  }

  private busy(): AppError {
    const error = new AppError('render_busy', `${this.running} renditions are being made and ${this.waiting.length} wait their turn: ask again in a moment.`)
    // The time for the queue ahead to drain, at least a second.
    error.retryAfterSeconds = Math.max(1, Math.ceil((this.averageMs * (this.waiting.length + this.running)) / this.limits.concurrency / 1000))
    return error
  }
}
