import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, pushImage } from '../support/fixtures.js'
import { readZip } from '../support/zip-reader.js'
import { checkScreen, startE2E, type E2E } from './support.js'

const COUNT = 120

let e2e: E2E
let shareUrl: string
const pushed = new Map<string, Buffer>()

beforeAll(async () => {
  e2e = await startE2E({ RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_FILES: '10000' })
  const { app } = e2e.t
  const created = await callApi(app, e2e.acme.writeKey, 'POST', '/api/v1/collections', { name: 'Autumn campaign', description: 'Photos for the press.' })
  expect(created.statusCode, created.body).toBe(201)
  for (let i = 0; i < COUNT; i++) {
    const title = `Photo ${String(i).padStart(3, '0')}`
    pushed.set(title, (await pushImage(app, e2e.acme.writeKey, { title, collection_name: 'Autumn campaign' })).image)
  }
  const shared = await callApi(app, e2e.acme.writeKey, 'POST', `/api/v1/collections/${created.json().id}/share`)
  expect(shared.statusCode, shared.body).toBe(201)
  shareUrl = shared.json().share_url
}, 180_000)
afterAll(() => e2e.close())

const thumbnails = (page: Page) => page.getByRole('list', { name: 'Assets' }).getByRole('img')
const titlesOn = async (page: Page) => Promise.all((await thumbnails(page).all()).map((image) => image.getAttribute('alt')))


describe('the public share page', () => {
  it('pages through all 120 assets by its Next and Previous links, and names the organization', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await page.goto(shareUrl)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Autumn campaign')
    expect(await page.getByText('Shared by Acme Design').isVisible()).toBe(true)
    expect(await page.getByText('120 assets').isVisible()).toBe(true)
    const seen: Array<string | null> = []
    for (const [pageNumber, count] of [
      [1, 50],
      [2, 50],
      [3, 20],
    ] as const) {
      await expect.poll(() => page.getByText(`Page ${pageNumber} of 3`).isVisible()).toBe(true)
      await expect.poll(() => thumbnails(page).count()).toBe(count)
      seen.push(...(await titlesOn(page)))
      if (pageNumber === 1) {
        await checkScreen(page, 'share-page')
      }
      if (pageNumber < 3) await page.getByRole('link', { name: 'Next page' }).click()
    }
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0)
    expect(new Set(seen)).toEqual(new Set(pushed.keys()))
    await page.getByRole('link', { name: 'Previous page' }).click()
    await expect.poll(() => page.getByText('Page 2 of 3').isVisible()).toBe(true)
    await context.close()
  })

  it('opens an asset large, moves with the arrow keys, closes on Esc and gives the focus back', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await page.goto(shareUrl)
    const [first, second] = (await titlesOn(page)) as [string, string]
    const opener = page.getByRole('link', { name: first, exact: true })
    await opener.click()
    const lightbox = page.getByRole('dialog', { name: 'Large image' })
    await expect.poll(() => lightbox.isVisible()).toBe(true)
    await expect.poll(() => lightbox.getByRole('img', { name: first }).isVisible()).toBe(true)
    await expect.poll(() => lightbox.getByRole('img', { name: first }).evaluate((element) => {
          const image = element as unknown as { complete: boolean; naturalWidth: number }
          return image.complete && image.naturalWidth > 0
        })).toBe(true)
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => lightbox.getByRole('img', { name: second }).isVisible()).toBe(true)
    // Counted in the whole collection, not the page.
    await expect.poll(() => lightbox.getByText(`${second} (2 of 120)`).isVisible()).toBe(true)
    await checkScreen(page, 'share-lightbox')
    // Focus stays inside while it is open.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab')
      expect(await lightbox.evaluate((dialog) => dialog.contains(dialog.ownerDocument.activeElement))).toBe(true)
    }
    await page.keyboard.press('ArrowLeft')
    await expect.poll(() => lightbox.getByRole('img', { name: first }).isVisible()).toBe(true)
    await page.keyboard.press('Escape')
    await expect.poll(() => lightbox.isVisible()).toBe(false)
    expect(await opener.evaluate((link) => link === link.ownerDocument.activeElement)).toBe(true)
    await context.close()
  })

  it('counts a later page’s assets in the whole collection in the lightbox', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await page.goto(`${shareUrl}?page=3`)
    const titles = (await titlesOn(page)) as string[]
    expect(titles).toHaveLength(20)
    await page.getByRole('link', { name: titles[0]!, exact: true }).click()
    const lightbox = page.getByRole('dialog', { name: 'Large image' })
    await expect.poll(() => lightbox.getByText(`${titles[0]} (101 of 120)`).isVisible()).toBe(true)
    await page.keyboard.press('ArrowLeft')
    await expect.poll(() => lightbox.getByText(`${titles[19]} (120 of 120)`).isVisible()).toBe(true)
    await context.close()
  })

  it('downloads an original under its file name, and the whole collection as one zip', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await page.goto(shareUrl)
    const [title] = (await titlesOn(page)) as [string]
    const [one] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Download ${title}` }).click()])
    expect(one.suggestedFilename()).toBe(`${title}.png`)
    expect((await readFile(await one.path())).equals(pushed.get(title)!)).toBe(true)

    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download all as a zip' }).click()])
    expect(zip.suggestedFilename()).toBe('Autumn campaign.zip')
    const entries = readZip(await readFile(await zip.path()))
    expect(entries.map((entry) => entry.name).sort()).toEqual([...pushed.keys()].map((name) => `${name}.png`).sort())
    for (const entry of entries) expect(entry.bytes.equals(pushed.get(entry.name.replace(/\.png$/, ''))!), entry.name).toBe(true)
    await context.close()
  })
})
