import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, outboxEvents, startTwoOrganizations } from '../support/fixtures.js'
import { PASSWORD, SESSION_COOKIE, clientFrom, login, loginOwner, postLogin, sessionCookie, signedInMember, type Client } from '../support/sessions.js'

let t: TestApp
let acme: Seeded
let globex: Seeded

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations())
})
afterAll(() => t.close())

const getSession = (cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/app/api/session', headers: cookie ? { cookie } : {} })

const sessionCount = async () =>
  Number((await t.database.handle.db.selectFrom('sessions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

describe('POST /app/api/login', () => {
  it('signs in with an HttpOnly, SameSite=Lax, host-wide cookie, not Secure on http', async () => {
    const res = await postLogin(t.app, { email: acme.owner.email, password: acme.owner.password })
    expect(res.statusCode).toBe(200)
    const cookie = sessionCookie(res)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 14 * 24 * 60 * 60 })
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(cookie?.secure).toBeFalsy()
    expect(String(res.headers['set-cookie'])).not.toMatch(/;\s*Secure/i)

    const body = res.json()
    expect(body).toEqual({
      user: { id: acme.owner.id, email: acme.owner.email, name: '' },
      organizations: [{ id: acme.org.id, name: 'Acme', slug: acme.org.slug, role: 'owner' }],
      csrf_token: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    // Only a hash of the session token is stored.
    const stored = await t.database.handle.db.selectFrom('sessions').select('token_hash').where('user_id', '=', acme.owner.id).execute()
    expect(stored.map((s) => s.token_hash)).not.toContain(cookie?.value)
  })

  it('marks the cookie Secure when the public base URL is https', async () => {
    const secure = await startTestApp({ database: t.database, env: { PUBLIC_BASE_URL: 'https://assets.example' } })
    try {
      const res = await postLogin(
        secure.app,
        { email: acme.owner.email, password: acme.owner.password },
        { origin: 'https://assets.example' },
      )
      expect(res.statusCode).toBe(200)
      expect(sessionCookie(res)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' })
      expect(String(res.headers['set-cookie'])).toMatch(/;\s*Secure/i)
    } finally {
      await secure.close()
    }
  })

  it('lists every organization of the user with its role', async () => {
    const member = await signedInMember(t.app, acme.org.id, 'member')
    await t.app.services.orgs.addMember(globex.org.id, { email: member.email, password: 'ignored', role: 'admin' })
    const res = await postLogin(t.app, { email: member.email, password: PASSWORD })
    expect(res.json().organizations).toEqual([
      { id: acme.org.id, name: 'Acme', slug: acme.org.slug, role: 'member' },
      { id: globex.org.id, name: 'Globex', slug: globex.org.slug, role: 'admin' },
    ])
  })

  it('finds the email case-insensitively', async () => {
    const res = await postLogin(t.app, { email: acme.owner.email.toUpperCase(), password: acme.owner.password })
    expect(res.statusCode).toBe(200)
    expect(res.json().user.id).toBe(acme.owner.id)
  })

  it('answers a wrong password and an unknown email with the same bytes, and sets no cookie', async () => {
    const before = await sessionCount()
    const wrongPassword = await postLogin(t.app, { email: acme.owner.email, password: 'not the password' })
    const unknownEmail = await postLogin(t.app, { email: 'nobody@example.com', password: acme.owner.password })
    for (const res of [wrongPassword, unknownEmail]) {
      expectProblem(res, 401, 'invalid_credentials')
      expect(res.headers['set-cookie']).toBeUndefined()
    }
    expect(wrongPassword.body).toBe(unknownEmail.body)
    expect(wrongPassword.body).not.toContain(acme.owner.email)
    expect(await sessionCount()).toBe(before)
  })

  const invalid: Array<[string, unknown, string[]]> = [
    ['an unknown field', { email: 'a@example.com', password: 'x', remember_me: true }, ['/remember_me']],
    ['wrong types', { email: 42, password: ['x'] }, ['/email', '/password']],
    ['empty strings', { email: '', password: '' }, ['/email', '/password']],
    ['a missing password', { email: 'a@example.com' }, ['/password']],
    ['something that is not an email', { email: 'not-an-email', password: 'x' }, ['/email']],
  ]
  it.each(invalid)('refuses %s with 400 and pointers', async (_label, payload, pointers) => {
    const res = await postLogin(t.app, payload)
    expectInvalid(res, ...pointers)
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it('refuses a cross-site Origin, even with the right password', async () => {
    const res = await postLogin(t.app, { email: acme.owner.email, password: acme.owner.password }, { origin: 'https://evil.example' })
    expectProblem(res, 403, 'cross_site_request')
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it('accepts the application’s own Origin', async () => {
    const res = await postLogin(t.app, { email: acme.owner.email, password: acme.owner.password }, { origin: 'http://assets.test' })
    expect(res.statusCode).toBe(200)
  })
})

describe('GET /app/api/session', () => {
  it('is 401 not_signed_in without a cookie or with an unknown one', async () => {
    expectProblem(await getSession(), 401, 'not_signed_in')
    expectProblem(await getSession(`${SESSION_COOKIE}=not-a-session`), 401, 'not_signed_in')
  })

  it('describes the signed-in user with the same CSRF token as the login', async () => {
    const owner = await login(t.app, acme.owner.email, acme.owner.password)
    const res = await getSession(owner.cookie)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ user: { id: acme.owner.id }, csrf_token: owner.csrf })
  })

  it('gives each session its own CSRF token', async () => {
    const first = await login(t.app, acme.owner.email, acme.owner.password)
    const second = await login(t.app, acme.owner.email, acme.owner.password)
    expect(first.cookie).not.toBe(second.cookie)
    expect(first.csrf).not.toBe(second.csrf)
  })
})

describe('POST /app/api/logout', () => {
  let owner: Client
  beforeAll(async () => {
    owner = await login(t.app, acme.owner.email, acme.owner.password)
  })

  it('needs the CSRF header, and a failed logout leaves the session working', async () => {
    expectProblem(await owner.post('/app/api/logout', undefined, { csrf: null }), 403, 'csrf_token_invalid')
    expectProblem(await owner.post('/app/api/logout', undefined, { csrf: 'f'.repeat(64) }), 403, 'csrf_token_invalid')
    expect((await getSession(owner.cookie)).statusCode).toBe(200)
  })

  it('clears the cookie and ends the session for good', async () => {
    const before = await sessionCount()
    const res = await owner.post('/app/api/logout')
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    const cleared = sessionCookie(res)
    expect(cleared?.value).toBe('')
    expect(cleared?.path).toBe('/')
    expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now())
    expect(await sessionCount()).toBe(before - 1)

    expectProblem(await getSession(owner.cookie), 401, 'not_signed_in')
    expectProblem(await owner.post('/app/api/logout'), 401, 'not_signed_in')
  })

  it('is 401 without a session', async () => {
    expectProblem(await t.app.inject({ method: 'POST', url: '/app/api/logout' }), 401, 'not_signed_in')
  })
})

describe('CSRF on state-changing /app/api calls', () => {
  let owner: Client
  let other: Client
  let keyId: string
  let invitationId: string

  beforeAll(async () => {
    owner = await login(t.app, acme.owner.email, acme.owner.password)
    other = await login(t.app, globex.owner.email, globex.owner.password)
    keyId = (await t.database.handle.db.selectFrom('api_keys').select('id').where('organization_id', '=', acme.org.id).executeTakeFirstOrThrow()).id
    const invited = await owner.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email: 'csrf-target@example.com', role: 'member' })
    expect(invited.statusCode).toBe(201)
    invitationId = invited.json().id
  })

  /** Everything a forged request could change. */
  const snapshot = async () => {
    const db = t.database.handle.db
    return {
      keys: await db.selectFrom('api_keys').select(['id', 'revoked_at']).orderBy('id').execute(),
      invitations: await db.selectFrom('invitations').select(['id', 'token_hash', 'expires_at', 'revoked_at', 'accepted_at']).orderBy('id').execute(),
      passwords: await db.selectFrom('users').select(['id', 'password_hash']).orderBy('id').execute(),
      organizations: await db.selectFrom('organizations').select(['id', 'name', 'ai_enabled', 'updated_at']).orderBy('id').execute(),
      sessions: await db.selectFrom('sessions').select('id').orderBy('id').execute(),
      outbox: await db.selectFrom('outbox_events').select('id').orderBy('id').execute(),
    }
  }

  const calls: Array<[string, (client: Client, csrf: string | null) => ReturnType<Client['post']>]> = [
    ['creating a key', (c, csrf) => c.post(`/app/api/orgs/${acme.org.slug}/keys`, { name: 'forged', scope: 'assets:write' }, { csrf })],
    ['revoking a key', (c, csrf) => c.delete(`/app/api/orgs/${acme.org.slug}/keys/${keyId}`, { csrf })],
    ['changing settings', (c, csrf) => c.patch(`/app/api/orgs/${acme.org.slug}`, { name: 'Forged' }, { csrf })],
    ['inviting', (c, csrf) => c.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email: 'x@example.com', role: 'owner' }, { csrf })],
    ['re-sending an invitation', (c, csrf) => c.post(`/app/api/orgs/${acme.org.slug}/invitations/${invitationId}/resend`, undefined, { csrf })],
    ['revoking an invitation', (c, csrf) => c.delete(`/app/api/orgs/${acme.org.slug}/invitations/${invitationId}`, { csrf })],
    ['changing the password', (c, csrf) => c.post('/app/api/password', { current_password: acme.owner.password, new_password: 'a forged new password' }, { csrf })],
    ['logging out', (c, csrf) => c.post('/app/api/logout', undefined, { csrf })],
  ]

  it.each(calls)('refuses %s without the header, with a wrong one, or with another session’s', async (_label, call) => {
    const before = await snapshot()
    for (const csrf of [null, '', 'f'.repeat(64), owner.csrf.toUpperCase(), other.csrf]) {
      expectProblem(await call(owner, csrf), 403, 'csrf_token_invalid')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('lets the same calls through with the right token', async () => {
    const created = await calls[0]![1](owner, owner.csrf)
    expect(created.statusCode).toBe(201)
    expect((await owner.patch(`/app/api/orgs/${acme.org.slug}`, { ai_enabled: false })).statusCode).toBe(200)
  })

  it('does not ask for it on reads', async () => {
    expect((await owner.get(`/app/api/orgs/${acme.org.slug}`)).statusCode).toBe(200)
  })
})

describe('a session after an invitation is accepted', () => {
  it('is a normal session', async () => {
    const owner = await login(t.app, acme.owner.email, acme.owner.password)
    const token = (await owner.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email: 'joiner@example.com', role: 'admin' })).json().token
    const accepted = await t.app.inject({ method: 'POST', url: '/app/api/invitations/accept', payload: { token, password: 'joiner password 1' } })
    const joiner = clientFrom(t.app, accepted)
    expect(sessionCookie(accepted)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
    expect((await getSession(joiner.cookie)).json().user.email).toBe('joiner@example.com')
    expect((await login(t.app, 'JOINER@example.com', 'joiner password 1')).userId).toBe(joiner.userId)
  })
})

describe('POST /app/api/password', () => {
  it('changes the password and ends the user’s other sessions, keeping this one', async () => {
    const client = await signedInMember(t.app, acme.org.id, 'member')
    const elsewhere = await login(t.app, client.email, PASSWORD)
    const changed = await client.post('/app/api/password', { current_password: PASSWORD, new_password: 'a brand new password' })
    expect(changed.statusCode, changed.body).toBe(204)
    expect((await getSession(client.cookie)).statusCode).toBe(200)
    expectProblem(await getSession(elsewhere.cookie), 401, 'not_signed_in')
    expectProblem(await postLogin(t.app, { email: client.email, password: PASSWORD }), 401, 'invalid_credentials')
    expect((await login(t.app, client.email, 'a brand new password')).userId).toBe(client.userId)
  })

  it('refuses a wrong current password with 403, changing nothing', async () => {
    const client = await signedInMember(t.app, acme.org.id, 'member')
    const elsewhere = await login(t.app, client.email, PASSWORD)
    const refused = await client.post('/app/api/password', { current_password: 'not my password', new_password: 'a brand new password' })
    expectProblem(refused, 403, 'current_password_wrong')
    expect((await getSession(elsewhere.cookie)).statusCode).toBe(200)
    expect((await login(t.app, client.email, PASSWORD)).userId).toBe(client.userId)
  })

  it('refuses a short new password, and a change without a session or its CSRF token', async () => {
    const client = await signedInMember(t.app, acme.org.id, 'member')
    expectInvalid(await client.post('/app/api/password', { current_password: PASSWORD, new_password: 'short' }), '/new_password')
    expectProblem(await client.post('/app/api/password', { current_password: PASSWORD, new_password: 'a brand new password' }, { csrf: null }), 403, 'csrf_token_invalid')
    const anonymous = await t.app.inject({ method: 'POST', url: '/app/api/password', payload: { current_password: PASSWORD, new_password: 'a brand new password' } })
    expectProblem(anonymous, 401, 'not_signed_in')
    expect((await login(t.app, client.email, PASSWORD)).userId).toBe(client.userId)
  })
})

describe('the per-account sign-in limit', () => {
  let limited: TestApp
  beforeAll(async () => {
    limited = await startTestApp({ database: t.database, env: { RATE_LIMIT_SIGN_IN_ACCOUNT: '3' } })
  })
  afterAll(() => limited.close())

  const attempt = (email: string, password: string, ip: string) =>
    limited.app.inject({ method: 'POST', url: '/app/api/login', payload: { email, password }, remoteAddress: ip })

  it('refuses an account’s sign-ins, the right password’s too, after failures from many addresses', async () => {
    const member = await signedInMember(limited.app, acme.org.id, 'member')
    for (const ip of ['198.51.100.11', '198.51.100.12', '198.51.100.13']) {
      expectProblem(await attempt(member.email, 'a wrong guess', ip), 401, 'invalid_credentials')
    }
    const refused = await attempt(member.email.toUpperCase(), PASSWORD, '198.51.100.14')
    expectProblem(refused, 429, 'rate_limited')
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60)
    // Another account, from the same addresses, is not affected.
    const other = await signedInMember(limited.app, acme.org.id, 'member')
    expect((await attempt(other.email, PASSWORD, '198.51.100.11')).statusCode).toBe(200)
  })

  it('limits an unknown email the same way, so the answers tell nothing about who has an account', async () => {
    const unknown = `nobody-${Date.now()}@example.com`
    for (let i = 0; i < 3; i++) expectProblem(await attempt(unknown, 'a wrong guess', `203.0.113.${i}`), 401, 'invalid_credentials')
    expectProblem(await attempt(unknown, 'a wrong guess', '203.0.113.9'), 429, 'rate_limited')
  })

  it('counts failures only: a success resets nobody’s counter and is never counted', async () => {
    const member = await signedInMember(limited.app, acme.org.id, 'member')
    const other = await signedInMember(limited.app, acme.org.id, 'member')
    for (let i = 0; i < 5; i++) expect((await attempt(member.email, PASSWORD, '198.51.100.20')).statusCode).toBe(200)
    for (let i = 0; i < 2; i++) await attempt(other.email, 'a wrong guess', '198.51.100.21')
    expect((await attempt(member.email, PASSWORD, '198.51.100.21')).statusCode).toBe(200)
    expect((await attempt(other.email, PASSWORD, '198.51.100.21')).statusCode).toBe(200)
    await attempt(other.email, 'a wrong guess', '198.51.100.21')
    expectProblem(await attempt(other.email, PASSWORD, '198.51.100.21'), 429, 'rate_limited')
  })

  it('counts a wrong current password given to a password change', async () => {
    const member = await signedInMember(limited.app, acme.org.id, 'member')
    for (let i = 0; i < 3; i++) {
      expectProblem(await member.post('/app/api/password', { current_password: 'a wrong guess', new_password: 'a brand new password' }), 403, 'current_password_wrong')
    }
    const refused = await member.post('/app/api/password', { current_password: PASSWORD, new_password: 'a brand new password' })
    expectProblem(refused, 429, 'rate_limited')
    expect(refused.headers['retry-after']).toMatch(/^\d+$/)
    expectProblem(await attempt(member.email, PASSWORD, '198.51.100.30'), 429, 'rate_limited')
  })
})

describe('re-sending an invitation', () => {
  const accept = (token: string) =>
    t.app.inject({ method: 'POST', url: '/app/api/invitations/accept', payload: { token, password: 'invitee password 1' } })

  it('gives a new token valid for 7 days, the old one stops working, and emits member.invited again', async () => {
    const owner = await loginOwner(t.app, acme)
    const email = `resend-${Date.now()}@example.com`
    const created = (await owner.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email, role: 'member' })).json()
    // As if it had expired: a re-send is how an expired invitation is used again.
    await t.database.handle.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', created.id).execute()
    const resent = await owner.post(`/app/api/orgs/${acme.org.slug}/invitations/${created.id}/resend`)
    expect(resent.statusCode, resent.body).toBe(200)
    const body = resent.json()
    expect(body).toMatchObject({ id: created.id, email, role: 'member', accepted_at: null, revoked_at: null })
    expect(body.token).not.toBe(created.token)
    const expiresIn = Date.parse(body.expires_at) - Date.now()
    expect(expiresIn).toBeGreaterThan(7 * 86_400_000 - 60_000)
    expect(expiresIn).toBeLessThanOrEqual(7 * 86_400_000)
    expect((await outboxEvents(t.database.handle.db, acme.org.id, 'member.invited')).filter((e) => e.email === email)).toHaveLength(2)
    expectProblem(await accept(created.token), 404, 'invitation_not_found')
    expect((await accept(body.token)).statusCode).toBe(200)
    // Accepted: there is nothing left to re-send.
    expectProblem(await owner.post(`/app/api/orgs/${acme.org.slug}/invitations/${created.id}/resend`), 404, 'not_found')
  })

  it('refuses a revoked invitation, a plain member, and an admin re-sending an owner’s invitation', async () => {
    const owner = await loginOwner(t.app, acme)
    const invite = async (role: string) => (await owner.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email: `r-${role}-${Date.now()}@example.com`, role })).json()
    const revoked = await invite('member')
    await owner.delete(`/app/api/orgs/${acme.org.slug}/invitations/${revoked.id}`)
    expectProblem(await owner.post(`/app/api/orgs/${acme.org.slug}/invitations/${revoked.id}/resend`), 404, 'not_found')
    const forOwner = await invite('owner')
    const admin = await signedInMember(t.app, acme.org.id, 'admin')
    expectProblem(await admin.post(`/app/api/orgs/${acme.org.slug}/invitations/${forOwner.id}/resend`), 403, 'role_not_allowed')
    const member = await signedInMember(t.app, acme.org.id, 'member')
    expectProblem(await member.post(`/app/api/orgs/${acme.org.slug}/invitations/${forOwner.id}/resend`), 403, 'role_required')
    // The refused re-sends changed nothing: the first token still works.
    expect((await accept(forOwner.token)).statusCode).toBe(200)
  })

  it('is not possible in another organization', async () => {
    const owner = await loginOwner(t.app, acme)
    const created = (await owner.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email: `x-${Date.now()}@example.com`, role: 'member' })).json()
    const other = await loginOwner(t.app, globex)
    expectProblem(await other.post(`/app/api/orgs/${globex.org.slug}/invitations/${created.id}/resend`), 404, 'not_found')
  })
})

describe('INVITATION_TTL_DAYS', () => {
  let shortLived: TestApp
  beforeAll(async () => {
    shortLived = await startTestApp({ database: t.database, env: { INVITATION_TTL_DAYS: '2' } })
  })
  afterAll(() => shortLived.close())

  /** How far from now an answer's expires_at lies, in days. */
  const daysLeft = (body: { expires_at: string }) => (Date.parse(body.expires_at) - Date.now()) / 86_400_000

  it('sets how long a new and a re-sent invitation last', async () => {
    const owner = await loginOwner(shortLived.app, acme)
    const created = await owner.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email: `ttl-${Date.now()}@example.com`, role: 'member' })
    expect(created.statusCode, created.body).toBe(201)
    expect(daysLeft(created.json())).toBeCloseTo(2, 2)
    const resent = await owner.post(`/app/api/orgs/${acme.org.slug}/invitations/${created.json().id}/resend`)
    expect(daysLeft(resent.json())).toBeCloseTo(2, 2)
  })
})
