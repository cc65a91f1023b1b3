import { readFile } from 'node:fs/promises'
import type { Download, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { callApi, pushImage } from '../support/fixtures.js'
import { patternNoise } from '../support/images.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

/** "Download as…" on the asset page, and a share page's "More sizes", in Chromium. */

let e2e: E2E
let assetId: string

beforeAll(async () => {
  e2e = await startE2E({ RATE_LIMIT_EXPENSIVE: '1000', RATE_LIMIT_SIGN_IN: '100', RATE_LIMIT_FILES: '10000' })
  const { app } = e2e.t
  await app.services.presets.create(e2e.acme.org.id, 'web-300', { width: 300, format: 'webp', quality: 80 })
  const collection = await callApi(app, e2e.acme.writeKey, 'POST', '/api/v1/collections', { name: 'Press kit' })
  expect(collection.statusCode, collection.body).toBe(201)
  assetId = (await pushImage(app, e2e.acme.writeKey, { title: 'Harbour', collection_name: 'Press kit' }, await patternNoise(600, 400).png().toBuffer())).id
})
afterEach(() => e2e.closeContexts())
afterAll(() => e2e?.close())

async function imageOf(download: Download) {
  const meta = await sharp(await readFile((await download.path())!)).metadata()
  return { name: download.suggestedFilename(), format: meta.format, width: meta.width, height: meta.height }
}

async function signedIn(): Promise<Page> {
  const page = await (await e2e.context()).newPage()
  await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
  return page
}

describe('Download as… on the asset page', () => {
  it('downloads a preset and a custom size, from the keyboard, and is accessible', async () => {
    const page = await signedIn()
    await page.goto(`/assets/${assetId}`)
    await expect.poll(() => page.getByRole('heading', { name: 'Harbour', level: 1 }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Download as…' }).focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Download as…' })
    await expect.poll(() => dialog.getByRole('button', { name: 'web-300' }).isVisible()).toBe(true)
    await checkScreen(page, 'download-as')

    const preset = page.waitForEvent('download')
    await dialog.getByRole('button', { name: 'web-300' }).focus()
    await page.keyboard.press('Enter')
    expect(await imageOf(await preset)).toEqual({ name: 'Harbour (web-300).webp', format: 'webp', width: 300, height: 200 })
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('web-300 is downloading.')

    await dialog.getByLabel('Width (px)').fill('150')
    await dialog.getByLabel('Format').selectOption('png')
    expect(await dialog.getByLabel('Quality').isDisabled()).toBe(true)
    const custom = page.waitForEvent('download')
    await dialog.getByLabel('Width (px)').press('Enter')
    expect(await imageOf(await custom)).toEqual({ name: 'Harbour (150x).png', format: 'png', width: 150, height: 100 })
    await checkScreen(page, 'download-as-done')
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.isVisible()).toBe(false)
  })
})

describe('More sizes on the share page', () => {
  it('opens from the keyboard and saves the asset in a preset under its name', async () => {
    const collections = await callApi(e2e.t.app, e2e.acme.readKey, 'GET', '/api/v1/collections?q=Press')
    const shared = await callApi(e2e.t.app, e2e.acme.writeKey, 'POST', `/api/v1/collections/${collections.json().data[0].id}/share`)
    const page = await (await e2e.context()).newPage()
    await page.goto(shared.json().share_url)
    const more = page.getByText('More sizes')
    await more.focus()
    await page.keyboard.press('Enter')
    const link = page.getByRole('list', { name: 'Assets' }).getByRole('link', { name: 'web-300' })
    await expect.poll(() => link.isVisible()).toBe(true)
    await checkScreen(page, 'share-more-sizes')
    const download = page.waitForEvent('download')
    await link.click()
    expect(await imageOf(await download)).toEqual({ name: 'Harbour (web-300).webp', format: 'webp', width: 300, height: 200 })
    const zip = page.waitForEvent('download')
    await page.locator('header').getByRole('link', { name: 'web-300' }).click()
    expect((await zip).suggestedFilename()).toBe('Press kit (web-300).zip')
  })
})
