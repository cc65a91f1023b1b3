import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, type Seeded } from '../support/app.js'
import { DIMENSIONS, startEmbeddingServer, type EmbeddingServer } from '../support/embedding-server.js'
import { solid } from '../support/images.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'


/** Pushes a PNG with the organization's write key, as a script would; its id and bytes. */
async function push(e2e: E2E, org: Seeded, title: string, color: string): Promise<{ id: string; bytes: Buffer }> {
  const bytes = await solid(96, 64, color).png().toBuffer()
  const res = await e2e.t.app.inject({
    method: 'POST',
    url: '/api/v1/assets',
    headers: { authorization: `Bearer ${org.writeKey}` },
    payload: { image_base64: bytes.toString('base64'), title, created_by_ai: false },
  })
  expect(res.statusCode, res.body).toBe(201)
  return { id: res.json<{ asset_id: string }>().asset_id, bytes }
}

async function signedIn(e2e: E2E, org: Seeded): Promise<Page> {
  const context = await e2e.context()
  const page = await context.newPage()
  await signIn(page, org.owner.email, org.owner.password)
  return page
}

/** Opens an asset from the library grid, as a person would (so the page knows the list it came from). */
async function openFromLibrary(page: Page, title: string) {
  await page.getByRole('article', { name: title, exact: true }).getByRole('link', { name: title }).click()
  await expect.poll(() => page.getByRole('heading', { name: title, level: 1 }).isVisible()).toBe(true)
}


const aiSwitch = (page: Page) => page.getByRole('switch', { name: /Semantic search and similar assets/ })

describe('the asset page, on a server without an embedding provider', () => {
  let e2e: E2E
  beforeAll(async () => {
    e2e = await startE2E({ RATE_LIMIT_EXPENSIVE: '1000', RATE_LIMIT_SIGN_IN: '100' })
  })
  afterEach(() => e2e.closeContexts())
  afterAll(async () => {
    await e2e?.close()
  })

  it('downloads the original under its title, steps through the list, adds the asset to a collection, and edits the record in place', async () => {
    const org = await seedOrganization(e2e.t.app, 'Download Co')
    const first = await push(e2e, org, 'Brand logo', '#1c7ed6')
    await push(e2e, org, 'Summer banner', '#f59f00')
    await push(e2e, org, 'Winter banner', '#74c0fc')
    const created = await e2e.t.app.inject({ method: 'POST', url: '/api/v1/collections', headers: { authorization: `Bearer ${org.writeKey}` }, payload: { name: 'Picked', kind: 'manual' } })
    expect(created.statusCode).toBe(201)
    const page = await signedIn(e2e, org)

    // Newest first: Winter, Summer, Brand logo.
    await openFromLibrary(page, 'Summer banner')
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download', exact: true }).click()
    const saved = await download
    expect(saved.suggestedFilename()).toBe('Summer banner.png')
    await page.getByRole('link', { name: 'Next' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Brand logo', level: 1 }).isVisible()).toBe(true)
    const logo = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download', exact: true }).click()
    const logoFile = await logo
    expect(logoFile.suggestedFilename()).toBe('Brand logo.png')
    expect((await readFile((await logoFile.path())!)).equals(first.bytes)).toBe(true)
    // The last of the list has no next; its previous goes back up the list.
    expect(await page.getByRole('link', { name: 'Next' }).count()).toBe(0)
    await page.getByRole('link', { name: 'Previous' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Summer banner', level: 1 }).isVisible()).toBe(true)

    await page.getByRole('button', { name: 'Add to collection' }).click()
    await page.getByRole('dialog', { name: 'Add this asset to a collection' }).getByRole('button', { name: /Picked/ }).click()
    await expect.poll(() => page.getByText('Added 1 asset to Picked.').isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('list', { name: 'In collections' }).getByRole('link', { name: 'Picked' }).isVisible()).toBe(true)

    // One panel: the record, which turns into its form and back.
    const record = page.getByRole('region', { name: 'Record' })
    expect(await page.getByRole('textbox', { name: 'Title' }).count()).toBe(0)
    await record.getByRole('button', { name: 'Edit' }).click()
    const form = page.getByRole('region', { name: 'Edit record' })
    await form.getByRole('textbox', { name: 'Title' }).fill('Summer banner, final')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Summer banner, final', level: 1 }).isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('region', { name: 'Record' }).isVisible()).toBe(true)
    expect(await page.getByRole('textbox', { name: 'Title' }).count()).toBe(0)

    // No provider on this server: the similar panel says so.
    await expect.poll(() => page.getByText('Similar assets need an embedding provider, and none is configured on this server.').isVisible()).toBe(true)
    await checkScreen(page, 'asset-page')
  })

  it('says AI is not configured on this server, what to set, and not "On"', async () => {
    const org = await seedOrganization(e2e.t.app, 'No AI Co')
    const page = await signedIn(e2e, org)
    await page.goto('/settings/organization')
    await expect.poll(() => aiSwitch(page).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('Not configured on this server').isVisible()).toBe(true)
    expect(await aiSwitch(page).isDisabled()).toBe(true)
    expect(await aiSwitch(page).isChecked()).toBe(false)
    expect(await page.getByText('EMBEDDING_BASE_URL').isVisible()).toBe(true)
    await checkScreen(page, 'settings-organization-no-ai')
  })
})

describe('the AI status on a server with an embedding provider', () => {
  let e2e: E2E
  let provider: EmbeddingServer
  beforeAll(async () => {
    provider = await startEmbeddingServer()
    e2e = await startE2E({ EMBEDDING_BASE_URL: provider.baseUrl, EMBEDDING_MODEL: 'concepts-v1', EMBEDDING_DIMENSIONS: String(DIMENSIONS), RATE_LIMIT_EXPENSIVE: '1000' })
  })
  afterEach(() => e2e.closeContexts())
  afterAll(async () => {
    await e2e?.close()
    await provider?.close()
  })

  it('shows the switch on and the similar assets once embedded; without pgvector, says so', async () => {
    const org = await seedOrganization(e2e.t.app, 'AI Co')
    await push(e2e, org, 'Red sports car', '#e03131')
    await push(e2e, org, 'Blue sedan', '#1971c2')
    const hybrid = await e2e.t.app.services.embeddings.vectorAvailable()
    if (hybrid) {
      await expect.poll(async () => (await e2e.t.app.services.embeddings.textCounts(org.org.id)).missing, { timeout: 15_000 }).toBe(0)
    }
    const page = await signedIn(e2e, org)
    await page.goto('/settings/organization')
    await expect.poll(() => aiSwitch(page).isVisible()).toBe(true)
    if (hybrid) {
      expect(await aiSwitch(page).isChecked()).toBe(true)
      expect(await page.getByText('On', { exact: true }).isVisible()).toBe(true)
      // Off and on again, each of which persists.
      await aiSwitch(page).click()
      await expect.poll(() => page.getByText('AI is off: search is text only.').isVisible()).toBe(true)
      await page.reload()
      await expect.poll(() => page.getByText('Off', { exact: true }).isVisible()).toBe(true)
      expect(await aiSwitch(page).isChecked()).toBe(false)
      await aiSwitch(page).click()
      await expect.poll(() => aiSwitch(page).isChecked()).toBe(true)
    } else {
      await expect.poll(() => page.getByText('the database has no pgvector extension').isVisible()).toBe(true)
    }
    await checkScreen(page, 'settings-organization-ai')

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await openFromLibrary(page, 'Red sports car')
    const similar = page.getByRole('region', { name: 'Similar assets' })
    if (hybrid) await expect.poll(() => similar.getByRole('link', { name: /Blue sedan/ }).isVisible()).toBe(true)
    else await expect.poll(() => similar.getByText('database does not have it').isVisible()).toBe(true)
    await checkScreen(page, 'asset-page-similar')
  })
})
