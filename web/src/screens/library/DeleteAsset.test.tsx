import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { navigate } from 'wouter/use-browser-location'
import { appApi, v1 } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import { DeleteAsset } from './DeleteAsset'
import type { Asset } from './queries'

vi.mock('../../session', () => ({ useOrg: () => 'acme' }))
afterEach(() => vi.restoreAllMocks())

const ok = (status: number) => ({ data: undefined, response: new Response(null, { status }) }) as never

const ALLOWED = { delete: { allowed: true, reason: null } }

/** The organization as the server describes it, with its trash's retention (`TRASH_RETENTION_DAYS`), and what the user may do to the asset. */
function serveOrganization(trashRetentionDays: number, permissions: object = ALLOWED) {
  vi.spyOn(appApi, 'GET').mockImplementation(((path: string) =>
    Promise.resolve({
      data: path.endsWith('/permissions') ? permissions : { slug: 'acme', trash_retention_days: trashRetentionDays },
      response: new Response(null, { status: 200 }),
    })) as never)
}

/** Renders the button once the organization is known, as the asset page shows it. */
async function renderDelete() {
  const queryClient = new QueryClient()
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <DeleteAsset asset={{ id: 'a1', title: 'Logo' } as Asset} onDeleted={() => navigate('/')} />
      </ToastProvider>
    </QueryClientProvider>,
  )
  await waitFor(() => expect(queryClient.isFetching()).toBe(0))
}

describe('moving an asset to the trash', () => {
  it('goes at once, and the note’s Undo restores it and opens it again', async () => {
    navigate('/assets/a1')
    serveOrganization(30)
    const remove = vi.spyOn(v1, 'DELETE').mockResolvedValue(ok(204))
    const restore = vi.spyOn(v1, 'POST').mockResolvedValue(ok(200))
    await renderDelete()
    fireEvent.click(await screen.findByRole('button', { name: 'Move to trash' }))
    expect(await screen.findByText('Moved “Logo” to the trash.')).toBeTruthy()
    expect(remove).toHaveBeenCalledWith('/api/v1/assets/{id}', { params: { path: { id: 'a1' } } })
    expect(location.pathname).toBe('/')

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }))
    expect(await screen.findByText('Restored “Logo”.')).toBeTruthy()
    expect(restore).toHaveBeenCalledWith('/api/v1/trash/{id}/restore', { params: { path: { id: 'a1' } } })
    await waitFor(() => expect(location.pathname).toBe('/assets/a1'))
  })
})

describe('deleting an asset on a server whose trash keeps nothing', () => {
  it('asks first, says it cannot be undone, and the note offers no Undo', async () => {
    navigate('/assets/a1')
    serveOrganization(0)
    const remove = vi.spyOn(v1, 'DELETE').mockResolvedValue(ok(204))
    await renderDelete()
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete forever?' })
    expect(dialog.textContent).toContain('“Logo” is deleted now, with its file and every version of it. This server keeps no trash, so this cannot be undone.')
    expect(remove).not.toHaveBeenCalled()

    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete forever' }))
    expect(await screen.findByText('Deleted “Logo” forever.')).toBeTruthy()
    expect(remove).toHaveBeenCalledTimes(1)
    expect(location.pathname).toBe('/')
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull()
  })

  it('deletes nothing when the dialog is cancelled', async () => {
    serveOrganization(0)
    const remove = vi.spyOn(v1, 'DELETE').mockResolvedValue(ok(204))
    await renderDelete()
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete forever?' })).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(remove).not.toHaveBeenCalled()
    expect(screen.queryByRole('button', { name: 'Move to trash' })).toBeNull()
  })
})

describe('an asset the user may not delete', () => {
  it('shows the button refused, with the server\u2019s reason read with it, and sends nothing', async () => {
    navigate('/assets/a1')
    const reason = 'Only owners and admins can delete an asset someone else created.'
    serveOrganization(30, { delete: { allowed: false, reason } })
    const remove = vi.spyOn(v1, 'DELETE').mockResolvedValue(ok(204))
    await renderDelete()
    const button = await screen.findByRole('button', { name: 'Move to trash' })
    expect(button.getAttribute('aria-disabled')).toBe('true')
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(reason)
    fireEvent.click(button)
    expect(remove).not.toHaveBeenCalled()
    expect(location.pathname).toBe('/assets/a1')
  })
})
