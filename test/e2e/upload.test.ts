import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { solid, undecodablePng } from '../support/images.js'
import { startServer, type TestServer } from '../support/http-server.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

let e2e: E2E
let images: TestServer
let dir: string
beforeAll(async () => {
  // The outbound guard refuses private addresses; the local image server is allowed by name.
  e2e = await startE2E({ OUTBOUND_ALLOWLIST: '127.0.0.1/32' })
  const served = await solid(40, 30, '#2f9e44').png().toBuffer()
  images = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': served.length })
    res.end(served)
  })
  dir = mkdtempSync(join(tmpdir(), 'upload-e2e-'))
})
afterAll(async () => {
  await images.close()
  await e2e.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('uploading', () => {
  it('sends three files with the batch tags, two new and one duplicate, and they show in the library', async () => {
    const coral = await solid(64, 48, '#ff6b6b').png().toBuffer()
    const teal = await solid(48, 64, '#0ca678').png().toBuffer()
    const files = { 'coral-hero.png': coral, 'teal-card.png': teal, 'coral-again.png': coral }
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes)

    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload' }).click()
    await page.getByLabel('Tags').fill('launch')
    await page.getByLabel('Made by a person').check()
    await page.getByLabel('Upload images').setInputFiles(Object.keys(files).map((name) => join(dir, name)))

    const results = page.getByRole('region', { name: 'Uploads' })
    await expect.poll(() => results.getByRole('status').textContent()).toBe('3 items: 2 new, 1 duplicate, 0 failed')
    expect(await results.getByRole('link', { name: 'New', exact: true }).count()).toBe(2)
    expect(await results.getByRole('link', { name: 'Duplicate', exact: true }).count()).toBe(1)
    await checkScreen(page, 'upload')

    // The duplicate points at the asset its bytes already are.
    const rows = results.getByRole('listitem')
    const first = await rows.filter({ hasText: 'coral-hero' }).getByRole('link').getAttribute('href')
    const again = await rows.filter({ hasText: 'coral-again' }).getByRole('link').getAttribute('href')
    expect(again).toBe(first)

    // The batch's tags and origin went with each file.
    const listed = await e2e.t.app.inject({ method: 'GET', url: '/api/v1/assets?tag=launch', headers: { authorization: `Bearer ${e2e.acme.readKey}` } })
    const body = listed.json<{ data: Array<{ title: string; created_by_ai: boolean }> }>()
    // The two coral files are sent at once: whichever the server took first is the new asset.
    const coralTitle = body.data.find((a) => a.title.startsWith('coral-'))?.title ?? 'no coral asset'
    expect(['coral-hero', 'coral-again']).toContain(coralTitle)
    expect(body.data.map((a) => a.title).sort()).toEqual([coralTitle, 'teal-card'])
    expect(body.data.every((a) => !a.created_by_ai)).toBe(true)

    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Library' }).click()
    await expect.poll(() => page.getByRole('article', { name: coralTitle }).isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('article', { name: 'teal-card' }).isVisible()).toBe(true)
    // Their thumbnails, made after the pushes answered (on demand if the background has not got to them), load.
    const thumbnailLoaded = (name: string) =>
      page
        .getByRole('article', { name })
        .locator('img')
        .evaluate((image) => (image as unknown as { complete: boolean; naturalWidth: number }).complete && (image as unknown as { naturalWidth: number }).naturalWidth > 0)
    await expect.poll(() => thumbnailLoaded(coralTitle)).toBe(true)
    await expect.poll(() => thumbnailLoaded('teal-card')).toBe(true)

    // The queue outlives the screen: back on Upload, the rows are still there.
    await nav.getByRole('link', { name: 'Upload' }).click()
    await expect.poll(() => page.getByRole('region', { name: 'Uploads' }).getByRole('status').textContent()).toBe('3 items: 2 new, 1 duplicate, 0 failed')
    await context.close()
  })

  it('shows "No preview" in the library for an image whose decode failed, not a broken image', async () => {
    const pushed = await e2e.t.app.inject({
      method: 'POST',
      url: '/api/v1/assets',
      headers: { authorization: `Bearer ${e2e.acme.writeKey}` },
      payload: { title: 'half-a-picture', image_base64: (await undecodablePng()).toString('base64') },
    })
    expect(pushed.statusCode, pushed.body).toBe(201)
    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    const card = page.getByRole('article', { name: 'half-a-picture' })
    await expect.poll(() => card.getByText('No preview').isVisible(), { timeout: 30_000 }).toBe(true)
    expect(await card.locator('img').count()).toBe(0)
    await checkScreen(page, 'library-no-preview')
    await context.close()
  })

  it('sends 40 files as a person at a screen: no rate-limit wait, one reload of the catalogue, and the library reads after', async () => {
    const paths = await Promise.all(
      Array.from({ length: 40 }, async (_, n) => {
        const path = join(dir, `swatch-${n}.png`)
        writeFileSync(path, await solid(12, 12, `#${(0x102030 + n * 0x010101).toString(16)}`).png().toBuffer())
        return path
      }),
    )
    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/upload')
    await expect.poll(() => page.getByRole('region', { name: 'Uploads' }).isVisible()).toBe(true)
    // The page's own first load of the catalogue is over before the count starts: only the batch's reloads count.
    await page.waitForLoadState('networkidle')
    const refused: string[] = []
    let clientListLoads = 0
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/clients') clientListLoads++
    })
    page.on('response', (response) => {
      if (response.status() === 429) refused.push(response.url())
    })

    await page.getByLabel('Upload images').setInputFiles(paths)
    const results = page.getByRole('region', { name: 'Uploads' })
    await expect.poll(() => results.getByRole('status').textContent(), { timeout: 60_000 }).toBe('40 items: 40 new, 0 duplicate, 0 failed')
    // The catalogue is loaded again once, for the batch, not after each of the 40 files.
    await expect.poll(() => clientListLoads).toBe(1)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await expect.poll(() => page.getByRole('article', { name: 'swatch-39' }).isVisible()).toBe(true)
    expect(refused).toEqual([])
    expect(await page.locator('.toast').count()).toBe(0)
    await context.close()
  })

  it('imports an image from a URL, and shows the refusal of one it may not fetch', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/upload')
    // Nothing queued in this tab yet: the region is there, its summary empty until something is added.
    const empty = page.getByRole('region', { name: 'Uploads' })
    await expect.poll(() => empty.getByText('Files you add appear here.', { exact: false }).isVisible()).toBe(true)
    expect(await empty.getByRole('status').textContent()).toBe('')
    await checkScreen(page, 'upload-empty')

    await page.getByLabel('Image URL').fill(`${images.url}/campaign/green-banner.png`)
    await page.getByRole('button', { name: 'Import' }).click()
    const results = page.getByRole('region', { name: 'Uploads' })
    await expect.poll(() => results.getByRole('status').textContent()).toBe('1 item: 1 new, 0 duplicate, 0 failed')
    await expect.poll(() => results.getByText('green-banner', { exact: true }).isVisible()).toBe(true)
    expect(images.hits).toContain('/campaign/green-banner.png')

    // 10.0.0.1 is private and not allowed: the row shows the problem's detail.
    await page.getByLabel('Image URL').fill('http://10.0.0.1/private.png')
    await page.getByRole('button', { name: 'Import' }).click()
    await expect.poll(() => results.getByRole('status').textContent()).toBe('2 items: 1 new, 0 duplicate, 1 failed')
    const refused = results.getByRole('listitem').filter({ hasText: 'private' })
    expect(await refused.textContent()).toContain('image_url was not fetched: The URL points to a destination that is not allowed.')
    expect(await refused.getByRole('button', { name: 'Cancel private' }).count()).toBe(0)
    await context.close()
  })

  it('starts as "Made by a person" and remembers the choice; at 375 px the picker and the results come first, the batch form folded', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/upload')
    await expect.poll(() => page.getByLabel('Made by a person').isChecked()).toBe(true)
    await page.getByLabel('Made by AI').check()
    await page.reload()
    await expect.poll(() => page.getByLabel('Made by AI').isChecked()).toBe(true)
    await page.getByLabel('Made by a person').check()

    await page.setViewportSize({ width: 375, height: 812 })
    const picker = page.getByLabel('Upload images')
    const toggle = page.getByRole('button', { name: /Details for this batch/ })
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false')
    expect(await page.getByLabel('Tags').isVisible()).toBe(false)
    const top = async (locator: typeof picker) => (await locator.evaluate((element) => element.getBoundingClientRect().top))
    expect(await top(page.getByRole('region', { name: 'Uploads' }))).toBeLessThan(await top(toggle))
    expect(await top(page.getByText('Choose images…'))).toBeLessThan(await top(toggle))

    // A file that is no image: its row shows no broken picture, and its message names the formats accepted.
    const fake = join(dir, 'notes.png')
    writeFileSync(fake, 'these are notes, not pixels')
    await picker.setInputFiles(fake)
    const results = page.getByRole('region', { name: 'Uploads' })
    await expect.poll(() => results.getByRole('status').textContent()).toBe('1 item: 0 new, 0 duplicate, 1 failed')
    const row = results.getByRole('listitem').filter({ hasText: 'notes' })
    expect(await row.textContent()).toContain('Accepted formats: JPEG, PNG, WebP, GIF, AVIF, TIFF or SVG.')
    await expect.poll(() => row.locator('img').count()).toBe(0)
    await toggle.click()
    await expect.poll(() => page.getByLabel('Tags').isVisible()).toBe(true)
    await checkScreen(page, 'upload-narrow')
    await context.close()
  })
})
