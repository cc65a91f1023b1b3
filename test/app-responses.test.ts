/**
 * The /app/api response schemas (openapi/app.json) drop nothing: every endpoint is called once, and what its
 * handler returned, serialized with plain JSON.stringify, must equal what the schema's serializer sent
 * (fast-json-stringify silently leaves out fields a schema does not list).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from './support/app.js'
import { startFakeFigma, type FakeFigma } from './support/fake-figma.js'
import { uniquePng } from './support/images.js'
import { clientFrom, loginOwner, PASSWORD, type Client } from './support/sessions.js'
import { waitFor } from './support/wait.js'
import { startReceiver, WEBHOOK_TEST_ENV, type WebhookReceiver } from './support/webhook-receiver.js'

interface Sent {
  route: string
  status: number
  returned: string
  serialized: string
}

let t: TestApp
let acme: Seeded
let owner: Client
let receiver: WebhookReceiver
let figma: FakeFigma
const sent: Sent[] = []
const returned = new WeakMap<object, string>()

const FIGMA_TOKEN = 'figd_app-responses-token'

beforeAll(async () => {
  figma = await startFakeFigma()
  figma.addToken(FIGMA_TOKEN)
  figma.file('AppResponses1234', 'Round trip').addPage('Page')
  t = await startTestApp({
    // The Figma fake on 127.0.0.1, and the test's PUBLIC_BASE_URL (assets.test) allowed, so a Figma webhook can be registered.
    env: { ...WEBHOOK_TEST_ENV, FIGMA_API_URL: figma.url, OUTBOUND_ALLOWLIST: `${WEBHOOK_TEST_ENV.OUTBOUND_ALLOWLIST},assets.test` },
    routes: (app) => {
      app.addHook('preSerialization', async (request, _reply, payload) => {
        returned.set(request, JSON.stringify(payload))
        return payload
      })
      app.addHook('onSend', async (request, reply, payload) => {
        const before = returned.get(request)
        if (request.routeOptions.url?.startsWith('/app/api/') && before !== undefined && typeof payload === 'string') {
          sent.push({ route: `${request.method} ${request.routeOptions.url}`, status: reply.statusCode, returned: before, serialized: payload })
        }
        return payload
      })
    },
  })
  await t.app.services.webhookDelivery.start()
  acme = await seedOrganization(t.app, 'Acme')
  receiver = await startReceiver()
})
afterAll(async () => {
  await t.close()
  await receiver.close()
  await figma.close()
})

/** Asserts a success and returns its body. */
async function ok<T = Record<string, unknown>>(call: Promise<{ statusCode: number; body: string; json(): unknown }>): Promise<T> {
  const res = await call
  expect(res.statusCode, res.body).toBeLessThan(300)
  return (res.body ? res.json() : undefined) as T
}

describe('/app/api responses', () => {
  it('send every field the handlers return, on every endpoint', async () => {
    owner = await loginOwner(t.app, acme)
    const org = `/app/api/orgs/${acme.org.slug}`

    await ok(owner.get('/app/api/session'))
    await ok(t.app.inject({ method: 'GET', url: '/app/api/instance' }))
    await ok(owner.get(org))
    await ok(owner.patch(org, { name: 'Acme Studio', ai_enabled: false }))
    await ok(owner.get(`${org}/members`))

    const invited = await ok<{ token: string }>(owner.post(`${org}/invitations`, { email: `invitee-${Date.now()}@example.com`, role: 'member' }))
    await ok(t.app.inject({ method: 'POST', url: '/app/api/invitations/lookup', payload: { token: invited.token } }))
    const ivy = clientFrom(t.app, await t.app.inject({ method: 'POST', url: '/app/api/invitations/accept', payload: { token: invited.token, password: PASSWORD, name: 'Ivy' } }))
    await ok(owner.patch(`${org}/members/${ivy.userId}`, { role: 'admin' }))
    await ok(owner.get(`${org}/members/changes`))
    await ok(owner.get(`${org}/jobs`))
    await ok(owner.post(`${org}/jobs/thumbnails/retry`))
    const revoked = await ok<{ id: string }>(owner.post(`${org}/invitations`, { email: `revoked-${Date.now()}@example.com`, role: 'admin' }))
    await ok(owner.get(`${org}/invitations`))
    await ok(owner.post(`${org}/invitations/${revoked.id}/resend`))
    await ok(owner.delete(`${org}/invitations/${revoked.id}`))

    const key = await ok<{ id: string }>(owner.post(`${org}/keys`, { name: 'ci', scope: 'assets:read', expires_in_days: 30 }))
    await ok(owner.delete(`${org}/keys/${key.id}`))
    await ok(owner.get(`${org}/keys`))

    for (const registry of ['asset-types', 'clients', 'products']) {
      await ok(owner.post(`${org}/${registry}`, { name: 'Round trip' }))
      await ok(owner.delete(`${org}/${registry}/round%20trip`))
    }

    await ok(owner.post(`${org}/presets`, { name: 'round-trip', width: 1200, format: 'webp' }))
    await ok(owner.put(`${org}/presets/round-trip`, { width: 600, format: 'png', background: 'ffffff' }))
    await ok(owner.get(`${org}/presets`))
    await ok(owner.delete(`${org}/presets/round-trip`))

    const hooks = `${org}/webhooks`
    const subscription = await ok<{ id: string }>(owner.post(hooks, { url: receiver.url, events: ['ping', 'asset.created'], description: 'all' }))
    const one = `${hooks}/${subscription.id}`
    await ok(owner.get(hooks))
    await ok(owner.get(one))
    await ok(owner.patch(one, { description: 'pings' }))
    await ok(owner.post(`${one}/rotate-secret`))
    const ping = await ok<{ delivery_id: string }>(owner.post(`${one}/ping`))
    const delivery = `${one}/deliveries/${ping.delivery_id}`
    await waitFor('the ping delivered', async () => (await ok<{ status: string }>(owner.get(delivery))).status === 'succeeded')
    await ok(owner.get(`${one}/deliveries?status=succeeded`))
    await ok(owner.post(`${delivery}/replay`))
    await ok(owner.delete(one))

    const figmaLink = 'https://www.figma.com/design/AppResponses1234/Round-trip'
    await ok(owner.put(`${org}/integrations/figma`, { token: FIGMA_TOKEN }))
    await ok(owner.get(`${org}/integrations/figma`))
    await ok(owner.get(`${org}/integrations/figma/outline?file_url=${encodeURIComponent(figmaLink)}`))
    const figmaHook = await ok<{ id: string }>(owner.post(`${org}/integrations/figma/webhooks`, { event_type: 'FILE_UPDATE', file_url: figmaLink }))
    await ok(owner.get(`${org}/integrations/figma/webhooks`))
    await ok(owner.delete(`${org}/integrations/figma/webhooks/${figmaHook.id}`))
    await ok(owner.delete(`${org}/integrations/figma`))
    const collection = await ok<{ id: string }>(owner.post('/api/v1/collections', { name: 'Covered' }))
    const pushed = await ok<{ asset_id: string }>(owner.post('/api/v1/assets', { image_base64: (await uniquePng()).toString('base64'), collection_name: 'Covered' }))
    await ok(owner.get(`${org}/collections/covers?ids=${collection.id}`))
    await ok(owner.get(`${org}/assets/${pushed.asset_id}/permissions`))
    await ok(owner.get(`${org}/collections/${collection.id}/permissions`))

    await ok(owner.post('/app/api/password', { current_password: acme.owner.password, new_password: 'a new password, long enough' }))
    await ok(owner.post('/app/api/logout'))

    for (const response of sent) {
      expect(JSON.parse(response.serialized), `${response.route} ${response.status}: the schema drops a field`).toEqual(JSON.parse(response.returned))
    }
    const called = new Set(sent.filter(({ status }) => status < 300).map(({ route }) => route))
    // The 204s send no body, so nothing is serialized for them.
    const withBody = t.app.routes
      .filter(({ method, url }) => url.startsWith('/app/api/') && method !== 'HEAD' && !NO_CONTENT.has(`${method} ${url}`))
      .map(({ method, url }) => `${method} ${url}`)
    expect([...called].sort()).toEqual(withBody.sort())
  })
})

const NO_CONTENT = new Set([
  'POST /app/api/logout',
  'POST /app/api/password-reset',
  'POST /app/api/password-reset/complete',
  'POST /app/api/password',
  'DELETE /app/api/orgs/:org/invitations/:id',
  'DELETE /app/api/orgs/:org/keys/:id',
  'DELETE /app/api/orgs/:org/members/:user_id',
  'POST /app/api/orgs/:org/ownership',
  'POST /app/api/orgs/:org/asset-types',
  'DELETE /app/api/orgs/:org/asset-types/:name',
  'POST /app/api/orgs/:org/clients',
  'DELETE /app/api/orgs/:org/clients/:name',
  'POST /app/api/orgs/:org/products',
  'DELETE /app/api/orgs/:org/products/:name',
  'DELETE /app/api/orgs/:org/webhooks/:id',
  'DELETE /app/api/orgs/:org/presets/:name',
  'DELETE /app/api/orgs/:org/integrations/figma',
  'DELETE /app/api/orgs/:org/integrations/figma/webhooks/:id',
])
