import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appApi } from '../../api/client'
import { AcceptInvitationScreen } from './AcceptInvitationScreen'

afterEach(() => vi.restoreAllMocks())

describe('the invitation screen', () => {
  it('looks the invitation up once: not again on focus, on reconnect or after a failure', async () => {
    // Each lookup spends the per-IP sign-in budget.
    const lookup = vi.spyOn(appApi, 'POST').mockImplementation((async () => ({
      data: { email: 'new.designer@example.com', organization_name: 'Acme Design', role: 'member', existing_user: false },
      response: new Response(null, { status: 200 }),
    })) as unknown as typeof appApi.POST)
    // TanStack's own defaults (stale at once, refetch on focus and reconnect): the screen must opt out itself.
    const queryClient = new QueryClient()
    render(
      <QueryClientProvider client={queryClient}>
        <AcceptInvitationScreen params={{ token: 'tok' }} />
      </QueryClientProvider>,
    )
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Join Acme Design on Asset Library' })).toBeTruthy())
    expect(lookup).toHaveBeenCalledTimes(1)

    await act(async () => {
      window.dispatchEvent(new Event('visibilitychange'))
      window.dispatchEvent(new Event('offline'))
      window.dispatchEvent(new Event('online'))
      await new Promise((resolve) => setTimeout(resolve, 20))
    })
    expect(lookup).toHaveBeenCalledTimes(1)
  })

  it('says a used link cannot be used, after one lookup', async () => {
    const lookup = vi.spyOn(appApi, 'POST').mockImplementation((async () => ({
      error: { type: 'about:blank', title: 'Not found', status: 404, code: 'invitation_not_found', detail: 'No such invitation.' },
      response: new Response(null, { status: 404 }),
    })) as unknown as typeof appApi.POST)
    const queryClient = new QueryClient()
    render(
      <QueryClientProvider client={queryClient}>
        <AcceptInvitationScreen params={{ token: 'used' }} />
      </QueryClientProvider>,
    )
    await waitFor(() => expect(screen.getByRole('heading', { name: 'This invitation cannot be used' })).toBeTruthy())
    expect(lookup).toHaveBeenCalledTimes(1)
  })
})
