import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerErrorHandling } from '../../src/platform/http/error-handler.js'
import { MemoryStore, RateLimiter } from '../../src/platform/http/rate-limit.js'
import { requireRouteAuth } from '../../src/platform/http/route-auth.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'

/**
 * The key guard on routes of every scope and bucket, declared as the v1 routes declare them: the real
 * guard with the real key service, on routes that only record that they ran.
 */
let t: TestApp
let acme: Seeded
let api: FastifyInstance
let handled: string[]

beforeAll(async () => {
  t = await startTestApp()
  acme = await seedOrganization(t.app)
  handled = []
  api = Fastify()
  registerErrorHandling(api)
  requireRouteAuth(api, {
    authenticate: (header) => t.app.services.keys.authenticate(header),
    // No session cookie is ever sent here: every request without a key is anonymous.
    sessions: { caller: async () => null, require: async () => undefined },
    limiter: new RateLimiter(new MemoryStore(60_000), 60_000),
    rateLimits: t.config.rateLimits,
    publicBaseUrl: t.config.publicBaseUrl,
  })
  const record = async (request: { method: string; url: string }) => {
    handled.push(`${request.method} ${request.url}`)
    return { ok: true }
  }
  const write = { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } } as const
  api.get('/api/v1/thing', { config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } } }, record)
  api.post('/api/v1/thing', { config: write }, record)
  api.patch('/api/v1/thing', { config: write }, record)
  api.delete('/api/v1/thing', { config: write }, record)
  api.post('/api/v1/search-like', { config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'expensive' } } }, record)
  api.post('/api/v1/push-like', { config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'expensive' } } }, record)
  await api.ready()
})
afterAll(async () => {
  await api.close()
  await t.close()
})

describe('buckets', () => {
  it('share one counter between different routes of the same bucket', async () => {
    const { token } = await t.app.services.keys.create({ organizationId: acme.org.id, name: 'bucket', scope: 'assets:write', expiresAt: null, createdBy: null })
    const remaining = async (url: string) =>
      Number((await api.inject({ method: 'POST', url, headers: bearer(token) })).headers['x-ratelimit-remaining'])
    expect(await remaining('/api/v1/search-like')).toBe(29)
    expect(await remaining('/api/v1/push-like')).toBe(28)
    expect(await remaining('/api/v1/search-like')).toBe(27)
    expect(Number((await api.inject({ method: 'GET', url: '/api/v1/thing', headers: bearer(token) })).headers['x-ratelimit-remaining'])).toBe(119)
  })
})

describe('scopes', () => {
  it('lets a read key use GET and read-scoped POSTs', async () => {
    expect((await api.inject({ method: 'GET', url: '/api/v1/thing', headers: bearer(acme.readKey) })).statusCode).toBe(200)
    const search = await api.inject({ method: 'POST', url: '/api/v1/search-like', headers: bearer(acme.readKey) })
    expect(search.statusCode).toBe(200)
    expect(search.headers['x-ratelimit-limit']).toBe('30')
  })

  it.each(['POST', 'PATCH', 'DELETE'] as const)('refuses a read key on %s with 403 insufficient_scope, before the handler runs', async (method) => {
    handled = []
    const res = await api.inject({ method, url: '/api/v1/thing', headers: bearer(acme.readKey) })
    expect(res.statusCode).toBe(403)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'insufficient_scope', status: 403 })
    expect(res.json().detail).toContain('assets:write')
    expect(handled).toEqual([])
  })

  it('lets a write key do everything', async () => {
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE'] as const) {
      expect((await api.inject({ method, url: '/api/v1/thing', headers: bearer(acme.writeKey) })).statusCode).toBe(200)
    }
  })

  it('counts each route in the bucket it declares', async () => {
    const write = await api.inject({ method: 'PATCH', url: '/api/v1/thing', headers: bearer(acme.writeKey) })
    expect(write.headers['x-ratelimit-limit']).toBe('60')
    const read = await api.inject({ method: 'GET', url: '/api/v1/thing', headers: bearer(acme.writeKey) })
    expect(read.headers['x-ratelimit-limit']).toBe('120')
  })
})
