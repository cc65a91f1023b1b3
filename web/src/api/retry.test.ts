import { describe, expect, it } from 'vitest'
import { ApiError } from './problem'
import { retryDelay, shouldRetry } from './retry'

const problem = (status: number, retryAfter: string | null = null) => new ApiError(status, { code: 'x', detail: 'x' }, retryAfter)

describe('reads that failed', () => {
  it('are tried again after a 429, once its Retry-After has passed', () => {
    expect(shouldRetry(0, problem(429, '3'))).toBe(true)
    expect(retryDelay(0, problem(429, '3'))).toBe(3000)
  })

  it('are not kept waiting for a long Retry-After: the error shows instead', () => {
    expect(shouldRetry(0, problem(429, '45'))).toBe(false)
  })

  it('are tried twice after a server error or a lost connection, with a growing pause', () => {
    expect(shouldRetry(0, problem(503))).toBe(true)
    expect(shouldRetry(1, new TypeError('Failed to fetch'))).toBe(true)
    expect(shouldRetry(2, problem(503))).toBe(false)
    expect([retryDelay(0, problem(500)), retryDelay(1, problem(500))]).toEqual([1000, 2000])
  })

  it('are never tried again after another 4xx', () => {
    for (const status of [400, 401, 403, 404, 422]) expect(shouldRetry(0, problem(status))).toBe(false)
  })
})
