import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { bearer, seedOrganization, type Seeded } from '../support/app.js'
import { pushImage } from '../support/fixtures.js'
import { scene, scenePng } from '../support/scenes.js'
import { expectNoSidewaysScroll } from './narrow.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

/**
 * What the picture shows, as a person meets it: near-duplicates found in the background after the push,
 * reviewed on the Duplicates screen (one kept, the other to the trash), and an asset's colours leading
 * to the library filtered by them.
 */
let e2e: E2E
beforeAll(async () => {
  e2e = await startE2E({ RATE_LIMIT_EXPENSIVE: '1000', RATE_LIMIT_SIGN_IN: '100' })
  // As `serve` does: the analyses after a push run beside the API (startE2E starts the embeddings only).
  await Promise.all(e2e.t.app.services.derivations.filter((derivation) => derivation.name !== 'embeddings').map((derivation) => derivation.start()))
})
afterEach(() => e2e.closeContexts())
afterAll(async () => {
  await e2e?.close()
})

const visible = (locator: { isVisible(): Promise<boolean> }) => expect.poll(() => locator.isVisible()).toBe(true)
const heading = (page: Page, title: string) => page.getByRole('heading', { name: title, level: 1 })

async function get<T>(org: Seeded, url: string): Promise<{ status: number; body: T }> {
  const res = await e2e.t.app.inject({ method: 'GET', url, headers: bearer(org.readKey) })
  return { status: res.statusCode, body: res.json<T>() }
}

describe('the Duplicates screen', () => {
  it('groups a re-encode with its original once analysed, keeps one after confirming and trashes the other with its tags merged', async () => {
    const org = await seedOrganization(e2e.t.app, 'Lookalike Co')
    const original = await pushImage(e2e.t.app, org.writeKey, { title: 'Harbour', tag_names: ['coast'] }, await scenePng(36))
    const copy = await pushImage(e2e.t.app, org.writeKey, { title: 'Harbour re-saved', tag_names: ['print'] }, await scene(36).jpeg({ quality: 80 }).toBuffer())
    await pushImage(e2e.t.app, org.writeKey, { title: 'Meadow' }, await scenePng(37))
    // The hashes are made in the background after the push: wait until the group is there.
    await expect.poll(async () => (await get<{ total: number }>(org, '/api/v1/duplicates')).body.total, { timeout: 30_000 }).toBe(1)

    const page = await (await e2e.context()).newPage()
    await signIn(page, org.owner.email, org.owner.password)
    // The asset page lists the pictures that look alike, with no embedding provider on this server.
    await page.goto(`/assets/${original.id}`)
    await visible(page.getByRole('region', { name: 'Looks alike' }).getByRole('link', { name: /Harbour re-saved/ }))
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Duplicates' }).click()
    await visible(heading(page, 'Duplicates'))
    const group = page.getByRole('region', { name: '2 pictures like “Harbour”' })
    await visible(group)
    await visible(group.getByRole('article', { name: 'Harbour re-saved' }).getByText(/^(Distance [1-7] of 64|The same picture \(distance 0\))$/))
    await expect.poll(() => page.getByRole('region', { name: /like “Meadow”/ }).count()).toBe(0)
    await checkScreen(page, 'duplicates')
    await expectNoSidewaysScroll(page)

    await group.getByRole('article', { name: 'Harbour', exact: true }).getByRole('button', { name: 'Keep this' }).click()
    const dialog = page.getByRole('dialog', { name: 'Keep “Harbour”?' })
    await visible(dialog.getByText('“Harbour re-saved” will move to the trash, where it can be restored.'))
    await checkScreen(page, 'duplicates-keep')
    await dialog.getByRole('button', { name: 'Keep it, trash the others' }).click()
    await visible(page.getByText('Kept “Harbour”; moved 1 other to the trash.'))
    await visible(page.getByRole('region', { name: 'No duplicates to review' }))
    await checkScreen(page, 'duplicates-empty')
    const kept = await get<{ tags: string[] }>(org, `/api/v1/assets/${original.id}`)
    expect(kept.body.tags.sort()).toEqual(['coast', 'print'])
    expect((await get(org, `/api/v1/assets/${copy.id}`)).status).toBe(404)

    await page.getByRole('button', { name: 'Open trash' }).click()
    await visible(heading(page, 'Trash'))
    await visible(page.getByRole('article', { name: 'Harbour re-saved', exact: true }))
  })
})

describe('an asset’s colours', () => {
  it('link to the library filtered by each, which shows the asset', async () => {
    const org = await seedOrganization(e2e.t.app, 'Palette Co')
    const meadow = await pushImage(e2e.t.app, org.writeKey, { title: 'Meadow' }, await scenePng(41))
    type Colors = { colors: Array<{ name: string; share: number }> | null }
    await expect.poll(async () => (await get<Colors>(org, `/api/v1/assets/${meadow.id}`)).body.colors, { timeout: 30_000 }).not.toBeNull()
    const { colors } = (await get<Colors>(org, `/api/v1/assets/${meadow.id}`)).body
    // A name counts for color= from 5% of the picture: the main colour does.
    const main = colors![0]!.name

    const page = await (await e2e.context()).newPage()
    await signIn(page, org.owner.email, org.owner.password)
    await page.goto(`/assets/${meadow.id}`)
    await visible(heading(page, 'Meadow'))
    const swatches = page.locator('a.swatch-link')
    expect(await swatches.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(colors!.map((color) => `/?color=${encodeURIComponent(color.name)}`))
    await page.getByRole('link', { name: main, exact: true }).click()
    await visible(heading(page, 'Library'))
    expect(new URL(page.url()).searchParams.get('color')).toBe(main)
    await visible(page.getByRole('article', { name: 'Meadow', exact: true }))
  })
})
