import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { v1 } from '../../api/client'
import { likeness } from '../../ui/format'
import { LookalikeAssets } from './SimilarAssets'

const hit = (id: string, title: string, distance: number) => ({ id, title, thumbnail_url: `/t/${id}`, mime_type: 'image/png', width: 10, height: 10, distance })
const answer = (data: unknown) => ({ data, response: new Response(null, { status: 200 }) })

function renderLookalikes(hashed: boolean) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <LookalikeAssets id="a1" hashed={hashed} />
    </QueryClientProvider>,
  )
}

afterEach(() => vi.restoreAllMocks())

describe('the pictures that look alike, on the asset page', () => {
  it('asks by appearance and lists each with its distance, linked to its page', async () => {
    const get = vi.spyOn(v1, 'GET').mockImplementation((async () => answer({ data: [hit('a2', 'Banner small', 0), hit('a3', 'Banner final', 4)] })) as unknown as typeof v1.GET)
    renderLookalikes(true)
    const first = await screen.findByRole('link', { name: /Banner small/ })
    expect(first.getAttribute('href')).toBe('/assets/a2')
    expect(first.textContent).toContain('The same picture (distance 0)')
    expect(screen.getByRole('link', { name: /Banner final/ }).textContent).toContain('Distance 4 of 64')
    expect(get).toHaveBeenCalledWith('/api/v1/assets/{id}/similar', { params: { path: { id: 'a1' }, query: { by: 'appearance', limit: 12 } } })
  })

  it('says when none looks alike', async () => {
    vi.spyOn(v1, 'GET').mockImplementation((async () => answer({ data: [] })) as unknown as typeof v1.GET)
    renderLookalikes(true)
    expect(await screen.findByText('No other picture in the library looks like this one.')).toBeTruthy()
  })

  it('says the picture is being compared while its hash is pending', () => {
    vi.spyOn(v1, 'GET').mockImplementation((async () => answer({ data: [] })) as unknown as typeof v1.GET)
    renderLookalikes(false)
    expect(screen.getByText('The picture is being compared with the library…')).toBeTruthy()
  })

  it('reads a distance as people do', () => {
    expect(likeness(0)).toBe('The same picture (distance 0)')
    expect(likeness(6)).toBe('Distance 6 of 64')
  })
})
