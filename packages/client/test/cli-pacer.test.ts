import { describe, expect, it } from 'vitest'
import { Pacer } from '../src/cli/pacer.js'
import type { Bucket, RateLimitState } from '../src/index.js'

const state = (remaining: number, resetInMs: number): RateLimitState => ({ bucket: 'expensive', limit: 30, remaining, resetAt: Date.now() + resetInMs, observedAt: Date.now() })

describe('the command line keeps under the rate limit', () => {
  it('starts at once while the window has room, and not before its reset once it has none', async () => {
    let known: RateLimitState | undefined
    const pacer = new Pacer((_bucket: Bucket) => known, new AbortController().signal)

    const started = Date.now()
    await pacer.run('expensive', async () => {})
    known = state(5, 60_000)
    await pacer.run('expensive', async () => {})
    expect(Date.now() - started).toBeLessThan(200)

    known = state(0, 1500)
    const waited = Date.now()
    const waiting = pacer.run('expensive', async () => Date.now())
    await expect.poll(() => pacer.waitingUntil).toBe(known.resetAt)
    expect((await waiting) - waited).toBeGreaterThanOrEqual(1500)
    expect(pacer.waitingUntil).toBeUndefined()
  })

  it('counts the calls in flight against what is left', async () => {
    const known = state(1, 1500)
    const pacer = new Pacer(() => known, new AbortController().signal)
    let finishFirst!: () => void
    const first = pacer.run('expensive', () => new Promise<void>((resolve) => (finishFirst = resolve)))
    const second = pacer.run('expensive', async () => Date.now())
    await expect.poll(() => pacer.waitingUntil).toBe(known.resetAt)
    finishFirst()
    await first
    expect(await second).toBeGreaterThanOrEqual(known.resetAt)
  })

  it('lets one call through while no answer has described the bucket, then as many as it leaves room for', async () => {
    let known: RateLimitState | undefined
    const pacer = new Pacer(() => known, new AbortController().signal)
    let running = 0
    let most = 0
    const call = () =>
      pacer.run('expensive', async () => {
        most = Math.max(most, ++running)
        await new Promise((resolve) => setTimeout(resolve, 20))
        known ??= state(2, 60_000)
        running -= 1
      })
    await Promise.all([call(), call(), call()])
    expect(most).toBe(2)
  })

  it('after the window resets, takes its whole limit and no more', async () => {
    const known = { ...state(0, -1), limit: 2 }
    const pacer = new Pacer(() => known, new AbortController().signal)
    let finish!: () => void
    const held = new Promise<void>((resolve) => (finish = resolve))
    const started: number[] = []
    const calls = [1, 2, 3].map((n) => pacer.run('expensive', () => (started.push(n), held)))
    await expect.poll(() => started.length).toBe(2)
    Object.assign(known, { remaining: 5, resetAt: Date.now() + 60_000 })
    finish()
    await Promise.all(calls)
    expect(started).toEqual([1, 2, 3])
  })

  it('a stop while waiting rejects with the stop reason, and the call is not made', async () => {
    const stop = new AbortController()
    const pacer = new Pacer(() => state(0, 60_000), stop.signal)
    let called = false
    const waiting = pacer.run('expensive', async () => (called = true))
    await expect.poll(() => pacer.waitingUntil).toBeDefined()
    const reason = new Error('stopped')
    stop.abort(reason)
    await expect(waiting).rejects.toBe(reason)
    expect(called).toBe(false)
  })
})
