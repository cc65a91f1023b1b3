import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drainDerivations } from '../support/app.js'
import { startFakeImmichMl, type FakeImmichMl } from '../support/fake-immich-ml.js'
import { pushUntitledPictures } from '../support/fixtures.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

/**
 * Search that sees the pictures, in the browser: the fake Immich-ML service makes vectors from the
 * pixels, so "red" finds the red picture whose title says nothing. The app runs on the embedded
 * database (pgvector) even in CI's end-to-end pass on PostgreSQL, which has none.
 */
describe('the library search finds untitled pictures by what they show', () => {
  let service: FakeImmichMl
  let e2e: E2E

  beforeAll(async () => {
    service = await startFakeImmichMl()
    e2e = await startE2E({ IMAGE_EMBEDDING_PROVIDER: 'immich-ml', IMAGE_EMBEDDING_URL: service.url }, { embeddedDatabase: true })
  })
  afterAll(async () => {
    await e2e?.close()
    await service?.close()
  })

  it('"red" shows the red picture first, in words-and-meaning mode; its page lists the look-alike first among the similar assets', async () => {
    await pushUntitledPictures(e2e.t.app, e2e.acme.writeKey)
    await drainDerivations(e2e.t.app)
    const page = await (await e2e.context()).newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)

    await page.getByRole('searchbox', { name: 'Search' }).fill('red')
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter')
    await expect.poll(() => page.getByText('Words and meaning').isVisible()).toBe(true)
    const titles = () => page.getByRole('list', { name: 'Assets' }).getByRole('heading', { level: 3 }).allTextContents()
    await expect.poll(async () => (await titles()).slice(0, 2)).toEqual(['IMG_0001', 'IMG_0003'])
    await checkScreen(page, 'search-by-picture')

    await page.getByRole('article', { name: 'IMG_0001', exact: true }).getByRole('link', { name: 'IMG_0001' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'IMG_0001', level: 1 }).isVisible()).toBe(true)
    const similar = page.getByRole('region', { name: 'Similar assets' })
    await expect.poll(async () => (await similar.getByRole('listitem').allTextContents())[0]).toBe('IMG_0003')
    expect(await similar.getByRole('link', { name: 'IMG_0003' }).getAttribute('title')).toMatch(/^IMG_0003 \(\d+% similar\)$/)
    await checkScreen(page, 'asset-page-similar-pictures')

    // The AI setting says what goes to the image provider, and what search then does with it.
    await page.goto('/settings/organization')
    await expect.poll(() => page.getByRole('switch', { name: /Semantic search and similar assets/ }).isChecked()).toBe(true)
    expect(await page.getByText('a 224-pixel copy of each picture to its image embedding provider').isVisible()).toBe(true)
    expect(await page.getByText('by what the pictures show, even untitled ones').isVisible()).toBe(true)
    await checkScreen(page, 'settings-organization-ai-pictures')
  })
})
