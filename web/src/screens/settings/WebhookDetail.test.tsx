import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appApi, type AppData } from '../../api/client'
import { WebhookDetail } from './WebhookDetail'

vi.mock('../../session', () => ({ useOrg: () => 'acme' }))

afterEach(() => vi.restoreAllMocks())

const REASON = 'Every delivery attempt failed for 5 days. The last error: http_error (HTTP 500).'
const WEBHOOK: AppData<'/app/api/orgs/{org}/webhooks/{id}', 'get'> = {
  id: 'w1',
  url: 'https://hooks.example.com/in',
  description: '',
  events: ['asset.created'],
  enabled: false,
  previous_secret_expires_at: null,
  failing_since: '2026-01-01T00:00:00.000Z',
  disabled_at: '2026-01-06T00:00:00.000Z',
  disabled_reason: REASON,
  created_at: '2025-12-01T00:00:00.000Z',
  updated_at: '2026-01-06T00:00:00.000Z',
}

const answer = (data: unknown) => ({ data, response: new Response(null, { status: 200 }) })

describe('a webhook disabled by the service', () => {
  it('shows why next to its switch, and enabling it clears the reason', async () => {
    // As the server does: enabling clears the reason and the failing mark.
    let webhook = WEBHOOK
    vi.spyOn(appApi, 'GET').mockImplementation((async (path: string) =>
      answer(path.endsWith('/deliveries') ? { data: [], total: 0, limit: 20, offset: 0 } : webhook)) as unknown as typeof appApi.GET)
    const patch = vi.spyOn(appApi, 'PATCH').mockImplementation((async () => {
      webhook = { ...WEBHOOK, enabled: true, failing_since: null, disabled_at: null, disabled_reason: null }
      return answer(webhook)
    }) as unknown as typeof appApi.PATCH)
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <WebhookDetail id="w1" />
      </QueryClientProvider>,
    )
    const note = await screen.findByRole('note')
    expect(note.textContent).toContain('Disabled automatically on')
    expect(note.textContent).toContain('Every delivery attempt failed for 5 days. The last answer: Answered 500.')

    fireEvent.click(screen.getByRole('switch'))
    await waitFor(() => expect(screen.queryByText('Every delivery attempt failed', { exact: false })).toBeNull())
    expect(patch).toHaveBeenCalledWith('/app/api/orgs/{org}/webhooks/{id}', { params: { path: { org: 'acme', id: 'w1' } }, body: { enabled: true } })
    expect((screen.getByRole('switch') as HTMLInputElement).checked).toBe(true)
  })
})
