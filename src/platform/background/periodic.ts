/**
 * Runs `run` now and every `intervalMs`, never two at once (a tick while one is under way is skipped).
 * Returns the stop, which waits for a run under way, so the database is not closed under it. `run`
 * handles its own errors: a periodic job logs and tries again at the next tick.
 */
export function runPeriodically(run: () => Promise<void>, intervalMs: number): () => Promise<void> {
  let running: Promise<void> | undefined
  const tick = () => {
    running ??= run().finally(() => (running = undefined))
  }
  tick()
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
