import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pushImage } from '../support/fixtures.js'
import { PASSWORD } from '../support/sessions.js'
import { expectNoSidewaysScroll } from './narrow.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

let e2e: E2E
beforeAll(async () => {
  e2e = await startE2E()
})
afterEach(() => e2e.closeContexts())
afterAll(() => e2e.close())

async function signedIn(email: string, password: string): Promise<Page> {
  const page = await (await e2e.context()).newPage()
  await signIn(page, email, password)
  return page
}

const REFUSED = 'Only owners and admins can delete an asset someone else created.'

describe('what a member may do, shown before they try', () => {
  it('shows a member someone else\u2019s asset with who added it, and Delete refused with why', async () => {
    const { id } = await pushImage(e2e.t.app, e2e.acme.writeKey, { title: 'Brand hero' })
    const email = 'member-permissions@example.com'
    await e2e.t.app.services.orgs.addMember(e2e.acme.org.id, { email, password: PASSWORD, role: 'member' })
    const page = await signedIn(email, PASSWORD)

    await page.goto(`/assets/${id}`)
    await expect.poll(() => page.getByRole('heading', { name: 'Brand hero' }).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('assets:write (API key)').isVisible()).toBe(true)
    const remove = page.getByRole('button', { name: 'Move to trash' })
    await expect.poll(() => remove.getAttribute('aria-disabled')).toBe('true')
    const describedBy = (await remove.getAttribute('aria-describedby'))!
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(REFUSED)
    await expect.poll(() => page.getByText(REFUSED).isVisible()).toBe(true)
    await remove.click({ force: true })
    expect(page.url()).toContain(`/assets/${id}`)
    await expect.poll(() => page.getByText(/This link works for \d+ hours/).isVisible()).toBe(true)
    await expect.poll(() => page.getByText('No lasting link exists.').isVisible()).toBe(true)

    await checkScreen(page, 'asset-member-view')
    await expectNoSidewaysScroll(page)
  })

  it('shows the owner a collection\u2019s share link again, and warns before a new one retires it', async () => {
    const page = await signedIn(e2e.acme.owner.email, e2e.acme.owner.password)
    const created = await page.request.post('/api/v1/collections', {
      data: { name: 'Press kit' },
      headers: { 'x-csrf-token': (await (await page.request.get('/app/api/session')).json()).csrf_token },
    })
    expect(created.status()).toBe(201)
    const { id } = (await created.json()) as { id: string }

    await page.goto(`/collections/${id}`)
    await page.getByRole('button', { name: 'Share' }).click()
    const field = page.getByLabel('Public link')
    await expect.poll(() => field.inputValue()).toMatch(/\/s\//)
    const first = await field.inputValue()

    await page.reload()
    await expect.poll(() => page.getByLabel('Public link').inputValue()).toBe(first)

    await page.getByRole('button', { name: 'Make a new link' }).click()
    const dialog = page.getByRole('dialog', { name: 'Make a new link?' })
    await expect.poll(() => dialog.getByText('The current link stops working at once').isVisible()).toBe(true)
    await dialog.getByRole('button', { name: 'Make a new link' }).click()
    await expect.poll(() => page.getByLabel('Public link').inputValue()).not.toBe(first)
    expect((await page.request.get(`${first}.json`)).status()).toBe(404)

    await checkScreen(page, 'collection-share-again')
  })
})

