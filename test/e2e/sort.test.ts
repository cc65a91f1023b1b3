import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, type Seeded } from '../support/app.js'
import { pushImage } from '../support/fixtures.js'
import { expectNoSidewaysScroll } from './narrow.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

/** More than one page of the library (60): long titles that differ only at their end, out of title order. */
const COUNT = 63
const titleOf = (i: number) => `softwaves-wallpaper-${String((i * 37) % COUNT).padStart(4, '0')}`
const BY_TITLE = Array.from({ length: COUNT }, (_, i) => titleOf(i)).sort()

let e2e: E2E
let org: Seeded
let page: Page

/** The whole titles of the library's cards, in the grid's order (each card's title shows it on hover). */
const wholeTitles = (page: Page) => page.getByRole('list', { name: 'Assets' }).locator('.asset-title').evaluateAll((titles) => titles.map((title) => title.getAttribute('title')))
const heading = (page: Page, title: string) => page.getByRole('heading', { name: title, level: 1 })

/** Scrolls to the end of the grid until every asset is loaded (the next page loads as the end nears, or by its button). */
async function loadAll(page: Page) {
  await expect
    .poll(async () => {
      await page.evaluate('window.scrollTo(0, document.body.scrollHeight)')
      return page.getByRole('list', { name: 'Assets' }).getByRole('article').count()
    })
    .toBe(COUNT)
}

beforeAll(async () => {
  e2e = await startE2E({ RATE_LIMIT_EXPENSIVE: '1000', RATE_LIMIT_SIGN_IN: '100' })
  org = await seedOrganization(e2e.t.app, 'Sort Co')
  // Eight pushes in flight: the order of creation does not matter to a title sort.
  for (let first = 0; first < COUNT; first += 8) {
    const batch = Array.from({ length: Math.min(8, COUNT - first) }, (_, j) => first + j)
    await Promise.all(batch.map((i) => pushImage(e2e.t.app, org.writeKey, { title: titleOf(i), tag_names: [i < 3 ? 'mall' : 'wallpaper'] })))
  }
  page = await (await e2e.context()).newPage()
})
afterAll(async () => {
  await e2e?.close()
})

describe('sorting the library', () => {
  it('sorts by title across pages, keeps the order in the URL through a reload, at 1280 and 375 px', async () => {
    await signIn(page, org.owner.email, org.owner.password)
    await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Title A–Z' })
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('title')
    await expect.poll(async () => (await wholeTitles(page))[0]).toBe(BY_TITLE[0])
    expect(await page.getByRole('list', { name: 'Assets' }).getByRole('article').count()).toBe(60)
    await loadAll(page)
    expect(await wholeTitles(page)).toEqual(BY_TITLE)
    await checkScreen(page, 'library-sorted')

    await page.setViewportSize({ width: 375, height: 812 })
    await page.reload()
    await expect.poll(() => page.getByRole('combobox', { name: 'Sort' }).inputValue()).toBe('title')
    await expect.poll(async () => (await wholeTitles(page))[0]).toBe(BY_TITLE[0])
    await loadAll(page)
    expect(await wholeTitles(page)).toEqual(BY_TITLE)
    await expectNoSidewaysScroll(page)
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it('shows the distinguishing end of long titles, the whole title on hover', async () => {
    const title = page.getByRole('list', { name: 'Assets' }).locator('.middle-ellipsis').first()
    expect(await title.getAttribute('title')).toBe(BY_TITLE[0])
    expect(await title.locator('.middle-ellipsis-end').isVisible()).toBe(true)
    expect(await title.locator('.middle-ellipsis-end').textContent()).toBe(BY_TITLE[0]!.slice(-8))
  })

  it('filters by a typed tag prefix', async () => {
    const tag = page.getByRole('combobox', { name: 'Tag' })
    await tag.fill('wall')
    await tag.press('Enter')
    await expect.poll(() => new URL(page.url()).searchParams.get('tag_prefix')).toBe('wall')
    await expect.poll(() => page.getByText(`${COUNT - 3} assets`).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await expect.poll(() => page.getByText(`${COUNT} assets`).isVisible()).toBe(true)
  })

  it('steps through the sorted list with the arrow keys on the asset page, but not while typing', async () => {
    await page.getByRole('article', { name: BY_TITLE[0], exact: true }).getByRole('link', { name: BY_TITLE[0] }).click()
    await expect.poll(() => heading(page, BY_TITLE[0]!).isVisible()).toBe(true)
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => heading(page, BY_TITLE[1]!).isVisible()).toBe(true)
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => heading(page, BY_TITLE[2]!).isVisible()).toBe(true)
    await page.keyboard.press('ArrowLeft')
    await expect.poll(() => heading(page, BY_TITLE[1]!).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Title', { exact: true }).press('ArrowRight')
    expect(await heading(page, BY_TITLE[1]!).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect(await page.getByRole('link', { name: 'Next' }).isVisible()).toBe(true)
  })

  it('lists a smart collection in its stored order, which the Sort control overrides in the URL; the asset page steps in it', async () => {
    const created = await e2e.t.app.inject({
      method: 'POST',
      url: '/api/v1/collections',
      headers: { authorization: `Bearer ${org.writeKey}` },
      payload: { name: 'Wallpapers Z to A', query: { tag_prefix: 'wall', sort: '-title' } },
    })
    expect(created.statusCode, created.body).toBe(201)
    const wallpapers = BY_TITLE.filter((title) => ![0, 1, 2].map(titleOf).includes(title))
    const collectionTitles = () => page.locator('.collection-card-title .middle-ellipsis').evaluateAll((titles) => titles.map((title) => title.getAttribute('title')))
    await page.goto(`/collections/${created.json<{ id: string }>().id}`)
    await expect.poll(async () => (await collectionTitles())[0]).toBe(wallpapers.at(-1))
    expect(await page.getByRole('combobox', { name: 'Sort' }).inputValue()).toBe('-title')
    await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Title A–Z' })
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('title')
    await expect.poll(async () => (await collectionTitles())[0]).toBe(wallpapers[0])
    await checkScreen(page, 'collection-sorted')
    await page.getByRole('link', { name: wallpapers[0], exact: true }).click()
    await expect.poll(() => heading(page, wallpapers[0]!).isVisible()).toBe(true)
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => heading(page, wallpapers[1]!).isVisible()).toBe(true)
  })

  it('adds the asset to a collection created on the spot', async () => {
    await page.getByRole('button', { name: 'Add to collection' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add this asset to a collection' })
    await dialog.getByLabel('New collection').fill('Wallpapers')
    await checkScreen(page, 'add-to-new-collection')
    await dialog.getByRole('button', { name: 'Create and add' }).click()
    await expect.poll(() => page.getByText('Added 1 asset to Wallpapers.').isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('list', { name: 'In collections' }).getByRole('link', { name: 'Wallpapers' }).isVisible()).toBe(true)
  })
})
