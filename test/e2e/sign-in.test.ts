import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkScreen, signIn, startE2E, type E2E } from './support.js'

const FIRST_RUN_HINT = "The first start printed the owner's email and password in the server's log."

let e2e: E2E
beforeAll(async () => {
  e2e = await startE2E()
})
afterAll(() => e2e.close())

describe('signing in', () => {
  it('says what went wrong with a wrong password, then signs in and out', async () => {
    const context = await e2e.context()
    const page = await context.newPage()
    await page.goto('/')
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true)
    // No one has signed in to this server yet: the screen points to the login the first start printed.
    await expect.poll(() => page.getByText(FIRST_RUN_HINT).isVisible()).toBe(true)
    await checkScreen(page, 'sign-in')

    await page.getByLabel('Email').fill(e2e.acme.owner.email)
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('email or password')

    await signIn(page, e2e.acme.owner.email, e2e.acme.owner.password)
    await expect.poll(() => page.getByText('Acme Design').isVisible()).toBe(true)
    // A reload keeps the session (the cookie), and a deep link opens where it points.
    await page.goto('/collections')
    await expect.poll(() => page.getByRole('link', { name: 'Collections' }).getAttribute('aria-current')).toBe('page')
    expect(await page.title()).toBe('Collections · Asset Library')

    // Someone has signed in now: the sign-in screen asks again, and the hint is gone. Its answer is read
    // before anything navigates (a reload would discard the body of an answer still in flight).
    const answered = page.waitForResponse('**/app/api/instance')
    await page.getByRole('button', { name: 'Sign out' }).click()
    expect((await (await answered).json()).first_sign_in_pending).toBe(false)
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true)
    expect(await page.getByText(FIRST_RUN_HINT).count()).toBe(0)
    await context.close()
  })
})
