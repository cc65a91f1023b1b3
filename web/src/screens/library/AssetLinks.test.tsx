import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { v1 } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import { SharePanel } from '../collections/SharePanel'
import type { Collection } from '../collections/api'
import { addedBy, AssetRecord } from './AssetRecord'
import { AssetLinks, linkLifetime } from './AssetLinks'
import type { Asset } from './queries'

const session = vi.hoisted(() => ({ canManage: true }))
vi.mock('../../session', () => ({ useSession: () => ({ canManage: session.canManage }), useOrg: () => 'acme' }))
afterEach(() => {
  vi.restoreAllMocks()
  session.canManage = true
})

const answer = (data: unknown, status = 200) => Promise.resolve({ data, response: new Response(null, { status }) }) as never
const HOUR = 3_600_000
const asset = (fields: Partial<Asset> = {}) =>
  ({
    id: '0193a5b2-0000-7000-8000-00000000a1a1',
    title: 'Logo',
    tags: [],
    collections: [],
    created_by: { kind: 'key', name: 'figma-plugin' },
    original_url: 'https://assets.test/o',
    thumbnail_expires_at: new Date(Date.now() + 24 * HOUR + 5 * 60_000).toISOString(),
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    ...fields,
  }) as Asset

function show(node: React.ReactNode) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>{node}</ToastProvider>
    </QueryClientProvider>,
  )
}

describe('Added by', () => {
  it('names the key or the person who pushed the asset, and says which', () => {
    expect(addedBy({ kind: 'key', name: 'figma-plugin' })).toBe('figma-plugin (API key)')
    expect(addedBy({ kind: 'user', name: 'Dana Reyes' })).toBe('Dana Reyes (person)')
    render(<AssetRecord asset={asset({ created_by: { kind: 'user', name: 'Dana Reyes' }, colors: [], near_duplicates: [], provenance: null, byte_size: 100, width: 1, height: 1, version: 1, sha256: 'f'.repeat(64) } as Partial<Asset>)} />)
    expect(screen.getByText('Added by').nextElementSibling?.textContent).toBe('Dana Reyes (person)')
  })
})

describe('the asset’s links', () => {
  it('says how long the original’s link works', () => {
    expect(linkLifetime(new Date(Date.now() + 24 * HOUR + 60_000).toISOString())).toBe('24 hours')
    expect(linkLifetime(new Date(Date.now() + 30 * 60_000).toISOString())).toBe('less than an hour')
    show(<AssetLinks asset={asset()} />)
    expect(screen.getByText(/This link works for 24 hours/)).toBeTruthy()
  })

  it('offers an owner the link of a shared collection holding only this asset', async () => {
    const get = vi.spyOn(v1, 'GET').mockImplementation(((path: string) =>
      path.endsWith('/share')
        ? answer({ shared: true, shared_at: '2026-01-01T00:00:00Z', share_url: 'https://assets.test/s/lasting' })
        : answer({ id: 'c1', name: 'Logo link', shared: true, asset_count: 1 })) as never)
    show(<AssetLinks asset={asset({ collections: [{ id: 'c1', name: 'Logo link' }] })} />)
    expect(((await screen.findByLabelText('Lasting link')) as HTMLInputElement).value).toBe('https://assets.test/s/lasting')
    expect(get).toHaveBeenCalledWith('/api/v1/collections/{id}/share', { params: { path: { id: 'c1' } } })
  })

  it('tells a member none exists, and why they cannot make one, asking nothing of the share', async () => {
    session.canManage = false
    const get = vi.spyOn(v1, 'GET').mockImplementation((() => answer({ id: 'c1', name: 'Big', shared: true, asset_count: 5 })) as never)
    show(<AssetLinks asset={asset({ collections: [{ id: 'c1', name: 'Big' }] })} />)
    const button = await screen.findByRole('button', { name: 'Make a lasting link' })
    expect(button.getAttribute('aria-disabled')).toBe('true')
    expect(screen.getByText('No lasting link exists.')).toBeTruthy()
    expect(get).not.toHaveBeenCalledWith('/api/v1/collections/{id}/share', expect.anything())
  })

  it('makes one for an owner: a collection of this asset, shared', async () => {
    vi.spyOn(v1, 'GET').mockImplementation((() => answer(undefined)) as never)
    const post = vi.spyOn(v1, 'POST').mockImplementation(((path: string) =>
      answer(path === '/api/v1/collections' ? { id: 'new' } : path.endsWith('/share') ? { share_url: 'https://assets.test/s/new' } : { changed: 1, asset_count: 1 })) as never)
    show(<AssetLinks asset={asset()} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Make a lasting link' }))
    expect(((await screen.findByLabelText('Lasting link')) as HTMLInputElement).value).toBe('https://assets.test/s/new')
    expect(post.mock.calls.map((call) => call[0])).toEqual(['/api/v1/collections', '/api/v1/collections/{id}/assets', '/api/v1/collections/{id}/share'])
  })
})

const collection = (fields: Partial<Collection> = {}) => ({ id: 'c1', name: 'Launch', shared: true, shared_at: '2026-01-01T00:00:00Z', ...fields }) as Collection

describe('the share panel', () => {
  it('shows an owner the live link again', async () => {
    vi.spyOn(v1, 'GET').mockImplementation((() => answer({ shared: true, shared_at: '2026-01-01T00:00:00Z', share_url: 'https://assets.test/s/live' })) as never)
    show(<SharePanel collection={collection()} />)
    expect(((await screen.findByLabelText('Public link')) as HTMLInputElement).value).toBe('https://assets.test/s/live')
  })

  it('says a link made before links were kept cannot be shown: make a new one, after a warning', async () => {
    vi.spyOn(v1, 'GET').mockImplementation((() => answer({ shared: true, shared_at: '2026-01-01T00:00:00Z', share_url: null })) as never)
    const post = vi.spyOn(v1, 'POST').mockImplementation((() => answer({ share_url: 'https://assets.test/s/new' }, 201)) as never)
    show(<SharePanel collection={collection()} />)
    expect(await screen.findByText(/Make a new link to see it here/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Make a new link' }))
    const dialog = screen.getByRole('dialog', { name: 'Make a new link?' })
    expect(dialog.textContent).toContain('The current link stops working at once')
    expect(post).not.toHaveBeenCalled()
    fireEvent.click(screen.getAllByRole('button', { name: 'Make a new link' }).at(-1)!)
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(1))
  })

  it('never asks for a member’s link, and shows Share refused with why', async () => {
    session.canManage = false
    const get = vi.spyOn(v1, 'GET')
    show(<SharePanel collection={collection({ shared: false, shared_at: null })} />)
    const button = screen.getByRole('button', { name: 'Share' })
    expect(button.getAttribute('aria-disabled')).toBe('true')
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe('Only owners and admins can share a collection publicly.')
    show(<SharePanel collection={collection()} />)
    expect(screen.getByText('Owners and admins can see and copy the public link.')).toBeTruthy()
    expect(get).not.toHaveBeenCalled()
  })
})
