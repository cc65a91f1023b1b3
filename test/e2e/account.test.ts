import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStackedCards } from './narrow.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

let e2e: E2E
beforeAll(async () => {
  e2e = await startE2E({ RATE_LIMIT_SIGN_IN: '100' })
})
afterAll(() => e2e.close())

describe('your account', () => {
  it('changes the password: the other browser is signed out and the old password fails', async () => {
    const email = 'designer@example.com'
    const oldPassword = 'the first password'
    const newPassword = 'a much better password'
    await e2e.t.app.services.orgs.addMember(e2e.acme.org.id, { email, name: 'Dana Designer', password: oldPassword, role: 'member' })
    const elsewhere = await e2e.context()
    const otherPage = await elsewhere.newPage()
    await signIn(otherPage, email, oldPassword)

    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, email, oldPassword)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Your account' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Change your password' }).isVisible()).toBe(true)

    await page.getByLabel('Current password').fill('not my password')
    await page.getByLabel('New password', { exact: true }).fill(newPassword)
    await page.getByLabel('Repeat the new password').fill(newPassword)
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('current password is not correct')

    await page.getByLabel('Current password').fill(oldPassword)
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect.poll(() => page.getByRole('status').getByText('Password changed.').isVisible()).toBe(true)
    expect(await page.getByLabel('Current password').inputValue()).toBe('')
    await checkScreen(page, 'settings-account')

    // This browser stays signed in; the other one is not.
    await page.reload()
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true)
    await otherPage.reload()
    await expect.poll(() => otherPage.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true)

    await otherPage.getByLabel('Email').fill(email)
    await otherPage.getByLabel('Password').fill(oldPassword)
    await otherPage.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => otherPage.getByRole('alert').textContent()).toContain('email or password')
    await signIn(otherPage, email, newPassword)
    await elsewhere.close()
    await context.close()
  })

  it('re-sends an expired invitation: the list says it expired, and only the new link works', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/settings/members')
    await page.getByLabel('Email').fill('late.joiner@example.com')
    await page.getByRole('button', { name: 'Create invitation' }).click()
    const oldLink = await page.getByLabel('Invitation link', { exact: true }).inputValue()
    await page.getByRole('button', { name: 'Done' }).click()

    await e2e.t.database.handle.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('email', '=', 'late.joiner@example.com')
      .execute()
    await page.reload()
    const pending = page.getByRole('region', { name: 'Pending invitations' })
    await expect.poll(() => pending.getByText(/^Expired /).isVisible()).toBe(true)
    const invitations = pending.getByRole('table', { name: 'Pending invitations' })
    const row = invitations.getByRole('row').filter({ hasText: 'late.joiner@example.com' })
    await expectStackedCards(page, invitations, row, row.getByRole('button', { name: 'Re-send the invitation for late.joiner@example.com' }))
    await checkScreen(page, 'settings-invitations-expired')

    await pending.getByRole('button', { name: 'Re-send the invitation for late.joiner@example.com' }).click()
    const newLink = await pending.getByLabel('Invitation link', { exact: true }).inputValue()
    expect(newLink).not.toBe(oldLink)
    await expect.poll(() => pending.getByText(/^Expired /).count()).toBe(0)
    await checkScreen(page, 'settings-invitations-resent')
    await pending.getByRole('button', { name: 'Done' }).click()

    const lookUp = (link: string) =>
      e2e.t.app.inject({ method: 'POST', url: '/app/api/invitations/lookup', payload: { token: link.split('/invite/')[1] } })
    expect((await lookUp(oldLink)).statusCode).toBe(404)
    expect((await lookUp(newLink)).statusCode).toBe(200)
    await context.close()
  })
})
