import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ConfirmDialog } from '../../ui/Dialog'
import { useConfirmedMutation } from './useConfirmedMutation'

/** A revocation whose answers the test gives, one call at a time. */
function setup() {
  const calls: Array<{ value: string; resolve(secret: string): void; reject(error: Error): void }> = []
  const done: string[] = []
  function Revoke() {
    const revoke = useConfirmedMutation({
      mutationFn: (value: string) => new Promise<string>((resolve, reject) => calls.push({ value, resolve, reject })),
      onSuccess: (secret) => done.push(secret),
    })
    return (
      <>
        <button type="button" onClick={() => revoke.ask('key-1')}>
          Revoke
        </button>
        <ConfirmDialog title="Revoke this key?" confirmLabel="Revoke key" {...revoke.dialog}>
          <p>{revoke.asked} stops working.</p>
        </ConfirmDialog>
      </>
    )
  }
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <QueryClientProvider client={queryClient}>
      <Revoke />
    </QueryClientProvider>,
  )
  return { calls, done, queryClient }
}

describe('a confirmed mutation', () => {
  it('runs once however often confirm is clicked, waits busy, and closes only on success', async () => {
    const { calls, done, queryClient } = setup()
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }))
    expect(screen.getByText('key-1 stops working.')).toBeTruthy()
    const confirm = screen.getByRole('button', { name: 'Revoke key' })
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Working…' })).toBeTruthy())
    fireEvent.click(screen.getByRole('button', { name: 'Working…' }))
    expect(calls.map((c) => c.value)).toEqual(['key-1'])
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true)

    // A failure keeps the question open, to retry or cancel.
    await act(async () => calls[0]!.reject(new Error('Rate limited')))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Revoke key' })).toBeTruthy())
    expect(screen.getByText('key-1 stops working.')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Revoke key' }))
    await waitFor(() => expect(calls).toHaveLength(2))
    await act(async () => calls[1]!.resolve('whsec_new'))
    await waitFor(() => expect(screen.queryByText('key-1 stops working.')).toBeNull())
    expect(done).toEqual(['whsec_new'])
    // The answer (a rotated secret, say) does not stay in the mutation cache.
    await waitFor(() => expect(queryClient.getMutationCache().getAll().filter((m) => m.state.data === 'whsec_new')).toEqual([]))
  })
})
