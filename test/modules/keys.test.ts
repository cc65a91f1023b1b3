import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { startTwoOrganizations } from '../support/fixtures.js'

let t: TestApp
let acme: Seeded
let globex: Seeded

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations())
})
afterAll(() => t.close())

const getKey = (key?: string, extra: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: { ...(key && bearer(key)), ...extra } })

describe('GET /api/v1/auth/key', () => {
  it('describes the calling key and its organization, and records its use', async () => {
    const res = await getKey(acme.readKey)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({
      name: 'assets:read',
      scope: 'assets:read',
      prefix: acme.readKey.split('_')[1],
      expires_at: null,
      revoked_at: null,
      organization: { id: acme.org.id, slug: acme.org.slug, name: 'Acme' },
    })
    expect(body).not.toHaveProperty('secret_hash')
    expect(JSON.stringify(body)).not.toContain(acme.readKey.slice('al_'.length + 8 + 1))
    await expect
      .poll(async () => (await getKey(acme.readKey)).json().last_used_at, { timeout: 10_000, interval: 250 })
      .toMatch(/^\d{4}-\d{2}-\d{2}T/)
  })

  it('answers a key of another organization with that organization only', async () => {
    const res = await getKey(globex.writeKey)
    expect(res.json().organization.id).toBe(globex.org.id)
  })

  it('accepts the scheme in any case, with any white space around the key', async () => {
    for (const authorization of [`bearer ${acme.readKey}`, `BEARER \t${acme.readKey} `, `Bearer  ${acme.readKey}\t`]) {
      expect((await getKey(undefined, { authorization })).statusCode, authorization).toBe(200)
    }
  })

  const unusable: Array<[string, () => Record<string, string>]> = [
    ['no header', () => ({})],
    ['a non-bearer scheme', () => ({ authorization: `Basic ${acme.readKey}` })],
    ['a malformed key', () => bearer('al_short')],
    ['a key in the query string only', () => ({})],
    ['a valid prefix with a wrong secret', () => bearer(`${acme.readKey.slice(0, 12)}${'A'.repeat(43)}`)],
    ['an unknown prefix', () => bearer(`al_zzzzzzzz_${acme.readKey.slice(12)}`)],
    ['extra words after the key', () => ({ authorization: `Bearer ${acme.readKey} extra` })],
  ]
  it.each(unusable)('refuses %s with the same 401 body', async (_label, headers) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/auth/key?api_key=${acme.readKey}`, headers: headers() })
    expect(res.statusCode).toBe(401)
    expect(res.headers['content-type']).toContain('application/problem+json')
    expect(res.headers['www-authenticate']).toContain('Bearer')
    expect(res.json()).toEqual({
      type: 'urn:asset-library:problem:invalid_api_key',
      title: 'Unauthorized',
      status: 401,
      code: 'invalid_api_key',
      detail: 'The API key is missing, malformed, unknown, revoked or expired.',
    })
  })

  it('refuses an expired key with the same 401', async () => {
    const { token, key } = await t.app.services.keys.create({
      organizationId: acme.org.id,
      name: 'short-lived',
      scope: 'assets:read',
      expiresAt: new Date(Date.now() + 60_000),
      createdBy: null,
    })
    expect((await getKey(token)).statusCode).toBe(200)
    await sql`update api_keys set expires_at = now() - interval '1 second' where id = ${key.id}`.execute(t.database.handle.db)
    const fresh = await startTestApp({ database: t.database })
    try {
      const res = await fresh.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: bearer(token) })
      expect(res.statusCode).toBe(401)
      expect(res.json().code).toBe('invalid_api_key')
    } finally {
      await fresh.close()
    }
  })
})

describe('POST /api/v1/auth/revoke', () => {
  it('lets even a read key revoke itself, at once, leaving other keys working', async () => {
    const { token } = await t.app.services.keys.create({ organizationId: acme.org.id, name: 'doomed', scope: 'assets:read', expiresAt: null, createdBy: null })
    expect((await getKey(token)).statusCode).toBe(200)
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/revoke', headers: bearer(token) })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ name: 'doomed', revoked_at: expect.any(String) })
    expect((await getKey(token)).statusCode).toBe(401)
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/revoke', headers: bearer(token) })).statusCode).toBe(401)
    expect((await getKey(acme.readKey)).statusCode).toBe(200)
  })

  it('is seen by another process on the same database once its cache entry lapses', async () => {
    const other = await startTestApp({ database: t.database, env: { API_KEY_CACHE_TTL_MS: '0' } })
    try {
      const { token } = await t.app.services.keys.create({ organizationId: acme.org.id, name: 'shared', scope: 'assets:read', expiresAt: null, createdBy: null })
      expect((await other.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: bearer(token) })).statusCode).toBe(200)
      await t.app.inject({ method: 'POST', url: '/api/v1/auth/revoke', headers: bearer(token) })
      expect((await other.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: bearer(token) })).statusCode).toBe(401)
    } finally {
      await other.close()
    }
  })

  it('takes no body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/revoke',
      headers: { ...bearer(acme.readKey), 'content-type': 'application/json' },
      payload: '{"id":"x"}',
    })
    expect(res.statusCode).toBe(400)
    expect((await getKey(acme.readKey)).statusCode).toBe(200)
  })
})

describe('stored keys', () => {
  it('keeps only a hash of the secret', async () => {
    const rows = await t.database.handle.db.selectFrom('api_keys').select(['prefix', 'secret_hash']).execute()
    const secret = acme.writeKey.split('_').slice(2).join('_')
    for (const row of rows) {
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/)
      expect(row.secret_hash).not.toContain(secret)
    }
  })
})
