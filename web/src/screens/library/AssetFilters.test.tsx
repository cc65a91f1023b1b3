import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { catalogKey } from '../../api/cache'
import { v1 } from '../../api/client'
import { AssetFilters } from './AssetFilters'

const COLORS = [
  { name: 'red', hex: '#d32f2f' },
  { name: 'blue', hex: '#1976d2' },
]

/** The catalogue lists already fresh, and GET /api/v1/colors answered by the test. */
function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const page = { data: [], total: 0, offset: 0, limit: 100 }
  for (const path of ['/api/v1/asset-types', '/api/v1/clients', '/api/v1/products']) client.setQueryData(catalogKey(path), page)
  client.setQueryData(catalogKey('/api/v1/tags', ''), [])
  vi.spyOn(v1, 'GET').mockImplementation((async () => ({ data: { data: COLORS }, response: new Response(null, { status: 200 }) })) as unknown as typeof v1.GET)
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
}

afterEach(() => vi.restoreAllMocks())

describe('the colour and origin filters', () => {
  it('offer the named colours and the declared origins, and report the one picked', async () => {
    const onChange = vi.fn()
    render(<AssetFilters value={{}} onChange={onChange} />, { wrapper: wrapper() })
    const colour = screen.getByRole('combobox', { name: 'Colour' })
    await screen.findByRole('option', { name: 'blue' })
    fireEvent.change(colour, { target: { value: 'blue' } })
    expect(onChange).toHaveBeenLastCalledWith({ color: 'blue' })
    const origin = screen.getByRole('combobox', { name: 'Origin' })
    expect(Array.from((origin as HTMLSelectElement).options).map((option) => option.text)).toEqual([
      'Any origin',
      'Made by AI',
      'AI in a composite',
      'Camera capture',
      'Edited or drawn',
      'Not declared',
    ])
    fireEvent.change(origin, { target: { value: 'ai' } })
    expect(onChange).toHaveBeenLastCalledWith({ provenance: 'ai' })
  })

  it('shows the chosen colour’s swatch beside its label', async () => {
    const { container } = render(<AssetFilters value={{ color: 'red' }} onChange={vi.fn()} />, { wrapper: wrapper() })
    await screen.findByRole('option', { name: 'red' })
    expect((screen.getByRole('combobox', { name: 'Colour' }) as HTMLSelectElement).value).toBe('red')
    expect(container.querySelector<HTMLElement>('label .swatch')?.style.background).toBe('#d32f2f')
  })
})

describe('the tag filter', () => {
  it('takes typed text as a prefix, and a picked suggestion as the exact tag', async () => {
    const onChange = vi.fn()
    const { container } = render(<AssetFilters value={{ tag: 'old' }} onChange={onChange} />, { wrapper: wrapper() })
    const tag = screen.getByRole('combobox', { name: 'Tag' })
    fireEvent.change(tag, { target: { value: 'wall' } })
    fireEvent.keyDown(tag, { key: 'Enter' })
    expect(onChange).toHaveBeenLastCalledWith({ tag_prefix: 'wall' })
    // The suggestions come from GET /api/v1/tags (answered here by the test's stub).
    await vi.waitFor(() => expect(container.querySelector('datalist option[value="blue"]')).not.toBeNull())
    fireEvent.change(tag, { target: { value: 'blue' } })
    expect(onChange).toHaveBeenLastCalledWith({ tag: 'blue' })
  })
})
