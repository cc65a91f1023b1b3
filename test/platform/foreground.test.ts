import { describe, expect, it } from 'vitest'
import { ForegroundActivity } from '../../src/platform/background/foreground.js'
import { staysTrue, waitFor } from '../support/wait.js'

/** Whether `promise` has settled, looked at without waiting for it. */
function tracked(promise: Promise<void>): () => boolean {
  let settled = false
  void promise.then(() => (settled = true))
  return () => settled
}

describe('ForegroundActivity', () => {
  it('is quiet with nothing served, and lets deferred work go at once', async () => {
    const foreground = new ForegroundActivity({ quietMs: 50 })
    expect(foreground.isQuiet()).toBe(true)
    await foreground.quiet()
  })

  it('holds deferred work while a request is in flight, and for the quiet time after it ends', async () => {
    const foreground = new ForegroundActivity({ quietMs: 100, maxDeferMs: 60_000 })
    const end = foreground.begin()
    const done = tracked(foreground.quiet())
    await staysTrue('work waits while the request is served', () => !done(), 200)
    end()
    end() // a response closes once; a second call changes nothing
    expect(foreground.isQuiet()).toBe(false)
    await waitFor('work goes on once the process is quiet', done)
    expect(foreground.isQuiet()).toBe(true)
  })

  it('lets deferred work go after the longest wait under steady traffic, and at once when stopped', async () => {
    const foreground = new ForegroundActivity({ quietMs: 50, maxDeferMs: 300 })
    const end = foreground.begin()
    await waitFor('work goes on after maxDeferMs though a request is still served', tracked(foreground.quiet()))
    const stopping = new AbortController()
    const stopped = tracked(foreground.quiet(stopping.signal))
    stopping.abort()
    await waitFor('an aborted wait ends', stopped)
    end()
  })
})
