import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization } from '../support/app.js'
import { pushImage } from '../support/fixtures.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

const COUNT = 30

let e2e: E2E

beforeAll(async () => {
  e2e = await startE2E()
})
afterAll(() => e2e?.close())

/** Every asset of the organization as the API lists it, by id. */
async function listed(writeKey: string) {
  const res = await e2e.t.app.inject({ method: 'GET', url: '/api/v1/assets?limit=100', headers: { authorization: `Bearer ${writeKey}` } })
  return res.json<{ data: Array<{ id: string; title: string; tags: string[]; client: string | null; asset_type: string | null; created_by_ai: boolean }> }>().data
}

/** Selects every card: the first, then shift and the last, as a person selects a range. */
async function selectAll(page: Page) {
  const boxes = page.getByRole('list', { name: 'Assets' }).getByRole('checkbox')
  await expect.poll(() => boxes.count()).toBe(COUNT)
  await boxes.first().check()
  await boxes.last().click({ modifiers: ['Shift'] })
  await expect.poll(() => page.getByRole('toolbar', { name: 'Selection' }).getByText(`${COUNT} selected`).isVisible()).toBe(true)
}

describe('bulk edit from the selection bar', () => {
  it(`edits ${COUNT} assets in one request at 1280 px and again at 375 px, the dialog accessible at both`, async () => {
    const org = await seedOrganization(e2e.t.app, 'Bulk Co')
    await Promise.all(Array.from({ length: COUNT }, (_, i) => pushImage(e2e.t.app, org.writeKey, { title: `Poster ${String(i + 1).padStart(2, '0')}`, client: 'Initech', tag_names: ['draft'] })))
    const context = await e2e.context()
    const page = await context.newPage()
    const bulkRequests: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/assets/bulk') bulkRequests.push(request.method())
    })
    await signIn(page, org.owner.email, org.owner.password)
    await selectAll(page)

    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Edit' }).click()
    const dialog = page.getByRole('dialog', { name: `Edit ${COUNT} assets` })
    const tagToAdd = dialog.getByRole('combobox', { name: 'Tag to add' })
    await tagToAdd.fill('spring')
    await tagToAdd.press('Enter')
    await dialog.getByRole('combobox', { name: 'Tag to remove' }).fill('draft')
    await dialog.getByLabel('Type', { exact: true }).selectOption('Banner')
    await dialog.getByRole('combobox', { name: 'Client' }).fill('Acme')
    await dialog.getByRole('radio', { name: 'Made by a person' }).check()
    await checkScreen(page, 'bulk-edit-dialog')
    await dialog.getByRole('button', { name: `Apply to ${COUNT} assets` }).click()
    await expect.poll(() => page.getByText(`${COUNT} updated, 0 unchanged, 0 skipped.`).isVisible()).toBe(true)
    expect(await dialog.isVisible()).toBe(false)
    expect(bulkRequests).toEqual(['POST'])
    for (const asset of await listed(org.writeKey)) expect(asset, asset.title).toMatchObject({ tags: ['spring'], client: 'Acme', asset_type: 'Banner', created_by_ai: false })
    // The cards show what changed: the lists were refreshed.
    await expect.poll(() => page.getByRole('article', { name: 'Poster 01', exact: true }).getByText('Acme').isVisible()).toBe(true)

    await page.setViewportSize({ width: 375, height: 812 })
    // The selection stays after the edit: the same 30, edited again on a phone's width.
    await expect.poll(() => page.getByRole('toolbar', { name: 'Selection' }).getByText(`${COUNT} selected`).isVisible()).toBe(true)
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Edit' }).click()
    const again = page.getByRole('dialog', { name: `Edit ${COUNT} assets` })
    await again.getByRole('radio', { name: 'Made with AI' }).check()
    const apply = again.getByRole('button', { name: `Apply to ${COUNT} assets` })
    const box = (await apply.boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(375)
    await apply.click()
    // The dialog closes once the answer is in (the first edit's note may still be showing).
    await expect.poll(() => again.isVisible()).toBe(false)
    await expect.poll(() => page.getByText(`${COUNT} updated, 0 unchanged, 0 skipped.`).count()).toBeGreaterThan(0)
    expect(bulkRequests).toEqual(['POST', 'POST'])
    for (const asset of await listed(org.writeKey)) expect(asset, asset.title).toMatchObject({ tags: ['spring'], created_by_ai: true })
  })
})
