import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appApi, v1 } from '../../api/client'
import { DownloadAs } from './DownloadAs'
import type { Asset, Preset } from './queries'

vi.mock('../../session', () => ({ useOrg: () => 'acme' }))

const PRESETS: Preset[] = [
  { name: 'thumbnail', built_in: true, width: 512, height: 512, fit: 'inside', format: 'webp', quality: 80, background: null },
  { name: 'original', built_in: true, width: null, height: null, fit: 'inside', format: null, quality: null, background: null },
  { name: 'web-1200', built_in: false, width: 1200, height: null, fit: 'contain', format: 'webp', quality: 80, background: null },
  { name: 'og-image', built_in: false, width: 1200, height: 630, fit: 'cover', format: 'jpeg', quality: 82, background: null },
]

const FILES = 'http://localhost/files/assets/a1/versions/3'
const ASSET = {
  id: 'a1',
  title: 'Logo',
  mime_type: 'image/png',
  width: 2000,
  height: 1000,
  version: 3,
  thumbnail_status: 'available',
  original_url: `${FILES}/original?expires=1&sig=o`,
  thumbnail_url: `${FILES}/thumbnail?expires=1&sig=t`,
  // og-image was created after this record was read: it has no link here.
  renditions: {
    thumbnail: `${FILES}/thumbnail?expires=1&sig=t`,
    original: `${FILES}/original?expires=1&sig=o`,
    'web-1200': `${FILES}/renditions/w1200-contain-q80.webp?expires=1&sig=w`,
  },
} as unknown as Asset

const answer = (data: unknown, status = 200, headers: Record<string, string> = {}) => ({
  data: status < 400 ? data : undefined,
  error: status >= 400 ? data : undefined,
  response: new Response(null, { status, headers }),
})

let heads: string[]
let headAnswers: Array<{ status: number; headers?: Record<string, string> }>
let saved: Array<{ href: string; download: string }>

beforeEach(() => {
  heads = []
  headAnswers = []
  saved = []
  vi.spyOn(appApi, 'GET').mockImplementation((async () => answer({ data: PRESETS })) as unknown as typeof appApi.GET)
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    expect(init?.method).toBe('HEAD')
    heads.push(String(input))
    const next = headAnswers.shift() ?? { status: 200 }
    return new Response(null, { status: next.status, headers: next.headers ?? {} })
  })
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download })
  })
})
afterEach(() => vi.restoreAllMocks())

function renderRender(handler: (query: Record<string, unknown>) => ReturnType<typeof answer>) {
  return vi.spyOn(v1, 'GET').mockImplementation((async (_path: string, options: { params: { query: Record<string, unknown> } }) =>
    handler(options.params.query)) as unknown as typeof v1.GET)
}

async function openDialog(asset: Asset = ASSET) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <DownloadAs asset={asset} />
    </QueryClientProvider>,
  )
  fireEvent.click(screen.getByRole('button', { name: 'Download as…' }))
  const dialog = await screen.findByRole('dialog', { name: 'Download as…' })
  await within(dialog).findByRole('button', { name: 'web-1200' })
  return dialog
}

describe('Download as…', () => {
  it('lists every preset, the built-ins first, each described by what it makes', async () => {
    const dialog = await openDialog()
    const buttons = within(dialog).getByRole('list').querySelectorAll('button')
    expect([...buttons].map((button) => button.textContent)).toEqual(['thumbnail', 'original', 'web-1200', 'og-image'])
    expect(within(dialog).getByRole('button', { name: 'web-1200' }).getAttribute('aria-describedby')).toBe('preset-web-1200')
    expect(dialog.querySelector('#preset-web-1200')!.textContent).toBe('WebP, 1200 wide')
    expect(dialog.querySelector('#preset-og-image')!.textContent).toBe('JPEG, 1200 × 630')
    expect(dialog.querySelector('#preset-original')!.textContent).toBe('As uploaded, Original size')
  })

  it('downloads a preset through the record\u2019s link, made first, under a name with the preset and its extension', async () => {
    const render = renderRender(() => expect.unreachable('the record links web-1200'))
    const dialog = await openDialog()
    fireEvent.click(within(dialog).getByRole('button', { name: 'web-1200' }))
    await within(dialog).findByText('web-1200 is downloading.')
    expect(heads).toEqual([ASSET.renditions['web-1200']])
    expect(saved).toEqual([{ href: `${ASSET.renditions['web-1200']}&download=Logo+%28web-1200%29.webp`, download: 'Logo (web-1200).webp' }])
    expect(render).not.toHaveBeenCalled()
    fireEvent.click(within(dialog).getByRole('button', { name: 'original' }))
    await waitFor(() => expect(saved).toHaveLength(2))
    expect(saved[1]!.download).toBe('Logo.png')
  })

  it('asks the render endpoint for a preset the record does not link yet', async () => {
    const url = `${FILES}/renditions/w1200-h630-cover-q82.jpeg?expires=1&sig=g`
    const render = renderRender(() => answer({ url, width: 1200, height: 630, format: 'jpeg', expires_at: '2026-01-01T00:00:00Z' }))
    const dialog = await openDialog()
    fireEvent.click(within(dialog).getByRole('button', { name: 'og-image' }))
    await within(dialog).findByText('og-image is downloading.')
    expect(render.mock.calls[0]![1]).toEqual({ params: { path: { id: 'a1' }, query: { preset: 'og-image', redirect: false } } })
    expect(saved[0]!.download).toBe('Logo (og-image).jpg')
  })

  it('downloads a custom size: its labelled fields become the render query, and a clamped value is said', async () => {
    const url = `${FILES}/renditions/w4096-h300-cover-q90.avif?expires=1&sig=c`
    const render = renderRender(() => answer({ url, width: 4096, height: 300, format: 'avif', expires_at: '2026-01-01T00:00:00Z' }, 200, { 'rendition-clamped': 'width=4096 (asked 9000)' }))
    const dialog = await openDialog()
    fireEvent.change(within(dialog).getByLabelText('Width (px)'), { target: { value: '9000' } })
    fireEvent.change(within(dialog).getByLabelText('Height (px)'), { target: { value: '300' } })
    fireEvent.change(within(dialog).getByLabelText('Fit'), { target: { value: 'cover' } })
    fireEvent.change(within(dialog).getByLabelText('Format'), { target: { value: 'avif' } })
    fireEvent.change(within(dialog).getByLabelText('Quality'), { target: { value: '90' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Download custom size' }))
    const status = await within(dialog).findByRole('status')
    await waitFor(() => expect(status.textContent).toBe('9000 × 300 AVIF is downloading. The server reduced what was asked: width=4096 (asked 9000).'))
    expect(render.mock.calls[0]![1]).toEqual({ params: { path: { id: 'a1' }, query: { width: 9000, height: 300, fit: 'cover', format: 'avif', quality: 90, redirect: false } } })
    expect(heads).toEqual([url])
    expect(saved).toEqual([{ href: `${url}&download=Logo+%289000x300%29.avif`, download: 'Logo (9000x300).avif' }])
  })

  it('leaves out an empty side, and the quality of a PNG, which it disables', async () => {
    const render = renderRender(() => answer({ url: `${FILES}/renditions/w640-contain.png?expires=1&sig=p`, width: 640, height: 320, format: 'png', expires_at: 'x' }))
    const dialog = await openDialog()
    fireEvent.change(within(dialog).getByLabelText('Width (px)'), { target: { value: '640' } })
    fireEvent.change(within(dialog).getByLabelText('Format'), { target: { value: 'png' } })
    expect((within(dialog).getByLabelText('Quality') as HTMLInputElement).disabled).toBe(true)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Download custom size' }))
    await waitFor(() => expect(saved).toHaveLength(1))
    expect(render.mock.calls[0]![1]).toEqual({ params: { path: { id: 'a1' }, query: { width: 640, height: undefined, fit: 'contain', format: 'png', quality: undefined, redirect: false } } })
    expect(saved[0]!.download).toBe('Logo (640x).png')
  })

  it('says what a 400 refused, field by field, and downloads nothing', async () => {
    renderRender(() =>
      answer({ type: 'about:blank', title: 'Bad Request', status: 400, code: 'validation_failed', detail: 'The request is not valid.', errors: [{ pointer: '/query/width', detail: 'is not a number' }] }, 400),
    )
    const dialog = await openDialog()
    fireEvent.change(within(dialog).getByLabelText('Width (px)'), { target: { value: '12' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Download custom size' }))
    const alert = await within(dialog).findByRole('alert')
    expect(alert.textContent).toContain('12 × auto WebP could not be downloaded. The request is not valid. width: is not a number')
    expect(saved).toEqual([])
    expect(heads).toEqual([])
  })

  it('says when the server is too busy to make the rendition, for how long, and tries again from a focused button', async () => {
    renderRender(() => expect.unreachable('the record links web-1200'))
    headAnswers = [{ status: 503, headers: { 'retry-after': '3' } }]
    const dialog = await openDialog()
    fireEvent.click(within(dialog).getByRole('button', { name: 'web-1200' }))
    const alert = await within(dialog).findByRole('alert')
    expect(alert.textContent).toContain('The server is busy making other renditions: web-1200 could not be made now. Try again in 3 seconds.')
    expect(saved).toEqual([])
    const retry = within(alert).getByRole('button', { name: 'Try again' })
    await waitFor(() => expect(document.activeElement).toBe(retry))
    fireEvent.click(retry)
    await within(dialog).findByText('web-1200 is downloading.')
    expect(heads).toEqual([ASSET.renditions['web-1200'], ASSET.renditions['web-1200']])
    expect(saved).toHaveLength(1)
    expect(within(dialog).queryByRole('alert')).toBeNull()
  })

  it('says a 503 render_busy from the render endpoint the same way', async () => {
    renderRender(() => answer({ type: 'about:blank', title: 'Service Unavailable', status: 503, code: 'render_busy', detail: 'Busy.' }, 503, { 'retry-after': '1' }))
    const dialog = await openDialog()
    fireEvent.click(within(dialog).getByRole('button', { name: 'og-image' }))
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Try again in 1 second.')
  })

  it('offers only the original of an image that cannot be rendered', async () => {
    const dialog = await openDialog({ ...ASSET, thumbnail_status: 'failed' } as Asset)
    expect((within(dialog).getByRole('button', { name: 'web-1200' }) as HTMLButtonElement).disabled).toBe(true)
    expect((within(dialog).getByRole('button', { name: 'original' }) as HTMLButtonElement).disabled).toBe(false)
    expect(within(dialog).queryByRole('button', { name: 'Download custom size' })).toBeNull()
  })
})
