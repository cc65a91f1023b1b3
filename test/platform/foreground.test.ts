import { describe, expect, it } from 'vitest'
import { ForegroundActivity } from '../../src/platform/background/foreground.js'
import { staysTrue, waitFor } from '../support/wait.js'

/** Whether `promise` has settled, looked at without waiting for it. */
function tracked(promise: Promise<unknown>): () => boolean {
  let settled = false
  void promise.then(() => (settled = true))
  return () => settled
}

describe('ForegroundActivity', () => {
  it('with nothing served, lets deferred work go at once, unpaced: a second job need not wait for the first', async () => {
    const foreground = new ForegroundActivity({ quietMs: 50 })
    const endFirst = await foreground.turn()
    const endSecond = await foreground.turn()
    endFirst()
    endSecond()
  })

  it('holds deferred work while a request is in flight, and for the quiet time after it ends', async () => {
    const foreground = new ForegroundActivity({ quietMs: 100, maxDeferMs: 60_000 })
    const end = foreground.begin('costly')
    const done = tracked(foreground.turn())
    await staysTrue('work waits while the request is served', () => !done(), 200)
    end()
    end() // a response closes once; a second call changes nothing
    expect(done(), 'work still waits for the quiet time').toBe(false)
    await waitFor('work goes on once the process is quiet', done)
  })

  it('lets deferred work go after the longest wait under steady traffic, and at once when stopped', async () => {
    const foreground = new ForegroundActivity({ quietMs: 50, maxDeferMs: 300 })
    const end = foreground.begin('costly')
    await waitFor('work goes on after maxDeferMs though a request is still served', tracked(foreground.turn()))
    const stopping = new AbortController()
    const stopped = tracked(foreground.turn(stopping.signal))
    stopping.abort()
    await waitFor('an aborted wait ends', stopped)
    end()
  })

  it('lets the jobs whose longest wait ends together go one at a time beside a costly request', async () => {
    const foreground = new ForegroundActivity({ quietMs: 50, maxDeferMs: 200 })
    const endPush = foreground.begin('costly')
    const first = foreground.turn()
    const secondStarted = tracked(foreground.turn())
    const endFirst = await first
    // Nothing marks a turn that must not be given: the second job waits while the first runs.
    await staysTrue('the second job waits while the first runs beside the push', () => !secondStarted(), 150)
    endFirst()
    await waitFor('the second job goes once the first has rested', secondStarted)
    endPush()
  })

  it('paces deferred work beside reads: one job at a time, resting four times as long as each job took', async () => {
    const foreground = new ForegroundActivity({ quietMs: 50, maxDeferMs: 60_000, readQuietMs: 50, shareUnderReads: 0.2 })
    const endRead = foreground.begin('read')
    const endFirst = await foreground.turn()
    const second = foreground.turn()
    const secondStarted = tracked(second)
    // Nothing marks a turn that must not be given: the second job waits while the first runs.
    await staysTrue('a second job waits while the first runs beside reads', () => !secondStarted(), 150)
    const firstEnded = Date.now()
    endFirst()
    endFirst() // a turn ends once
    const endSecond = await second
    // The first job ran for at least the 150 ms above, so the second rests four times as long.
    expect(Date.now() - firstEnded).toBeGreaterThanOrEqual(4 * 150 - 25)
    endSecond()
    endRead()
    // Once reads stop (and the second's rest is not over), jobs go unpaced again: two at once.
    await foreground.turn()
    await foreground.turn()
  })

  it('holds deferred work for a costly request even while it is paced beside reads', async () => {
    const foreground = new ForegroundActivity({ quietMs: 50, maxDeferMs: 60_000 })
    const endRead = foreground.begin('read')
    const endPush = foreground.begin('costly')
    const started = tracked(foreground.turn())
    await staysTrue('work waits for the push though reads alone would let it go', () => !started(), 200)
    endPush()
    await waitFor('work goes on at its pace once the push is over', started)
    endRead()
  })
})
