import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { catalogKey } from '../../api/cache'
import { v1 } from '../../api/client'
import { AssetEditForm } from './AssetEditForm'
import { AssetRecord, originDisagreement, safeHref } from './AssetRecord'
import { TAG_DEBOUNCE_MS, useTagSuggestions, type Asset } from './queries'

const version = (updated_at: string, fields: Partial<Asset> = {}): Asset =>
  ({
    id: 'a1',
    title: 'Logo',
    asset_type: null,
    client: null,
    product: null,
    created_by_ai: false,
    tags: ['brand'],
    collections: [],
    width: 10,
    height: 10,
    byte_size: 100,
    mime_type: 'image/png',
    sha256: 'f'.repeat(64),
    source_url: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at,
    thumbnail_url: '/t',
    original_url: '/o',
    colors: null,
    metadata: null,
    provenance: null,
    near_duplicates: null,
    ...fields,
  }) as Asset

/** A client whose catalogue lists are already fresh, so nothing goes to the network. */
function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const page = { data: [], total: 0, offset: 0, limit: 100 }
  for (const path of ['/api/v1/asset-types', '/api/v1/clients', '/api/v1/products']) client.setQueryData(catalogKey(path), page)
  client.setQueryData(catalogKey('/api/v1/tags', ''), [])
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

describe('editing an asset', () => {
  it('keeps an edit in progress when a newer version of the asset arrives, and says so', () => {
    const Wrapper = wrapper()
    const { rerender } = render(<AssetEditForm asset={version('1')} onDone={vi.fn()} />, { wrapper: Wrapper })
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'My title' } })
    rerender(<AssetEditForm asset={version('2', { title: 'Their title', tags: ['brand', 'new'] })} onDone={vi.fn()} />)
    expect((screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe('My title')
    expect(screen.getByRole('status').textContent).toMatch(/changed elsewhere/)
    fireEvent.click(screen.getByRole('button', { name: 'Discard my edits' }))
    expect((screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe('Their title')
  })

  it('takes a newer version as it is while nothing is edited', () => {
    const Wrapper = wrapper()
    const { rerender } = render(<AssetEditForm asset={version('1')} onDone={vi.fn()} />, { wrapper: Wrapper })
    rerender(<AssetEditForm asset={version('2', { title: 'Renamed' })} onDone={vi.fn()} />)
    expect((screen.getByRole('textbox', { name: 'Title' }) as HTMLInputElement).value).toBe('Renamed')
    expect(screen.queryByRole('status')).toBeNull()
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true)
  })
})

describe('the client and product fields', () => {
  it('suggest the names in use and accept a new one typed by the editor, as the API does', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    for (const path of ['/api/v1/asset-types', '/api/v1/products']) client.setQueryData(catalogKey(path), { data: [], total: 0, offset: 0, limit: 100 })
    client.setQueryData(catalogKey('/api/v1/clients'), { data: [{ name: 'Initech' }, { name: 'Globex' }], total: 2, offset: 0, limit: 100 })
    client.setQueryData(catalogKey('/api/v1/tags', ''), [])
    const patch = vi.spyOn(v1, 'PATCH').mockResolvedValue({ data: version('2', { client: 'Umbrella Corp' }), response: new Response('{}') } as never)
    // Saving refreshes the lists: they answer as before.
    vi.spyOn(v1, 'GET').mockResolvedValue({ data: { data: [], total: 0, offset: 0, limit: 100 }, response: new Response('{}') } as never)
    const onDone = vi.fn()
    render(
      <QueryClientProvider client={client}>
        <AssetEditForm asset={version('1')} onDone={onDone} />
      </QueryClientProvider>,
    )
    const field = screen.getByRole('combobox', { name: 'Client' }) as HTMLInputElement
    const suggestions = [...field.list!.options].map((option) => option.value)
    expect(suggestions).toEqual(['Initech', 'Globex'])
    fireEvent.change(field, { target: { value: '  Umbrella Corp ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await act(async () => {})
    expect(patch).toHaveBeenCalledWith('/api/v1/assets/{id}', { params: { path: { id: 'a1' } }, body: { client: 'Umbrella Corp' } })
    expect(onDone).toHaveBeenCalled()
  })
})

describe('the record', () => {
  it('links a source only when it is a web address', () => {
    expect(safeHref('https://example.com/a.png')).toBe('https://example.com/a.png')
    expect(safeHref('javascript:alert(1)')).toBeNull()
    expect(safeHref('data:text/html,<b>x</b>')).toBeNull()
    expect(safeHref('not a url')).toBeNull()
    render(<AssetRecord asset={version('1', { source_url: 'javascript:alert(document.cookie)' })} />)
    expect(screen.getByText('javascript:alert(document.cookie)').closest('a')).toBeNull()
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['/?tag=brand'])
    expect(screen.getAllByText('Being read…')).toHaveLength(2)
    expect(screen.getByText('Being looked for…')).toBeTruthy()
  })

  it('shows the palette as swatches that filter the library, the near-duplicates, and what the file says of its origin', () => {
    const analysed = version('1', {
      colors: [
        { hex: '#1e5aa8', share: 0.6, name: 'blue' },
        { hex: '#f4f1ea', share: 0.4, name: 'white' },
      ],
      near_duplicates: [{ asset_id: 'a2', distance: 3 }],
      provenance: { source: 'ai', c2pa: { claim_generator: 'Firefly', signed_by: 'Adobe Inc.', valid: true } },
    })
    render(<AssetRecord asset={analysed} />)
    const hrefs = screen.getAllByRole('link').map((link) => link.getAttribute('href'))
    expect(hrefs).toEqual(['/?tag=brand', '/?color=blue', '/?color=white', '/assets/a2', '/duplicates'])
    expect(screen.getByText('distance 3')).toBeTruthy()
    expect(screen.getByRole('note').textContent).toContain('The file says it was made by AI')
    expect(screen.getByText('It is made by AI; a C2PA manifest by Adobe Inc., intact')).toBeTruthy()
  })

  it('says nothing of the origin when the file and the record agree, or the file says nothing', () => {
    expect(originDisagreement({ created_by_ai: true, provenance: { source: 'ai', c2pa: null } })).toBeNull()
    expect(originDisagreement({ created_by_ai: false, provenance: { source: 'unknown', c2pa: null } })).toBeNull()
    expect(originDisagreement({ created_by_ai: false, provenance: null })).toBeNull()
    expect(originDisagreement({ created_by_ai: true, provenance: { source: 'capture', c2pa: null } })).toBe('The file says it is a camera capture, not AI')
  })
})

describe('tag suggestions', () => {
  it('ask once typing pauses, not on every keystroke', async () => {
    vi.useFakeTimers()
    const get = vi.spyOn(v1, 'GET').mockResolvedValue({ data: { data: [{ name: 'brand' }] }, response: new Response('{}') } as never)
    const { rerender } = renderHook(({ text }) => useTagSuggestions(text), { initialProps: { text: '' }, wrapper: wrapper() })
    for (const text of ['b', 'br', 'bra', 'bran', 'brand']) {
      rerender({ text })
      await act(() => vi.advanceTimersByTimeAsync(50))
    }
    await act(() => vi.advanceTimersByTimeAsync(TAG_DEBOUNCE_MS))
    const asked = get.mock.calls.map((call) => (call[1] as { params: { query: { q?: string } } }).params.query.q)
    expect(asked).toEqual(['brand'])
  })
})
