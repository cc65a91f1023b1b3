/** Requests paced to the API's rate limits: a few at a time, and a 429's Retry-After waited out. */

/** How long a 429 asks to wait, in whole seconds: its Retry-After (as the client package reads it), at least one second, 60 when absent. */
export function retrySeconds(retryAfter: number | undefined): number {
  return retryAfter === undefined ? 60 : Math.max(1, Math.ceil(retryAfter))
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
  })

/**
 * Jobs run at most `concurrency` at a time, in order of arrival; more can be added while others run
 * (a second drop while the first batch uploads joins the same queue).
 */
export function createPump(concurrency: number) {
  const pending: Array<() => Promise<void>> = []
  let active = 0
  const next = () => {
    while (active < concurrency && pending.length > 0) {
      const job = pending.shift()!
      active++
      void job()
        .catch(() => undefined)
        .finally(() => {
          active--
          next()
        })
    }
  }
  return {
    add(job: () => Promise<void>) {
      pending.push(job)
      next()
    },
  }
}
