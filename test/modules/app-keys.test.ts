import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/platform/crypto.js'
import { bearer, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, startTwoOrganizations } from '../support/fixtures.js'
import { loginOwner, signedInMember, type Client } from '../support/sessions.js'

const TOKEN = /^al_([a-z0-9]{8})_([A-Za-z0-9_-]{43})$/
const LISTED_FIELDS = ['created_at', 'expires_at', 'id', 'last_used_at', 'limit_cheap', 'limit_expensive', 'name', 'prefix', 'revoked_at', 'scope']

let t: TestApp
let acme: Seeded
let globex: Seeded
let owner: Client
let keysUrl: string

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations())
  owner = await loginOwner(t.app, acme)
  keysUrl = `/app/api/orgs/${acme.org.slug}/keys`
})
afterAll(() => t.close())

const getKey = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: bearer(token) })
const keyRows = () => t.database.handle.db.selectFrom('api_keys').selectAll().orderBy('id').execute()
/** Which keys exist and which are revoked (last_used_at moves on its own). */
const keyState = () => t.database.handle.db.selectFrom('api_keys').select(['id', 'revoked_at']).orderBy('id').execute()

async function createKey(client: Client, payload: object) {
  const res = await client.post(keysUrl, payload)
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string; token: string; prefix: string; expires_at: string | null }>()
}

describe('POST /app/api/orgs/:org/keys', () => {
  it('creates a key, shows the token once and stores only its hash', async () => {
    const res = await owner.post(keysUrl, { name: '  ci deploy  ', scope: 'assets:write' })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    const [, prefix, secret] = TOKEN.exec(body.token) ?? []
    expect(prefix).toBeDefined()
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'ci deploy',
      prefix,
      scope: 'assets:write',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
      limit_expensive: null,
      limit_cheap: null,
      token: body.token,
    })

    const row = (await keyRows()).find((k) => k.id === body.id)
    expect(row).toMatchObject({ organization_id: acme.org.id, created_by: acme.owner.id, prefix, secret_hash: sha256Hex(secret!) })
    expect(JSON.stringify(row)).not.toContain(secret)
  })

  it('makes a key that works on the public API for its organization', async () => {
    const key = await createKey(owner, { name: 'reader', scope: 'assets:read' })
    const res = await getKey(key.token)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: key.id, scope: 'assets:read', organization: { id: acme.org.id } })
  })

  it('sets expires_at from expires_in_days', async () => {
    const before = Date.now()
    const key = await createKey(owner, { name: 'temporary', scope: 'assets:read', expires_in_days: 30 })
    const expiresAt = Date.parse(key.expires_at!)
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000)
    expect((await getKey(key.token)).json().expires_at).toBe(key.expires_at)
  })

  it('lets an admin create keys too', async () => {
    const admin = await signedInMember(t.app, acme.org.id, 'admin')
    const key = await createKey(admin, { name: 'by admin', scope: 'assets:read' })
    expect((await keyRows()).find((k) => k.id === key.id)?.created_by).toBe(admin.userId)
  })

  const invalid: Array<[string, unknown, string[]]> = [
    ['an unknown field', { name: 'x', scope: 'assets:read', organization_id: 'x' }, ['/organization_id']],
    ['wrong types', { name: 42, scope: 'assets:read', expires_in_days: '30' }, ['/name', '/expires_in_days']],
    ['an empty name', { name: '', scope: 'assets:read' }, ['/name']],
    ['a blank name', { name: '   ', scope: 'assets:read' }, ['/name']],
    ['an unknown scope', { name: 'x', scope: 'admin' }, ['/scope']],
    ['a missing scope', { name: 'x' }, ['/scope']],
    ['zero days', { name: 'x', scope: 'assets:read', expires_in_days: 0 }, ['/expires_in_days']],
    ['fractional days', { name: 'x', scope: 'assets:read', expires_in_days: 1.5 }, ['/expires_in_days']],
  ]
  it.each(invalid)('refuses %s with 400 and creates nothing', async (_label, payload, pointers) => {
    const before = await keyState()
    expectInvalid(await owner.post(keysUrl, payload), ...pointers)
    expect(await keyState()).toEqual(before)
  })
})

describe('GET /app/api/orgs/:org/keys', () => {
  it('lists prefix, name, scope and dates, never the token or its hash', async () => {
    const key = await createKey(owner, { name: 'listed', scope: 'assets:write', expires_in_days: 7 })
    expect((await getKey(key.token)).statusCode).toBe(200)

    const res = await owner.get(keysUrl)
    expect(res.statusCode).toBe(200)
    const { data } = res.json<{ data: Array<Record<string, unknown>> }>()
    const listed = data.find((k) => k.id === key.id)
    expect(listed).toMatchObject({ name: 'listed', prefix: key.prefix, scope: 'assets:write', expires_at: key.expires_at, revoked_at: null })
    for (const entry of data) expect(Object.keys(entry).sort()).toEqual(LISTED_FIELDS)

    const secret = TOKEN.exec(key.token)![2]!
    const hash = (await keyRows()).find((k) => k.id === key.id)!.secret_hash
    expect(res.body).not.toContain(secret)
    expect(res.body).not.toContain(hash)

    // The seeded keys are there too, newest first; no key of another organization is.
    expect(data.map((k) => k.prefix)).toEqual(expect.arrayContaining([acme.readKey.split('_')[1], acme.writeKey.split('_')[1]]))
    expect(data.map((k) => k.prefix)).not.toContain(globex.readKey.split('_')[1])
    const created = data.map((k) => k.created_at as string)
    expect(created).toEqual([...created].sort().reverse())
  })

  it('shows when a key was last used', async () => {
    const key = await createKey(owner, { name: 'used', scope: 'assets:read' })
    expect((await getKey(key.token)).statusCode).toBe(200)
    await expect
      .poll(async () => (await owner.get(keysUrl)).json().data.find((k: { id: string }) => k.id === key.id).last_used_at)
      .toMatch(/^\d{4}-/)
  })
})

describe('DELETE /app/api/orgs/:org/keys/:id', () => {
  it('revokes the key at once', async () => {
    const key = await createKey(owner, { name: 'doomed', scope: 'assets:write' })
    expect((await getKey(key.token)).statusCode).toBe(200)

    const res = await owner.delete(`${keysUrl}/${key.id}`)
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expectProblem(await getKey(key.token), 401, 'invalid_api_key')

    const listed = (await owner.get(keysUrl)).json().data.find((k: { id: string }) => k.id === key.id)
    expect(listed.revoked_at).toMatch(/^\d{4}-/)
    // Revoking again changes nothing.
    expect((await owner.delete(`${keysUrl}/${key.id}`)).statusCode).toBe(204)
    expect((await owner.get(keysUrl)).json().data.find((k: { id: string }) => k.id === key.id).revoked_at).toBe(listed.revoked_at)
  })

  it('is 404 for a key of another organization through your own, and that key keeps working', async () => {
    const foreign = (await getKey(globex.writeKey)).json()
    const res = await owner.delete(`${keysUrl}/${foreign.id}`)
    expectProblem(res, 404, 'not_found')
    expect((await getKey(globex.writeKey)).statusCode).toBe(200)
    expect((await keyRows()).find((k) => k.id === foreign.id)?.revoked_at).toBeNull()
  })

  it('is 404 for the other organization’s URL, which the user is not a member of', async () => {
    const foreign = (await getKey(globex.readKey)).json()
    expectProblem(await owner.delete(`/app/api/orgs/${globex.org.slug}/keys/${foreign.id}`), 404, 'not_found')
    expectProblem(await owner.get(`/app/api/orgs/${globex.org.slug}/keys`), 404, 'not_found')
    expectProblem(await owner.post(`/app/api/orgs/${globex.org.slug}/keys`, { name: 'x', scope: 'assets:read' }), 404, 'not_found')
    expect((await getKey(globex.readKey)).statusCode).toBe(200)
  })

  it('is 404 for an unknown id and 400 for one that is not a UUID', async () => {
    expectProblem(await owner.delete(`${keysUrl}/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55`), 404, 'not_found')
    expectInvalid(await owner.delete(`${keysUrl}/not-a-uuid`), '/params/id')
  })
})

describe('roles', () => {
  it('keeps members away from keys entirely', async () => {
    const member = await signedInMember(t.app, acme.org.id, 'member')
    const seededKeyId = (await getKey(acme.readKey)).json().id
    const before = await keyState()

    expectProblem(await member.get(keysUrl), 403, 'role_required')
    expectProblem(await member.post(keysUrl, { name: 'sneaky', scope: 'assets:write' }), 403, 'role_required')
    expectProblem(await member.delete(`${keysUrl}/${seededKeyId}`), 403, 'role_required')

    expect(await keyState()).toEqual(before)
    expect((await getKey(acme.readKey)).statusCode).toBe(200)
  })

  it('does not let an API key manage keys', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: keysUrl,
      headers: bearer(acme.writeKey),
      payload: { name: 'by key', scope: 'assets:write' },
    })
    expectProblem(res, 401, 'not_signed_in')
  })
})
