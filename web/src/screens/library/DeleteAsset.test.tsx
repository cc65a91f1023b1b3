import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { navigate } from 'wouter/use-browser-location'
import { v1 } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import { DeleteAsset } from './DeleteAsset'
import type { Asset } from './queries'

afterEach(() => vi.restoreAllMocks())

const ok = (status: number) => ({ data: undefined, response: new Response(null, { status }) }) as never

describe('moving an asset to the trash', () => {
  it('goes at once, and the note’s Undo restores it and opens it again', async () => {
    navigate('/assets/a1')
    const remove = vi.spyOn(v1, 'DELETE').mockResolvedValue(ok(204))
    const restore = vi.spyOn(v1, 'POST').mockResolvedValue(ok(200))
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <DeleteAsset asset={{ id: 'a1', title: 'Logo' } as Asset} onDeleted={() => navigate('/')} />
        </ToastProvider>
      </QueryClientProvider>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Move to trash' }))
    expect(await screen.findByText('Moved “Logo” to the trash.')).toBeTruthy()
    expect(remove).toHaveBeenCalledWith('/api/v1/assets/{id}', { params: { path: { id: 'a1' } } })
    expect(location.pathname).toBe('/')

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }))
    expect(await screen.findByText('Restored “Logo”.')).toBeTruthy()
    expect(restore).toHaveBeenCalledWith('/api/v1/trash/{id}/restore', { params: { path: { id: 'a1' } } })
    await waitFor(() => expect(location.pathname).toBe('/assets/a1'))
  })
})
