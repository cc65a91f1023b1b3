import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { seedOrganization } from '../support/app.js'
import { FIGMA_TOKEN, figmaLink, IMPORT_TEST_ENV } from '../support/imports.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

/** The Import screen (issue 35) in Chromium, against the real server and the fake Figma API. */

let e2e: E2E
let fake: FakeFigma
beforeAll(async () => {
  fake = await startFakeFigma()
  fake.addToken(FIGMA_TOKEN, { handle: 'Dana Designer', email: 'dana@acme.test' })
  e2e = await startE2E({ ...IMPORT_TEST_ENV, ...fake.env })
  await e2e.t.app.services.importJob.start()
})
afterAll(async () => {
  await e2e.close()
  await fake.close()
})

/** Whether every image of the page's region `name` has loaded, and there are `count` of them. */
const imagesLoaded = (page: Page, name: string, count: number) =>
  page.getByRole('region', { name, exact: true }).locator('img').evaluateAll(
    (images, expected) => images.length === expected && images.every((image) => (image as unknown as { complete: boolean; naturalWidth: number }).complete && (image as unknown as { naturalWidth: number }).naturalWidth > 0),
    count,
  )

describe('importing from Figma', () => {
  it('connects Figma in Settings, picks two frames of a file by their thumbnails, imports them and finds them created in the library', async () => {
    const fileKey = 'E2eBrandKit12345'
    const file = fake.file(fileKey, 'Brand kit')
    const brand = file.addPage('Brand')
    file.addFrame(brand, 'Hero')
    file.addFrame(brand, 'Banner')
    file.addFrame(brand, 'Footer')
    const icons = file.addPage('Icons')
    file.addComponent(icons, 'Star')

    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)

    // Settings › Integrations: the token is checked with Figma, and whose it is is shown, never the token.
    await page.goto('/settings/integrations')
    await page.getByLabel('Personal access token').fill(FIGMA_TOKEN)
    await page.getByRole('button', { name: 'Connect Figma' }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Connected' }).textContent()).toContain('Dana Designer (dana@acme.test)')
    expect(await page.content()).not.toContain(FIGMA_TOKEN)

    // A Figma webhook on the file (PUBLIC_BASE_URL is loopback, named by OUTBOUND_ALLOWLIST here), then removed.
    await page.getByLabel('Figma file link').fill(figmaLink(fileKey))
    await page.getByRole('button', { name: 'Add webhook' }).click()
    const hooks = page.getByRole('table', { name: 'Figma webhooks' })
    await expect.poll(() => hooks.getByRole('row', { name: new RegExp(fileKey) }).isVisible()).toBe(true)
    expect(fake.webhooks().map((hook) => [hook.event_type, hook.context_id])).toEqual([['FILE_UPDATE', fileKey]])
    await checkScreen(page, 'settings-integrations')
    await hooks.getByRole('button', { name: `Remove the FILE_UPDATE webhook of file ${fileKey}` }).click()
    await page.getByRole('dialog', { name: 'Remove this Figma webhook?' }).getByRole('button', { name: 'Remove webhook' }).click()
    await expect.poll(() => page.getByText('No Figma webhooks yet.').isVisible()).toBe(true)
    expect(fake.webhooks()).toEqual([])

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click()
    await page.getByLabel('Figma link').fill(figmaLink(fileKey))
    await page.getByRole('button', { name: 'Load file' }).click()
    const brandPage = page.getByRole('region', { name: 'Brand', exact: true })
    await expect.poll(() => brandPage.getByRole('checkbox', { name: 'Hero' }).isChecked()).toBe(true)
    // Figma's own thumbnails, served by (the fake) Figma's image host and let through by the page's CSP.
    await expect.poll(() => imagesLoaded(page, 'Brand', 3)).toBe(true)
    await checkScreen(page, 'import-outline')

    await page.getByRole('button', { name: 'Select none' }).click()
    await brandPage.getByRole('checkbox', { name: 'Hero' }).check()
    await brandPage.getByRole('checkbox', { name: 'Banner' }).check()
    await page.getByRole('button', { name: 'Import 2 nodes' }).click()

    const results = page.getByRole('table', { name: 'Result per node' })
    const resultOf = (name: string) => results.getByRole('row', { name: new RegExp(`^${name}`) })
    await expect.poll(() => resultOf('Hero').getByText('Created').isVisible()).toBe(true)
    await expect.poll(() => resultOf('Banner').getByText('Created').isVisible()).toBe(true)
    expect(await results.getByRole('row').count()).toBe(3)
    // The counts come from the import's own record, polled apart from the nodes' table: they may lag it by a poll.
    await expect.poll(() => page.getByRole('region', { name: 'Progress' }).getByRole('status').textContent()).toBe('2 created')
    await checkScreen(page, 'import-result')

    // Each result links its asset, which carries the node's name and its link in Figma.
    await resultOf('Hero').getByRole('link', { name: 'Hero' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Hero', level: 1 }).isVisible()).toBe(true)
    const listed = await e2e.t.app.inject({ method: 'GET', url: '/api/v1/assets?tag=Brand', headers: { authorization: `Bearer ${e2e.acme.readKey}` } })
    expect(listed.json<{ data: Array<{ title: string }> }>().data.map((asset) => asset.title).sort()).toEqual(['Banner', 'Hero'])

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await expect.poll(() => page.getByRole('article', { name: 'Hero' }).isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('article', { name: 'Banner' }).isVisible()).toBe(true)
    expect(await page.getByRole('article', { name: 'Footer' }).count()).toBe(0)

    // The history lists the import, with its counts and Sync now.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click()
    const row = page.getByRole('table', { name: 'Imports' }).getByRole('row', { name: /Brand kit/ })
    await expect.poll(() => row.textContent()).toContain('2 created')
    await row.getByRole('button', { name: 'Sync Brand kit now' }).click()
    await expect.poll(() => row.textContent()).toContain('2 unchanged')
    await checkScreen(page, 'import-history')
    await context.close()
  })

  it('imports with a token given for this import only, which the browser does not keep', async () => {
    const globex = await seedOrganization(e2e.t.app, 'Globex')
    const fileKey = 'E2eOneTimeKey123'
    const file = fake.file(fileKey, 'Campaign')
    const page1 = file.addPage('Launch')
    file.addFrame(page1, 'Poster')
    file.addFrame(page1, 'Flyer')

    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, globex.owner.email, globex.owner.password)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click()
    await expect.poll(() => page.getByRole('link', { name: 'Connect Figma in Settings' }).getAttribute('href')).toBe('/settings/integrations')
    await page.getByLabel('Figma token for this import').fill(FIGMA_TOKEN)
    await page.getByLabel('Figma link').fill(figmaLink(fileKey))
    await page.getByRole('button', { name: 'Load file' }).click()
    await expect.poll(() => imagesLoaded(page, 'Launch', 2)).toBe(true)
    await checkScreen(page, 'import-token')
    await page.getByRole('region', { name: 'Launch', exact: true }).getByRole('checkbox', { name: 'Flyer' }).uncheck()
    await page.getByRole('button', { name: 'Import 1 node' }).click()

    const results = page.getByRole('table', { name: 'Result per node' })
    await expect.poll(() => results.getByRole('row', { name: /^Poster/ }).getByText('Created').isVisible()).toBe(true)
    const stored = await page.evaluate<string>('JSON.stringify([{ ...localStorage }, { ...sessionStorage }])')
    expect(stored).not.toContain(FIGMA_TOKEN)
    await context.close()
  })
})
