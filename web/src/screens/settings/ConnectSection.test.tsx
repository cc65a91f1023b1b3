import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { organizationQuery, type Organization } from '../library/queries'
import { ConnectSection } from './ConnectSection'
import type { Key } from './KeysSection'

const session = vi.hoisted(() => ({ canManage: true }))
vi.mock('../../session', () => ({ useOrg: () => 'acme', useSession: () => session }))

const BASE = 'https://assets.example.com'
const key = (id: string, name: string, prefix: string, fields: Partial<Key> = {}): Key =>
  ({ id, name, prefix, scope: 'assets:write', created_at: '2026-01-01T00:00:00Z', last_used_at: null, expires_at: null, revoked_at: null, ...fields }) as Key

function shown(canManage: boolean, keys: Key[]) {
  session.canManage = canManage
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
  client.setQueryData(organizationQuery('acme').queryKey, { public_base_url: BASE } as Organization)
  client.setQueryData(['keys', 'acme'], { data: keys, total: keys.length, limit: 100, offset: 0 })
  render(
    <QueryClientProvider client={client}>
      <ConnectSection />
    </QueryClientProvider>,
  )
}
const snippet = (label: string) => screen.getByRole('region', { name: `${label} snippet` }).textContent!

describe('the Connect page', () => {
  it('gives each kind of client its snippet, with the server’s address and the picked key’s prefix', () => {
    shown(true, [key('k1', 'Website', 'ab12cd34'), key('k2', 'Old', 'ffff0000', { revoked_at: '2026-01-02T00:00:00Z' }), key('k3', 'Uploads', 'ee99aa00')])
    // Only the live keys are offered.
    const picker = screen.getByRole('combobox', { name: 'Key for the snippets' })
    expect(within(picker).getAllByRole('option').map((option) => option.textContent)).toEqual(['Website (al_ab12cd34_…, assets:write)', 'Uploads (al_ee99aa00_…, assets:write)'])
    expect(snippet('Key variable')).toBe("export ASSET_LIBRARY_KEY='al_ab12cd34_…'")
    expect(snippet('curl')).toBe(`curl -sS "${BASE}/api/v1/assets?limit=5" \\\n  -H "Authorization: Bearer $ASSET_LIBRARY_KEY"`)
    expect(snippet('SDK')).toContain(`createClient({ baseUrl: '${BASE}', apiKey: process.env.ASSET_LIBRARY_KEY! })`)
    expect(snippet('Command line')).toBe(`export ASSET_LIBRARY_URL=${BASE}\nnpx --no-install asset-library-client push ./folder`)
    expect(JSON.parse(snippet('Cursor'))).toEqual({ mcpServers: { 'asset-library': { url: `${BASE}/mcp`, headers: { Authorization: 'Bearer al_ab12cd34_…' } } } })
    expect(JSON.parse(snippet('VS Code')).servers['asset-library']).toMatchObject({ type: 'http', url: `${BASE}/mcp` })
    expect(snippet('Claude Code')).toContain(`claude mcp add --transport http asset-library ${BASE}/mcp`)
    expect(JSON.parse(snippet('Claude Desktop')).mcpServers['asset-library']).toEqual({
      command: 'npx',
      args: ['--no-install', 'asset-library-client', 'mcp'],
      env: { ASSET_LIBRARY_URL: BASE, ASSET_LIBRARY_KEY: 'al_ab12cd34_…' },
    })
    expect(snippet('Webhook receiver')).toContain("import { verifyWebhook, WebhookVerificationError } from '@asset-library/client'")

    fireEvent.change(picker, { target: { value: 'k3' } })
    expect(snippet('Key variable')).toBe("export ASSET_LIBRARY_KEY='al_ee99aa00_…'")
    expect(snippet('Claude Desktop')).toContain('"ASSET_LIBRARY_KEY": "al_ee99aa00_…"')
  })

  it('tells a member to ask for a key, and still shows the snippets with a placeholder', () => {
    shown(false, [])
    expect(screen.queryByRole('combobox', { name: 'Key for the snippets' })).toBeNull()
    expect(screen.getByText(/An owner or admin of the organization creates API keys/)).toBeTruthy()
    expect(snippet('Key variable')).toBe("export ASSET_LIBRARY_KEY='al_…'")
    expect(snippet('curl')).toContain(BASE)
  })
})
