import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appApi } from '../../api/client'
import { Deliveries } from './Deliveries'

vi.mock('../../session', () => ({ useOrg: () => 'acme' }))

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const PENDING = { id: 'd1', event: 'ping', status: 'pending', attempt_count: 0, last_status_code: null, last_error: null, created_at: '2026-01-01T00:00:00Z', next_attempt_at: null }

describe('the delivery history', () => {
  it('polls a pending delivery every 3 s at most, and not while the page is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const list = vi.spyOn(appApi, 'GET').mockImplementation((async () => ({
      data: { data: [PENDING], total: 1, limit: 20, offset: 0 },
      response: new Response(null, { status: 200 }),
    })) as unknown as typeof appApi.GET)
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Deliveries webhookId="w1" enabled />
      </QueryClientProvider>,
    )
    await waitFor(() => expect(screen.getByText('pending')).toBeTruthy())
    const first = list.mock.calls.length
    await act(() => vi.advanceTimersByTimeAsync(2_500))
    expect(list.mock.calls.length).toBe(first)
    await act(() => vi.advanceTimersByTimeAsync(600))
    expect(list.mock.calls.length).toBe(first + 1)

    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
    await act(() => vi.advanceTimersByTimeAsync(15_000))
    expect(list.mock.calls.length).toBe(first + 1)
  })
})
