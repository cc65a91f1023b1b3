import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appApi, v1 } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import type { TrashedAsset } from './api'
import { TrashScreen } from './TrashScreen'

const session = vi.hoisted(() => ({ canManage: true, trashRetentionDays: 30 }))
vi.mock('../../session', () => ({
  useSession: () => ({ canManage: session.canManage, user: { name: 'Me', email: 'me@acme.test' } }),
  useOrg: () => 'acme',
}))

const DAY = 86_400_000

function trashed(id: string, title: string, fields: Partial<TrashedAsset> = {}): TrashedAsset {
  const deleted = Date.now() - 2 * DAY
  return {
    id,
    title,
    thumbnail_url: `/t/${id}`,
    original_url: `/o/${id}`,
    width: 10,
    height: 10,
    deleted_at: new Date(deleted).toISOString(),
    purge_at: new Date(deleted + 30 * DAY).toISOString(),
    deleted_by: { kind: 'user', name: 'Me' },
    ...fields,
  } as TrashedAsset
}

/** The trash as the server keeps it: listed by offset, restored and purged by id. */
let trash: TrashedAsset[] = []
const calls: string[] = []
const answer = (status: number, data?: unknown) => ({ data, response: new Response(null, { status }) })
type Init = { params: { path?: { id: string }; query?: { limit?: number; offset?: number } } }

function serve() {
  vi.spyOn(appApi, 'GET').mockImplementation((async () => answer(200, { slug: 'acme', trash_retention_days: session.trashRetentionDays })) as unknown as typeof appApi.GET)
  vi.spyOn(v1, 'GET').mockImplementation((async (_path: string, init: Init) => {
    const { limit = 60, offset = 0 } = init.params.query ?? {}
    return answer(200, { data: trash.slice(offset, offset + limit), total: trash.length, limit, offset })
  }) as unknown as typeof v1.GET)
  const take = (method: string) => async (path: string, init: Init) => {
    const id = init.params.path!.id
    calls.push(`${method} ${path.replace('{id}', id)}`)
    const found = trash.find((asset) => asset.id === id)
    if (!found) return answer(404, { code: 'not_found', detail: 'Not found.' })
    trash = trash.filter((asset) => asset !== found)
    return method === 'POST' ? answer(200, found) : answer(204)
  }
  vi.spyOn(v1, 'POST').mockImplementation(take('POST') as unknown as typeof v1.POST)
  vi.spyOn(v1, 'DELETE').mockImplementation(take('DELETE') as unknown as typeof v1.DELETE)
}

function renderTrash() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <TrashScreen />
      </ToastProvider>
    </QueryClientProvider>,
  )
}

const card = (title: string) => screen.getByRole('article', { name: title })

beforeEach(() => {
  session.canManage = true
  session.trashRetentionDays = 30
  calls.length = 0
  trash = [
    trashed('a1', 'Logo', { deleted_by: { kind: 'key', name: 'Figma sync' } }),
    trashed('a2', 'Banner', { purge_at: new Date(Date.now() + 2 * DAY - 60_000).toISOString() }),
  ]
  serve()
})
afterEach(() => vi.restoreAllMocks())

describe('the trash', () => {
  it('shows who deleted each asset, when, and in how many days it goes for good', async () => {
    renderTrash()
    await screen.findByRole('article', { name: 'Logo' })
    expect(within(card('Logo')).getByText(/Deleted 2 days ago by the key “Figma sync”/)).toBeTruthy()
    expect(within(card('Logo')).getByText('Deleted forever in 28 days')).toBeTruthy()
    expect(within(card('Banner')).getByText(/by you/)).toBeTruthy()
    // The last days are flagged.
    expect(within(card('Banner')).getByText('Deleted forever in 2 days').className).toContain('soon')
    expect(screen.getByText(/Deleted assets stay here for 30 days, then are deleted forever./)).toBeTruthy()
  })

  it('restores an asset: it leaves the trash, and the note offers to open it', async () => {
    renderTrash()
    await screen.findByRole('article', { name: 'Logo' })
    fireEvent.click(within(card('Logo')).getByRole('button', { name: 'Restore' }))
    expect(await screen.findByText('Restored “Logo”.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Open' })).toBeTruthy()
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Logo' })).toBeNull())
    expect(calls).toEqual(['POST /api/v1/trash/a1/restore'])
  })

  it('deletes one forever only after confirming', async () => {
    renderTrash()
    await screen.findByRole('article', { name: 'Banner' })
    fireEvent.click(within(card('Banner')).getByRole('button', { name: 'Delete forever' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete forever?' })
    expect(within(dialog).getByText(/“Banner” is deleted now/)).toBeTruthy()
    expect(calls).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete forever' }))
    expect(await screen.findByText('Deleted “Banner” forever.')).toBeTruthy()
    expect(calls).toEqual(['DELETE /api/v1/trash/a2'])
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Banner' })).toBeNull())
  })

  it('empties the trash after confirming, every page of it, then says it is empty', async () => {
    trash = Array.from({ length: 130 }, (_, i) => trashed(`x${i}`, `Asset ${i}`))
    renderTrash()
    await screen.findByRole('article', { name: 'Asset 0' })
    fireEvent.click(screen.getByRole('button', { name: 'Empty trash' }))
    const dialog = screen.getByRole('dialog', { name: 'Empty the trash?' })
    expect(within(dialog).getByText(/All 130 assets in the trash are deleted now/)).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Empty trash' }))
    expect(await screen.findByText('Emptied the trash: 130 assets deleted forever.', {}, { timeout: 5000 })).toBeTruthy()
    expect(calls.filter((call) => call.startsWith('DELETE'))).toHaveLength(130)
    expect(await screen.findByRole('region', { name: 'The trash is empty' })).toBeTruthy()
  })

  it('restores everything after confirming', async () => {
    renderTrash()
    await screen.findByRole('article', { name: 'Logo' })
    fireEvent.click(screen.getByRole('button', { name: 'Restore all' }))
    const dialog = screen.getByRole('dialog', { name: 'Restore everything?' })
    expect(dialog.textContent).toContain('All 2 assets in the trash go back to the library as they were.')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore all' }))
    expect(await screen.findByText('Restored 2 assets.')).toBeTruthy()
    expect(calls.sort()).toEqual(['POST /api/v1/trash/a1/restore', 'POST /api/v1/trash/a2/restore'])
    expect(await screen.findByRole('region', { name: 'The trash is empty' })).toBeTruthy()
  })

  it('lets a member restore but not delete forever, and says who can', async () => {
    session.canManage = false
    renderTrash()
    await screen.findByRole('article', { name: 'Logo' })
    expect(screen.queryByRole('button', { name: 'Delete forever' })).toBeNull()
    const empty = screen.getByRole('button', { name: 'Empty trash' }) as HTMLButtonElement
    expect(empty.disabled).toBe(true)
    expect(empty.getAttribute('aria-describedby')).toBe('trash-managers-only')
    expect(document.getElementById('trash-managers-only')!.textContent).toBe('Only owners and admins can delete assets forever or empty the trash.')
    expect(within(card('Logo')).getByRole('button', { name: 'Restore' })).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Restore all' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('says so when it is empty', async () => {
    trash = []
    renderTrash()
    expect(await screen.findByRole('region', { name: 'The trash is empty' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Empty trash' })).toBeNull()
    expect(await screen.findByText(/Assets you delete wait here/)).toBeTruthy()
  })

  it('says the server keeps no trash when its retention is 0', async () => {
    session.trashRetentionDays = 0
    trash = []
    renderTrash()
    expect(await screen.findByText('This server keeps no trash: assets you delete are deleted forever at once, after you confirm.')).toBeTruthy()
  })
})
