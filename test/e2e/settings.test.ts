import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver, WEBHOOK_TEST_ENV, webhooksAtRest, type WebhookReceiver } from '../support/webhook-receiver.js'
import { expectNoSidewaysScroll, expectShownWhole, expectStackedCards } from './narrow.js'
import { PASSWORD } from '../support/sessions.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

let e2e: E2E
let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startReceiver()
  e2e = await startE2E({ ...WEBHOOK_TEST_ENV })
})
afterAll(async () => {
  await e2e.close()
  await receiver.close()
})

async function ownerPage() {
  const context = await e2e.context()
  const page = await context.newPage()
  await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
  return { context, page }
}

describe('settings', () => {
  it('creates a read key, shows it once, and the key works', async () => {
    const { context, page } = await ownerPage()
    // The main navigation's link: an empty library's welcome also links to "Settings → API keys".
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click()
    await page.getByLabel('Name').fill('CI read')
    await page.getByLabel('Scope').selectOption('assets:read')
    await page.getByRole('button', { name: 'Create key' }).click()

    const dialog = page.getByRole('dialog', { name: 'API key created' })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    await expect.poll(() => dialog.getByText('Copy this API key now: it will not be shown again.').isVisible()).toBe(true)
    const keyField = dialog.getByLabel('API key', { exact: true })
    // The dialog opens on the key itself, ready to copy.
    await expect.poll(() => keyField.and(page.locator(':focus')).count()).toBe(1)
    const key = await keyField.inputValue()
    expect(key).toMatch(/^al_/)
    await dialog.getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => page.getByText(key).count()).toBe(0)
    const prefix = key.split('_')[1]!
    await expect.poll(() => page.getByRole('cell', { name: `al_${prefix}_…` }).isVisible()).toBe(true)

    const check = await e2e.t.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: { authorization: `Bearer ${key}` } })
    expect(check.statusCode).toBe(200)
    expect(check.json()).toMatchObject({ scope: 'assets:read' })

    // Every section of the settings is in view at 375 px: the tabs wrap rather than run off the screen.
    const tabs = page.getByRole('navigation', { name: 'Settings' }).getByRole('link')
    expect(await tabs.allTextContents()).toEqual(['API keys', 'Webhooks', 'Processing', 'Members', 'Organization', 'Connect', 'Integrations', 'Rendition presets', 'Your account'])
    await expectShownWhole(page, await tabs.all())
    const keys = page.getByRole('table', { name: 'API keys' })
    const row = keys.getByRole('row').filter({ hasText: 'CI read' })
    await expectStackedCards(page, keys, row, row.getByRole('button', { name: 'Revoke CI read' }))
    await checkScreen(page, 'settings-keys')

    // A key for a bulk import, with its own limits.
    await page.getByLabel('Name').fill('Bulk import')
    await page.getByLabel('Scope').selectOption('assets:write')
    await page.getByText('Limits for a bulk import').click()
    await page.getByLabel('Pushes and searches a minute').fill('600')
    await page.getByLabel('Reads a minute').fill('2000')
    await page.getByRole('button', { name: 'Create key' }).click()
    const importDialog = page.getByRole('dialog', { name: 'API key created' })
    const importKey = await importDialog.getByLabel('API key', { exact: true }).inputValue()
    await importDialog.getByRole('button', { name: 'Done' }).click()
    const limits = await e2e.t.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: { authorization: `Bearer ${importKey}` } })
    expect(limits.json()).toMatchObject({ scope: 'assets:write', limit_expensive: 600, limit_cheap: 2000, rate_limits: { expensive: 600, cheap: 2000 } })
    await context.close()
  })

  it('creates a webhook, pings it and sees the delivery succeed', async () => {
    const { context, page } = await ownerPage()
    await page.goto('/settings/webhooks')
    await page.getByRole('button', { name: 'New webhook' }).click()
    const create = page.getByRole('dialog', { name: 'New webhook' })
    await create.getByLabel('Endpoint URL').fill(receiver.url)
    await create.getByLabel('Description').fill('Sync to the CMS')
    await create.getByLabel('collection.created').check()
    await create.getByRole('button', { name: 'Create webhook' }).click()

    const created = page.getByRole('dialog', { name: 'Webhook created' })
    await expect.poll(() => created.isVisible()).toBe(true)
    const secretField = created.getByLabel('Signing secret', { exact: true })
    // The form's submit button is gone: focus moves to the secret, not to the page.
    await expect.poll(() => secretField.and(page.locator(':focus')).count()).toBe(1)
    const secret = await secretField.inputValue()
    expect(secret).toMatch(/^whsec_/)
    await created.getByRole('button', { name: 'Close' }).first().click()
    await expect.poll(() => page.getByText(secret).count()).toBe(0)
    await expect.poll(() => page.getByRole('link', { name: receiver.url }).isVisible()).toBe(true)
    const webhooks = page.getByRole('table', { name: 'Webhooks' })
    const hookRow = webhooks.getByRole('row').filter({ hasText: receiver.url })
    await expect.poll(() => hookRow.getByText('No deliveries yet').isVisible()).toBe(true)
    await expectStackedCards(page, webhooks, hookRow, hookRow.getByRole('link', { name: receiver.url }))
    await checkScreen(page, 'settings-webhooks')

    await page.getByRole('link', { name: receiver.url }).click()
    await expect.poll(() => page.getByRole('heading', { name: receiver.url }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Send test ping' }).click()
    const history = page.getByRole('region', { name: 'Delivery history' })
    await expect.poll(() => history.getByRole('cell', { name: 'ping', exact: true }).isVisible()).toBe(true)
    await expect.poll(() => history.getByRole('cell', { name: 'succeeded' }).isVisible(), { timeout: 10_000 }).toBe(true)
    expect(receiver.received.some((r) => r.headers['x-service-event'] === 'ping')).toBe(true)

    await history.getByRole('button', { name: /^Details of the ping delivery/ }).click()
    const delivery = page.getByRole('dialog', { name: 'Delivery' })
    await expect.poll(() => delivery.getByText('Answered 200', { exact: true }).isVisible()).toBe(true)
    expect(await delivery.getByLabel('Payload').textContent()).toContain('"event": "ping"')
    await checkScreen(page, 'settings-delivery')
    await delivery.getByRole('button', { name: 'Close' }).click()
    const deliveries = history.getByRole('table', { name: 'Deliveries' })
    const pingRow = deliveries.getByRole('row').filter({ hasText: 'ping' })
    await expectStackedCards(page, deliveries, pingRow, pingRow.getByRole('button', { name: /^Details of the ping delivery/ }))

    // The filter lives in the URL: failed deliveries, none yet.
    await history.getByLabel('Status').selectOption('failed')
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('failed')
    await expect.poll(() => history.getByText('No deliveries match').isVisible()).toBe(true)
    await history.getByLabel('Status').selectOption('')
    await expect.poll(() => history.getByRole('cell', { name: 'ping', exact: true }).isVisible()).toBe(true)
    await checkScreen(page, 'settings-webhook-detail')

    // A double click on the confirmation rotates once: twice would leave receivers with neither secret.
    let rotations = 0
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/rotate-secret')) rotations++
    })
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    const confirm = page.getByRole('dialog', { name: 'Rotate the signing secret?' })
    await confirm.getByRole('button', { name: 'Rotate secret' }).dblclick()
    const rotated = page.getByRole('dialog', { name: 'New signing secret' })
    await expect.poll(() => rotated.getByLabel('Signing secret', { exact: true }).inputValue()).toMatch(/^whsec_/)
    expect(await rotated.getByLabel('Signing secret', { exact: true }).inputValue()).not.toBe(secret)
    await expect.poll(() => confirm.count()).toBe(0)
    expect(rotations).toBe(1)
    await rotated.getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => page.getByText('Deliveries are also signed with the previous secret', { exact: false }).isVisible()).toBe(true)
    await context.close()
  })

  it('lists each webhook with how its newest delivery went', async () => {
    const { webhooks } = e2e.t.app.services
    const org = e2e.acme.org.id
    const subscribe = async (path: string) => (await webhooks.create(org, { url: `${receiver.url}/${path}`, events: ['asset.created'], createdBy: null })).subscription.id
    const [working, down] = [await subscribe('working'), await subscribe('down')]
    receiver.answer((request) => (request.path.endsWith('/down') ? { status: 500, body: 'down for maintenance' } : {}))
    try {
      await Promise.all([webhooks.ping(org, working), webhooks.ping(org, down)])
      await webhooksAtRest(e2e.t.database.handle.db, org)
    } finally {
      receiver.answer(() => ({}))
    }

    const { context, page } = await ownerPage()
    await page.goto('/settings/webhooks')
    const row = (path: string) => page.getByRole('table', { name: 'Webhooks' }).getByRole('row').filter({ hasText: `${receiver.url}/${path}` })
    await expect.poll(() => row('working').getByText('Delivered').isVisible()).toBe(true)
    expect(await row('working').getByRole('time').textContent()).toMatch(/now|second|minute/)
    await expect.poll(() => row('down').getByText('Failed: Answered 500').isVisible()).toBe(true)
    await checkScreen(page, 'settings-webhooks-last-delivery')
    await context.close()
  })

  it('invites a member who accepts in another browser', async () => {
    const { context, page } = await ownerPage()
    await page.goto('/settings/members')
    await page.getByLabel('Email').fill('new.designer@example.com')
    await page.getByLabel('Role').selectOption('member')
    await page.getByRole('button', { name: 'Create invitation' }).click()
    const link = page.getByLabel('Invitation link', { exact: true })
    await expect.poll(() => link.isVisible()).toBe(true)
    const url = await link.inputValue()
    expect(url).toMatch(new RegExp(`^${e2e.url}/invite/`))
    // The token is not read out by a live region; the toast says what happened.
    expect(await page.locator('[role=status], [role=alert], [aria-live]').filter({ has: link }).count()).toBe(0)
    await expect.poll(() => page.getByRole('status').getByText('Invitation created for new.designer@example.com.').isVisible()).toBe(true)
    const pendingTable = page.getByRole('table', { name: 'Pending invitations' })
    const invitedRow = pendingTable.getByRole('row').filter({ hasText: 'new.designer@example.com' })
    await expect.poll(() => invitedRow.isVisible()).toBe(true)
    await expectStackedCards(page, pendingTable, invitedRow, invitedRow.getByRole('button', { name: 'Revoke the invitation for new.designer@example.com' }))
    await checkScreen(page, 'settings-members')

    const guest = await e2e.context()
    const invited = await guest.newPage()
    await invited.goto(url)
    // The form says whom the invitation is for, and where, before it is used.
    await expect.poll(() => invited.getByRole('heading', { name: 'Join Acme Design on Asset Library' }).isVisible()).toBe(true)
    await expect.poll(() => invited.getByText('new.designer@example.com').isVisible()).toBe(true)
    await checkScreen(invited, 'invite-accept')
    await invited.getByLabel('Your name').fill('New Designer')
    await invited.getByLabel('Password').fill('a long enough password')
    await invited.getByRole('button', { name: 'Accept invitation' }).click()
    await expect.poll(() => invited.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true)
    expect(new URL(invited.url()).pathname).toBe('/')
    await expect.poll(() => invited.getByText('new.designer@example.com').isVisible()).toBe(true)

    // A member sees the members, read-only, and no keys or webhooks.
    await invited.goto('/settings')
    await expect.poll(() => new URL(invited.url()).pathname).toBe('/settings/members')
    await expect.poll(() => invited.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).isVisible()).toBe(true)
    expect(await invited.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).count()).toBe(0)
    await guest.close()

    await page.reload()
    await expect.poll(() => page.getByRole('cell', { name: 'new.designer@example.com', exact: true }).isVisible()).toBe(true)
    const members = page.getByRole('table', { name: 'Members' })
    const memberRow = members.getByRole('row').filter({ hasText: 'new.designer@example.com' })
    await expectStackedCards(page, members, memberRow, memberRow.getByRole('button', { name: 'Remove new.designer@example.com' }))
    const pending = page.getByRole('region', { name: 'Pending invitations' })
    await expect.poll(() => pending.getByText('No invitation is waiting to be accepted.').isVisible()).toBe(true)
    expect(await pending.getByText('new.designer@example.com').count()).toBe(0)

    // A used link says so instead of showing the form.
    const late = await (await e2e.context()).newPage()
    await late.goto(url)
    await expect.poll(() => late.getByRole('heading', { name: 'This invitation cannot be used' }).isVisible()).toBe(true)
    expect(await late.getByLabel('Password').count()).toBe(0)
    await late.context().close()
    await context.close()
  })

  it('renames the organization, which persists', async () => {
    const { context, page } = await ownerPage()
    await page.goto('/settings/organization')
    const name = page.getByLabel('Organization name')
    await expect.poll(() => name.inputValue()).toBe('Acme Design')
    // The plan's usage against its limits (the seeded organization is on the free plan, with no assets).
    await expect.poll(() => page.getByRole('meter', { name: 'Assets used' }).getAttribute('max')).toBe('10000')
    await expect.poll(() => page.getByText('0 of 10,000').isVisible()).toBe(true)
    await expectNoSidewaysScroll(page)
    await checkScreen(page, 'settings-organization')

    await name.fill('Acme Design Studio')
    await page.getByRole('button', { name: 'Save name' }).click()
    await expect.poll(() => page.getByText('Organization renamed.').isVisible()).toBe(true)
    // The AI switch is turned in asset-page.test.ts, on a server with an embedding provider.
    await page.reload()
    await expect.poll(() => page.getByLabel('Organization name').inputValue()).toBe('Acme Design Studio')

    await page.getByLabel('New client').fill('Initech')
    await page.getByRole('region', { name: 'Clients' }).getByRole('button', { name: 'Add' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Remove client Initech' }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Remove client Initech' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Remove client Initech' }).count()).toBe(0)
    await context.close()
  })

  it('defines a rendition preset, which asset records link, changes it and deletes it; a member only reads them', async () => {
    const { context, page } = await ownerPage()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Rendition presets' }).click()
    const table = page.getByRole('table', { name: 'Rendition presets' })
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'thumbnail' }).isVisible()).toBe(true)

    await page.getByRole('button', { name: 'New preset' }).click()
    const create = page.getByRole('dialog', { name: 'New preset' })
    await create.getByLabel('Name').fill('og-image')
    await create.getByLabel('Width').fill('1200')
    await create.getByLabel('Height').fill('630')
    await create.getByLabel('Fit').selectOption('cover')
    await create.getByLabel('Format').selectOption('jpeg')
    await create.getByLabel('Quality').fill('82')
    await checkScreen(page, 'dialog-new-preset')
    await create.getByRole('button', { name: 'Add preset' }).click()
    const row = table.getByRole('row').filter({ hasText: 'og-image' })
    await expect.poll(() => row.getByRole('cell', { name: '1200 × 630' }).isVisible()).toBe(true)
    const listed = await e2e.t.app.inject({ method: 'GET', url: '/api/v1/presets', headers: { authorization: `Bearer ${e2e.acme.readKey}` } })
    expect(listed.json().data.at(-1)).toEqual({ name: 'og-image', built_in: false, width: 1200, height: 630, fit: 'cover', format: 'jpeg', quality: 82, background: null })
    await expectStackedCards(page, table, row, row.getByRole('button', { name: 'Delete og-image' }))
    await checkScreen(page, 'settings-presets')

    await row.getByRole('button', { name: 'Edit og-image' }).click()
    const change = page.getByRole('dialog', { name: 'Edit og-image' })
    await change.getByLabel('Format').selectOption('webp')
    await change.getByRole('button', { name: 'Save preset' }).click()
    await expect.poll(() => row.getByRole('cell', { name: 'WebP' }).isVisible()).toBe(true)

    // A plain member sees the presets, and nothing to change them with.
    const email = 'preset.reader@example.com'
    await e2e.t.app.services.orgs.addMember(e2e.acme.org.id, { email, password: PASSWORD, role: 'member' })
    const reader = await (await e2e.context()).newPage()
    await signIn(reader, email, PASSWORD)
    await reader.goto('/settings/presets')
    await expect.poll(() => reader.getByRole('table', { name: 'Rendition presets' }).getByRole('row').filter({ hasText: 'og-image' }).isVisible()).toBe(true)
    expect(await reader.getByRole('button', { name: 'New preset' }).count()).toBe(0)
    expect(await reader.getByRole('button', { name: 'Edit og-image' }).count()).toBe(0)
    await checkScreen(reader, 'settings-presets-as-member')
    await reader.context().close()

    await row.getByRole('button', { name: 'Delete og-image' }).click()
    await page.getByRole('dialog', { name: 'Delete this preset?' }).getByRole('button', { name: 'Delete preset' }).click()
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'og-image' }).count()).toBe(0)
    await context.close()
  })
})
