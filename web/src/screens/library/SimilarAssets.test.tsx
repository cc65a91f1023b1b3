import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ASSETS_KEY } from '../../api/cache'
import { SimilarAssets, whyNone } from './SimilarAssets'
import { organizationQuery, type Organization } from './queries'

const session = vi.hoisted(() => ({ canManage: true }))
vi.mock('../../session', () => ({ useOrg: () => 'acme', useSession: () => session }))

const ai = (available: boolean, embeddings_pending = 0) => ({ available, unavailable_reason: available ? null : ('no_provider' as const), embeddings_pending })

describe('why an asset shows no similar assets', () => {
  it('names the server first, then the organization’s switch, then the embeddings still coming', () => {
    expect(whyNone({ ai: ai(false), ai_enabled: true }, true)).toMatch(/none is configured on this server/)
    expect(whyNone({ ai: { ...ai(false), unavailable_reason: 'no_pgvector' }, ai_enabled: true }, true)).toMatch(/pgvector/)
    expect(whyNone({ ai: ai(true), ai_enabled: false }, true)).toMatch(/AI is off for this organization/)
    expect(whyNone({ ai: ai(true, 1), ai_enabled: true }, true)).toMatch(/no embedding yet: 1 asset in the organization is waiting/)
    expect(whyNone({ ai: ai(true, 3), ai_enabled: true }, true)).toMatch(/3 assets in the organization are waiting/)
    expect(whyNone({ ai: ai(true, 0), ai_enabled: true }, true)).toBe('No other asset has an embedding yet.')
  })

  it('tells a member only that the feature is not available, not how the server is set up', () => {
    expect(whyNone({ ai: ai(false), ai_enabled: true }, false)).toBe('Similar assets are not available.')
    expect(whyNone({ ai: { ...ai(false), unavailable_reason: 'no_pgvector' }, ai_enabled: true }, false)).toBe('Similar assets are not available.')
    expect(whyNone({ ai: ai(true), ai_enabled: false }, false)).toBe('Similar assets are not available.')
    expect(whyNone({ ai: ai(true, 2), ai_enabled: true }, false)).toMatch(/2 assets in the organization are waiting/)
  })
})

describe('the similar assets panel', () => {
  const shown = (canManage: boolean) => {
    session.canManage = canManage
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
    client.setQueryData([ASSETS_KEY, 'similar', 'a1'], { data: [], total: 0, limit: 12, offset: 0 })
    client.setQueryData(organizationQuery('acme').queryKey, { ai: ai(false), ai_enabled: true } as Organization)
    render(
      <QueryClientProvider client={client}>
        <SimilarAssets id="a1" />
      </QueryClientProvider>,
    )
    return screen.getByRole('region', { name: 'Similar assets' }).textContent
  }

  it('shows the provider setup to an owner or admin', () => {
    expect(shown(true)).toMatch(/Similar assets need an embedding provider, and none is configured on this server\./)
  })

  it('shows a member that similar assets are not available', () => {
    const text = shown(false)
    expect(text).toMatch(/Similar assets are not available\./)
    expect(text).not.toMatch(/provider|server/)
  })
})
