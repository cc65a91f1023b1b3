import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '../../src/platform/db/schema.js'
import { seedOrganization, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, startTwoOrganizations } from '../support/fixtures.js'
import { login, loginOwner, PASSWORD, signedInMember, type Client } from '../support/sessions.js'

let t: TestApp
let outsider: Client
let outsiderOrgUrl: string

beforeAll(async () => {
  const started = await startTwoOrganizations()
  t = started.t
  outsider = await loginOwner(t.app, started.globex)
  outsiderOrgUrl = `/app/api/orgs/${started.globex.org.slug}`
})
afterAll(() => t.close())

const db = () => t.database.handle.db

/** A fresh organization with a signed-in owner, admin and member, so each test starts from the same team. */
async function team() {
  const seeded = await seedOrganization(t.app, 'Team')
  const orgId = seeded.org.id
  const [owner, admin, member] = await Promise.all([
    loginOwner(t.app, seeded),
    signedInMember(t.app, orgId, 'admin'),
    signedInMember(t.app, orgId, 'member'),
  ])
  const url = `/app/api/orgs/${seeded.org.slug}`
  const roleOf = async (client: Client) =>
    (await db().selectFrom('memberships').select('role').where('organization_id', '=', orgId).where('user_id', '=', client.userId).executeTakeFirst())?.role
  const changes = async (by: Client = owner, query = '') => {
    const res = await by.get(`${url}/members/changes${query}`)
    expect(res.statusCode, res.body).toBe(200)
    return res.json<{ data: Array<Record<string, unknown>>; total: number; limit: number; offset: number }>()
  }
  return { orgId, url, owner, admin, member, roleOf, changes, memberUrl: (client: Client) => `${url}/members/${client.userId}` }
}

const expectSignedOut = async (client: Client) => expectProblem(await client.get('/app/api/session'), 401, 'not_signed_in')

describe('DELETE /app/api/orgs/:org/members/:user_id', () => {
  it('removes a member, ends every session of theirs at once, and records who did it', async () => {
    const { url, owner, member, roleOf, changes, memberUrl } = await team()
    const secondBrowser = await login(t.app, member.email, PASSWORD)
    expect((await member.get(url)).statusCode).toBe(200)

    const res = await owner.delete(memberUrl(member))
    expect(res.statusCode, res.body).toBe(204)

    expect(await roleOf(member)).toBeUndefined()
    await expectSignedOut(member)
    await expectSignedOut(secondBrowser)
    expectProblem(await member.get(url), 401, 'not_signed_in')
    // Signing in again works (the account stays) but the organization is gone for them.
    const again = await login(t.app, member.email, PASSWORD)
    expectProblem(await again.get(url), 404, 'not_found')

    expect((await changes()).data).toEqual([
      {
        id: expect.any(String),
        action: 'removed',
        actor: { user_id: owner.userId, email: owner.email },
        member: { user_id: member.userId, email: member.email },
        from_role: 'member',
        to_role: null,
        created_at: expect.any(String),
      },
    ])
  })

  it('lets an admin remove a member or another admin, but not an owner', async () => {
    const { orgId, url, owner, admin, member, roleOf, changes, memberUrl } = await team()
    const otherAdmin = await signedInMember(t.app, orgId, 'admin')
    expect((await admin.delete(memberUrl(member))).statusCode).toBe(204)
    expect((await admin.delete(memberUrl(otherAdmin))).statusCode).toBe(204)

    const refused = expectProblem(await admin.delete(memberUrl(owner)), 403, 'role_not_allowed')
    expect(refused.detail).toBe('Only owners can remove an owner.')
    expect(await roleOf(owner)).toBe('owner')
    expect((await owner.get(url)).statusCode).toBe(200)
    expect((await changes()).data.map((c) => c.member)).toEqual([
      { user_id: otherAdmin.userId, email: otherAdmin.email },
      { user_id: member.userId, email: member.email },
    ])
  })

  it('never removes the last owner, and lets one of two owners remove the other', async () => {
    const { orgId, owner, roleOf, changes, memberUrl } = await team()
    const refused = expectProblem(await owner.delete(memberUrl(owner)), 409, 'last_owner')
    expect(refused.detail).toContain('last owner')
    expect(await roleOf(owner)).toBe('owner')
    expect((await changes()).total).toBe(0)

    const coOwner = await signedInMember(t.app, orgId, 'owner')
    expect((await coOwner.delete(memberUrl(owner))).statusCode).toBe(204)
    await expectSignedOut(owner)
    expectProblem(await coOwner.delete(memberUrl(coOwner)), 409, 'last_owner')
  })

  it('lets exactly one of two owners removing each other at the same time succeed', async () => {
    const { orgId, owner, memberUrl } = await team()
    const coOwner = await signedInMember(t.app, orgId, 'owner')
    const results = await Promise.all([owner.delete(memberUrl(coOwner)), coOwner.delete(memberUrl(owner))])
    // The other's request finds its own membership gone (404), or, checked after the commit, its session (401).
    const [won, lost] = results.map((r) => r.statusCode).sort()
    expect(won).toBe(204)
    expect([401, 404]).toContain(lost)
    const owners = await db().selectFrom('memberships').select('user_id').where('organization_id', '=', orgId).where('role', '=', 'owner').execute()
    expect(owners).toHaveLength(1)
  })

  it('is 403 role_required for a plain member, who removes nobody', async () => {
    const { admin, member, roleOf, memberUrl } = await team()
    expectProblem(await member.delete(memberUrl(admin)), 403, 'role_required')
    expect(await roleOf(admin)).toBe('admin')
  })

  it('is 404 for another organization’s member or caller, and for someone who is not a member', async () => {
    const { url, owner, member, roleOf } = await team()
    expectProblem(await outsider.delete(`${url}/members/${member.userId}`), 404, 'not_found')
    expectProblem(await outsider.delete(`${outsiderOrgUrl}/members/${member.userId}`), 404, 'not_found')
    expectProblem(await owner.delete(`${url}/members/${outsider.userId}`), 404, 'not_found')
    expectProblem(await owner.delete(`${url}/members/00000000-0000-7000-8000-000000000000`), 404, 'not_found')
    expect(await roleOf(member)).toBe('member')
    expect((await outsider.get('/app/api/session')).statusCode).toBe(200)
  })

  it('refuses a malformed id, and a write without the CSRF token', async () => {
    const { url, owner, member, roleOf, memberUrl } = await team()
    expectInvalid(await owner.delete(`${url}/members/not-a-uuid`), '/params/user_id')
    expectProblem(await owner.delete(memberUrl(member), { csrf: null }), 403, 'csrf_token_invalid')
    expect(await roleOf(member)).toBe('member')
  })
})

describe('PATCH /app/api/orgs/:org/members/:user_id', () => {
  it('gives a member another role, answers the member, and records the change', async () => {
    const { owner, member, roleOf, changes, memberUrl } = await team()
    const res = await owner.patch(memberUrl(member), { role: 'admin' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ user_id: member.userId, email: member.email, name: '', role: 'admin', joined_at: expect.any(String) })
    expect(await roleOf(member)).toBe('admin')
    expect((await changes()).data).toEqual([
      expect.objectContaining({ action: 'role_changed', actor: { user_id: owner.userId, email: owner.email }, from_role: 'member', to_role: 'admin' }),
    ])
  })

  it('takes effect on the member’s next request', async () => {
    const { url, owner, admin, memberUrl } = await team()
    expect((await admin.get(`${url}/invitations`)).statusCode).toBe(200)
    expect((await owner.patch(memberUrl(admin), { role: 'member' })).statusCode).toBe(200)
    expectProblem(await admin.get(`${url}/invitations`), 403, 'role_required')
  })

  it('lets owners make and unmake owners, and admins only admins and members', async () => {
    const { owner, admin, member, roleOf, memberUrl } = await team()
    expect((await admin.patch(memberUrl(member), { role: 'admin' })).json().role).toBe('admin')
    expect((await admin.patch(memberUrl(member), { role: 'member' })).json().role).toBe('member')

    expect(expectProblem(await admin.patch(memberUrl(member), { role: 'owner' }), 403, 'role_not_allowed').detail).toBe('Only owners can make or unmake owners.')
    expectProblem(await admin.patch(memberUrl(owner), { role: 'member' }), 403, 'role_not_allowed')
    expectProblem(await admin.patch(memberUrl(admin), { role: 'owner' }), 403, 'role_not_allowed')
    expect([await roleOf(owner), await roleOf(admin), await roleOf(member)]).toEqual(['owner', 'admin', 'member'])

    expect((await owner.patch(memberUrl(member), { role: 'owner' })).json().role).toBe('owner')
    expect((await owner.patch(memberUrl(member), { role: 'admin' })).json().role).toBe('admin')
  })

  it('never demotes the last owner', async () => {
    const { orgId, owner, roleOf, memberUrl } = await team()
    for (const role of ['admin', 'member'] as const) expectProblem(await owner.patch(memberUrl(owner), { role }), 409, 'last_owner')
    expect(await roleOf(owner)).toBe('owner')
    const coOwner = await signedInMember(t.app, orgId, 'owner')
    expect((await owner.patch(memberUrl(owner), { role: 'admin' })).statusCode).toBe(200)
    expect(await roleOf(coOwner)).toBe('owner')
  })

  it('records nothing when the role is the one they have', async () => {
    const { owner, member, changes, memberUrl } = await team()
    expect((await owner.patch(memberUrl(member), { role: 'member' })).json().role).toBe('member')
    expect((await changes()).total).toBe(0)
  })

  it('is 404 across organizations, 403 for a member, and 400 for a role that does not exist', async () => {
    const { url, owner, admin, member, roleOf, memberUrl } = await team()
    expectProblem(await outsider.patch(`${url}/members/${member.userId}`, { role: 'admin' }), 404, 'not_found')
    expectProblem(await owner.patch(`${url}/members/${outsider.userId}`, { role: 'member' }), 404, 'not_found')
    expectProblem(await member.patch(memberUrl(member), { role: 'admin' }), 403, 'role_required')
    expectInvalid(await owner.patch(memberUrl(admin), { role: 'superuser' }), '/role')
    expectInvalid(await owner.patch(memberUrl(admin), { role: 'member', name: 'x' }), '/name')
    expect(await roleOf(admin)).toBe('admin')
  })
})

describe('POST /app/api/orgs/:org/ownership', () => {
  it('makes the member an owner and the caller an admin, in one recorded change', async () => {
    const { url, owner, member, roleOf, changes } = await team()
    const res = await owner.post(`${url}/ownership`, { user_id: member.userId })
    expect(res.statusCode, res.body).toBe(204)
    expect([await roleOf(member), await roleOf(owner)]).toEqual(['owner', 'admin'])
    expect((await changes(member)).data).toEqual([
      expect.objectContaining({
        action: 'ownership_transferred',
        actor: { user_id: owner.userId, email: owner.email },
        member: { user_id: member.userId, email: member.email },
        from_role: 'member',
        to_role: 'owner',
      }),
    ])
    // The new owner may now hand it back; the former owner, an admin, may not.
    expectProblem(await owner.post(`${url}/ownership`, { user_id: member.userId }), 403, 'role_not_allowed')
  })

  it('is for owners only, to another member of the organization', async () => {
    const { url, owner, admin, member, roleOf } = await team()
    const refused = expectProblem(await admin.post(`${url}/ownership`, { user_id: member.userId }), 403, 'role_not_allowed')
    expect(refused.detail).toBe('Only owners can hand over ownership.')
    expectProblem(await member.post(`${url}/ownership`, { user_id: member.userId }), 403, 'role_required')
    expectProblem(await owner.post(`${url}/ownership`, { user_id: outsider.userId }), 404, 'not_found')
    expectInvalid(await owner.post(`${url}/ownership`, { user_id: owner.userId }), '/user_id')
    expectInvalid(await owner.post(`${url}/ownership`, {}), '/user_id')
    expect([await roleOf(owner), await roleOf(admin), await roleOf(member)]).toEqual(['owner', 'admin', 'member'])
  })
})

describe('GET /app/api/orgs/:org/members/changes', () => {
  it('lists the changes newest first, a page at a time', async () => {
    const { orgId, url, owner, admin, member, changes, memberUrl } = await team()
    const steps: Array<[Client, Role]> = [[member, 'admin'], [member, 'member'], [admin, 'member']]
    for (const [client, role] of steps) expect((await owner.patch(memberUrl(client), { role })).statusCode).toBe(200)
    const extra = await signedInMember(t.app, orgId, 'member')
    expect((await owner.delete(memberUrl(extra))).statusCode).toBe(204)

    const all = await changes()
    expect(all).toMatchObject({ total: 4, limit: 50, offset: 0 })
    expect(all.data.map((c) => [c.action, (c.member as { email: string }).email, c.from_role, c.to_role])).toEqual([
      ['removed', extra.email, 'member', null],
      ['role_changed', admin.email, 'admin', 'member'],
      ['role_changed', member.email, 'admin', 'member'],
      ['role_changed', member.email, 'member', 'admin'],
    ])
    const second = await changes(owner, '?limit=2&offset=2')
    expect(second).toMatchObject({ total: 4, limit: 2, offset: 2 })
    expect(second.data).toEqual(all.data.slice(2))
    // The admin, now a member, can no longer read it.
    expectProblem(await admin.get(`${url}/members/changes`), 403, 'role_required')
  })

  it('is for owners and admins of the organization only', async () => {
    const { url, owner, admin, member, memberUrl } = await team()
    for (const role of ['admin', 'member'] as const) expect((await owner.patch(memberUrl(member), { role })).statusCode).toBe(200)
    expect((await admin.get(`${url}/members/changes`)).json().total).toBe(2)
    expectProblem(await member.get(`${url}/members/changes`), 403, 'role_required')
    expectProblem(await outsider.get(`${url}/members/changes`), 404, 'not_found')
    expect((await outsider.get(`${outsiderOrgUrl}/members/changes`)).json().total).toBe(0)
    expectInvalid(await owner.get(`${url}/members/changes?limit=0`), '/query/limit')
  })
})
