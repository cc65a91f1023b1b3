import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appApi, v1 } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import { SelectionToolbar } from './SelectionToolbar'

vi.mock('../../session', () => ({ useOrg: () => 'acme' }))
afterEach(() => vi.restoreAllMocks())

describe('deleting the selection on a server whose trash keeps nothing', () => {
  it('asks first, deletes every selected asset, and the note offers no Undo', async () => {
    vi.spyOn(appApi, 'GET').mockResolvedValue({ data: { slug: 'acme', trash_retention_days: 0 }, response: new Response(null, { status: 200 }) } as never)
    const remove = vi.spyOn(v1, 'DELETE').mockResolvedValue({ data: undefined, response: new Response(null, { status: 204 }) } as never)
    const onClear = vi.fn()
    const queryClient = new QueryClient()
    render(
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <SelectionToolbar
            assets={[
              { id: 'a1', title: 'Logo' },
              { id: 'a2', title: 'Banner' },
            ]}
            onClear={onClear}
          />
        </ToastProvider>
      </QueryClientProvider>,
    )
    await waitFor(() => expect(queryClient.isFetching()).toBe(0))
    expect(screen.queryByRole('button', { name: 'Move to trash' })).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete forever?' })
    expect(dialog.textContent).toContain('2 assets are deleted now, with their files and versions. This server keeps no trash, so this cannot be undone.')
    expect(remove).not.toHaveBeenCalled()

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete forever' }))
    expect(await screen.findByText('Deleted 2 assets forever.')).toBeTruthy()
    expect(remove.mock.calls.map(([, init]) => (init as { params: { path: { id: string } } }).params.path.id).sort()).toEqual(['a1', 'a2'])
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull()
    expect(onClear).toHaveBeenCalled()
  })
})
