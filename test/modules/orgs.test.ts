import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/platform/crypto.js'
import { bearer, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, outboxEvents, startTwoOrganizations } from '../support/fixtures.js'
import { solid } from '../support/images.js'
import { PASSWORD, clientFrom, login, loginOwner, sessionCookie, signedInMember, type Client } from '../support/sessions.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let owner: Client
let admin: Client
let member: Client
let outsider: Client
let orgUrl: string

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations())
  owner = await loginOwner(t.app, acme)
  admin = await signedInMember(t.app, acme.org.id, 'admin')
  member = await signedInMember(t.app, acme.org.id, 'member')
  outsider = await loginOwner(t.app, globex)
  orgUrl = `/app/api/orgs/${acme.org.slug}`
})
afterAll(() => t.close())

const db = () => t.database.handle.db
const accept = (payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/app/api/invitations/accept', payload, headers })

async function invite(by: Client, email: string, role = 'member') {
  const res = await by.post(`${orgUrl}/invitations`, { email, role })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string; token: string; email: string; role: string }>()
}

const userByEmail = (email: string) =>
  db().selectFrom('users').selectAll().where(sql<string>`lower(email)`, '=', email.toLowerCase()).executeTakeFirst()
const roleIn = async (organizationId: string, userId: string) =>
  (await db().selectFrom('memberships').select('role').where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst())?.role
const invitationRow = (id: string) => db().selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const joinedEvents = async (email: string) =>
  (await outboxEvents(db(), acme.org.id, 'member.joined')).filter((e) => e.email === email)

describe('GET /app/api/orgs/:org and its members', () => {
  it('shows the organization and the caller’s role to every member', async () => {
    for (const [client, role] of [[owner, 'owner'], [admin, 'admin'], [member, 'member']] as const) {
      const res = await client.get(orgUrl)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        id: acme.org.id,
        name: expect.any(String),
        slug: acme.org.slug,
        plan: 'free',
        ai_enabled: expect.any(Boolean),
        created_at: expect.any(String),
        role,
        usage: { assets: expect.any(Number), trashed_assets: expect.any(Number), bytes: expect.any(Number), max_assets: 10_000, max_bytes: 10 * 1024 ** 3 },
        ai: { available: false, unavailable_reason: 'no_provider', embeddings_pending: 0 },
        trash_retention_days: 30,
        public_base_url: 'http://assets.test',
      })
    }
  })

  it('lists the members, for plain members too', async () => {
    const res = await member.get(`${orgUrl}/members`)
    expect(res.statusCode).toBe(200)
    const { data } = res.json<{ data: Array<Record<string, unknown>> }>()
    expect(data.map((m) => [m.email, m.role])).toEqual([
      [acme.owner.email, 'owner'],
      [admin.email, 'admin'],
      [member.email, 'member'],
    ])
    expect(data[0]).toEqual({ user_id: acme.owner.id, email: acme.owner.email, name: '', role: 'owner', joined_at: expect.any(String) })
    expect(res.body).not.toContain('password')
  })

  it('is the same 404 for an organization the user is not in as for one that does not exist', async () => {
    const notMine = await outsider.get(orgUrl)
    const missing = await outsider.get('/app/api/orgs/no-such-org')
    expectProblem(notMine, 404, 'not_found')
    expect(notMine.body).toBe(missing.body)
    expectProblem(await outsider.get(`${orgUrl}/members`), 404, 'not_found')
    expectProblem(await outsider.patch(orgUrl, { name: 'Mine now' }), 404, 'not_found')
    expectProblem(await outsider.post(`${orgUrl}/invitations`, { email: 'x@example.com', role: 'owner' }), 404, 'not_found')
  })

  it('is 401 without a session', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: orgUrl }), 401, 'not_signed_in')
  })
})

describe('GET /app/api/orgs/:org usage', () => {
  it("shows the plan's usage, counted as assets are pushed, trashed and purged, against the plan's limits", async () => {
    const usage = async () => (await member.get(orgUrl)).json<{ usage: Record<string, number | null> }>().usage
    const limits = { max_assets: 10_000, max_bytes: 10 * 1024 ** 3 }
    expect(await usage()).toEqual({ assets: 0, trashed_assets: 0, bytes: 0, ...limits })
    const image = await solid(20, 10).png().toBuffer()
    const pushed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/assets',
      headers: bearer(acme.writeKey),
      payload: { title: 'Counted', image_base64: image.toString('base64') },
    })
    expect(await usage()).toEqual({ assets: 1, trashed_assets: 0, bytes: image.length, ...limits })
    const id = pushed.json().asset_id
    await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${id}`, headers: bearer(acme.writeKey) })
    expect(await usage()).toEqual({ assets: 1, trashed_assets: 1, bytes: image.length, ...limits })
    await t.app.inject({ method: 'DELETE', url: `/api/v1/trash/${id}`, headers: bearer(acme.writeKey) })
    expect(await usage()).toEqual({ assets: 0, trashed_assets: 0, bytes: 0, ...limits })
  })

  it('says null for a plan without limits', async () => {
    const unlimited = await startTestApp({ database: t.database, env: { PLAN_LIMITS: '{"enterprise":{"max_assets":1}}' } })
    try {
      const res = await unlimited.app.inject({ url: orgUrl, headers: { cookie: member.cookie } })
      expect(res.json().usage).toMatchObject({ max_assets: null, max_bytes: null })
    } finally {
      await unlimited.close()
    }
  })
})

describe('GET /app/api/orgs/:org trash_retention_days', () => {
  it('is TRASH_RETENTION_DAYS, 30 by default and 0 on a server whose deletes cannot be undone', async () => {
    expect((await member.get(orgUrl)).json().trash_retention_days).toBe(30)
    const purgesAtOnce = await startTestApp({ database: t.database, env: { TRASH_RETENTION_DAYS: '0' } })
    try {
      const res = await purgesAtOnce.app.inject({ url: orgUrl, headers: { cookie: member.cookie } })
      expect(res.statusCode).toBe(200)
      expect(res.json().trash_retention_days).toBe(0)
    } finally {
      await purgesAtOnce.close()
    }
  })
})

describe('PATCH /app/api/orgs/:org', () => {
  it('lets the owner change the name and the AI flag', async () => {
    const res = await owner.patch(orgUrl, { name: 'Acme Studio', ai_enabled: true })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: acme.org.id, name: 'Acme Studio', ai_enabled: true, slug: acme.org.slug, plan: 'free' })
    expect(await db().selectFrom('organizations').select(['name', 'ai_enabled']).where('id', '=', acme.org.id).executeTakeFirst()).toEqual({
      name: 'Acme Studio',
      ai_enabled: true,
    })
    expect((await member.get(orgUrl)).json()).toMatchObject({ name: 'Acme Studio', ai_enabled: true })
  })

  it('changes only the fields given, and admins may do it too', async () => {
    const res = await admin.patch(orgUrl, { ai_enabled: false })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ name: 'Acme Studio', ai_enabled: false })
  })

  it('is 403 role_required for a member, and changes nothing', async () => {
    expectProblem(await member.patch(orgUrl, { name: 'Members Rule' }), 403, 'role_required')
    expect((await owner.get(orgUrl)).json().name).toBe('Acme Studio')
  })

  const invalid: Array<[string, unknown, string[]]> = [
    ['an empty body', {}, ['/']],
    ['an empty name', { name: '' }, ['/name']],
    ['a blank name', { name: '  ' }, ['/name']],
    ['wrong types', { name: 7, ai_enabled: 'yes' }, ['/name', '/ai_enabled']],
    ['a field that is not a setting', { plan: 'enterprise' }, ['/plan']],
    ['a null name', { name: null }, ['/name']],
  ]
  it.each(invalid)('refuses %s with 400', async (_label, payload, pointers) => {
    const before = await db().selectFrom('organizations').selectAll().where('id', '=', acme.org.id).executeTakeFirst()
    expectInvalid(await owner.patch(orgUrl, payload), ...pointers)
    expect(await db().selectFrom('organizations').selectAll().where('id', '=', acme.org.id).executeTakeFirst()).toEqual(before)
  })
})

describe('POST /app/api/orgs/:org/invitations', () => {
  it('creates an invitation, shows its token once and records member.invited', async () => {
    const before = Date.now()
    const res = await owner.post(`${orgUrl}/invitations`, { email: 'designer@example.com', role: 'admin' })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toEqual({
      id: expect.any(String),
      email: 'designer@example.com',
      role: 'admin',
      expires_at: expect.any(String),
      accepted_at: null,
      revoked_at: null,
      created_at: expect.any(String),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      // This server has no SMTP_URL: the link is the inviter's to send.
      email_status: 'not_configured',
    })
    const sevenDays = 7 * 86_400_000
    expect(Date.parse(body.expires_at)).toBeGreaterThanOrEqual(before + sevenDays - 1000)
    expect(Date.parse(body.expires_at)).toBeLessThanOrEqual(Date.now() + sevenDays + 1000)

    const row = await invitationRow(body.id)
    expect(row).toMatchObject({ organization_id: acme.org.id, invited_by: acme.owner.id, token_hash: sha256Hex(body.token) })

    const events = (await outboxEvents(db(), acme.org.id, 'member.invited')).filter((e) => e.email === 'designer@example.com')
    expect(events).toEqual([{ email: 'designer@example.com', role: 'admin', invited_by: { user_id: acme.owner.id, email: acme.owner.email } }])
    expect(await outboxEvents(db(), globex.org.id, 'member.invited')).toEqual([])

    const listed = await owner.get(`${orgUrl}/invitations`)
    expect(listed.statusCode).toBe(200)
    expect(listed.json().data.find((i: { id: string }) => i.id === body.id)).toEqual({ ...body, token: undefined, email_status: undefined })
    expect(listed.body).not.toContain(body.token)
  })

  it('lets an admin invite members and admins but not owners', async () => {
    await invite(admin, 'by-admin@example.com', 'admin')
    const invitedBefore = await outboxEvents(db(), acme.org.id, 'member.invited')
    const rowsBefore = await db().selectFrom('invitations').select('id').execute()

    expectProblem(await admin.post(`${orgUrl}/invitations`, { email: 'boss@example.com', role: 'owner' }), 403, 'role_not_allowed')

    expect(await outboxEvents(db(), acme.org.id, 'member.invited')).toEqual(invitedBefore)
    expect(await db().selectFrom('invitations').select('id').execute()).toEqual(rowsBefore)
    expect((await invite(owner, 'boss@example.com', 'owner')).role).toBe('owner')
  })

  it('is 403 role_required for a member, who cannot see invitations either', async () => {
    const invitedBefore = await outboxEvents(db(), acme.org.id, 'member.invited')
    expectProblem(await member.post(`${orgUrl}/invitations`, { email: 'friend@example.com', role: 'member' }), 403, 'role_required')
    expectProblem(await member.get(`${orgUrl}/invitations`), 403, 'role_required')
    expect(await outboxEvents(db(), acme.org.id, 'member.invited')).toEqual(invitedBefore)
  })

  const invalid: Array<[string, unknown, string[]]> = [
    ['an unknown field', { email: 'a@example.com', role: 'member', message: 'hi' }, ['/message']],
    ['wrong types', { email: ['a@example.com'], role: 1 }, ['/email', '/role']],
    ['an empty email', { email: '', role: 'member' }, ['/email']],
    ['an unknown role', { email: 'a@example.com', role: 'superuser' }, ['/role']],
    ['a missing role', { email: 'a@example.com' }, ['/role']],
  ]
  it.each(invalid)('refuses %s with 400', async (_label, payload, pointers) => {
    expectInvalid(await owner.post(`${orgUrl}/invitations`, payload), ...pointers)
  })
})

describe('POST /app/api/invitations/lookup', () => {
  const lookUp = (token: string) => t.app.inject({ method: 'POST', url: '/app/api/invitations/lookup', payload: { token } })

  it('says whom a usable invitation is for, and whether the email has an account, without spending it', async () => {
    const fresh = await invite(owner, 'Fresh.Face@example.com', 'member')
    const res = await lookUp(fresh.token)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      email: 'Fresh.Face@example.com',
      role: 'member',
      organization_name: expect.any(String),
      existing_user: false,
      expires_at: expect.any(String),
    })
    expect((await invitationRow(fresh.id)).accepted_at).toBeNull()
    const known = await invite(owner, globex.owner.email, 'admin')
    expect((await lookUp(known.token)).json()).toMatchObject({ email: globex.owner.email, role: 'admin', existing_user: true })
    // The account is found whatever the case of the invited email, as accepting finds it.
    const shouted = await invite(owner, globex.owner.email.toUpperCase(), 'member')
    expect((await lookUp(shouted.token)).json()).toMatchObject({ existing_user: true })
  })

  it('is 404 for an unknown, revoked or used token', async () => {
    expectProblem(await lookUp('not-a-token'), 404, 'invitation_not_found')
    const revoked = await invite(owner, 'gone@example.com')
    await admin.delete(`${orgUrl}/invitations/${revoked.id}`)
    expectProblem(await lookUp(revoked.token), 404, 'invitation_not_found')
    const used = await invite(owner, 'used.once@example.com')
    expect((await accept({ token: used.token, password: PASSWORD })).statusCode).toBe(200)
    expectProblem(await lookUp(used.token), 404, 'invitation_not_found')
  })

  it('refuses another site', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/app/api/invitations/lookup', payload: { token: 'x' }, headers: { origin: 'https://evil.example' } })
    expectProblem(res, 403, 'cross_site_request')
  })
})

describe('POST /app/api/invitations/accept', () => {
  it('turns a new email into a signed-in member and records member.joined', async () => {
    const invitation = await invite(owner, 'New.Person@example.com', 'member')
    const res = await accept({ token: invitation.token, password: 'new person password', name: 'New Person' })
    expect(res.statusCode).toBe(200)
    expect(sessionCookie(res)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })

    const user = await userByEmail('new.person@example.com')
    expect(user).toMatchObject({ email: 'New.Person@example.com', name: 'New Person', password_hash: expect.stringMatching(/^scrypt\$/) })
    expect(res.json()).toEqual({
      user: { id: user!.id, email: 'New.Person@example.com', name: 'New Person' },
      organizations: [{ id: acme.org.id, name: expect.any(String), slug: acme.org.slug, role: 'member' }],
      csrf_token: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(await roleIn(acme.org.id, user!.id)).toBe('member')
    expect((await invitationRow(invitation.id)).accepted_at).toBeInstanceOf(Date)
    expect(await joinedEvents('New.Person@example.com')).toEqual([{ user_id: user!.id, email: 'New.Person@example.com', role: 'member' }])

    const joined = clientFrom(t.app, res)
    expect((await joined.get(orgUrl)).json().role).toBe('member')
    expect((await login(t.app, 'new.person@example.com', 'new person password')).userId).toBe(user!.id)

    // The token is spent: a second use is 404 and records nothing.
    expectProblem(await accept({ token: invitation.token, password: 'new person password' }), 404, 'invitation_not_found')
    expectProblem(await accept({ token: invitation.token, password: 'another password!' }), 404, 'invitation_not_found')
    expect(await joinedEvents('New.Person@example.com')).toHaveLength(1)
  })

  it('is 404 for an expired invitation and creates no user', async () => {
    const invitation = await invite(owner, 'late@example.com')
    await sql`update invitations set expires_at = now() - interval '1 second' where id = ${invitation.id}`.execute(db())
    const res = await accept({ token: invitation.token, password: PASSWORD })
    expectProblem(res, 404, 'invitation_not_found')
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(await userByEmail('late@example.com')).toBeUndefined()
    expect(await joinedEvents('late@example.com')).toEqual([])
  })

  it('is 404 for a revoked invitation', async () => {
    const invitation = await invite(owner, 'revoked@example.com')
    const revoked = await admin.delete(`${orgUrl}/invitations/${invitation.id}`)
    expect(revoked.statusCode).toBe(204)
    expect((await invitationRow(invitation.id)).revoked_at).toBeInstanceOf(Date)

    expectProblem(await accept({ token: invitation.token, password: PASSWORD }), 404, 'invitation_not_found')
    expect(await userByEmail('revoked@example.com')).toBeUndefined()
    expect(await joinedEvents('revoked@example.com')).toEqual([])
  })

  it('cannot revoke an invitation of another organization, or one already accepted', async () => {
    const invitation = await invite(owner, 'kept@example.com')
    expectProblem(await outsider.delete(`/app/api/orgs/${globex.org.slug}/invitations/${invitation.id}`), 404, 'not_found')
    expectProblem(await member.delete(`${orgUrl}/invitations/${invitation.id}`), 403, 'role_required')
    expect((await invitationRow(invitation.id)).revoked_at).toBeNull()

    expect((await accept({ token: invitation.token, password: PASSWORD })).statusCode).toBe(200)
    expectProblem(await owner.delete(`${orgUrl}/invitations/${invitation.id}`), 404, 'not_found')
  })

  it('is 404 for a token that was never issued', async () => {
    expectProblem(await accept({ token: 'x'.repeat(43), password: PASSWORD }), 404, 'invitation_not_found')
  })

  it('makes an existing user prove their own password before joining', async () => {
    const invitation = await invite(owner, globex.owner.email.toUpperCase(), 'admin')

    const wrong = await accept({ token: invitation.token, password: 'not their password' })
    expectProblem(wrong, 401, 'invalid_credentials')
    expect(wrong.headers['set-cookie']).toBeUndefined()
    expect(await roleIn(acme.org.id, globex.owner.id)).toBeUndefined()
    expect((await invitationRow(invitation.id)).accepted_at).toBeNull()
    expect(await joinedEvents(globex.owner.email)).toEqual([])

    const right = await accept({ token: invitation.token, password: globex.owner.password, name: 'Renamed' })
    expect(right.statusCode).toBe(200)
    expect(right.json().user).toEqual({ id: globex.owner.id, email: globex.owner.email, name: '' })
    expect(right.json().organizations.map((o: { slug: string; role: string }) => [o.slug, o.role])).toEqual(
      expect.arrayContaining([[acme.org.slug, 'admin'], [globex.org.slug, 'owner']]),
    )
    expect(await roleIn(acme.org.id, globex.owner.id)).toBe('admin')
    expect(await joinedEvents(globex.owner.email)).toEqual([{ user_id: globex.owner.id, email: globex.owner.email, role: 'admin' }])
    // Their password is unchanged.
    expect((await loginOwner(t.app, globex)).userId).toBe(globex.owner.id)
  })

  const invalid: Array<[string, (token: string) => unknown, string[]]> = [
    ['a password that is too short', (token) => ({ token, password: 'short' }), ['/password']],
    ['an empty token and password', () => ({ token: '', password: '' }), ['/token', '/password']],
    ['wrong types', (token) => ({ token, password: 1234567890 }), ['/password']],
    ['an unknown field', (token) => ({ token, password: PASSWORD, role: 'owner' }), ['/role']],
  ]
  it.each(invalid)('refuses %s with 400 and leaves the invitation usable', async (_label, payload, pointers) => {
    const invitation = await invite(owner, `usable-${pointers.join('').replace(/\W/g, '')}-${Date.now()}@example.com`)
    expectInvalid(await accept(payload(invitation.token) as object), ...pointers)
    expect((await invitationRow(invitation.id)).accepted_at).toBeNull()
    expect((await accept({ token: invitation.token, password: PASSWORD })).statusCode).toBe(200)
  })

  it("keeps an existing member's role and records no second member.joined", async () => {
    const invitation = await invite(owner, member.email, 'admin')
    const before = (await joinedEvents(member.email)).length
    const res = await accept({ token: invitation.token, password: PASSWORD })
    expect(res.statusCode).toBe(200)
    expect(await roleIn(acme.org.id, member.userId)).toBe('member')
    expect(await joinedEvents(member.email)).toHaveLength(before)
  })

  it('refuses a cross-site Origin', async () => {
    const invitation = await invite(owner, 'cross@example.com')
    const res = await accept({ token: invitation.token, password: PASSWORD }, { origin: 'https://evil.example' })
    expectProblem(res, 403, 'cross_site_request')
    expect((await invitationRow(invitation.id)).accepted_at).toBeNull()
  })

  it('lets exactly one of two concurrent accepts of one token succeed', async () => {
    const invitation = await invite(owner, 'racer@example.com')
    const results = await Promise.all([
      accept({ token: invitation.token, password: 'racer password one' }),
      accept({ token: invitation.token, password: 'racer password two' }),
    ])
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404])
    expectProblem(results.find((r) => r.statusCode === 404)!, 404, 'invitation_not_found')
    expect(await db().selectFrom('users').select('id').where('email', '=', 'racer@example.com').execute()).toHaveLength(1)
    expect(await joinedEvents('racer@example.com')).toHaveLength(1)
  })

  it('lets one new person accept invitations of two organizations at the same time', async () => {
    const fromAcme = await invite(owner, 'popular@example.com', 'member')
    const fromGlobex = await outsider.post(`/app/api/orgs/${globex.org.slug}/invitations`, { email: 'popular@example.com', role: 'admin' })
    expect(fromGlobex.statusCode).toBe(201)
    const results = await Promise.all([
      accept({ token: fromAcme.token, password: 'popular password' }),
      accept({ token: fromGlobex.json().token, password: 'popular password' }),
    ])
    expect(results.map((r) => r.statusCode)).toEqual([200, 200])
    const user = await userByEmail('popular@example.com')
    expect(await roleIn(acme.org.id, user!.id)).toBe('member')
    expect(await roleIn(globex.org.id, user!.id)).toBe('admin')
  })
})
