import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appApi, v1 } from '../../api/client'
import { ToastProvider } from '../../ui/toast'
import type { DuplicateGroup, GroupAsset } from './api'
import { DuplicatesScreen } from './DuplicatesScreen'

vi.mock('../../session', () => ({ useOrg: () => 'acme' }))

function asset(id: string, title: string, fields: Partial<GroupAsset> = {}): GroupAsset {
  return {
    id,
    title,
    thumbnail_url: `/t/${id}`,
    mime_type: 'image/png',
    width: 480,
    height: 360,
    byte_size: 2048,
    created_at: '2026-11-20T10:00:00.000Z',
    ...fields,
  } as GroupAsset
}

const group = (first: GroupAsset, ...near: Array<[GroupAsset, number]>): DuplicateGroup => ({
  asset: first,
  duplicates: near.map(([duplicate, distance]) => ({ asset: duplicate, distance })),
})

/** The groups as the server keeps them: listed by offset; a resolve takes the trashed assets' groups away. */
let groups: DuplicateGroup[] = []
let retentionDays = 30
const resolved: unknown[] = []
const answer = (status: number, data?: unknown) => ({ data, response: new Response(null, { status }) })
type Init = { params: { query?: { limit?: number; offset?: number } }; body?: { keep: string; trash: string[] } }

function serve() {
  vi.spyOn(appApi, 'GET').mockImplementation((async () => answer(200, { slug: 'acme', trash_retention_days: retentionDays })) as unknown as typeof appApi.GET)
  vi.spyOn(v1, 'GET').mockImplementation((async (_path: string, init: Init) => {
    const { limit = 50, offset = 0 } = init.params.query ?? {}
    return answer(200, { data: groups.slice(offset, offset + limit), total: groups.length, limit, offset })
  }) as unknown as typeof v1.GET)
  vi.spyOn(v1, 'POST').mockImplementation((async (_path: string, init: Init) => {
    const body = init.body!
    resolved.push(body)
    const gone = new Set(body.trash)
    groups = groups.filter((one) => ![one.asset, ...one.duplicates.map((near) => near.asset)].some((member) => gone.has(member.id)))
    return answer(200, { kept: asset(body.keep, 'kept'), trashed: body.trash })
  }) as unknown as typeof v1.POST)
}

function renderScreen() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <DuplicatesScreen />
      </ToastProvider>
    </QueryClientProvider>,
  )
}

const groupNamed = (name: string) => screen.findByRole('region', { name })
const card = (region: HTMLElement, title: string) => within(region).getByRole('article', { name: title })

beforeEach(() => {
  retentionDays = 30
  resolved.length = 0
  sessionStorage.clear()
  groups = [
    group(asset('a1', 'Logo', { byte_size: 1_536_000 }), [asset('a2', 'Logo copy', { mime_type: 'image/jpeg', width: 240, height: 180, created_at: '2026-11-21T10:00:00.000Z' }), 3], [asset('a3', 'Logo again'), 0]),
    group(asset('b1', 'Banner'), [asset('b2', 'Banner (1)'), 5]),
  ]
  serve()
})
afterEach(() => vi.restoreAllMocks())

describe('the Duplicates screen', () => {
  it('lists each group side by side: title, dimensions, size, pushed date and distance of each picture', async () => {
    renderScreen()
    const logo = await groupNamed('3 pictures like “Logo”')
    expect(screen.getByText('2 groups')).toBeTruthy()
    expect(within(logo).getAllByRole('article').map((article) => article.getAttribute('aria-labelledby'))).toEqual([
      'duplicate-title-a1',
      'duplicate-title-a2',
      'duplicate-title-a3',
    ])
    const first = card(logo, 'Logo')
    expect(first.textContent).toContain('PNG · 480 × 360 px · 1.5 MB')
    expect(first.textContent).toContain('Pushed first')
    expect(within(first).getByRole('link', { name: 'Logo' }).getAttribute('href')).toBe('/assets/a1')
    expect(card(logo, 'Logo copy').textContent).toContain('JPEG · 240 × 180 px · 2.0 KB')
    expect(card(logo, 'Logo copy').textContent).toMatch(/Pushed .*2026/)
    expect(card(logo, 'Logo copy').textContent).toContain('Distance 3 of 64')
    expect(card(logo, 'Logo again').textContent).toContain('The same picture (distance 0)')
    expect(await groupNamed('2 pictures like “Banner”')).toBeTruthy()
  })

  it('keeps one only after confirming: the others go to the trash, and the note leads there', async () => {
    renderScreen()
    const logo = await groupNamed('3 pictures like “Logo”')
    fireEvent.click(within(card(logo, 'Logo copy')).getByRole('button', { name: 'Keep this' }))
    const dialog = screen.getByRole('dialog', { name: 'Keep “Logo copy”?' })
    expect(dialog.textContent).toContain('“Logo”, “Logo again” will move to the trash, where they can be restored.')
    expect(dialog.textContent).toContain('Their tags and manual collections are added to “Logo copy”.')
    expect(resolved).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it, trash the others' }))
    expect(await screen.findByText('Kept “Logo copy”; moved 2 others to the trash.')).toBeTruthy()
    expect(resolved).toEqual([{ keep: 'a2', trash: ['a1', 'a3'] }])
    await waitFor(() => expect(screen.queryByRole('region', { name: '3 pictures like “Logo”' })).toBeNull())
    fireEvent.click(screen.getByRole('button', { name: 'Open trash' }))
    expect(location.pathname).toBe('/trash')
  })

  it('sends nothing when the confirmation is cancelled', async () => {
    renderScreen()
    const banner = await groupNamed('2 pictures like “Banner”')
    fireEvent.click(within(card(banner, 'Banner')).getByRole('button', { name: 'Keep this' }))
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Keep “Banner”?' })).getByRole('button', { name: 'Cancel' }))
    expect(resolved).toEqual([])
    expect(card(banner, 'Banner (1)')).toBeTruthy()
  })

  it('says the others are deleted forever when the server keeps no trash', async () => {
    retentionDays = 0
    renderScreen()
    const banner = await groupNamed('2 pictures like “Banner”')
    fireEvent.click(within(card(banner, 'Banner')).getByRole('button', { name: 'Keep this' }))
    const dialog = screen.getByRole('dialog', { name: 'Keep “Banner”?' })
    await waitFor(() => expect(dialog.textContent).toContain('“Banner (1)” will be deleted forever: this server keeps no trash.'))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it, delete the others' }))
    expect(await screen.findByText('Kept “Banner”; deleted 1 other forever.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Open trash' })).toBeNull()
  })

  it('keeps all of a group by setting it aside for this session, sending nothing, and can show it again', async () => {
    renderScreen()
    const banner = await groupNamed('2 pictures like “Banner”')
    fireEvent.click(within(banner).getByRole('button', { name: 'Keep all' }))
    await waitFor(() => expect(screen.queryByRole('region', { name: '2 pictures like “Banner”' })).toBeNull())
    expect(resolved).toEqual([])
    expect(screen.getByText('1 group')).toBeTruthy()
    expect(screen.getByText(/1 group kept as it is for this session./)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Show again' }))
    expect(await groupNamed('2 pictures like “Banner”')).toBeTruthy()
  })

  it('still sets a group aside after the screen is opened again, until a new near-duplicate joins it', async () => {
    renderScreen()
    fireEvent.click(within(await groupNamed('2 pictures like “Banner”')).getByRole('button', { name: 'Keep all' }))
    await waitFor(() => expect(screen.queryByRole('region', { name: '2 pictures like “Banner”' })).toBeNull())
    expect(screen.getByText('1 group')).toBeTruthy()
    cleanup()
    renderScreen()
    await groupNamed('3 pictures like “Logo”')
    expect(screen.queryByRole('region', { name: '2 pictures like “Banner”' })).toBeNull()
    groups[1] = group(asset('b1', 'Banner'), [asset('b2', 'Banner (1)'), 5], [asset('b3', 'Banner (2)'), 1])
    cleanup()
    renderScreen()
    expect(await groupNamed('3 pictures like “Banner”')).toBeTruthy()
  })

  it('loads more groups page by page', async () => {
    groups = Array.from({ length: 25 }, (_, i) => group(asset(`g${i}`, `Picture ${i}`), [asset(`d${i}`, `Picture ${i} copy`), 2]))
    renderScreen()
    await groupNamed('2 pictures like “Picture 19”')
    expect(screen.queryByRole('region', { name: '2 pictures like “Picture 20”' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await groupNamed('2 pictures like “Picture 24”')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
  })

  it('says there is nothing to review, and when pictures are compared', async () => {
    groups = []
    renderScreen()
    const empty = await screen.findByRole('region', { name: 'No duplicates to review' })
    expect(empty.textContent).toContain('Each picture is compared with the library a moment after it is pushed')
  })
})
