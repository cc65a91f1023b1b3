import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD } from '../support/sessions.js'
import { firstLink, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

let sink: SmtpSink
let e2e: E2E
beforeAll(async () => {
  sink = await startSmtpSink()
  e2e = await startE2E({ SMTP_URL: sink.url, SMTP_FROM: 'Asset Library <assets@example.com>' })
})
afterEach(() => e2e.closeContexts())
afterAll(async () => {
  await e2e?.close()
  await sink?.close()
})

describe('email', () => {
  it('emails an invitation, whose link is accepted in the browser', async () => {
    const invitee = 'new.designer@example.com'
    const owner = await (await e2e.context()).newPage()
    await signIn(owner, e2e.acme.owner.email, e2e.acme.owner.password)
    await owner.goto('/settings/members')
    const form = owner.getByRole('form', { name: 'Invite someone' })
    await expect.poll(() => form.getByText('The invitation is emailed to them; its link is also shown here.').isVisible()).toBe(true)
    await form.getByLabel('Email').fill(invitee)
    await form.getByRole('button', { name: 'Create invitation' }).click()
    await expect.poll(() => owner.getByText(`It was emailed to ${invitee}; you can also send the link yourself.`).isVisible()).toBe(true)
    await checkScreen(owner, 'invitation-emailed')

    const message = await sink.messageTo(invitee)
    expect(message.subject).toBe(`${e2e.acme.owner.email} invited you to Acme Design on Asset Library`)
    const link = firstLink(message.text)!
    expect(link.startsWith(`${e2e.url}/invite/`)).toBe(true)

    const page = await (await e2e.context()).newPage()
    await page.goto(link)
    await expect.poll(() => page.getByRole('heading', { name: 'Join Acme Design on Asset Library' }).isVisible()).toBe(true)
    await page.getByLabel('Your name').fill('New Designer')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Accept invitation' }).click()
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true)
    await expect.poll(() => page.getByText(invitee).first().isVisible()).toBe(true)
  })

  it('resets a forgotten password with the emailed link', async () => {
    const email = 'forgetful@example.com'
    await e2e.t.app.services.orgs.addMember(e2e.acme.org.id, { email, password: PASSWORD, role: 'member' })
    const page = await (await e2e.context()).newPage()
    await page.goto('/')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Forgot your password?' }).isVisible()).toBe(true)
    await checkScreen(page, 'forgot-password')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'an email with a link to choose a new password is on its way' }).isVisible()).toBe(true)
    await checkScreen(page, 'forgot-password-sent')

    const message = await sink.messageTo(email)
    const link = firstLink(message.text)!
    expect(link).toMatch(new RegExp(`^${e2e.url}/reset-password#token=`))
    await page.goto(link)
    await expect.poll(() => page.getByRole('heading', { name: 'Choose a new password' }).isVisible()).toBe(true)
    // The token leaves the address bar (and the history) as soon as the screen has it.
    expect(page.url()).toBe(`${e2e.url}/reset-password`)
    await checkScreen(page, 'reset-password')
    await page.getByRole('textbox', { name: /^New password/ }).fill('my new long password')
    await page.getByLabel('Repeat it').fill('my new long password')
    await page.getByRole('button', { name: 'Set new password' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Your password is changed' }).isVisible()).toBe(true)
    await checkScreen(page, 'reset-password-done')
    await page.getByRole('link', { name: 'Sign in' }).click()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('my new long password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true)
  })
})
