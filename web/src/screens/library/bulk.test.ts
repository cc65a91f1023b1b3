import { describe, expect, it, vi } from 'vitest'
import type { ApiError } from '@asset-library/client'
import { addInChunks, sendEach, sendPaced, settleLimited, type Answer } from './bulk'

const answer = <T>(status: number, data?: T, headers: Record<string, string> = {}): Answer<T> => ({
  data: status < 300 ? data : undefined,
  error: status < 300 ? undefined : { code: 'insufficient_scope', detail: `refused ${status}` },
  response: new Response(null, { status: status === 204 ? 204 : status, headers }),
})
const noWait = { wait: vi.fn(async () => undefined) }

describe('bulk work within the rate limits', () => {
  it('never runs more than two deletes at once, and deletes all 150', async () => {
    let running = 0
    let most = 0
    const ids = Array.from({ length: 150 }, (_, i) => `a${i}`)
    const result = await sendEach(ids, async () => {
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, 0))
      running--
      return answer(204)
    })
    expect(most).toBe(2)
    expect(result.done).toHaveLength(150)
    expect(result.failures).toEqual([])
  })

  it('waits as a 429 asks and sends again', async () => {
    const wait = vi.fn(async () => undefined)
    const send = vi.fn().mockResolvedValueOnce(answer(429, undefined, { 'retry-after': '3' })).mockResolvedValueOnce(answer(200, { ok: 1 }))
    expect(await sendPaced(send, { wait })).toEqual({ ok: 1 })
    expect(wait).toHaveBeenCalledWith(3000)
    expect(send).toHaveBeenCalledTimes(2)
  })

  it('reports a refusal with the problem, and the others still go', async () => {
    const result = await sendEach(['a', 'b', 'c'], async (id) => (id === 'b' ? answer(403) : answer(204)), noWait)
    expect(result.done).toEqual(['a', 'c'])
    expect(result.failures).toHaveLength(1)
    expect((result.failures[0] as ApiError).detail).toBe('refused 403')
  })

  it('keeps the order of results whatever order jobs finish in', async () => {
    const results = await settleLimited([30, 0, 10], 2, (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms)))
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : null))).toEqual([30, 0, 10])
  })

  it('adds 250 ids in chunks of 100 and counts the ones already there per chunk', async () => {
    const sent: number[] = []
    const ids = Array.from({ length: 250 }, (_, i) => `a${i}`)
    // Ten of each chunk were in the collection already.
    const result = await addInChunks(ids, async (chunk) => {
      sent.push(chunk.length)
      return answer(200, { changed: chunk.length - 10 })
    })
    expect(sent).toEqual([100, 100, 50])
    expect(result).toEqual({ added: 220, already: 30, failed: 0, error: undefined })
  })

  it('stops at a failing chunk and says how many were not added', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `a${i}`)
    const result = await addInChunks(ids, async (chunk) => (chunk.length === 100 ? answer(200, { changed: 100 }) : answer(404)), noWait)
    expect(result.added).toBe(100)
    expect(result.failed).toBe(50)
    expect((result.error as ApiError).status).toBe(404)
  })
})
