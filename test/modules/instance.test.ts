import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { loginOwner, postLogin } from '../support/sessions.js'

let t: TestApp
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp()
  acme = await seedOrganization(t.app, 'Acme')
})
afterAll(() => t.close())

const pending = async (app = t.app) => {
  const res = await app.inject({ method: 'GET', url: '/app/api/instance', headers: { origin: 'https://elsewhere.example' } })
  expect(res.statusCode).toBe(200)
  return res.json<{ first_sign_in_pending: boolean }>().first_sign_in_pending
}

describe('GET /app/api/instance', () => {
  it('says a sign-in is pending until the first one, and not after, even once that session has ended', async () => {
    expect(await pending()).toBe(true)
    expect((await postLogin(t.app, { email: acme.owner.email, password: 'not the password' })).statusCode).toBe(401)
    expect(await pending()).toBe(true)

    const owner = await loginOwner(t.app, acme)
    expect(await pending()).toBe(false)
    expect((await owner.post('/app/api/logout')).statusCode).toBe(204)
    // Another process on the same database, which has not seen the sign-in.
    const other = await startTestApp({ database: t.database })
    try {
      expect(await pending(other.app)).toBe(false)
    } finally {
      await other.close()
    }
  })

  it('answers nothing but those facts (and whether it sends email, and where full-text counts stop), to anyone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/api/instance' })
    expect(Object.keys(res.json())).toEqual(['first_sign_in_pending', 'email_configured', 'exact_totals_up_to'])
    expect(res.json()).toMatchObject({ exact_totals_up_to: 1000 })
    expect(res.headers['set-cookie']).toBeUndefined()
  })
})
