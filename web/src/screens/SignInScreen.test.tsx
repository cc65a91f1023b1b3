import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appApi } from '../api/client'
import { SignInScreen } from './SignInScreen'

afterEach(() => vi.restoreAllMocks())

const HINT = /The first start printed the owner's email and password/

function answering(firstSignInPending: boolean) {
  return vi.spyOn(appApi, 'GET').mockImplementation((async () => ({
    data: { first_sign_in_pending: firstSignInPending },
    response: new Response(null, { status: 200 }),
  })) as unknown as typeof appApi.GET)
}

function renderScreen() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SignInScreen />
    </QueryClientProvider>,
  )
}

describe('the sign-in screen', () => {
  it('points to the printed first-run login while no one has signed in', async () => {
    const asked = answering(true)
    renderScreen()
    await waitFor(() => expect(screen.getByText(HINT)).toBeTruthy())
    expect(asked).toHaveBeenCalledWith('/app/api/instance')
  })

  it('says nothing of it once someone has signed in', async () => {
    const asked = answering(false)
    renderScreen()
    await waitFor(() => expect(asked).toHaveBeenCalled())
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy())
    expect(screen.queryByText(HINT)).toBeNull()
  })
})
