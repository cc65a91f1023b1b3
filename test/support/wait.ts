/** Polls `check` until it returns something truthy, or fails after `timeoutMs` with `what`. */
type Truthy<T> = Exclude<NonNullable<T>, false | 0 | ''>

export async function waitFor<T>(what: string, check: () => Promise<T> | T, timeoutMs = 10_000, everyMs = 25): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value as Truthy<T>
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** A promise resolved by hand: the moment a test waits for, marked by the code it drives. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

/**
 * Polls `check` for `forMs` and fails as soon as it turns false: the proof that something does NOT
 * happen, for the few cases where nothing observable marks the moment it would have (a timer that must
 * not fire, a process that must not start some work). Each caller says why no condition can be waited
 * on instead; wherever one can, drain the work or use waitFor.
 */
export async function staysTrue(what: string, check: () => Promise<boolean> | boolean, forMs: number, everyMs = 25): Promise<void> {
  const deadline = Date.now() + forMs
  for (;;) {
    if (!(await check())) throw new Error(`${what} stopped holding within ${forMs} ms`)
    if (Date.now() > deadline) return
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
