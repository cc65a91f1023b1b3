import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization } from '../support/app.js'
import { solid } from '../support/images.js'
import { expectAccessible, screenshots, signIn, startE2E, type E2E } from './support.js'

const SEED = [
  { title: 'Brand logo', asset_type: 'Logo', client: 'Initech', tags: ['brand', 'logo'], ai: false, color: '#1c7ed6', size: [320, 320] },
  { title: 'Summer banner', asset_type: 'Banner', client: 'Initech', tags: ['summer', 'campaign'], ai: true, color: '#f59f00', size: [640, 240] },
  { title: 'Winter banner', asset_type: 'Banner', client: 'Globex', tags: ['winter', 'campaign'], ai: false, color: '#74c0fc', size: [640, 240] },
  { title: 'Product photo', asset_type: 'Photo', client: 'Globex', tags: ['product'], ai: false, color: '#2f9e44', size: [300, 400] },
  { title: 'Team portrait', asset_type: 'Photo', client: 'Initech', tags: ['people'], ai: false, color: '#e64980', size: [400, 300] },
  { title: 'Office icon', asset_type: 'Icon', client: 'Globex', tags: ['icon'], ai: false, color: '#7048e8', size: [128, 128] },
] as const

let e2e: E2E
let context: BrowserContext
let page: Page
const ids = new Map<string, string>()

/** Pushes an asset through the public API with the write key, as a script would. */
async function push(asset: (typeof SEED)[number]): Promise<void> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(await solid(asset.size[0], asset.size[1], asset.color).png().toBuffer())]), 'image.png')
  form.append('title', asset.title)
  form.append('asset_type', asset.asset_type)
  form.append('client', asset.client)
  form.append('created_by_ai', String(asset.ai))
  for (const tag of asset.tags) form.append('tag_names', tag)
  const body = new Response(form)
  const response = await e2e.t.app.inject({
    method: 'POST',
    url: '/api/v1/assets',
    headers: { authorization: `Bearer ${e2e.acme.writeKey}`, 'content-type': body.headers.get('content-type')! },
    payload: Buffer.from(await body.arrayBuffer()),
  })
  expect(response.statusCode).toBe(201)
  ids.set(asset.title, response.json<{ asset_id: string }>().asset_id)
}

const card = (title: string) => page.getByRole('article', { name: title, exact: true })
const cardTitles = () => page.getByRole('list', { name: 'Assets' }).getByRole('heading', { level: 3 }).allTextContents()
/** Whether the card has the keyboard focus. */
const focused = (title: string) => card(title).evaluate((element) => element.ownerDocument.activeElement === element)
/** Whether every image matched has loaded (none broken). */
const loaded = (images: Locator) =>
  images.evaluateAll((all) => all.every((image) => (image as unknown as { complete: boolean; naturalWidth: number }).complete && (image as unknown as { naturalWidth: number }).naturalWidth > 0))

beforeAll(async () => {
  e2e = await startE2E()
  for (const asset of SEED) await push(asset)
  context = await e2e.context()
  page = await context.newPage()
})
afterAll(async () => {
  await context?.close()
  await e2e.close()
})

describe('the library', () => {
  it('shows every asset as a card named by its title, with the AI badge on the AI one', async () => {
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await expect.poll(() => page.getByRole('article').count()).toBe(SEED.length)
    for (const asset of SEED) await expect.poll(() => card(asset.title).isVisible()).toBe(true)
    expect(await card('Summer banner').getByTitle('Created by AI').textContent()).toBe('AI')
    expect(await card('Brand logo').getByTitle('Created by AI').count()).toBe(0)
    await expect.poll(() => page.getByText('6 assets').isVisible()).toBe(true)
    // Every thumbnail has loaded (no broken image).
    await expect.poll(() => loaded(page.getByRole('list', { name: 'Assets' }).locator('img'))).toBe(true)
    await screenshots(page, 'library')
    await expectAccessible(page)
  })

  it('filters by tag through the filter bar, keeps the filter in the URL, and across a reload', async () => {
    await page.getByLabel('Tag', { exact: true }).fill('campaign')
    await page.getByLabel('Tag', { exact: true }).press('Enter')
    await expect.poll(() => page.url()).toContain('tag=campaign')
    await expect.poll(cardTitles).toEqual(expect.arrayContaining(['Summer banner', 'Winter banner']))
    await expect.poll(() => page.getByRole('article').count()).toBe(2)
    await page.reload()
    await expect.poll(() => page.getByRole('article').count()).toBe(2)
    expect(await page.getByLabel('Tag', { exact: true }).inputValue()).toBe('campaign')

    // Type narrows further; nothing matching shows the "no matches" state, which clears.
    await page.getByLabel('Type', { exact: true }).selectOption('Logo')
    await expect.poll(() => page.getByRole('region', { name: 'No matches' }).isVisible()).toBe(true)
    expect(page.url()).toContain('asset_type=Logo')
    await page.getByRole('region', { name: 'No matches' }).getByRole('button', { name: 'Clear filters' }).click()
    await expect.poll(() => page.getByRole('article').count()).toBe(SEED.length)
    expect(new URL(page.url()).search).toBe('')
  })

  it('searches with the search box, says the mode, and returns to the list when cleared', async () => {
    await page.getByRole('searchbox', { name: 'Search' }).fill('portrait')
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter')
    await expect.poll(() => page.getByText('Text search (no embedding provider configured)').isVisible()).toBe(true)
    await expect.poll(cardTitles).toEqual(['Team portrait'])
    await screenshots(page, 'library-search')
    expect(page.url()).toContain('search=portrait')
    await page.getByRole('searchbox', { name: 'Search' }).fill('')
    await expect.poll(() => page.getByRole('article').count()).toBe(SEED.length)
    expect(page.url()).not.toContain('search=')
  })

  it('moves between cards with the arrows, opens one with Enter, edits its tags, and finds it by the new tag', async () => {
    // Newest first: the logo, pushed first, is the last card.
    await card('Brand logo').focus()
    await page.keyboard.press('ArrowLeft')
    await expect.poll(() => focused('Summer banner')).toBe(true)
    expect(await card('Summer banner').getAttribute('tabindex')).toBe('0')
    expect(await card('Brand logo').getAttribute('tabindex')).toBe('-1')
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => focused('Brand logo')).toBe(true)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.url()).toContain(`/assets/${ids.get('Brand logo')}`)
    await expect.poll(() => page.getByRole('heading', { name: 'Brand logo', level: 1 }).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('Similar assets').isVisible()).toBe(true)
    await expect.poll(() => loaded(page.getByRole('img', { name: 'Brand logo' }))).toBe(true)
    await screenshots(page, 'asset-detail')
    await expectAccessible(page)

    await page.getByLabel('Add tag').fill('hero')
    await page.getByLabel('Add tag').press('Enter')
    await page.getByRole('button', { name: 'Remove tag logo' }).click()
    await page.getByRole('button', { name: 'Save' }).click()
    // The record's tags are links to the library filtered by them.
    await expect.poll(() => page.getByRole('link', { name: 'hero', exact: true }).count()).toBe(1)
    expect(await page.getByRole('link', { name: 'logo', exact: true }).count()).toBe(0)
    const record = e2e.t.app.inject({ method: 'GET', url: `/api/v1/assets/${ids.get('Brand logo')}`, headers: { authorization: `Bearer ${e2e.acme.readKey}` } })
    expect((await record).json<{ tags: string[] }>().tags.sort()).toEqual(['brand', 'hero'])

    // Esc goes back to the library.
    await page.getByRole('heading', { name: 'Brand logo', level: 1 }).click()
    await page.keyboard.press('Escape')
    await expect.poll(() => new URL(page.url()).pathname).toBe('/')
    await page.getByLabel('Tag', { exact: true }).fill('hero')
    await page.getByLabel('Tag', { exact: true }).press('Enter')
    await expect.poll(cardTitles).toEqual(['Brand logo'])
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await expect.poll(() => page.getByRole('article').count()).toBe(SEED.length)
  })

  it('selects two assets, adds them to a collection, and deletes them after confirming', async () => {
    const created = await e2e.t.app.inject({
      method: 'POST',
      url: '/api/v1/collections',
      headers: { authorization: `Bearer ${e2e.acme.writeKey}` },
      payload: { name: 'Picked', kind: 'manual' },
    })
    expect(created.statusCode).toBe(201)
    await page.goto('/')
    await card('Office icon').hover()
    await page.getByRole('checkbox', { name: 'Select Office icon' }).check()
    await page.getByRole('checkbox', { name: 'Select Product photo' }).check()
    const toolbar = page.getByRole('toolbar', { name: 'Selection' })
    await expect.poll(() => toolbar.getByText('2 selected').isVisible()).toBe(true)
    await screenshots(page, 'library-selection')

    await toolbar.getByRole('button', { name: 'Add to collection' }).click()
    const picker = page.getByRole('dialog', { name: 'Add 2 assets to a collection' })
    await picker.getByRole('button', { name: /Picked/ }).click()
    await expect.poll(() => page.getByText('Added 2 assets to Picked.').isVisible()).toBe(true)
    const collection = await e2e.t.app.inject({ method: 'GET', url: `/api/v1/collections/${created.json<{ id: string }>().id}`, headers: { authorization: `Bearer ${e2e.acme.readKey}` } })
    expect(collection.json<{ asset_count: number }>().asset_count).toBe(2)
    await toolbar.getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete 2 assets?' })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await expect.poll(() => page.getByRole('article').count()).toBe(SEED.length - 2)
    expect(await card('Office icon').count()).toBe(0)
    expect(await card('Product photo').count()).toBe(0)
    await expect.poll(() => page.getByText('Deleted 2 assets.').isVisible()).toBe(true)
    expect(await toolbar.count()).toBe(0)
    const gone = await e2e.t.app.inject({ method: 'GET', url: `/api/v1/assets/${ids.get('Office icon')}`, headers: { authorization: `Bearer ${e2e.acme.readKey}` } })
    expect(gone.statusCode).toBe(404)
  })

  it('teaches how to push the first asset in an empty library', async () => {
    const empty = await seedOrganization(e2e.t.app, 'Empty Co')
    const other = await e2e.context()
    const fresh = await other.newPage()
    await signIn(fresh, empty.owner.email, empty.owner.password)
    const state = fresh.getByRole('region', { name: 'Your library is empty' })
    await expect.poll(() => state.isVisible()).toBe(true)
    await expect.poll(() => state.getByText(`curl -X POST ${e2e.url}/api/v1/assets`).isVisible()).toBe(true)
    expect(await state.getByRole('link', { name: 'Settings → API keys' }).getAttribute('href')).toBe('/settings/keys')
    expect(await state.getByRole('link', { name: 'Upload images' }).getAttribute('href')).toBe('/upload')
    expect(await state.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/api/v1/docs')
    await screenshots(fresh, 'library-empty')
    await expectAccessible(fresh)
    await other.close()
  })
})
