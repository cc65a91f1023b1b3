import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { callApi, expectProblem, pushImage, startTwoOrganizations } from '../support/fixtures.js'
import { solid, uniquePng } from '../support/images.js'
import { PASSWORD, login, loginOwner, signedInMember, type Client } from '../support/sessions.js'

/** The web app calls /api/v1 with its session cookie instead of a key. */
let t: TestApp
let acme: Seeded
let globex: Seeded
let member: Client
let png: string

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations())
  member = await signedInMember(t.app, acme.org.id, 'member')
  png = (await solid(24, 16).png().toBuffer()).toString('base64')
})
afterAll(() => t.close())

const assetCount = async (organizationId: string) =>
  Number(
    (
      await t.database.handle.db
        .selectFrom('assets')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow()
    ).n,
  )

describe('a session on /api/v1', () => {
  it('lets a member push, read and edit in their organization', async () => {
    const pushed = await member.post('/api/v1/assets', { title: 'From the browser', image_base64: png, tag_names: ['web'] })
    expect(pushed.statusCode, pushed.body).toBe(201)
    const id = pushed.json<{ asset_id: string }>().asset_id

    const list = await member.get('/api/v1/assets?tag=web')
    expect(list.statusCode).toBe(200)
    expect(list.json<{ data: Array<{ id: string }> }>().data.map((a) => a.id)).toEqual([id])

    const edited = await member.patch(`/api/v1/assets/${id}`, { title: 'Renamed' })
    expect(edited.statusCode).toBe(200)
    // What the key holder sees is the same asset.
    const byKey = await t.app.inject({ url: `/api/v1/assets/${id}`, headers: bearer(acme.readKey) })
    expect(byKey.json()).toMatchObject({ id, title: 'Renamed' })
  })

  it('refuses a write without the CSRF token, and stores nothing', async () => {
    const before = await assetCount(acme.org.id)
    const res = await member.post('/api/v1/assets', { title: 'Forged', image_base64: png }, { csrf: null })
    expectProblem(res, 403, 'csrf_token_invalid')
    const wrong = await member.post('/api/v1/assets', { title: 'Forged', image_base64: png }, { csrf: 'f'.repeat(64) })
    expectProblem(wrong, 403, 'csrf_token_invalid')
    expect(await assetCount(acme.org.id)).toBe(before)
  })

  it('reads without a CSRF token', async () => {
    const res = await member.get('/api/v1/tags')
    expect(res.statusCode).toBe(200)
  })

  it('answers a stale or unknown session cookie with not_signed_in', async () => {
    const res = await t.app.inject({ url: '/api/v1/assets', headers: { cookie: 'al_session=not-a-session' } })
    expectProblem(res, 401, 'not_signed_in')
  })

  it('uses the Authorization header when both are sent', async () => {
    const res = await t.app.inject({ url: '/api/v1/assets', headers: { cookie: member.cookie, authorization: 'Bearer al_nope_nope' } })
    expectProblem(res, 401, 'invalid_api_key')
    // A stale cookie beside a valid key: the key decides.
    const keyed = await t.app.inject({ url: '/api/v1/assets', headers: { cookie: 'al_session=stale', ...bearer(acme.readKey) } })
    expect(keyed.statusCode).toBe(200)
  })

  it('needs the CSRF token on every kind of write', async () => {
    const pushed = await member.post('/api/v1/assets', { title: 'Guarded', image_base64: (await solid(30, 10).png().toBuffer()).toString('base64') })
    const id = pushed.json<{ asset_id: string }>().asset_id
    expectProblem(await member.patch(`/api/v1/assets/${id}`, { title: 'Forged' }, { csrf: null }), 403, 'csrf_token_invalid')
    expectProblem(await member.delete(`/api/v1/assets/${id}`, { csrf: null }), 403, 'csrf_token_invalid')
    expect((await member.get(`/api/v1/assets/${id}`)).json().title).toBe('Guarded')
  })

  it('counts refused session calls against the caller address, so they cannot be repeated freely', async () => {
    const limited = await startTestApp({ database: t.database, env: { RATE_LIMIT_ANONYMOUS: '3' } })
    try {
      const stale = () => limited.app.inject({ url: '/api/v1/assets', headers: { cookie: 'al_session=stale' } })
      for (let i = 0; i < 3; i++) expectProblem(await stale(), 401, 'not_signed_in')
      const refused = await stale()
      expectProblem(refused, 429, 'rate_limited')
      expect(refused.headers['retry-after']).toBeDefined()
    } finally {
      await limited.close()
    }
  })

  it('never shows another organization to a session', async () => {
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/v1/assets',
      headers: bearer(globex.writeKey),
      payload: { title: 'Globex only', image_base64: png },
    })
    const id = theirs.json<{ asset_id: string }>().asset_id
    expectProblem(await member.get(`/api/v1/assets/${id}`), 404, 'not_found')
    const named = await t.app.inject({ url: '/api/v1/assets', headers: { cookie: member.cookie, 'x-organization': globex.org.slug } })
    expectProblem(named, 404, 'not_found')
  })

  it('needs X-Organization from a user of several organizations, and acts in the one named', async () => {
    await t.app.services.orgs.addMember(globex.org.id, { email: member.email, password: PASSWORD, role: 'member' })
    expectProblem(await member.get('/api/v1/assets'), 400, 'organization_required')

    const inGlobex = await t.app.inject({ url: '/api/v1/assets', headers: { cookie: member.cookie, 'x-organization': globex.org.slug } })
    expect(inGlobex.statusCode).toBe(200)
    expect(inGlobex.json<{ data: Array<{ title: string }> }>().data.map((a) => a.title)).toEqual(['Globex only'])
  })

  it("counts a user's sessions in one rate-limit bucket", async () => {
    const owner = await signedInMember(t.app, acme.org.id, 'owner')
    const second = await login(t.app, owner.email, PASSWORD)
    const first = await owner.get('/api/v1/tags')
    const next = await second.get('/api/v1/tags')
    expect(Number(next.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1)
    expect(next.headers['x-ratelimit-limit']).toBe('1200')
    // A key of the same organization, unused for reads so far, has a bucket of its own, with the spec's limit.
    const byKey = await t.app.inject({ url: '/api/v1/tags', headers: bearer(acme.writeKey) })
    expect(byKey.headers['x-ratelimit-limit']).toBe('120')
    expect(byKey.headers['x-ratelimit-remaining']).toBe('119')
  })

  it('has no API key to describe or revoke', async () => {
    const designer = await signedInMember(t.app, acme.org.id, 'member')
    expectProblem(await designer.get('/api/v1/auth/key'), 404, 'not_found')
    expectProblem(await designer.post('/api/v1/auth/revoke'), 404, 'not_found')
  })
})

describe('deleting through the web app’s session', () => {
  let author: Client
  let colleague: Client
  let admin: Client
  const pushAs = async (client: Client) => {
    const res = await client.post('/api/v1/assets', { image_base64: (await uniquePng()).toString('base64') })
    expect(res.statusCode, res.body).toBe(201)
    return res.json<{ asset_id: string }>().asset_id
  }
  const collectAs = async (client: Client) => {
    const res = await client.post('/api/v1/collections', { name: `Mine ${randomBytes(4).toString('hex')}` })
    expect(res.statusCode, res.body).toBe(201)
    return res.json<{ id: string }>().id
  }

  beforeAll(async () => {
    author = await signedInMember(t.app, acme.org.id, 'member')
    colleague = await signedInMember(t.app, acme.org.id, 'member')
    admin = await signedInMember(t.app, acme.org.id, 'admin')
  })

  it('lets a member delete the assets and collections they created', async () => {
    const asset = await pushAs(author)
    const collection = await collectAs(author)
    expect((await author.delete(`/api/v1/assets/${asset}`)).statusCode).toBe(204)
    expect((await author.delete(`/api/v1/collections/${collection}`)).statusCode).toBe(204)
  })

  it('refuses a member deleting someone else’s asset or collection with 403 role_required, keeping them', async () => {
    const asset = await pushAs(author)
    const collection = await collectAs(author)
    expectProblem(await colleague.delete(`/api/v1/assets/${asset}`), 403, 'role_required')
    expectProblem(await colleague.delete(`/api/v1/collections/${collection}`), 403, 'role_required')
    expect((await author.get(`/api/v1/assets/${asset}`)).statusCode).toBe(200)
    expect((await author.get(`/api/v1/collections/${collection}`)).statusCode).toBe(200)
    // An unknown id stays a 404, not a 403.
    expectProblem(await colleague.delete('/api/v1/assets/01900000-0000-7000-8000-000000000000'), 404, 'not_found')
    expectProblem(await colleague.delete('/api/v1/collections/01900000-0000-7000-8000-000000000000'), 404, 'not_found')
  })

  it('treats what an API key created as someone else’s', async () => {
    const { id: asset } = await pushImage(t.app, acme.writeKey)
    const collection = (await callApi(t.app, acme.writeKey, 'POST', '/api/v1/collections', { name: `By key ${randomBytes(4).toString('hex')}` })).json<{ id: string }>().id
    expectProblem(await author.delete(`/api/v1/assets/${asset}`), 403, 'role_required')
    expectProblem(await author.delete(`/api/v1/collections/${collection}`), 403, 'role_required')
    expect((await admin.delete(`/api/v1/assets/${asset}`)).statusCode).toBe(204)
    expect((await admin.delete(`/api/v1/collections/${collection}`)).statusCode).toBe(204)
  })

  it('lets owners, admins and API keys delete anyone’s', async () => {
    const owner = await loginOwner(t.app, acme)
    const [a, b, c] = [await pushAs(author), await pushAs(author), await pushAs(author)]
    const [x, y, z] = [await collectAs(author), await collectAs(author), await collectAs(author)]
    expect((await admin.delete(`/api/v1/assets/${a}`)).statusCode).toBe(204)
    expect((await owner.delete(`/api/v1/assets/${b}`)).statusCode).toBe(204)
    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${c}`)).statusCode).toBe(204)
    expect((await admin.delete(`/api/v1/collections/${x}`)).statusCode).toBe(204)
    expect((await owner.delete(`/api/v1/collections/${y}`)).statusCode).toBe(204)
    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/collections/${z}`)).statusCode).toBe(204)
  })
})
