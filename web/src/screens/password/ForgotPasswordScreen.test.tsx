import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appApi } from '../../api/client'
import { ForgotPasswordScreen } from './ForgotPasswordScreen'

afterEach(() => vi.restoreAllMocks())

function serverSendsEmail(emailConfigured: boolean) {
  vi.spyOn(appApi, 'GET').mockImplementation((async () => ({
    data: { first_sign_in_pending: false, email_configured: emailConfigured },
    response: new Response(null, { status: 200 }),
  })) as unknown as typeof appApi.GET)
}

function renderScreen() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ForgotPasswordScreen />
    </QueryClientProvider>,
  )
}

describe('the forgot-password screen', () => {
  it('asks for the email when the server sends email', async () => {
    serverSendsEmail(true)
    renderScreen()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send reset link' })).toBeTruthy())
    expect(screen.getByLabelText('Email')).toBeTruthy()
  })

  it('says who can reset the password on a server without email, and offers no form', async () => {
    serverSendsEmail(false)
    renderScreen()
    await waitFor(() => expect(screen.getByText(/Email is not set up on this server/)).toBeTruthy())
    expect(screen.getByText(/asset-library user set-password/)).toBeTruthy()
    expect(screen.getByText(/Ask an owner or admin/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Send reset link' })).toBeNull()
  })
})
