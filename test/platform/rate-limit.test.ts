import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'

const LIMITS = { RATE_LIMIT_CHEAP: '3', RATE_LIMIT_STANDARD: '2', RATE_LIMIT_ANONYMOUS: '4' }

let t: TestApp
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp({ env: LIMITS })
  acme = await seedOrganization(t.app)
})
afterAll(() => t.close())

const getKey = (app: TestApp, key?: string, ip = '127.0.0.1') =>
  app.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: key ? bearer(key) : {}, remoteAddress: ip })

/** A POST in the standard bucket that is refused by validation, so the key survives it. */
const refusedRevoke = (key: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/revoke', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '{"x":1}' })

async function newKey(scope: 'assets:read' | 'assets:write' = 'assets:read') {
  return (await t.app.services.keys.create({ organizationId: acme.org.id, name: 'rl', scope, expiresAt: null, createdBy: null })).token
}

describe('rate limits', () => {
  it('report the remaining budget on every response, then refuse with 429, Retry-After and rate_limited', async () => {
    const key = await newKey()
    const remaining: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await getKey(t, key)
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-ratelimit-limit']).toBe('3')
      remaining.push(String(res.headers['x-ratelimit-remaining']))
    }
    expect(remaining).toEqual(['2', '1', '0'])
    const refused = await getKey(t, key)
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(refused.headers['retry-after']).toMatch(/^\d+$/)
    expect(refused.json()).toMatchObject({ status: 429, code: 'rate_limited' })
  })

  it('count each key on its own', async () => {
    const first = await newKey()
    const second = await newKey()
    for (let i = 0; i < 3; i++) await getKey(t, first)
    expect((await getKey(t, first)).statusCode).toBe(429)
    expect((await getKey(t, second)).statusCode).toBe(200)
  })

  it('keep the cheap (GET) and standard (other writes) buckets apart', async () => {
    const key = await newKey()
    for (let i = 0; i < 2; i++) expect((await refusedRevoke(key)).statusCode).toBe(400)
    const limited = await refusedRevoke(key)
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['x-ratelimit-limit']).toBe('2')
    expect((await getKey(t, key)).statusCode).toBe(200)
  })

  it('limit requests without a valid key per IP, so guessing keys is slowed', async () => {
    const ip = '203.0.113.7'
    for (let i = 0; i < 4; i++) {
      const res = await getKey(t, `al_guessing_${'x'.repeat(43)}`, ip)
      expect(res.statusCode).toBe(401)
      expect(res.headers['x-ratelimit-limit']).toBe('4')
    }
    expect((await getKey(t, undefined, ip)).statusCode).toBe(429)
    expect((await getKey(t, undefined, '203.0.113.8')).statusCode).toBe(401)
    expect((await getKey(t, acme.readKey, ip)).statusCode).toBe(200)
  })

  it('refuse an over-limit request before its body is read', async () => {
    const key = await newKey()
    for (let i = 0; i < 2; i++) await refusedRevoke(key)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/revoke',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: '{ this is not even json',
    })
    expect(res.statusCode).toBe(429)
  })
})

describe('sign-in rate limit', () => {
  it('slows password guessing per IP on login and invitation acceptance together', async () => {
    const app = await startTestApp({ database: t.database, env: { RATE_LIMIT_SIGN_IN: '3' } })
    try {
      const attempt = (url: string, payload: object, ip = '198.51.100.1') =>
        app.app.inject({ method: 'POST', url, payload, remoteAddress: ip })
      const wrong = { email: acme.owner.email, password: 'not the password' }
      expect((await attempt('/app/api/login', wrong)).statusCode).toBe(401)
      expect((await attempt('/app/api/login', wrong)).statusCode).toBe(401)
      expect((await attempt('/app/api/invitations/accept', { token: 'guess', password: 'long enough password' })).statusCode).toBe(404)
      const refused = await attempt('/app/api/login', { email: acme.owner.email, password: acme.owner.password })
      expect(refused.statusCode).toBe(429)
      expect(refused.json().code).toBe('rate_limited')
      expect(refused.headers['retry-after']).toMatch(/^\d+$/)
      expect((await attempt('/app/api/login', { email: acme.owner.email, password: acme.owner.password }, '198.51.100.2')).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})

describe('rate limits with Redis', () => {
  it('fail open, quickly, when Redis is unreachable', async () => {
    const closedPort = await unusedPort()
    const app = await startTestApp({ database: t.database, env: LIMITS, redisUrl: `redis://127.0.0.1:${closedPort}` })
    try {
      const key = await newKey()
      const started = Date.now()
      for (let i = 0; i < 5; i++) expect((await getKey(app, key)).statusCode).toBe(200)
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await app.close()
    }
  })

  it.runIf(process.env.TEST_REDIS_URL)('share one counter across processes', async () => {
    const namespace = `al-test-shared:${Date.now()}:`
    const one = await startTestApp({ database: t.database, env: LIMITS, redisNamespace: namespace })
    const two = await startTestApp({ database: t.database, env: LIMITS, redisNamespace: namespace })
    try {
      const key = await newKey()
      expect((await getKey(one, key)).statusCode).toBe(200)
      expect((await getKey(two, key)).statusCode).toBe(200)
      expect((await getKey(one, key)).statusCode).toBe(200)
      const refused = await getKey(two, key)
      expect(refused.statusCode).toBe(429)
      expect(refused.json().code).toBe('rate_limited')
    } finally {
      await one.close()
      await two.close()
    }
  })
})

function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}
