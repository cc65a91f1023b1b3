import type { Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, type Seeded } from '../support/app.js'
import { pushImage } from '../support/fixtures.js'
import { solid } from '../support/images.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

interface SeedAsset {
  title: string
  asset_type?: string
  client?: string
  tags?: readonly string[]
  ai?: boolean
  color: string
  size?: readonly [number, number]
}

const SEED: readonly SeedAsset[] = [
  { title: 'Brand logo', asset_type: 'Logo', client: 'Initech', tags: ['brand', 'logo'], color: '#1c7ed6', size: [320, 320] },
  { title: 'Summer banner', asset_type: 'Banner', client: 'Initech', tags: ['summer', 'campaign'], ai: true, color: '#f59f00', size: [640, 240] },
  { title: 'Winter banner', asset_type: 'Banner', client: 'Globex', tags: ['winter', 'campaign'], color: '#74c0fc', size: [640, 240] },
  { title: 'Product photo', asset_type: 'Photo', client: 'Globex', tags: ['product'], color: '#2f9e44', size: [300, 400] },
  { title: 'Team portrait', asset_type: 'Photo', client: 'Initech', tags: ['people'], color: '#e64980', size: [400, 300] },
  { title: 'Office icon', asset_type: 'Icon', client: 'Globex', tags: ['icon'], color: '#7048e8', size: [128, 128] },
]

let e2e: E2E

/** Pushes an asset through the public API with the organization's write key, as a script would; its id. */
async function push(org: Seeded, asset: SeedAsset): Promise<string> {
  const [width, height] = asset.size ?? [32, 32]
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(await solid(width, height, asset.color).png().toBuffer())]), 'image.png')
  form.append('title', asset.title)
  if (asset.asset_type) form.append('asset_type', asset.asset_type)
  if (asset.client) form.append('client', asset.client)
  form.append('created_by_ai', String(asset.ai ?? false))
  for (const tag of asset.tags ?? []) form.append('tag_names', tag)
  const body = new Response(form)
  const response = await e2e.t.app.inject({
    method: 'POST',
    url: '/api/v1/assets',
    headers: { authorization: `Bearer ${org.writeKey}`, 'content-type': body.headers.get('content-type')! },
    payload: Buffer.from(await body.arrayBuffer()),
  })
  expect(response.statusCode).toBe(201)
  return response.json<{ asset_id: string }>().asset_id
}

/** A fresh organization with the six assets (pushed in order: the first is the last card), and its ids by title. */
async function seededLibrary(name: string) {
  const org = await seedOrganization(e2e.t.app, name)
  const ids = new Map<string, string>()
  for (const asset of SEED) ids.set(asset.title, await push(org, asset))
  return { org, ids }
}

/** A page of its own, signed in as the organization's owner. */
async function signedIn(org: Seeded): Promise<Page> {
  const context = await e2e.context()
  const page = await context.newPage()
  await signIn(page, org.owner.email, org.owner.password)
  return page
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true })
const cards = (page: Page) => page.getByRole('article')
const cardTitles = (page: Page) => page.getByRole('list', { name: 'Assets' }).getByRole('heading', { level: 3 }).allTextContents()
/** Whether the card has the keyboard focus. */
const focused = (page: Page, title: string) => card(page, title).evaluate((element) => element.ownerDocument.activeElement === element)
/** Whether every image matched has loaded (none broken). */
const loaded = (images: Locator) =>
  images.evaluateAll((all) => all.every((image) => (image as unknown as { complete: boolean; naturalWidth: number }).complete && (image as unknown as { naturalWidth: number }).naturalWidth > 0))
/** Requests for a page of the asset list (GET /api/v1/assets), optionally at one offset. */
const assetList = (offset?: number) => (url: URL) => url.pathname === '/api/v1/assets' && (offset === undefined || url.searchParams.get('offset') === String(offset))
/** A 503 problem, as a restarting server would answer (the app retries these twice first). */
const unavailable = { status: 503, contentType: 'application/problem+json', body: JSON.stringify({ status: 503, code: 'unavailable', detail: 'The database is restarting.' }) }
const asReader = (org: Seeded) => ({ authorization: `Bearer ${org.readKey}` })
/** The computed background image of an element. */
const backgroundOf = (element: Locator) => element.evaluate((node) => node.ownerDocument.defaultView!.getComputedStyle(node).backgroundImage)
/** How a card shows focus and selection: its outline, frame, border and check mark. */
const lookOf = (cardLocator: Locator) =>
  cardLocator.evaluate((node) => {
    const style = node.ownerDocument.defaultView!.getComputedStyle(node)
    return { outline: style.outline, outlineOffset: style.outlineOffset, boxShadow: style.boxShadow, borderColor: style.borderColor, mark: node.querySelector('.selected-mark') !== null }
  })

beforeAll(async () => {
  // Each test signs in to an organization of its own, and one pushes 70 assets with one key.
  e2e = await startE2E({ RATE_LIMIT_EXPENSIVE: '1000', RATE_LIMIT_SIGN_IN: '100' })
})
afterEach(() => e2e.closeContexts())
afterAll(async () => {
  await e2e?.close()
})

describe('the library', () => {
  it('shows every asset as a card named by its title, with the AI badge on the AI one', async () => {
    const { org } = await seededLibrary('Grid Co')
    const page = await signedIn(org)
    await expect.poll(() => cards(page).count()).toBe(SEED.length)
    for (const asset of SEED) await expect.poll(() => card(page, asset.title).isVisible()).toBe(true)
    expect(await card(page, 'Summer banner').getByTitle('Created by AI').textContent()).toBe('AI')
    expect(await card(page, 'Brand logo').getByTitle('Created by AI').count()).toBe(0)
    await expect.poll(() => page.getByText('6 assets').isVisible()).toBe(true)
    // Each title is a link to the asset (so it opens in a new tab with Ctrl/Cmd or the middle button).
    expect(await card(page, 'Brand logo').getByRole('link', { name: 'Brand logo' }).getAttribute('href')).toMatch(/^\/assets\/[0-9a-f-]{36}$/)
    // Every thumbnail has loaded (no broken image).
    await expect.poll(() => loaded(page.getByRole('list', { name: 'Assets' }).locator('img'))).toBe(true)
    await checkScreen(page, 'library')
  })

  it('filters by tag through the filter bar, keeps the filter in the URL, and across a reload', async () => {
    const { org } = await seededLibrary('Filter Co')
    const page = await signedIn(org)
    await page.getByLabel('Tag', { exact: true }).fill('campaign')
    await page.getByLabel('Tag', { exact: true }).press('Enter')
    await expect.poll(() => page.url()).toContain('tag_prefix=campaign')
    await expect.poll(() => cardTitles(page)).toEqual(expect.arrayContaining(['Summer banner', 'Winter banner']))
    await expect.poll(() => cards(page).count()).toBe(2)
    await page.reload()
    await expect.poll(() => cards(page).count()).toBe(2)
    expect(await page.getByLabel('Tag', { exact: true }).inputValue()).toBe('campaign')

    // Type narrows further; nothing matching shows the "no matches" state, which clears.
    await page.getByLabel('Type', { exact: true }).selectOption('Logo')
    await expect.poll(() => page.getByRole('region', { name: 'No matches' }).isVisible()).toBe(true)
    expect(page.url()).toContain('asset_type=Logo')
    await page.getByRole('region', { name: 'No matches' }).getByRole('button', { name: 'Clear filters' }).click()
    await expect.poll(() => cards(page).count()).toBe(SEED.length)
    expect(new URL(page.url()).search).toBe('')
  })

  it('searches with the search box, says the mode, and returns to the list when cleared', async () => {
    const { org } = await seededLibrary('Search Co')
    const page = await signedIn(org)
    await page.getByRole('searchbox', { name: 'Search' }).fill('portrait')
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter')
    await expect.poll(() => page.getByText('Matching words only').isVisible()).toBe(true)
    await expect.poll(() => cardTitles(page)).toEqual(['Team portrait'])
    await expect.poll(() => page.getByText('1 hit', { exact: true }).isVisible()).toBe(true)
    await checkScreen(page, 'library-search')
    expect(page.url()).toContain('search=portrait')
    await page.getByRole('searchbox', { name: 'Search' }).fill('')
    await expect.poll(() => cards(page).count()).toBe(SEED.length)
    expect(page.url()).not.toContain('search=')

    // A link with both a text filter and a search searches for the search text, not the filter.
    await page.goto('/?q=logo&search=portrait')
    await expect.poll(() => cardTitles(page)).toEqual(['Team portrait'])
  })

  it('says when the library cannot be loaded, and loads it on Retry', async () => {
    const { org } = await seededLibrary('Flaky Co')
    const context = await e2e.context()
      const page = await context.newPage()
    await signIn(page, org.owner.email, org.owner.password)
    const lists = assetList()
    await page.route(lists, (route) => route.fulfill(unavailable))
    await page.reload()
    const failure = page.getByRole('alert').filter({ hasText: 'Could not load the library.' })
    await expect.poll(() => failure.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await failure.textContent()).toContain('The database is restarting.')
    expect(await page.getByRole('region', { name: 'Your library is empty' }).count()).toBe(0)
    await page.unroute(lists)
    await failure.getByRole('button', { name: 'Retry' }).click()
    await expect.poll(() => cards(page).count()).toBe(SEED.length)
  })

  it('moves between cards with the arrows, opens one with Enter, edits its tags, and finds it by the new tag', async () => {
    const { org, ids } = await seededLibrary('Keyboard Co')
    const page = await signedIn(org)
    await expect.poll(() => cards(page).count()).toBe(SEED.length)
    // Newest first: the logo, pushed first, is the last card.
    await card(page, 'Brand logo').focus()
    await page.keyboard.press('ArrowLeft')
    await expect.poll(() => focused(page, 'Summer banner')).toBe(true)
    expect(await card(page, 'Summer banner').getAttribute('tabindex')).toBe('0')
    expect(await card(page, 'Brand logo').getAttribute('tabindex')).toBe('-1')
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => focused(page, 'Brand logo')).toBe(true)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.url()).toContain(`/assets/${ids.get('Brand logo')}`)
    await expect.poll(() => page.getByRole('heading', { name: 'Brand logo', level: 1 }).isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('heading', { name: 'Similar assets' }).isVisible()).toBe(true)
    await expect.poll(() => loaded(page.getByRole('img', { name: 'Brand logo' }))).toBe(true)
    await checkScreen(page, 'asset-detail')

    await page.getByRole('region', { name: 'Record' }).getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Add tag').fill('hero')
    await page.getByLabel('Add tag').press('Enter')
    await page.getByRole('button', { name: 'Remove tag logo' }).click()
    await page.getByRole('button', { name: 'Save' }).click()
    // The record's tags are links to the library filtered by them.
    await expect.poll(() => page.getByRole('link', { name: 'hero', exact: true }).count()).toBe(1)
    expect(await page.getByRole('link', { name: 'logo', exact: true }).count()).toBe(0)
    const record = await e2e.t.app.inject({ method: 'GET', url: `/api/v1/assets/${ids.get('Brand logo')}`, headers: asReader(org) })
    expect(record.json<{ tags: string[] }>().tags.sort()).toEqual(['brand', 'hero'])

    // Esc goes back to the library.
    await page.getByRole('heading', { name: 'Brand logo', level: 1 }).click()
    await page.keyboard.press('Escape')
    await expect.poll(() => new URL(page.url()).pathname).toBe('/')
    // Back in the grid, the focus is on the card that was opened, as a page's Back would leave it.
    await expect.poll(() => page.getByRole('article', { name: 'Brand logo' }).evaluate((card) => card === card.ownerDocument.activeElement)).toBe(true)
    await page.getByLabel('Tag', { exact: true }).fill('hero')
    await page.getByLabel('Tag', { exact: true }).press('Enter')
    await expect.poll(() => cardTitles(page)).toEqual(['Brand logo'])
  })

  it('selects two assets, adds them to a collection, and moves them to the trash', async () => {
    const { org, ids } = await seededLibrary('Select Co')
    const created = await e2e.t.app.inject({
      method: 'POST',
      url: '/api/v1/collections',
      headers: { authorization: `Bearer ${org.writeKey}` },
      payload: { name: 'Picked', kind: 'manual' },
    })
    expect(created.statusCode).toBe(201)
    const page = await signedIn(org)
    await card(page, 'Office icon').hover()
    await page.getByRole('checkbox', { name: 'Select Office icon' }).check()
    await page.getByRole('checkbox', { name: 'Select Product photo' }).check()
    const toolbar = page.getByRole('toolbar', { name: 'Selection' })
    await expect.poll(() => toolbar.getByText('2 selected').isVisible()).toBe(true)
    // The count is announced by a status region that was there before the selection.
    await expect.poll(() => page.getByRole('status').filter({ hasText: '2 selected' }).count()).toBe(1)
    await checkScreen(page, 'library-selection')

    await toolbar.getByRole('button', { name: 'Add to collection' }).click()
    const picker = page.getByRole('dialog', { name: 'Add 2 assets to a collection' })
    await picker.getByRole('button', { name: /Picked/ }).click()
    await expect.poll(() => page.getByText('Added 2 assets to Picked.').isVisible()).toBe(true)
    const collection = await e2e.t.app.inject({ method: 'GET', url: `/api/v1/collections/${created.json<{ id: string }>().id}`, headers: asReader(org) })
    expect(collection.json<{ asset_count: number }>().asset_count).toBe(2)
    // Straight to the trash, without a dialog: the note offers Undo instead.
    await toolbar.getByRole('button', { name: 'Move to trash' }).click()
    await expect.poll(() => cards(page).count()).toBe(SEED.length - 2)
    expect(await card(page, 'Office icon').count()).toBe(0)
    expect(await card(page, 'Product photo').count()).toBe(0)
    await expect.poll(() => page.getByText('Moved 2 assets to the trash.').isVisible()).toBe(true)
    expect(await toolbar.count()).toBe(0)
    await expect.poll(() => page.getByText('4 assets').isVisible()).toBe(true)
    const gone = await e2e.t.app.inject({ method: 'GET', url: `/api/v1/assets/${ids.get('Office icon')}`, headers: asReader(org) })
    expect(gone.statusCode).toBe(404)
  })

  it('draws a checkerboard only behind a picture with transparency, in the grid and on its page', async () => {
    const org = await seedOrganization(e2e.t.app, 'Glass Co')
    const rgba = (alpha: number) => solid(240, 160, { r: 230, g: 73, b: 128, alpha }).png().toBuffer()
    const glass = await pushImage(e2e.t.app, org.writeKey, { title: 'Glass' }, await rgba(0.4))
    // An alpha channel whose every pixel is opaque: what counts is the pixels, not the format.
    await pushImage(e2e.t.app, org.writeKey, { title: 'Opaque with alpha' }, await rgba(1))
    await pushImage(e2e.t.app, org.writeKey, { title: 'Opaque' }, await solid(240, 160, '#2f9e44').png().toBuffer())
    const page = await signedIn(org)
    const thumb = (title: string) => card(page, title).locator('.asset-thumb')
    await expect.poll(() => thumb('Glass').getAttribute('data-transparency')).toBe('transparent')
    await expect.poll(() => thumb('Opaque with alpha').getAttribute('data-transparency')).toBe('opaque')
    await expect.poll(() => thumb('Opaque').getAttribute('data-transparency')).toBe('opaque')
    expect(await backgroundOf(thumb('Glass').locator('img'))).toContain('conic-gradient')
    expect(await backgroundOf(thumb('Opaque').locator('img'))).toBe('none')
    expect(await backgroundOf(thumb('Opaque'))).not.toContain('gradient')
    // The picture's box is the picture (3:2 in a square), so the checkerboard shows nowhere else.
    const box = await thumb('Glass').locator('img').boundingBox()
    expect(box!.width / box!.height).toBeCloseTo(1.5, 1)
    await checkScreen(page, 'library-transparency')

    await card(page, 'Glass').getByRole('link', { name: 'Glass' }).click()
    const large = page.locator('.detail-image')
    await expect.poll(() => loaded(page.getByRole('img', { name: 'Glass' }))).toBe(true)
    await expect.poll(() => large.getAttribute('data-transparency')).toBe('transparent')
    await expect.poll(() => backgroundOf(page.getByRole('img', { name: 'Glass' }))).toContain('conic-gradient')
    expect(page.url()).toContain(glass.id)
    await page.goBack()
    await card(page, 'Opaque').getByRole('link', { name: 'Opaque' }).click()
    await expect.poll(() => large.getAttribute('data-transparency')).toBe('opaque')
    await expect.poll(() => backgroundOf(page.getByRole('img', { name: 'Opaque' }))).toBe('none')
  })

  it('tells the focused card from the selected ones, and selecting moves no card, at 1280 and 375 px', async () => {
    const { org } = await seededLibrary('Focus Co')
    const page = await signedIn(org)
    await expect.poll(() => cards(page).count()).toBe(SEED.length)
    const [first, second] = ['Office icon', 'Team portrait']
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 })
      const before = await card(page, first).boundingBox()
      await card(page, second).getByRole('checkbox').check()
      await expect.poll(() => page.getByRole('toolbar', { name: 'Selection' }).isVisible()).toBe(true)
      expect(await card(page, first).boundingBox(), `at ${width} px`).toEqual(before)
      await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Clear' }).click()
      await expect.poll(() => page.getByRole('toolbar', { name: 'Selection' }).count()).toBe(0)
    }
    await page.setViewportSize({ width: 1280, height: 800 })

    // The keyboard puts the focus on the first card; the second is selected.
    await card(page, second).getByRole('checkbox').check()
    await card(page, second).focus()
    await page.keyboard.press('ArrowLeft')
    await expect.poll(() => focused(page, first)).toBe(true)
    const focusedLook = await lookOf(card(page, first))
    const selectedLook = await lookOf(card(page, second))
    expect(focusedLook).toMatchObject({ outline: expect.stringContaining('solid'), outlineOffset: '4px', boxShadow: 'none', mark: false })
    expect(selectedLook).toMatchObject({ outline: expect.stringContaining('none'), mark: true })
    expect(selectedLook.boxShadow).toContain('0px 0px 0px 2px')
    expect(selectedLook.borderColor).not.toBe(focusedLook.borderColor)
    // Both at once: the ring outside the selected card's frame.
    await page.keyboard.press(' ')
    await expect.poll(() => card(page, first).getByRole('checkbox').isChecked()).toBe(true)
    const both = await lookOf(card(page, first))
    expect(both).toMatchObject({ outline: focusedLook.outline, outlineOffset: '4px', boxShadow: selectedLook.boxShadow, mark: true })
    await checkScreen(page, 'library-focus-selection')
  })

  it('scrolls past the first page to the last of 70 assets, and offers a retry when a page fails', async () => {
    const org = await seedOrganization(e2e.t.app, 'Many Co')
    // Newest first: "Asset 70", pushed first, is the very last card, on the second page.
    for (let i = 70; i >= 1; i--) await push(org, { title: `Asset ${i}`, color: `#${(i * 3).toString(16).padStart(2, '0')}8040` })
    const page = await signedIn(org)
    await expect.poll(() => page.getByText('70 assets').isVisible()).toBe(true)
    await expect.poll(() => cards(page).count()).toBe(60)
    expect(await card(page, 'Asset 70').count()).toBe(0)

    // Scrolling to the end loads the next page by itself.
    await page.mouse.wheel(0, 100_000)
    await expect.poll(() => cards(page).count()).toBe(70)
    await card(page, 'Asset 70').scrollIntoViewIfNeeded()
    await expect.poll(() => card(page, 'Asset 70').isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0)
    await expect.poll(() => page.getByText('70 assets').isVisible()).toBe(true)
    await expect.poll(() => loaded(card(page, 'Asset 70').locator('img'))).toBe(true)
    await page.mouse.wheel(0, -100_000) // the sticky header at the top of the full-page shot
    await checkScreen(page, 'library-scrolled')

    // When the next page fails, the grid says so and does not ask again by itself.
    let failing = true
    let asked = 0
    await page.route(assetList(60), (route) => {
      asked++
      return failing ? route.fulfill(unavailable) : route.continue()
    })
    await page.reload()
    await expect.poll(() => cards(page).count()).toBe(60)
    await page.mouse.wheel(0, 100_000)
    const failure = page.getByRole('alert').filter({ hasText: 'Couldn’t load more.' })
    await expect.poll(() => failure.isVisible(), { timeout: 10_000 }).toBe(true)
    const before = asked
    await page.mouse.wheel(0, 100_000)
    await page.waitForTimeout(300) // time enough for a looping observer to ask again
    expect(asked).toBe(before)

    failing = false
    await failure.getByRole('button', { name: 'Retry' }).click()
    await expect.poll(() => cards(page).count()).toBe(70)
    expect(await failure.count()).toBe(0)
  })

  it('teaches how to push the first asset in an empty library', async () => {
    const empty = await seedOrganization(e2e.t.app, 'Empty Co')
    const page = await signedIn(empty)
    const state = page.getByRole('region', { name: 'Your library is empty' })
    await expect.poll(() => state.isVisible()).toBe(true)
    await expect.poll(() => state.getByText(`curl -X POST ${e2e.url}/api/v1/assets`).isVisible()).toBe(true)
    expect(await state.getByRole('link', { name: 'Settings → API keys' }).getAttribute('href')).toBe('/settings/keys')
    expect(await state.getByRole('link', { name: 'Upload images' }).getAttribute('href')).toBe('/upload')
    expect(await state.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/api/v1/docs')
    await checkScreen(page, 'library-empty')
  })
})
