import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD } from '../support/sessions.js'
import { pushImage } from '../support/fixtures.js'
import { solid } from '../support/images.js'
import { startReceiver, WEBHOOK_TEST_ENV, type WebhookReceiver } from '../support/webhook-receiver.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

/**
 * The screens and dialogs the feature tests pass through without stopping: each is checked (axe at 1280
 * and 375 px) and saved, so every screen of the app is looked at, not only the ones a flow ends on.
 */
let e2e: E2E
let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startReceiver()
  e2e = await startE2E({ ...WEBHOOK_TEST_ENV })
  for (const [title, colour] of [
    ['Sunset poster', '#e8590c'],
    ['Night banner', '#364fc7'],
  ] as const) {
    await pushImage(e2e.t.app, e2e.acme.writeKey, { title, created_by_ai: false }, await solid(120, 80, colour).png().toBuffer())
  }
})
afterEach(() => e2e.closeContexts())
afterAll(async () => {
  await e2e.close()
  await receiver.close()
})

async function signedIn(email = e2e.acme.owner.email, password = e2e.acme.owner.password): Promise<Page> {
  const page = await (await e2e.context()).newPage()
  await signIn(page, email, password)
  return page
}

async function openDialog(page: Page, button: string, dialog: string) {
  await page.getByRole('button', { name: button, exact: true }).first().click()
  const opened = page.getByRole('dialog', { name: dialog })
  await expect.poll(() => opened.isVisible()).toBe(true)
  return opened
}

describe('every screen', () => {
  it('the library dialogs: add a selection to a collection, and the page that does not exist', async () => {
    const page = await signedIn()
    await page.getByRole('article', { name: 'Sunset poster', exact: true }).getByRole('link', { name: 'Sunset poster' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Sunset poster', level: 1 }).isVisible()).toBe(true)
    await page.getByRole('region', { name: 'Record' }).getByRole('button', { name: 'Edit' }).click()
    await checkScreen(page, 'asset-page-editing')

    await page.goto('/')
    await page.getByRole('checkbox', { name: 'Select Night banner' }).check()
    await openDialog(page, 'Add to collection', 'Add this asset to a collection')
    await checkScreen(page, 'dialog-add-to-collection')

    await page.goto('/no-such-screen')
    await expect.poll(() => page.getByText('This page does not exist.').isVisible()).toBe(true)
    await checkScreen(page, 'not-found')
  })

  it('the collection dialogs: new, add assets, rename and delete', async () => {
    const page = await signedIn()
    await page.goto('/collections')
    const create = await openDialog(page, 'New collection', 'New collection')
    await create.getByLabel('Name').fill('Campaign')
    await checkScreen(page, 'dialog-new-collection')
    await create.getByRole('button', { name: 'Create collection' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Campaign', level: 1 }).isVisible()).toBe(true)

    await openDialog(page, 'Add assets', 'Add assets to Campaign')
    await checkScreen(page, 'dialog-add-assets')
    await page.keyboard.press('Escape')
    await openDialog(page, 'Rename', 'Rename collection')
    await checkScreen(page, 'dialog-rename-collection')
    await page.keyboard.press('Escape')
    await openDialog(page, 'Delete', 'Delete this collection?')
    await checkScreen(page, 'dialog-delete-collection')
  })

  it('the settings dialogs: a new key and its secret, a new webhook and its secret, rotating it, removing a member', async () => {
    const page = await signedIn()
    await page.goto('/settings/keys')
    await page.getByLabel('Name').fill('Import')
    await page.getByRole('button', { name: 'Create key' }).click()
    await expect.poll(() => page.getByRole('dialog', { name: 'API key created' }).isVisible()).toBe(true)
    await checkScreen(page, 'dialog-key-created')
    await page.getByRole('button', { name: 'Done' }).click()

    await page.goto('/settings/webhooks')
    const webhook = await openDialog(page, 'New webhook', 'New webhook')
    await webhook.getByLabel('Endpoint URL').fill(receiver.url)
    await checkScreen(page, 'dialog-new-webhook')
    await webhook.getByRole('button', { name: 'Create webhook' }).click()
    await expect.poll(() => page.getByRole('dialog', { name: 'Webhook created' }).isVisible()).toBe(true)
    await checkScreen(page, 'dialog-webhook-created')
    await page.getByRole('link', { name: 'Open webhook' }).click()
    await openDialog(page, 'Rotate secret', 'Rotate the signing secret?')
    await checkScreen(page, 'dialog-rotate-secret')
    await page.keyboard.press('Escape')

    const email = 'leaving@example.com'
    await e2e.t.app.services.orgs.addMember(e2e.acme.org.id, { email, password: PASSWORD, role: 'member' })
    await page.goto('/settings/members')
    await openDialog(page, `Remove ${email}`, 'Remove this member?')
    await checkScreen(page, 'dialog-remove-member')
  })

  it('what a plain member sees in Settings', async () => {
    const email = 'plain.member@example.com'
    await e2e.t.app.services.orgs.addMember(e2e.acme.org.id, { email, password: PASSWORD, role: 'member' })
    const page = await signedIn(email, PASSWORD)
    await page.goto('/settings')
    const tabs = page.getByRole('navigation', { name: 'Settings' })
    await expect.poll(() => tabs.getByRole('link', { name: 'Members' }).isVisible()).toBe(true)
    expect(await tabs.getByRole('link', { name: 'API keys' }).count()).toBe(0)
    await checkScreen(page, 'settings-as-member')
  })

  it('the links that no longer work: an unknown invitation and an unknown share link', async () => {
    const page = await (await e2e.context()).newPage()
    await page.goto('/invite/not-a-real-token')
    await expect.poll(() => page.getByRole('heading', { name: 'This invitation cannot be used' }).isVisible()).toBe(true)
    await checkScreen(page, 'invite-invalid')

    const answer = await page.goto('/s/not-a-real-link')
    expect(answer?.status()).toBe(404)
    await expect.poll(() => page.getByRole('heading', { name: 'This link does not work' }).isVisible()).toBe(true)
    await checkScreen(page, 'share-gone')
  })
})
