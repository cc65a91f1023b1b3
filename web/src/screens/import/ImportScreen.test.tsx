import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { navigate } from 'wouter/use-browser-location'
import { appApi, v1 } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import type { FigmaConnection, ImportNode, ImportRecord } from './api'
import { ImportDetailScreen } from './ImportDetailScreen'
import { ImportScreen } from './ImportScreen'
import type { Outline } from './selection'

const session = vi.hoisted(() => ({ canManage: true }))
vi.mock('../../session', () => ({ useOrg: () => 'acme', useSession: () => session }))

const LINK = 'https://www.figma.com/design/AbCdEf1234567890/Brand-kit'
const OUTLINE: Outline = {
  file_key: 'AbCdEf1234567890',
  file_name: 'Brand kit',
  version: '42',
  node_id: null,
  pages: [
    {
      id: '0:1',
      name: 'Brand',
      frames: [
        { id: '1:2', name: 'Hero', type: 'FRAME', thumbnail_url: 'https://figma.test/hero.png' },
        { id: '1:3', name: 'Banner', type: 'FRAME', thumbnail_url: 'https://figma.test/banner.png' },
        { id: '1:4', name: 'Footer', type: 'FRAME', thumbnail_url: null },
      ],
    },
  ],
  components: [{ id: '2:1', name: 'Star', page: null, component_set: null, thumbnail_url: 'https://figma.test/star.png' }],
}
const NOT_CONNECTED: FigmaConnection = { connected: false, figma_user: null, connected_by: null, updated_at: null }
const CONNECTED: FigmaConnection = { connected: true, figma_user: { id: '1', handle: 'dana', email: 'dana@acme.test' }, connected_by: 'Owner', updated_at: '2026-11-28T09:00:00.000Z' }

const answer = (data: unknown, status = 200) => ({ data: status < 400 ? data : undefined, error: status < 400 ? undefined : data, response: new Response(null, { status }) })

function record(overrides: Partial<ImportRecord> = {}): ImportRecord {
  return {
    id: 'imp-1',
    source: 'figma',
    status: 'done',
    file_url: LINK,
    file_key: 'AbCdEf1234567890',
    node_id: null,
    select: 'nodes',
    node_ids: ['1:2', '1:3'],
    format: 'png',
    scale: 2,
    metadata: { asset_type: null, client: null, product: null, tag_names: [], collection_name: null, created_by_ai: false },
    file_name: 'Brand kit',
    file_version: '42',
    run: 1,
    total: 2,
    created: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    missing: 0,
    failures: [],
    missing_nodes: [],
    error: null,
    created_by: { kind: 'user', name: 'Owner' },
    created_at: '2026-11-28T10:00:00.000Z',
    started_at: '2026-11-28T10:00:01.000Z',
    finished_at: null,
    ...overrides,
  }
}

function node(overrides: Partial<ImportNode> & Pick<ImportNode, 'node_id' | 'name'>): ImportNode {
  return {
    page_name: 'Brand',
    component_set_name: null,
    outcome: null,
    reason: null,
    detail: null,
    asset_id: null,
    figma_url: `https://www.figma.com/design/AbCdEf1234567890/?node-id=${overrides.node_id.replace(':', '-')}`,
    ...overrides,
  }
}

/**
 * The two APIs as the screen calls them; `imports` answers GET /api/v1/imports/{id} in turn (the last
 * one again), `nodes` GET /api/v1/imports/{id}/nodes in turn (each the whole list, paged by the query).
 */
function serve(options: { connection?: FigmaConnection; imports?: ImportRecord[]; list?: ImportRecord[]; nodes?: ImportNode[][] } = {}) {
  const { connection = NOT_CONNECTED, imports = [], list = [], nodes = [[]] } = options
  const appGet = vi.spyOn(appApi, 'GET').mockImplementation((async (path: string) => {
    if (path.endsWith('/outline')) return answer(OUTLINE)
    return answer(connection)
  }) as unknown as typeof appApi.GET)
  let reads = 0
  let nodeReads = 0
  const v1Get = vi.spyOn(v1, 'GET').mockImplementation((async (path: string, init: { params: { query?: { limit?: number; offset?: number } } }) => {
    if (path === '/api/v1/imports') return answer({ data: list, total: list.length, limit: 50, offset: 0 })
    if (path === '/api/v1/imports/{id}') return answer(imports[Math.min(reads++, imports.length - 1)])
    if (path === '/api/v1/imports/{id}/nodes') {
      const { limit = 50, offset = 0 } = init.params.query ?? {}
      const all = nodes[Math.min(nodeReads++, nodes.length - 1)]!
      return answer({ data: all.slice(offset, offset + limit), total: all.length, limit, offset })
    }
    return answer({ data: [], total: 0, limit: 100, offset: 0 })
  }) as unknown as typeof v1.GET)
  const v1Post = vi.spyOn(v1, 'POST').mockImplementation((async (path: string) => {
    if (path === '/api/v1/imports/{id}/rerun') return answer({ type: 'about:blank', title: 'Conflict', status: 409, code: 'import_in_progress', detail: 'It runs.' }, 409)
    return answer({ import_id: 'imp-1', status: 'queued' }, 202)
  }) as unknown as typeof v1.POST)
  return { appGet, v1Get, v1Post }
}

function renderWith(node: React.ReactNode) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>{node}</ToastProvider>
    </QueryClientProvider>,
  )
}

async function loadOutline(token?: string) {
  if (token) fireEvent.change(await screen.findByLabelText('Figma token for this import'), { target: { value: token } })
  fireEvent.change(screen.getByLabelText('Figma link'), { target: { value: LINK } })
  fireEvent.click(screen.getByRole('button', { name: 'Load file' }))
  await screen.findByRole('heading', { name: /Brand kit/ })
}

afterEach(() => vi.restoreAllMocks())
beforeEach(() => {
  session.canManage = true
  navigate('/import')
})

describe('the Import screen', () => {
  it('without a stored token, sends to Settings an owner, and reads the file with the token given here', async () => {
    const { appGet } = serve()
    renderWith(<ImportScreen />)
    expect((await screen.findByRole('link', { name: 'Connect Figma in Settings' })).getAttribute('href')).toBe('/settings/integrations')
    await loadOutline('figd_one-time-token')
    const call = (appGet.mock.calls as unknown as Array<[string, unknown]>).find(([path]) => path.endsWith('/outline'))!
    expect(call[1]).toMatchObject({ params: { query: { file_url: LINK }, header: { 'x-figma-token': 'figd_one-time-token' } } })
    expect(JSON.stringify(localStorage)).not.toContain('figd_one-time-token')
    expect(JSON.stringify(sessionStorage)).not.toContain('figd_one-time-token')
  })

  it('tells a member to ask an owner or admin', async () => {
    session.canManage = false
    serve()
    renderWith(<ImportScreen />)
    expect(await screen.findByText(/Ask an owner or admin to connect it/)).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Connect Figma in Settings' })).toBeNull()
  })

  it('shows Figma\u2019s thumbnails, picks the frames at first, and imports them as `frames`', async () => {
    const { v1Post } = serve({ connection: CONNECTED })
    renderWith(<ImportScreen />)
    expect(await screen.findByText(/connected with the token of dana/)).toBeTruthy()
    expect(screen.queryByLabelText('Figma token for this import')).toBeNull()
    await loadOutline()
    const brand = screen.getByRole('region', { name: 'Brand' })
    expect([...brand.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual(['https://figma.test/hero.png', 'https://figma.test/banner.png'])
    expect(within(brand).getByText('No preview')).toBeTruthy()
    expect(screen.getByRole('checkbox', { name: 'Pick all of Brand' })).toHaveProperty('checked', true)
    expect(screen.getByRole('checkbox', { name: 'Star' })).toHaveProperty('checked', false)
    fireEvent.click(screen.getByRole('button', { name: 'Import 3 nodes' }))
    await waitFor(() => expect(location.pathname).toBe('/import/imp-1'))
    expect(v1Post.mock.calls[0]![1]).toEqual({ body: { source: 'figma', file_url: LINK, select: 'frames', format: 'png', scale: 2, created_by_ai: false } })
  })

  it('imports the nodes picked one by one, with the format, tags and token given', async () => {
    const { v1Post } = serve()
    renderWith(<ImportScreen />)
    await loadOutline('figd_one-time-token')
    fireEvent.click(screen.getByRole('button', { name: 'Select none' }))
    expect(screen.getByRole('button', { name: 'Import 0 nodes' })).toHaveProperty('disabled', true)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Banner' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Star' }))
    const page = screen.getByRole('checkbox', { name: 'Pick all of Brand' }) as HTMLInputElement
    expect([page.checked, page.indeterminate]).toEqual([false, true])
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'svg' } })
    expect(screen.getByLabelText('Scale')).toHaveProperty('disabled', true)
    fireEvent.change(screen.getByLabelText('Add tag'), { target: { value: 'brand-kit' } })
    fireEvent.click(screen.getByRole('button', { name: 'Import 2 nodes' }))
    await waitFor(() => expect(v1Post).toHaveBeenCalled())
    expect(v1Post.mock.calls[0]![1]).toEqual({
      body: { source: 'figma', file_url: LINK, select: 'nodes', node_ids: ['1:3', '2:1'], format: 'svg', tag_names: ['brand-kit'], created_by_ai: false, figma_token: 'figd_one-time-token' },
    })
  })

  it('lists the imports, and says a sync of a running one is already running', async () => {
    serve({ connection: CONNECTED, list: [record({ select: 'frames', node_ids: [], created: 2, unchanged: 1 })] })
    renderWith(<ImportScreen />)
    const row = await screen.findByRole('row', { name: /Brand kit/ })
    expect(within(row).getByText('2 created, 1 unchanged')).toBeTruthy()
    expect(within(row).getByRole('link', { name: 'Brand kit' }).getAttribute('href')).toBe('/import/imp-1')
    fireEvent.click(within(row).getByRole('button', { name: 'Sync Brand kit now' }))
    expect(await screen.findByText(/already running/)).toBeTruthy()
  })
})

describe('an import\u2019s page', () => {
  it('shows the progress while it runs, then each node\u2019s recorded result with a link to its asset', async () => {
    serve({
      connection: CONNECTED,
      imports: [
        record({ id: 'imp-2', status: 'running', created: 1 }),
        record({ id: 'imp-2', status: 'done', created: 1, failed: 1, failures: [{ node_id: '1:3', name: 'Banner', reason: 'render_failed', detail: 'Figma could not render this node.' }], finished_at: '2026-11-28T10:00:05.000Z' }),
      ],
      nodes: [
        [node({ node_id: '1:3', name: 'Banner' }), node({ node_id: '1:2', name: 'Hero', outcome: 'created', asset_id: 'asset-hero' })],
        [
          node({ node_id: '1:3', name: 'Banner', outcome: 'failed', reason: 'render_failed', detail: 'Figma could not render this node.' }),
          node({ node_id: '1:2', name: 'Hero', outcome: 'created', asset_id: 'asset-hero' }),
        ],
      ],
    })
    renderWith(<ImportDetailScreen id="imp-2" />)
    const progress = (await screen.findByRole('progressbar', { name: 'Nodes done' })) as HTMLProgressElement
    expect([progress.value, progress.max]).toEqual([1, 2])
    expect(screen.getByText('1 of 2')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Running…' })).toHaveProperty('disabled', true)
    // While it runs, a node not yet done waits.
    expect(within(await screen.findByRole('row', { name: /^Banner/ })).getByText('Waiting')).toBeTruthy()

    const banner = screen.getByRole('row', { name: /^Banner/ })
    await waitFor(() => expect(within(banner).getByText('Failed')).toBeTruthy(), { timeout: 4000 })
    expect(within(banner).getByText('render_failed')).toBeTruthy()
    expect(within(banner).queryByRole('link')).toBeNull()
    const hero = screen.getByRole('row', { name: /^Hero/ })
    expect(within(hero).getByText('Created')).toBeTruthy()
    expect(within(hero).getByRole('link', { name: 'Hero' }).getAttribute('href')).toBe('/assets/asset-hero')
    expect(screen.getByRole('region', { name: 'Progress' }).querySelector('[role=status]')?.textContent).toBe('1 created, 1 failed')
  })

  it('lists an import started elsewhere by the server\u2019s record of each node, missing ones too, page by page', async () => {
    const many = Array.from({ length: 130 }, (_, i) => node({ node_id: `1:${i + 10}`, name: `Frame ${String(i).padStart(3, '0')}`, outcome: 'unchanged', asset_id: `asset-${i}` }))
    const { v1Get } = serve({
      connection: CONNECTED,
      imports: [record({ id: 'imp-3', select: 'frames', node_ids: [], run: 2, unchanged: 130, missing: 1, finished_at: '2026-11-28T10:00:05.000Z' })],
      nodes: [[...many, node({ node_id: '2:1', name: 'Star', page_name: 'Icons', outcome: 'missing', asset_id: 'asset-star' })]],
    })
    renderWith(<ImportDetailScreen id="imp-3" />)
    const table = await screen.findByRole('table', { name: 'Result per node' })
    expect(within(table).getAllByRole('row')).toHaveLength(101)
    expect(within(table).getByRole('row', { name: /^Frame 000/ }).textContent).toBe('Frame 000BrandUnchangedFrame 000')
    expect(screen.getByText('100 of 131')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    const star = await within(table).findByRole('row', { name: /^Star/ })
    expect(within(star).getByText('Missing')).toBeTruthy()
    expect(within(star).getByRole('link', { name: 'Star' }).getAttribute('href')).toBe('/assets/asset-star')
    expect(within(table).getAllByRole('row')).toHaveLength(132)
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
    // The page asks the server, never guesses from the assets.
    expect((v1Get.mock.calls as unknown as Array<[string]>).map(([path]) => path)).not.toContain('/api/v1/assets')
  })
})
