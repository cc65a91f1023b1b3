import { describe, expect, it, vi } from 'vitest'
import { createPump, retrySeconds } from '../../api/pacing'
import { importBody, outcomeOf, parseTags, pushFields, pushUntilFinal, titleOf, titleOfUrl, type PushAnswer } from './queue'

const answer = (status: number, body: unknown = null, retryAfter: string | null = null): PushAnswer => ({ status, body, retryAfter })
const ID = '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55'

describe('what a push answered', () => {
  it('maps 201 to new, 200 with duplicate to duplicate, 429 to a retry and the rest to the problem detail', () => {
    expect(outcomeOf(answer(201, { asset_id: ID, duplicate: false }))).toEqual({ kind: 'new', assetId: ID })
    expect(outcomeOf(answer(200, { asset_id: ID, duplicate: true }))).toEqual({ kind: 'duplicate', assetId: ID })
    expect(outcomeOf(answer(429, { code: 'rate_limited', detail: 'Slow down.' }, '12'))).toEqual({ kind: 'retry', seconds: 12 })
    expect(outcomeOf(answer(422, { code: 'image_too_many_pixels', detail: 'This image has too many pixels.' }))).toEqual({ kind: 'failed', detail: 'This image has too many pixels.' })
  })

  it('names the fields a validation problem points at, and says so when the server is out of reach', () => {
    const problem = { code: 'validation_failed', detail: 'The request is invalid.', errors: [{ pointer: '/title', detail: 'must be at most 500 characters' }] }
    expect(outcomeOf(answer(400, problem))).toEqual({ kind: 'failed', detail: 'The request is invalid. title: must be at most 500 characters' })
    expect(outcomeOf(answer(0))).toEqual({ kind: 'failed', detail: 'The server cannot be reached. Check your connection.' })
    expect(outcomeOf(answer(502, null))).toEqual({ kind: 'failed', detail: 'The server answered 502.' })
  })

  it('waits what Retry-After says, never less than a second, 60 when missing', () => {
    expect(retrySeconds(0)).toBe(1)
    expect(retrySeconds(7)).toBe(7)
    expect(retrySeconds(undefined)).toBe(60)
  })
})

describe('sending until the answer is final', () => {
  it('waits out each 429, counting the seconds down, then sends again', async () => {
    const answers = [answer(429, null, '3'), answer(429, null, '1'), answer(201, { asset_id: ID, duplicate: false })]
    const waits: number[] = []
    const slept: number[] = []
    const outcome = await pushUntilFinal(
      async () => answers.shift()!,
      (seconds) => waits.push(seconds),
      { wait: async (ms) => void slept.push(ms) },
    )
    expect(outcome).toEqual({ kind: 'new', assetId: ID })
    expect(waits).toEqual([3, 2, 1, 1])
    expect(slept).toEqual([1000, 1000, 1000, 1000])
    expect(answers).toEqual([])
  })

  it('gives up after the retries allowed', async () => {
    let sent = 0
    const outcome = await pushUntilFinal(
      async () => {
        sent++
        return answer(429, null, '1')
      },
      () => undefined,
      { wait: async () => undefined, maxRetries: 2 },
    )
    expect(outcome.kind).toBe('failed')
    expect(sent).toBe(3)
  })

  it('stops when cancelled: before sending, during a wait, or while an answer is on its way', async () => {
    const before = new AbortController()
    before.abort()
    let sent = 0
    const send = async () => {
      sent++
      return answer(429, null, '5')
    }
    expect(await pushUntilFinal(send, () => undefined, { signal: before.signal })).toEqual({ kind: 'cancelled' })
    expect(sent).toBe(0)

    const waiting = new AbortController()
    const waits: number[] = []
    const outcome = pushUntilFinal(send, (seconds) => waits.push(seconds), { signal: waiting.signal })
    await vi.waitFor(() => expect(waits).toEqual([5]))
    waiting.abort()
    // The real sleep ends at the abort instead of after a second.
    expect(await outcome).toEqual({ kind: 'cancelled' })
    expect(sent).toBe(1)

    const sending = new AbortController()
    const answered = pushUntilFinal(
      async () => {
        sending.abort()
        return answer(0)
      },
      () => undefined,
      { signal: sending.signal },
    )
    expect(await answered).toEqual({ kind: 'cancelled' })
  })
})

describe('the pump', () => {
  it('runs two jobs at a time, in order, and takes jobs added while others run', async () => {
    const pump = createPump(2)
    const started: number[] = []
    const finish = new Map<number, () => void>()
    let running = 0
    let most = 0
    const job = (n: number) => () =>
      new Promise<void>((resolve) => {
        started.push(n)
        most = Math.max(most, ++running)
        finish.set(n, () => {
          running--
          resolve()
        })
      })
    for (const n of [1, 2, 3]) pump.add(job(n))
    expect(started).toEqual([1, 2])
    finish.get(2)!()
    await Promise.resolve()
    await Promise.resolve()
    await Promise.resolve()
    expect(started).toEqual([1, 2, 3])
    pump.add(job(4))
    expect(started).toEqual([1, 2, 3])
    finish.get(1)!()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(started).toEqual([1, 2, 3, 4])
    expect(most).toBe(2)
    // A job that throws frees its lane all the same.
    pump.add(() => Promise.reject(new Error('boom')))
    pump.add(job(5))
    pump.add(job(6))
    finish.get(3)!()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(started).toEqual([1, 2, 3, 4, 5])
    finish.get(4)!()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(started).toEqual([1, 2, 3, 4, 5, 6])
  })
})

describe('titles and fields', () => {
  it('takes the title from the file name without its extension, or from the URL', () => {
    expect(titleOf('coral-hero.png')).toBe('coral-hero')
    expect(titleOf('archive.tar.gz')).toBe('archive.tar')
    expect(titleOf('.hidden')).toBe('.hidden')
    expect(titleOf('README')).toBe('README')
    expect(titleOfUrl('https://cdn.example.com/a/Spring%20Hero.webp?x=1')).toBe('Spring Hero')
    expect(titleOfUrl('https://example.com/')).toBe('example.com')
  })

  it('splits tags on commas, trimmed and without repeats', () => {
    expect(parseTags(' launch, Brand,,brand , q3 ')).toEqual(['launch', 'Brand', 'q3'])
    expect(parseTags('')).toEqual([])
  })

  it('sends only the fields set, tags repeated, created_by_ai always', () => {
    const meta = { asset_type: 'Banner', client: ' ', product: 'Stapler', tags: 'launch, hero', created_by_ai: false, collection_name: '' }
    expect(pushFields(meta, 'coral-hero')).toEqual([
      ['title', 'coral-hero'],
      ['asset_type', 'Banner'],
      ['product', 'Stapler'],
      ['tag_names', 'launch'],
      ['tag_names', 'hero'],
      ['created_by_ai', 'false'],
    ])
    expect(importBody(meta, 'https://example.com/x.png', 'x')).toEqual({
      image_url: 'https://example.com/x.png',
      title: 'x',
      asset_type: 'Banner',
      product: 'Stapler',
      tag_names: ['launch', 'hero'],
      created_by_ai: false,
    })
  })
})
