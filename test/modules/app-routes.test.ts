import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Scope } from '../../src/platform/db/schema.js'
import type { DeclaredRoute } from '../../src/platform/http/route-auth.js'
import { bearer, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, startTwoOrganizations } from '../support/fixtures.js'
import { signedInMember, type Client } from '../support/sessions.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let member: Client

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations())
  member = await signedInMember(t.app, acme.org.id, 'member')
})
afterAll(() => t.close())

const UUID = '00000000-0000-7000-8000-000000000000'
/** A concrete URL for a route pattern, in `org`'s organization. */
const urlOf = (pattern: string, org: string) =>
  pattern
    .replace(':org', org)
    .replace(/:(id|delivery_id)\b/g, UUID)
    .replace(/:[a-z_]+/g, 'x')
    .replace('*', 'x')

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'
const send = (client: Client, method: string, url: string) =>
  method === 'GET' ? client.get(url) : method === 'DELETE' ? client.delete(url) : method === 'PATCH' ? client.patch(url) : method === 'PUT' ? client.put(url) : client.post(url)

/** Every route but the HEADs Fastify adds beside GETs, of one kind of declaration. */
function routesOf<Kind extends DeclaredRoute['auth']['kind']>(kind: Kind) {
  const routes = t.app.routes.filter((route) => route.method !== 'HEAD' && route.auth.kind === kind)
  return routes as Array<DeclaredRoute & { auth: Extract<DeclaredRoute['auth'], { kind: Kind }> }>
}

const what = (route: DeclaredRoute) => `${route.method} ${route.url} (${JSON.stringify(route.auth)})`

describe('one auth declaration on every route', () => {
  it('refuses to start when a route declares nothing, naming it, wherever it is registered', async () => {
    for (const url of ['/app/api/forgotten', '/api/v1/forgotten', '/forgotten']) {
      await expect(startTestApp({ database: t.database, routes: (app) => app.get(url, async () => ({ open: true })) })).rejects.toThrow(
        `GET ${url} declares no auth (config.auth)`,
      )
    }
    const inPlugin = startTestApp({
      database: t.database,
      routes: (app) => void app.register(async (scope) => scope.post('/in-a-plugin', async () => ({ open: true }))),
    })
    await expect(inPlugin).rejects.toThrow('POST /in-a-plugin declares no auth (config.auth)')
  })

  it('lists every route of the app, the HEADs Fastify adds included, each with its registering file', () => {
    const urls = new Set(t.app.routes.map((route) => route.url))
    for (const url of ['/health', '/ready', '/api/v1/openapi.json', '/api/v1/docs/*', '/api/v1/assets', '/app/api/login', '/files/assets/:id/:variant', '/s/:link']) {
      expect(urls, url).toContain(url)
    }
    expect(t.app.routes.find((route) => route.method === 'HEAD' && route.url === '/api/v1/assets')).toBeDefined()
    for (const route of t.app.routes) expect(route.file, what(route)).toMatch(/^src\/|^@/)
  })
})

describe('session routes (/app/api)', () => {
  it('no session is 401, an API key is 401, another organization is 404, a member on a manager route is 403', async () => {
    const routes = routesOf('session')
    expect(routes.length).toBeGreaterThan(25)
    for (const route of routes) {
      const url = urlOf(route.url, acme.org.slug)
      // No body: the session is checked before a body is validated, and a route that takes none refuses one first.
      const anonymous = await t.app.inject({ method: route.method as Method, url })
      const withKey = await t.app.inject({ method: route.method as Method, url, headers: bearer(acme.writeKey) })
      expect(anonymous.statusCode, what(route)).toBe(401)
      expectProblem(anonymous, 401, 'not_signed_in')
      expect(withKey.statusCode, what(route)).toBe(401)
      if (route.auth.role === 'user') continue
      expect((await send(member, route.method, urlOf(route.url, globex.org.slug))).statusCode, what(route)).toBe(404)
      const asMember = await send(member, route.method, url)
      if (route.auth.role === 'manager') expectProblem(asMember, 403, 'role_required')
      else expect(asMember.statusCode, what(route)).not.toBe(403)
    }
  })
})

describe('key routes (/api/v1)', () => {
  // A key per call: the route may be the one that revokes the calling key.
  const freshKey = async (scope: Scope) =>
    (await t.app.services.keys.create({ organizationId: acme.org.id, name: 'walk', scope, expiresAt: null, createdBy: null })).token

  it('no key is 401, a read key on a write route is 403, a member session on a manager route is 403, and each counts in its bucket', async () => {
    const routes = routesOf('key')
    expect(routes.length).toBeGreaterThan(20)
    for (const route of routes) {
      const url = urlOf(route.url, acme.org.slug)
      const method = route.method as Method
      expectProblem(await t.app.inject({ method, url }), 401, 'invalid_api_key')
      const asReader = await t.app.inject({ method, url, headers: bearer(await freshKey('assets:read')) })
      if (route.auth.scope === 'assets:write') expectProblem(asReader, 403, 'insufficient_scope')
      else expect([401, 403], what(route)).not.toContain(asReader.statusCode)
      const asMember = await send(member, method, url)
      if (route.auth.role === 'manager') expectProblem(asMember, 403, 'role_required')
      else expect(asMember.statusCode, what(route)).not.toBe(403)
      const keyed = await t.app.inject({ method, url, headers: bearer(await freshKey('assets:write')) })
      expect(keyed.statusCode, what(route)).not.toBe(401)
      expect(keyed.statusCode, what(route)).not.toBe(403)
      // A route without a bucket (/mcp) counts the v1 requests its work makes, not itself; one that chooses counts in one of its buckets.
      const { bucket } = route.auth
      const limits = bucket === null ? [undefined] : (typeof bucket === 'string' ? [bucket] : bucket.among).map((one) => String(t.config.rateLimits[one]))
      expect(limits, what(route)).toContain(keyed.headers['x-ratelimit-limit'])
    }
  })
})

/** A body each same-origin route accepts, so that only its origin can refuse it. */
const VALID_BODIES: Record<string, object> = {
  'POST /app/api/login': { email: 'nobody@example.com', password: 'whatever it is' },
  'POST /app/api/invitations/lookup': { token: 'no-such-invitation' },
  'POST /app/api/invitations/accept': { token: 'no-such-invitation', password: 'a long enough password' },
  'POST /app/api/password-reset': { email: 'nobody@example.com' },
  'POST /app/api/password-reset/complete': { token: 'no-such-link', new_password: 'a long enough password' },
}

describe('signed-URL and public routes', () => {
  const bucketLimit = (bucket: 'sign-in' | 'files' | undefined) =>
    bucket === undefined ? undefined : String(bucket === 'sign-in' ? t.config.rateLimits.signIn : t.config.rateLimits.files)

  it('signed file URLs need no key and count per IP in the files bucket', async () => {
    const routes = routesOf('signed-url')
    expect(routes.map((route) => route.url)).toEqual([
      '/files/assets/:id/versions/:version/:variant',
      '/files/assets/:id/versions/:version/renditions/:segment',
      '/files/assets/:id/:variant',
    ])
    for (const route of routes) {
      const res = await t.app.inject({ method: route.method as Method, url: urlOf(route.url, acme.org.slug) })
      // No signature: refused by the route's own schema and signature check, never as a missing key.
      expect(res.statusCode, what(route)).toBe(400)
      expect(res.headers['x-ratelimit-limit'], what(route)).toBe(bucketLimit(route.auth.bucket))
    }
  })

  it('public routes need nothing, count in their bucket if they have one, and refuse another site if same-origin', async () => {
    const routes = routesOf('public')
    expect(routes.length).toBeGreaterThan(5)
    for (const route of routes) {
      const url = urlOf(route.url, acme.org.slug)
      const res = await t.app.inject({ method: route.method as Method, url })
      expect(res.statusCode, what(route)).not.toBe(401)
      expect(res.headers['x-ratelimit-limit'], what(route)).toBe(bucketLimit(route.auth.bucket))
      if (!route.auth.sameOrigin) continue
      const payload = VALID_BODIES[`${route.method} ${route.url}`]
      expect(payload, `${what(route)}: give it a valid body in VALID_BODIES`).toBeDefined()
      const foreign: LightMyRequestResponse = await t.app.inject({ method: route.method as Method, url, payload, headers: { origin: 'https://evil.example' } })
      expectProblem(foreign, 403, 'cross_site_request')
    }
  })
})
