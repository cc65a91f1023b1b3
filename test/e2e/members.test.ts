import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '../../src/platform/db/schema.js'
import { PASSWORD } from '../support/sessions.js'
import { expectNoSidewaysScroll, expectStackedCards } from './narrow.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

let e2e: E2E
beforeAll(async () => {
  e2e = await startE2E()
})
afterAll(() => e2e.close())

let people = 0
/** A new user of Acme in `role`, and their email. */
async function addPerson(role: Role): Promise<string> {
  const email = `${role}-${++people}@example.com`
  await e2e.t.app.services.orgs.addMember(e2e.acme.org.id, { email, password: PASSWORD, role })
  return email
}

async function signedIn(email: string, password: string): Promise<Page> {
  const page = await (await e2e.context()).newPage()
  await signIn(page, email, password)
  return page
}

async function ownerOnMembers(): Promise<Page> {
  const page = await signedIn(e2e.acme.owner.email, e2e.acme.owner.password)
  await page.goto('/settings/members')
  await expect.poll(() => page.getByRole('heading', { name: 'Members', exact: true }).isVisible()).toBe(true)
  return page
}

/** The entry of the member changes that says this. */
const memberChange = (page: Page, text: string) => page.getByRole('list', { name: 'Member changes' }).getByRole('listitem').filter({ hasText: text })

describe('members', () => {
  it('removes a member, whose open session is then refused', async () => {
    const email = await addPerson('member')
    const removed = await signedIn(email, PASSWORD)
    const owner = await ownerOnMembers()

    await owner.getByRole('button', { name: `Remove ${email}` }).click()
    const confirm = owner.getByRole('dialog', { name: 'Remove this member?' })
    await expect.poll(() => confirm.getByText(`${email} loses access to this organization at once`).isVisible()).toBe(true)
    await confirm.getByRole('button', { name: 'Remove member' }).click()
    await expect.poll(() => owner.getByText(`${email} is removed from the organization.`).isVisible()).toBe(true)
    await expect.poll(() => owner.getByRole('cell', { name: email, exact: true }).count()).toBe(0)
    await expect.poll(() => memberChange(owner, `${e2e.acme.owner.email} removed ${email} (was member)`).isVisible()).toBe(true)

    // The removed member's browser, still open, is signed out on its next request.
    expect((await removed.request.get('/app/api/session')).status()).toBe(401)
    await removed.reload()
    await expect.poll(() => removed.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true)
  })

  it('changes a role, and records who did it', async () => {
    const email = await addPerson('member')
    const owner = await ownerOnMembers()
    const role = owner.getByLabel(`Role of ${email}`)
    await role.selectOption('admin')
    await expect.poll(() => owner.getByText(`${email} is now an admin.`).isVisible()).toBe(true)
    await expect.poll(() => role.inputValue()).toBe('admin')
    await expect.poll(() => memberChange(owner, `${e2e.acme.owner.email} changed ${email} from member to admin`).isVisible()).toBe(true)

    // The new admin sees the member actions, but cannot touch the owner.
    const admin = await signedIn(email, PASSWORD)
    await admin.goto('/settings/members')
    await expect.poll(() => admin.getByRole('table', { name: 'Members' }).isVisible()).toBe(true)
    expect(await admin.getByLabel(`Role of ${e2e.acme.owner.email}`).count()).toBe(0)
    expect(await admin.getByRole('button', { name: `Remove ${e2e.acme.owner.email}` }).count()).toBe(0)

    const members = owner.getByRole('table', { name: 'Members' })
    const row = members.getByRole('row').filter({ hasText: email })
    await expectStackedCards(owner, members, row, row.getByRole('button', { name: `Remove ${email}` }))
    await expectNoSidewaysScroll(owner)
    await checkScreen(owner, 'settings-member-changes')
  })

  it('shows the server’s refusal, and hands over ownership', async () => {
    const email = await addPerson('admin')
    const owner = await ownerOnMembers()
    const handOver = owner.getByRole('button', { name: `Hand over ownership to ${email}` })
    await expect.poll(() => handOver.isVisible()).toBe(true)
    // Meanwhile the admin was removed by someone else: the owner's page still offers them.
    await e2e.t.app.services.orgs.removeMember(e2e.acme.org.id, { id: e2e.acme.owner.id, email: e2e.acme.owner.email }, (await e2e.t.app.services.orgs.userByEmail(email))!.id)
    await handOver.click()
    const confirm = owner.getByRole('dialog', { name: 'Hand over ownership?' })
    await confirm.getByRole('button', { name: 'Hand over ownership' }).click()
    await expect.poll(() => owner.getByText('Member was not found.').isVisible()).toBe(true)
    await confirm.getByRole('button', { name: 'Cancel' }).click()

    const heir = await addPerson('member')
    await owner.reload()
    await owner.getByRole('button', { name: `Hand over ownership to ${heir}` }).click()
    await confirm.getByRole('button', { name: 'Hand over ownership' }).click()
    await expect.poll(() => owner.getByText(`${heir} is now the owner; you are an admin.`).isVisible()).toBe(true)
    await expect.poll(() => memberChange(owner, `${e2e.acme.owner.email} handed ownership to ${heir}`).isVisible()).toBe(true)
    // Now an admin: no owner actions are offered any more.
    await expect.poll(() => owner.getByRole('button', { name: /^Hand over ownership/ }).count()).toBe(0)
    expect(await owner.getByLabel(`Role of ${heir}`).count()).toBe(0)
  })
})
