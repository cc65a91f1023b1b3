import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Seeded, TestApp } from '../support/app.js'
import { callApi, expectInvalid, expectProblem, startTwoOrganizations } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { loginOwner, signedInMember, type Client } from '../support/sessions.js'

let t: TestApp
let acme: Seeded
let owner: Client
let keysUrl: string

beforeAll(async () => {
  ;({ t, acme } = await startTwoOrganizations())
  owner = await loginOwner(t.app, acme)
  keysUrl = `/app/api/orgs/${acme.org.slug}/keys`
})
afterAll(() => t.close())

async function createKey(client: Client, payload: object) {
  const res = await client.post(keysUrl, { name: 'import', scope: 'assets:write', ...payload })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string; token: string; limit_expensive: number | null; limit_cheap: number | null }>()
}

const push = async (token: string) => callApi(t.app, token, 'POST', '/api/v1/assets', { image_base64: (await uniquePng()).toString('base64') })

describe('a key with limits of its own', () => {
  it('gets exactly limit_expensive pushes a window, then 429, with the limit in its headers', async () => {
    const key = await createKey(owner, { limit_expensive: 3 })
    expect(key).toMatchObject({ limit_expensive: 3, limit_cheap: null })

    for (let n = 1; n <= 3; n++) {
      const res = await push(key.token)
      expect(res.statusCode, res.body).toBe(201)
      expect(res.headers['x-ratelimit-limit']).toBe('3')
      expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - n))
    }
    const refused = await push(key.token)
    expectProblem(refused, 429, 'rate_limited')
    expect(refused.headers['x-ratelimit-limit']).toBe('3')
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // The other buckets keep the server's limits.
    expect((await callApi(t.app, key.token, 'GET', '/api/v1/assets?limit=1')).headers['x-ratelimit-limit']).toBe('120')
  })

  it('gets limit_cheap reads a window, the GETs and the check together', async () => {
    const key = await createKey(owner, { limit_cheap: 2, limit_expensive: null })
    const listed = await callApi(t.app, key.token, 'GET', '/api/v1/assets?limit=1')
    expect(listed.headers['x-ratelimit-limit']).toBe('2')
    expect((await callApi(t.app, key.token, 'POST', '/api/v1/assets/check', { sha256: ['0'.repeat(64)] })).statusCode).toBe(200)
    expectProblem(await callApi(t.app, key.token, 'GET', '/api/v1/auth/key'), 429, 'rate_limited')
    expect((await push(key.token)).headers['x-ratelimit-limit']).toBe('30')
  })

  it('leaves a key made without limits on the server defaults', async () => {
    const key = await createKey(owner, {})
    expect(key).toMatchObject({ limit_expensive: null, limit_cheap: null })
    expect((await push(key.token)).headers['x-ratelimit-limit']).toBe('30')
    expect((await push(acme.writeKey)).headers['x-ratelimit-limit']).toBe('30')
    expect((await callApi(t.app, acme.readKey, 'GET', '/api/v1/assets')).headers['x-ratelimit-limit']).toBe('120')
  })

  it('shows its limits, as set and as they apply, on GET /api/v1/auth/key and in the key list', async () => {
    const key = await createKey(owner, { limit_expensive: 600 })
    const res = await callApi(t.app, key.token, 'GET', '/api/v1/auth/key')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ limit_expensive: 600, limit_cheap: null, rate_limits: { expensive: 600, cheap: 120, standard: 60, window_seconds: 60 } })
    expect((await callApi(t.app, acme.readKey, 'GET', '/api/v1/auth/key')).json()).toMatchObject({
      limit_expensive: null,
      limit_cheap: null,
      rate_limits: { expensive: 30, cheap: 120, standard: 60, window_seconds: 60 },
    })
    const listed = (await owner.get(keysUrl)).json<{ data: Array<{ id: string }> }>().data.find((k) => k.id === key.id)
    expect(listed).toMatchObject({ limit_expensive: 600, limit_cheap: null })
  })

  it('refuses a limit that is not a whole number from 1 to 10,000, and creates nothing', async () => {
    const before = (await owner.get(keysUrl)).json<{ data: unknown[] }>().data.length
    for (const value of [0, -1, 10_001, 1.5, '600', true]) {
      expectInvalid(await owner.post(keysUrl, { name: 'bad', scope: 'assets:write', limit_expensive: value }), '/limit_expensive')
      expectInvalid(await owner.post(keysUrl, { name: 'bad', scope: 'assets:write', limit_cheap: value }), '/limit_cheap')
    }
    expect((await createKey(owner, { limit_expensive: 10_000, limit_cheap: 1 })).limit_expensive).toBe(10_000)
    expect((await owner.get(keysUrl)).json<{ data: unknown[] }>().data.length).toBe(before + 1)
  })

  it('is for owners and admins to make: a member is refused', async () => {
    const admin = await signedInMember(t.app, acme.org.id, 'admin')
    expect((await createKey(admin, { limit_expensive: 100 })).limit_expensive).toBe(100)
    const member = await signedInMember(t.app, acme.org.id, 'member')
    expectProblem(await member.post(keysUrl, { name: 'mine', scope: 'assets:write', limit_expensive: 100 }), 403, 'role_required')
  })
})

describe("the web app's session, a person at a screen", () => {
  it('uploads 40 files and then reads the library 150 times in a row without a 429, under the session limits', async () => {
    const member = await signedInMember(t.app, acme.org.id, 'member')
    for (let n = 0; n < 40; n++) {
      const pushed = await member.post('/api/v1/assets', { image_base64: (await uniquePng()).toString('base64') })
      expect(pushed.statusCode, pushed.body).toBe(201)
      expect(pushed.headers['x-ratelimit-limit']).toBe('600')
    }
    for (let n = 0; n < 150; n++) {
      const read = await member.get(n % 2 === 0 ? '/api/v1/assets?limit=1' : '/api/v1/tags')
      expect(read.statusCode, read.body).toBe(200)
    }
    expect((await member.get('/api/v1/clients')).headers['x-ratelimit-limit']).toBe('1200')
  })

  it('leaves API keys on the spec limits: the 31st push in a window is refused', async () => {
    const key = await createKey(owner, {})
    for (let n = 1; n <= 30; n++) expect((await push(key.token)).statusCode).toBe(201)
    const refused = await push(key.token)
    expectProblem(refused, 429, 'rate_limited')
    expect(refused.headers['x-ratelimit-limit']).toBe('30')
  })
})
