import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appApi } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import { IntegrationsSection } from './IntegrationsSection'

const session = vi.hoisted(() => ({ canManage: true }))
vi.mock('../../session', () => ({ useOrg: () => 'acme', useSession: () => session }))

afterEach(() => vi.restoreAllMocks())
beforeEach(() => {
  session.canManage = true
})

const TOKEN = 'figd_secret-token-123456'
const DANA = { connected: true, figma_user: { id: '1', handle: 'Dana', email: 'dana@acme.test' }, connected_by: 'Owner', updated_at: '2026-11-28T09:00:00.000Z' }
const NONE = { connected: false, figma_user: null, connected_by: null, updated_at: null }
const HOOK = {
  id: '0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f',
  event_type: 'FILE_UPDATE',
  context: 'file',
  context_id: 'AbCdEf1234567890',
  figma_webhook_id: '77',
  endpoint: 'https://assets.acme.test/hooks/figma/acme',
  created_at: '2026-11-28T09:00:00.000Z',
}
const PUBLIC_URL_REQUIRED = { type: 'about:blank', title: 'Unprocessable', status: 422, code: 'public_url_required', detail: 'PUBLIC_BASE_URL is not public.' }

const answer = (data: unknown, status = 200) => ({ data: status < 400 ? data : undefined, error: status < 400 ? undefined : data, response: new Response(null, { status }) })

/** The app API over a stored connection and webhooks, as the server keeps them. */
function serve(initial: typeof DANA | typeof NONE, options: { refuseWebhooks?: boolean } = {}) {
  let connection: typeof DANA | typeof NONE = initial
  let hooks = connection.connected ? [HOOK] : []
  vi.spyOn(appApi, 'GET').mockImplementation((async (path: string) => (path.endsWith('/webhooks') ? answer({ data: hooks }) : answer(connection))) as unknown as typeof appApi.GET)
  const put = vi.spyOn(appApi, 'PUT').mockImplementation((async () => {
    connection = DANA
    return answer(connection)
  }) as unknown as typeof appApi.PUT)
  const post = vi.spyOn(appApi, 'POST').mockImplementation((async () => (options.refuseWebhooks ? answer(PUBLIC_URL_REQUIRED, 422) : answer(HOOK, 201))) as unknown as typeof appApi.POST)
  const del = vi.spyOn(appApi, 'DELETE').mockImplementation((async (path: string) => {
    if (path.endsWith('{id}')) hooks = []
    else {
      connection = NONE
      hooks = []
    }
    return answer(undefined, 204)
  }) as unknown as typeof appApi.DELETE)
  return { put, post, del }
}

function renderSection() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <IntegrationsSection />
      </ToastProvider>
    </QueryClientProvider>,
  )
}

describe('Settings › Integrations', () => {
  it('stores a token and shows whose it is, never the token', async () => {
    const { put } = serve(NONE)
    renderSection()
    expect(await screen.findByText('Figma is not connected.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Personal access token'), { target: { value: TOKEN } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect Figma' }))
    const state = await within(screen.getByRole('region', { name: 'Figma token' })).findByText(/with the token of/)
    expect(state.textContent).toContain('Dana (dana@acme.test), stored by Owner')
    expect(put.mock.calls[0]![1]).toMatchObject({ body: { token: TOKEN } })
    expect(document.body.innerHTML).not.toContain(TOKEN)
    expect((screen.getByLabelText('Replace with another token') as HTMLInputElement).value).toBe('')
  })

  it('removes the token only once confirmed', async () => {
    const { del } = serve(DANA)
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Remove token' }))
    expect(del).not.toHaveBeenCalled()
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Remove the Figma token?' })).getByRole('button', { name: 'Remove token' }))
    expect(await screen.findByText('Figma is not connected.')).toBeTruthy()
    expect(screen.queryByRole('table', { name: 'Figma webhooks' })).toBeNull()
  })

  it('shows a member whose token is connected, without the forms or the webhooks', async () => {
    session.canManage = false
    serve(DANA)
    renderSection()
    expect((await screen.findByText(/with the token of/)).textContent).toContain('Dana')
    expect(screen.queryByRole('textbox')).toBeNull()
    expect(screen.queryByLabelText('Replace with another token')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Remove token' })).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Figma webhooks' })).toBeNull()
  })

  it('registers a webhook for a team id, and lists and removes them', async () => {
    const { post, del } = serve(DANA)
    renderSection()
    const table = await screen.findByRole('table', { name: 'Figma webhooks' })
    expect(within(table).getByRole('row', { name: /AbCdEf1234567890/ }).textContent).toContain(HOOK.endpoint)
    fireEvent.change(screen.getByLabelText('Event'), { target: { value: 'LIBRARY_PUBLISH' } })
    fireEvent.change(screen.getByLabelText('For'), { target: { value: 'team' } })
    fireEvent.change(screen.getByLabelText('Figma team id'), { target: { value: '1234567890' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add webhook' }))
    await waitFor(() => expect(post).toHaveBeenCalled())
    expect(post.mock.calls[0]![1]).toMatchObject({ body: { event_type: 'LIBRARY_PUBLISH', context: 'team', context_id: '1234567890' } })

    fireEvent.click(within(table).getByRole('button', { name: 'Remove the FILE_UPDATE webhook of file AbCdEf1234567890' }))
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Remove this Figma webhook?' })).getByRole('button', { name: 'Remove webhook' }))
    expect(await screen.findByText('No Figma webhooks yet.')).toBeTruthy()
    expect(del).toHaveBeenCalledTimes(1)
  })

  it('says plainly that Figma cannot reach a server without a public address', async () => {
    serve(DANA, { refuseWebhooks: true })
    renderSection()
    fireEvent.change(await screen.findByLabelText('Figma file link'), { target: { value: 'https://www.figma.com/design/AbCdEf1234567890/Kit' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add webhook' }))
    const refusal = await screen.findByText(/Figma cannot reach this server/)
    expect(refusal.getAttribute('role')).toBe('alert')
    expect(refusal.textContent).toContain('its public address (PUBLIC_BASE_URL) is a local or private one')
  })
})
