import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, seedOrganization, type Seeded } from '../support/app.js'
import { pushImage } from '../support/fixtures.js'
import { solid } from '../support/images.js'
import { PASSWORD } from '../support/sessions.js'
import { signIn, startE2E, type E2E } from './support.js'

/** What the app keeps of a session and an organization, and what it forgets when they change. */
let e2e: E2E
let globex: Seeded

async function push(org: Seeded, title: string, color: string): Promise<void> {
  await pushImage(e2e.t.app, org.writeKey, { title }, await solid(40, 30, color).png().toBuffer())
}

const card = (page: Page, title: string | RegExp) => page.getByRole('article', { name: title })

beforeAll(async () => {
  e2e = await startE2E({ RATE_LIMIT_SIGN_IN: '100' })
  globex = await seedOrganization(e2e.t.app, 'Globex')
  await push(e2e.acme, 'Acme poster', '#c92a2a')
  await push(globex, 'Globex poster', '#1c7ed6')
  // The Acme owner is a member of Globex too.
  await e2e.t.app.services.orgs.addMember(globex.org.id, { email: e2e.acme.owner.email, password: PASSWORD, role: 'member' })
})
afterAll(() => e2e.close())

describe('the organization of a tab', () => {
  it('switches the whole app to the other organization, and an edit made there lands in it', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    const organization = page.getByRole('combobox', { name: 'Organization' })
    await organization.selectOption({ label: 'Acme Design' })
    await expect.poll(() => card(page, 'Acme poster').isVisible()).toBe(true)

    await organization.selectOption({ label: 'Globex' })
    await expect.poll(() => card(page, 'Globex poster').isVisible()).toBe(true)
    expect(await card(page, 'Acme poster').count()).toBe(0)
    expect(await organization.inputValue()).toBe(globex.org.slug)

    // An edit made now goes to Globex's asset, through the session.
    await card(page, 'Globex poster').getByRole('link').click()
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    await page.getByLabel('Title', { exact: true }).fill('Globex poster, edited')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(async () => (await e2e.t.app.inject({ url: '/api/v1/assets', headers: bearer(globex.readKey) })).json().data[0].title)
      .toBe('Globex poster, edited')

    // A second tab starts in the organization chosen last, and switching it leaves the first alone.
    const second = await context.newPage()
    await second.goto('/')
    await expect.poll(() => card(second, 'Globex poster, edited').isVisible()).toBe(true)
    await second.getByRole('combobox', { name: 'Organization' }).selectOption({ label: 'Acme Design' })
    await expect.poll(() => card(second, 'Acme poster').isVisible()).toBe(true)
    await page.goto('/')
    await expect.poll(() => card(page, 'Globex poster, edited').isVisible()).toBe(true)
    await context.close()
  })
})

describe('a session that ends', () => {
  it('signs the tab out when the server forgets the session, and the next user sees nothing of the last', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, globex.owner.email, globex.owner.password)
    await expect.poll(() => card(page, /^Globex poster/).isVisible()).toBe(true)

    // The session is gone on the server (expired, or signed out elsewhere); the next call answers 401.
    await e2e.t.database.handle.db.deleteFrom('sessions').where('user_id', '=', globex.owner.id).execute()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true)

    // Another person signs in on the same tab: only their organization's assets, never a cached page.
    const acmeOnly = await seedOrganization(e2e.t.app, 'Initech')
    await push(acmeOnly, 'Initech poster', '#2b8a3e')
    await page.getByLabel('Email').fill(acmeOnly.owner.email)
    await page.getByLabel('Password').fill(acmeOnly.owner.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await expect.poll(() => card(page, 'Initech poster').isVisible()).toBe(true)
    expect(await card(page, /^Globex poster/).count()).toBe(0)
    await context.close()
  })
})
