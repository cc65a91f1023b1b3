import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { startTwoOrganizations } from '../support/fixtures.js'
import { expectProblem, signedInMember, type Client } from '../support/sessions.js'

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

describe('session checks on /app/api, declared per route', () => {
  it('refuse to register a route that declares no session requirement', async () => {
    await expect(
      startTestApp({ database: t.database, routes: (app) => app.get('/app/api/forgotten', async () => ({ open: true })) }),
    ).rejects.toThrow('GET /app/api/forgotten declares no session requirement')
  })

  it('every route: no session is 401, an API key is 401, another organization is 404, a member on a manager route is 403', async () => {
    const routes = t.app.appRoutes.filter((route) => route.method !== 'HEAD')
    expect(routes.length).toBeGreaterThan(25)
    for (const route of routes) {
      const url = urlOf(route.url, acme.org.slug)
      const what = `${route.method} ${route.url} (${route.session})`
      // No body: the session is checked before a body is validated, and a route that takes none refuses one first.
      const anonymous = await t.app.inject({ method: route.method as 'GET', url })
      const withKey = await t.app.inject({ method: route.method as 'GET', url, headers: bearer(acme.writeKey) })
      if (route.session === 'none') {
        expect(anonymous.statusCode, what).not.toBe(401)
        continue
      }
      expect(anonymous.statusCode, what).toBe(401)
      expectProblem(anonymous, 401, 'not_signed_in')
      expect(withKey.statusCode, what).toBe(401)
      if (route.session === 'user') continue
      const send = (client: Client, target: string) =>
        route.method === 'GET' ? client.get(target) : route.method === 'DELETE' ? client.delete(target) : route.method === 'PATCH' ? client.patch(target) : client.post(target)
      expect((await send(member, urlOf(route.url, globex.org.slug))).statusCode, what).toBe(404)
      const asMember = await send(member, url)
      if (route.session === 'manager') expectProblem(asMember, 403, 'role_required')
      else expect(asMember.statusCode, what).not.toBe(403)
    }
  })
})
