import { apiErrorOf } from '@asset-library/client'
import { describe, expect, it } from 'vitest'
import { retryDelay, shouldRetry } from './retry'

const problem = (status: number, retryAfter: string | null = null) =>
  apiErrorOf({ method: 'GET', path: '/api/v1/assets', status, body: { code: 'rate_limited', detail: 'x' }, retryAfter })

describe('reads that failed', () => {
  it('are tried again after a 429, once its Retry-After has passed', () => {
    expect(shouldRetry(0, problem(429, '3'))).toBe(true)
    expect(retryDelay(0, problem(429, '3'))).toBe(3000)
  })

  it('are not kept waiting for a long Retry-After: the error shows instead', () => {
    expect(shouldRetry(0, problem(429, '45'))).toBe(false)
  })

  it('are tried twice after a gateway error or a lost connection, with a growing, jittered pause', () => {
    expect(shouldRetry(0, problem(503))).toBe(true)
    expect(shouldRetry(1, new TypeError('Failed to fetch'))).toBe(true)
    expect(shouldRetry(2, problem(503))).toBe(false)
    for (let n = 0; n < 20; n++) {
      expect(retryDelay(0, problem(502))).toBeLessThanOrEqual(1000)
      expect(retryDelay(1, problem(502))).toBeLessThanOrEqual(2000)
    }
  })

  it('are never tried again after another 4xx, or a 500 that would fail the same way', () => {
    for (const status of [400, 401, 403, 404, 422, 500]) expect(shouldRetry(0, problem(status))).toBe(false)
  })
})
