import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appApi, v1 } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import { SelectionToolbar } from './SelectionToolbar'

vi.mock('../../session', () => ({ useOrg: () => 'acme' }))
afterEach(() => vi.restoreAllMocks())

const answer = (data: unknown, status = 200) => ({ data, response: new Response(null, { status }) }) as never

/** The catalogue's lists (one asset type, no clients or products) and an organization whose trash keeps assets 30 days. */
function serveCatalogue() {
  vi.spyOn(v1, 'GET').mockImplementation(((path: string) => answer({ data: path === '/api/v1/asset-types' ? [{ name: 'Icon' }, { name: 'Photo' }] : [], total: 0, limit: 100, offset: 0 })) as never)
  vi.spyOn(appApi, 'GET').mockResolvedValue(answer({ slug: 'acme', trash_retention_days: 30 }))
}

async function renderToolbar(assets: Array<{ id: string; title: string }>) {
  const queryClient = new QueryClient()
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <SelectionToolbar assets={assets} onClear={() => undefined} />
      </ToastProvider>
    </QueryClientProvider>,
  )
  await waitFor(() => expect(queryClient.isFetching()).toBe(0))
}

type Sent = [string, { body: { ids: string[] } & Record<string, unknown> }]

describe('editing the selection', () => {
  it('sends one request with the tags and fields chosen, then says what was updated, unchanged and skipped, and why', async () => {
    serveCatalogue()
    const post = vi.spyOn(v1, 'POST').mockResolvedValue(
      answer({
        results: [
          { id: 'a1', result: 'updated' },
          { id: 'a2', result: 'unchanged' },
          { id: 'a3', result: 'not_found', reason: 'No asset of your organization has this id; it may be in the trash.' },
        ],
      }),
    )
    await renderToolbar([
      { id: 'a1', title: 'Logo' },
      { id: 'a2', title: 'Banner' },
      { id: 'a3', title: 'Poster' },
    ])
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
    const dialog = screen.getByRole('dialog', { name: 'Edit 3 assets' })
    const apply = within(dialog).getByRole('button', { name: 'Apply to 3 assets' }) as HTMLButtonElement
    expect(apply.disabled).toBe(true)

    const add = within(dialog).getByRole('combobox', { name: 'Tag to add' })
    fireEvent.change(add, { target: { value: 'spring' } })
    fireEvent.keyDown(add, { key: 'Enter' })
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Tag to remove' }), { target: { value: 'draft' } })
    await waitFor(() => expect(within(dialog).getAllByRole('option', { name: 'Icon' }).length).toBeGreaterThan(0))
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Type' }), { target: { value: 'Icon' } })
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Client' }), { target: { value: ' Acme ' } })
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Made by a person' }))
    fireEvent.click(apply)

    expect(await within(dialog).findByText('1 updated, 1 unchanged, 1 skipped.')).toBeTruthy()
    expect(post.mock.calls as unknown as Sent[]).toEqual([
      ['/api/v1/assets/bulk', { body: { ids: ['a1', 'a2', 'a3'], set: { asset_type: 'Icon', client: 'Acme', created_by_ai: false }, add_tags: ['spring'], remove_tags: ['draft'] } }],
    ])
    const skipped = within(dialog).getByRole('list', { name: 'Skipped assets' })
    expect(skipped.textContent).toBe('Poster: No asset of your organization has this id; it may be in the trash.')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('sends 500 ids a request, and closes with a note when nothing was skipped', async () => {
    serveCatalogue()
    const post = vi.spyOn(v1, 'POST').mockImplementation(((_path: string, init: { body: { ids: string[] } }) =>
      answer({ results: init.body.ids.map((id) => ({ id, result: 'updated' })) })) as never)
    await renderToolbar(Array.from({ length: 501 }, (_, i) => ({ id: `a${i}`, title: `Asset ${i}` })))
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
    const dialog = screen.getByRole('dialog', { name: 'Edit 501 assets' })
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Made with AI' }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply to 501 assets' }))
    expect(await screen.findByText('501 updated, 0 unchanged, 0 skipped.')).toBeTruthy()
    expect((post.mock.calls as unknown as Sent[]).map(([, init]) => init.body.ids.length)).toEqual([500, 1])
    expect((post.mock.calls as unknown as Sent[])[0]![1].body.set).toEqual({ created_by_ai: true })
  })
})

describe('moving the selection to the trash', () => {
  it('is one action with one note, whose one Undo restores every asset', async () => {
    serveCatalogue()
    vi.spyOn(v1, 'DELETE').mockResolvedValue(answer(undefined, 204))
    const restore = vi.spyOn(v1, 'POST').mockResolvedValue(answer({}))
    await renderToolbar([
      { id: 'a1', title: 'Logo' },
      { id: 'a2', title: 'Banner' },
      { id: 'a3', title: 'Poster' },
    ])
    fireEvent.click(await screen.findByRole('button', { name: 'Move to trash' }))
    expect(await screen.findByText('Moved 3 assets to the trash.')).toBeTruthy()
    const undo = screen.getAllByRole('button', { name: 'Undo' })
    expect(undo).toHaveLength(1)
    fireEvent.click(undo[0]!)
    expect(await screen.findByText('Restored 3 assets.')).toBeTruthy()
    expect((restore.mock.calls as unknown as Array<[string, unknown]>).map(([path, init]) => [path, (init as { params: { path: { id: string } } }).params.path.id]).sort()).toEqual([
      ['/api/v1/trash/{id}/restore', 'a1'],
      ['/api/v1/trash/{id}/restore', 'a2'],
      ['/api/v1/trash/{id}/restore', 'a3'],
    ])
  })
})
