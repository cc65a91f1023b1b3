import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appApi } from '../../api/client'
import type { Preset } from '../library/queries'
import { ToastProvider } from '../../ui/toast'
import { PresetsSection } from './PresetsSection'

const session = vi.hoisted(() => ({ canManage: true }))
vi.mock('../../session', () => ({ useOrg: () => 'acme', useSession: () => session }))

afterEach(() => vi.restoreAllMocks())
beforeEach(() => {
  session.canManage = true
})

const BUILT_INS: Preset[] = [
  { name: 'thumbnail', built_in: true, width: 512, height: 512, fit: 'inside', format: 'webp', quality: 80, background: null },
  { name: 'original', built_in: true, width: null, height: null, fit: 'inside', format: null, quality: null, background: null },
]
const WEB_1200: Preset = { name: 'web-1200', built_in: false, width: 1200, height: null, fit: 'contain', format: 'webp', quality: 80, background: null }

const answer = (data: unknown, status = 200) => ({ data, response: new Response(null, { status }) })

/** The app API as the section calls it, over `presets` as a server keeps them. */
function serve(initial: Preset[]) {
  let presets = initial
  vi.spyOn(appApi, 'GET').mockImplementation((async () => answer({ data: [...BUILT_INS, ...presets] })) as unknown as typeof appApi.GET)
  const post = vi.spyOn(appApi, 'POST').mockImplementation((async (_path: string, options: { body: Omit<Preset, 'built_in'> }) => {
    const created = { ...options.body, built_in: false, quality: options.body.quality ?? 80 }
    presets = [...presets, created].sort((a, b) => a.name.localeCompare(b.name))
    return answer(created, 201)
  }) as unknown as typeof appApi.POST)
  const put = vi.spyOn(appApi, 'PUT').mockImplementation((async (_path: string, options: { params: { path: { name: string } }; body: Omit<Preset, 'name' | 'built_in'> }) => {
    const replaced = { ...options.body, name: options.params.path.name, built_in: false }
    presets = presets.map((preset) => (preset.name === replaced.name ? replaced : preset))
    return answer(replaced)
  }) as unknown as typeof appApi.PUT)
  const del = vi.spyOn(appApi, 'DELETE').mockImplementation((async (_path: string, options: { params: { path: { name: string } } }) => {
    presets = presets.filter((preset) => preset.name !== options.params.path.name)
    return answer(undefined, 204)
  }) as unknown as typeof appApi.DELETE)
  return { post, put, del }
}

function renderSection() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <PresetsSection />
      </ToastProvider>
    </QueryClientProvider>,
  )
}

const cells = (name: string) => within(screen.getByRole('row', { name: new RegExp(`^${name}`) })).getAllByRole('cell').map((cell) => cell.textContent)

describe('Settings › Rendition presets', () => {
  it('lists the built-ins, then the organization\u2019s presets with their parameters', async () => {
    serve([WEB_1200])
    renderSection()
    await screen.findByRole('row', { name: /^web-1200/ })
    expect(cells('thumbnail').slice(0, 6)).toEqual(['thumbnail Built in', '512 × 512', 'inside', 'WebP', '80', 'Transparent'])
    expect(cells('original').slice(1, 6)).toEqual(['Original size', '—', 'As uploaded', '—', '—'])
    expect(cells('web-1200').slice(0, 6)).toEqual(['web-1200 ', '1200 wide', 'contain', 'WebP', '80', 'Transparent'])
    expect(screen.queryByRole('button', { name: 'Edit thumbnail' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete original' })).toBeNull()
  })

  it('adds a preset from the dialog, sending every parameter', async () => {
    const { post } = serve([WEB_1200])
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'New preset' }))
    const dialog = screen.getByRole('dialog', { name: 'New preset' })
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'og-image' } })
    fireEvent.change(within(dialog).getByLabelText('Width'), { target: { value: '1200' } })
    fireEvent.change(within(dialog).getByLabelText('Height'), { target: { value: '630' } })
    fireEvent.change(within(dialog).getByLabelText(/^Fit/), { target: { value: 'cover' } })
    fireEvent.change(within(dialog).getByLabelText('Format'), { target: { value: 'jpeg' } })
    fireEvent.change(within(dialog).getByLabelText('Quality'), { target: { value: '82' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add preset' }))
    await screen.findByRole('row', { name: /^og-image/ })
    expect(post).toHaveBeenCalledWith('/app/api/orgs/{org}/presets', {
      params: { path: { org: 'acme' } },
      body: { name: 'og-image', width: 1200, height: 630, fit: 'cover', format: 'jpeg', quality: 82, background: null },
    })
    expect(cells('og-image').slice(1, 5)).toEqual(['1200 × 630', 'cover', 'JPEG', '82'])
    expect(screen.getByText('The preset “og-image” is saved: 1200 × 630, JPEG.')).toBeTruthy()
    expect(screen.queryByRole('dialog', { name: 'New preset' })).toBeNull()
  })

  it('changes a preset in place, its name kept; PNG sends no quality', async () => {
    const { put } = serve([WEB_1200])
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Edit web-1200' }))
    const dialog = screen.getByRole('dialog', { name: 'Edit web-1200' })
    expect((within(dialog).getByLabelText(/^Name/) as HTMLInputElement).disabled).toBe(true)
    expect((within(dialog).getByLabelText('Width') as HTMLInputElement).value).toBe('1200')
    fireEvent.change(within(dialog).getByLabelText('Format'), { target: { value: 'png' } })
    expect((within(dialog).getByLabelText('Quality') as HTMLInputElement).disabled).toBe(true)
    fireEvent.change(within(dialog).getByLabelText('Background'), { target: { value: '#ffffff' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save preset' }))
    await waitFor(() => expect(cells('web-1200')[3]).toBe('PNG'))
    expect(put).toHaveBeenCalledWith('/app/api/orgs/{org}/presets/{name}', {
      params: { path: { org: 'acme', name: 'web-1200' } },
      body: { width: 1200, height: null, fit: 'contain', format: 'png', quality: null, background: '#ffffff' },
    })
  })

  it('deletes a preset once confirmed', async () => {
    const { del } = serve([WEB_1200])
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'Delete web-1200' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete this preset?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete preset' }))
    await waitFor(() => expect(screen.queryByRole('row', { name: /^web-1200/ })).toBeNull())
    expect(del).toHaveBeenCalledWith('/app/api/orgs/{org}/presets/{name}', { params: { path: { org: 'acme', name: 'web-1200' } } })
  })

  it('shows the server\u2019s refusal in the dialog, which stays open', async () => {
    serve([WEB_1200])
    vi.spyOn(appApi, 'POST').mockImplementation((async () => ({
      error: { type: 'about:blank', title: 'Unprocessable Content', status: 422, code: 'preset_name_taken', detail: 'The organization has a preset named "web-1200" already.' },
      response: new Response(null, { status: 422 }),
    })) as unknown as typeof appApi.POST)
    renderSection()
    fireEvent.click(await screen.findByRole('button', { name: 'New preset' }))
    const dialog = screen.getByRole('dialog', { name: 'New preset' })
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'web-1200' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add preset' }))
    expect((await within(dialog).findByRole('alert')).textContent).toContain('already')
    expect(screen.getByRole('dialog', { name: 'New preset' })).toBeTruthy()
  })

  it('is read-only for a member', async () => {
    session.canManage = false
    serve([WEB_1200])
    renderSection()
    await screen.findByRole('row', { name: /^web-1200/ })
    expect(screen.getByText(/read-only for you/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'New preset' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Edit web-1200' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete web-1200' })).toBeNull()
  })
})
