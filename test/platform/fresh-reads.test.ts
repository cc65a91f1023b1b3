import { describe, expect, it } from 'vitest'
import { FreshReads } from '../../src/platform/fresh-reads.js'

/** A read whose answers the test gives, one per call, in order. */
function controlledRead() {
  const calls: Array<{ key: string; answer: (value: string) => void; fail: (error: Error) => void }> = []
  const read = (key: string) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ key, answer: resolve, fail: reject })
    })
  return { calls, reads: new FreshReads(read) }
}

const settled = () => new Promise((resolve) => setImmediate(resolve))

describe('FreshReads', () => {
  it('gives callers that arrive during a read the next read, shared, never the one under way', async () => {
    const { calls, reads } = controlledRead()
    const first = reads.get('org')
    const second = reads.get('org')
    const third = reads.get('org')
    expect(calls).toHaveLength(1)

    calls[0]!.answer('v1')
    expect(await first).toBe('v1')
    await settled()
    expect(calls).toHaveLength(2)

    calls[1]!.answer('v2')
    expect(await second).toBe('v2')
    expect(await third).toBe('v2')
    await settled()
    expect(calls).toHaveLength(2)
  })

  it('reads each key on its own, and starts at once when nothing is under way', async () => {
    const { calls, reads } = controlledRead()
    const a = reads.get('a')
    const b = reads.get('b')
    expect(calls.map((call) => call.key)).toEqual(['a', 'b'])
    calls[0]!.answer('a1')
    calls[1]!.answer('b1')
    expect([await a, await b]).toEqual(['a1', 'b1'])
    await settled()
    const again = reads.get('a')
    expect(calls).toHaveLength(3)
    calls[2]!.answer('a2')
    expect(await again).toBe('a2')
  })

  it('passes a failed read to its callers, and the next caller reads again', async () => {
    const { calls, reads } = controlledRead()
    const first = reads.get('org')
    const waiting = reads.get('org')
    calls[0]!.fail(new Error('connection lost'))
    await expect(first).rejects.toThrow('connection lost')
    await settled()
    calls[1]!.fail(new Error('still down'))
    await expect(waiting).rejects.toThrow('still down')
    await settled()
    const later = reads.get('org')
    calls[2]!.answer('back')
    expect(await later).toBe('back')
  })

  it('gives a read the argument of the caller that started it, and the next read its first waiter’s', async () => {
    const given: number[] = []
    const reads = new FreshReads<number, number>(async (_, argument) => {
      given.push(argument)
      return argument * 10
    })
    const results = await Promise.all([reads.get('page', 1), reads.get('page', 2), reads.get('page', 3)])
    expect(given).toEqual([1, 2])
    expect(results).toEqual([10, 20, 20])
  })
})
