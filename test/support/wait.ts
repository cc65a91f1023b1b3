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
