import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LastDelivery, timeAgo } from './LastDelivery'

const NOW = Date.parse('2026-03-01T12:00:00.000Z')
const before = (ms: number) => new Date(Date.now() - ms).toISOString()
const DELIVERY = {
  id: 'd1',
  event: 'ping' as const,
  status: 'succeeded' as const,
  attempt_count: 1,
  last_status_code: 200,
  last_error: null,
  next_attempt_at: null,
  updated_at: before(120_000),
}

const shown = (delivery: Parameters<typeof LastDelivery>[0]['delivery']) => render(<LastDelivery delivery={delivery} />).container.textContent

describe('the last delivery of a webhook', () => {
  it('says how long ago, in its largest whole unit', () => {
    expect(timeAgo('2026-03-01T11:59:55.000Z', NOW)).toBe('just now')
    expect(timeAgo('2026-03-01T11:59:30.000Z', NOW)).toBe('30 seconds ago')
    expect(timeAgo('2026-03-01T11:58:00.000Z', NOW)).toBe('2 minutes ago')
    expect(timeAgo('2026-03-01T09:00:00.000Z', NOW)).toBe('3 hours ago')
    expect(timeAgo('2026-02-28T12:00:00.000Z', NOW)).toBe('yesterday')
  })

  it('reads delivered, failed with the answer, retrying, sending, or none yet', () => {
    expect(shown(null)).toBe('No deliveries yet')
    expect(shown(DELIVERY)).toBe('Delivered2 minutes ago')
    expect(shown({ ...DELIVERY, status: 'failed', attempt_count: 5, last_status_code: 500, last_error: 'http_error' })).toBe('Failed: Answered 5002 minutes ago')
    expect(shown({ ...DELIVERY, status: 'failed', last_status_code: 0, last_error: 'timeout' })).toBe('Failed: Timed out: no answer in time2 minutes ago')
    expect(shown({ ...DELIVERY, status: 'failed', last_status_code: 0, last_error: 'tls_error' })).toBe('Failed: TLS certificate not trusted2 minutes ago')
    expect(shown({ ...DELIVERY, status: 'pending', attempt_count: 0, last_status_code: null })).toBe('Sending')
    expect(shown({ ...DELIVERY, status: 'pending', attempt_count: 2, last_status_code: 503, last_error: 'http_error', next_attempt_at: '2026-03-01T12:05:00.000Z' })).toMatch(/^Retrying: Answered 503next try /)
  })
})
