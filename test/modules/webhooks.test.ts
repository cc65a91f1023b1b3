import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { sql } from 'kysely'
import pg from 'pg'
import Stripe from 'stripe'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { inTransaction } from '../../src/platform/db/index.js'
import { emit } from '../../src/platform/events/outbox.js'
import { SERVICE_VERSION } from '../../src/platform/version.js'
import { verifyWebhook, type WebhookEvent } from '../../src/webhooks.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, pushImage } from '../support/fixtures.js'
import { loginOwner, signedInMember, type Client } from '../support/sessions.js'
import { waitFor } from '../support/wait.js'
import {
  RECEIVER_CA_FILE,
  RECEIVER_KEY_FILE,
  SCHEDULE_MS,
  startReceiver,
  TIMEOUT_MS,
  WEBHOOK_TEST_ENV,
  webhooksAtRest,
  type Received,
  type WebhookReceiver,
} from '../support/webhook-receiver.js'

const ALL_EVENTS = ['ping', 'asset.created', 'asset.updated', 'asset.deleted', 'collection.created', 'collection.shared', 'member.invited', 'member.joined']
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

const stripe = new Stripe('sk_test_unused')

let t: TestApp
let acme: Seeded
let owner: Client
let receiver: WebhookReceiver
let hooksUrl: string

beforeAll(async () => {
  t = await startTestApp({ env: WEBHOOK_TEST_ENV })
  await t.app.services.webhookDelivery.start()
  acme = await seedOrganization(t.app, 'Acme')
  owner = await loginOwner(t.app, acme)
  hooksUrl = `/app/api/orgs/${acme.org.slug}/webhooks`
  receiver = await startReceiver()
})
afterAll(async () => {
  await t.close()
  await receiver.close()
})

interface Subscription {
  id: string
  url: string
  events: string[]
  enabled: boolean
  secret: string
}

/** Subscriptions are per test; deleting them keeps one test's events away from the next one's receiver. */
const made: string[] = []
afterEach(async () => {
  for (const id of made.splice(0)) await owner.delete(`${hooksUrl}/${id}`)
  receiver.answer(() => ({}))
  receiver.received.length = 0
})

async function subscribe(body: Partial<{ url: string; events: string[]; description: string }> = {}, by = owner, url = hooksUrl): Promise<Subscription> {
  const res = await by.post(url, { url: receiver.url, events: ALL_EVENTS, ...body })
  expect(res.statusCode, res.body).toBe(201)
  const subscription = res.json<Subscription>()
  if (url === hooksUrl) made.push(subscription.id)
  return subscription
}

const deliveryOf = async (subscriptionId: string, deliveryId: string) => {
  const res = await owner.get(`${hooksUrl}/${subscriptionId}/deliveries/${deliveryId}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{
    id: string
    status: string
    attempt_count: number
    last_status_code: number | null
    next_attempt_at: string | null
    body: WebhookEvent
    attempts: Array<{ number: number; attempted_at: string; trigger: string; status_code: number; error: string | null; duration_ms: number; response_body: string }>
  }>()
}

const settled = (subscriptionId: string, deliveryId: string, status = 'succeeded') =>
  waitFor(`delivery ${deliveryId} ${status}`, async () => {
    const delivery = await deliveryOf(subscriptionId, deliveryId)
    return delivery.status === status ? delivery : undefined
  })

async function ping(subscriptionId: string): Promise<string> {
  const res = await owner.post(`${hooksUrl}/${subscriptionId}/ping`)
  expect(res.statusCode, res.body).toBe(202)
  return res.json<{ delivery_id: string }>().delivery_id
}

/** The subscription's newest delivery, as the list of subscriptions says it. */
async function lastDeliveryOf(subscriptionId: string) {
  const res = await owner.get(hooksUrl)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ data: Array<{ id: string; last_delivery: unknown }> }>().data.find((subscription) => subscription.id === subscriptionId)!.last_delivery
}

const pushAsset = (fields: object = {}) => pushImage(t.app, acme.writeKey, { title: 'Spring banner', ...fields })

/** Verifies a received delivery with our helper and, independently, with Stripe's. */
function verified(request: Received, secret: string): WebhookEvent {
  const header = request.headers['x-service-signature'] as string
  expect(() => stripe.webhooks.signature!.verifyHeader(request.body, header, secret, 300)).not.toThrow()
  return verifyWebhook(request.body, request.headers, secret)
}

describe('subscriptions', () => {
  it('creates one with a server-made secret shown once, and keeps the secret sealed', async () => {
    const res = await owner.post(hooksUrl, { url: receiver.url, events: ['asset.created', 'ping', 'asset.created'], description: '  CI hook ' })
    expect(res.statusCode, res.body).toBe(201)
    const created = res.json()
    made.push(created.id)
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: receiver.url,
      description: 'CI hook',
      events: ['ping', 'asset.created'],
      enabled: true,
      previous_secret_expires_at: null,
      failing_since: null,
      disabled_at: null,
      disabled_reason: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      secret: expect.stringMatching(SECRET),
    })
    const { secret, ...record } = created
    expect((await owner.get(hooksUrl)).json().data).toContainEqual({ ...record, last_delivery: null })
    expect((await owner.get(`${hooksUrl}/${created.id}`)).json()).toEqual(record)
    const row = await t.database.handle.db.selectFrom('webhook_subscriptions').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain(secret.slice(6))
  })

  it('is for owners and admins only: members get 403, API keys 401, another organization 404', async () => {
    const admin = await signedInMember(t.app, acme.org.id, 'admin')
    await subscribe({}, admin)
    const member = await signedInMember(t.app, acme.org.id, 'member')
    expectProblem(await member.get(hooksUrl), 403, 'role_required')
    expectProblem(await member.post(hooksUrl, { url: receiver.url, events: ['ping'] }), 403, 'role_required')
    const withKey = await t.app.inject({ method: 'POST', url: hooksUrl, headers: bearer(acme.writeKey), payload: { url: receiver.url, events: ['ping'] } })
    expectProblem(withKey, 401, 'not_signed_in')
    expectProblem(await owner.post(hooksUrl, { url: receiver.url, events: ['ping'] }, { csrf: null }), 403, 'csrf_token_invalid')

    const globex = await seedOrganization(t.app, 'Globex')
    const theirs = await subscribe({}, await loginOwner(t.app, globex), `/app/api/orgs/${globex.org.slug}/webhooks`)
    for (const res of [
      await owner.get(`${hooksUrl}/${theirs.id}`),
      await owner.patch(`${hooksUrl}/${theirs.id}`, { enabled: false }),
      await owner.delete(`${hooksUrl}/${theirs.id}`),
      await owner.post(`${hooksUrl}/${theirs.id}/ping`),
      await owner.post(`${hooksUrl}/${theirs.id}/rotate-secret`),
      await owner.get(`${hooksUrl}/${theirs.id}/deliveries`),
    ]) {
      expectProblem(res, 404, 'not_found')
    }
  })

  it('refuses an http URL, a private address, and unknown or missing events, changing nothing', async () => {
    const before = (await owner.get(hooksUrl)).json().data.length
    const refused = async (body: object, status: number, code: string) => expectProblem(await owner.post(hooksUrl, { url: receiver.url, events: ['ping'], ...body }), status, code)
    await refused({ url: receiver.url.replace('https:', 'http:') }, 422, 'webhook_url_not_https')
    await refused({ url: 'ftp://example.com/hook' }, 422, 'webhook_url_not_https')
    await refused({ url: 'https://10.1.2.3/hook' }, 422, 'webhook_url_not_public')
    await refused({ url: 'https://[::1]:8443/hook' }, 422, 'webhook_url_not_public')
    await refused({ url: 'https://169.254.169.254/latest/meta-data' }, 422, 'webhook_url_not_public')
    await refused({ url: 'https://user:pass@127.0.0.1/hook' }, 422, 'webhook_url_not_public')
    await refused({ url: 'not a url' }, 400, 'validation_failed')
    await refused({ events: [] }, 400, 'validation_failed')
    await refused({ extra: true }, 400, 'validation_failed')
    const unknown = await refused({ events: ['asset.created', 'asset.exploded'] }, 422, 'unknown_event')
    expect(unknown.detail).toContain('"asset.exploded"')
    for (const event of ALL_EVENTS) expect(unknown.detail).toContain(event)
    expect(unknown.errors).toEqual([{ pointer: '/events/1', detail: expect.stringContaining('must be one of') }])
    expect((await owner.get(hooksUrl)).json().data).toHaveLength(before)
  })

  it('refuses a host name that resolves to a private address when it is not allowlisted', async () => {
    const strict = await startTestApp({ database: t.database, env: { OUTBOUND_CA_FILE: RECEIVER_CA_FILE } })
    try {
      const client = await loginOwner(strict.app, acme)
      expectProblem(await client.post(hooksUrl, { url: 'https://localhost/hook', events: ['ping'] }), 422, 'webhook_url_not_public')
      expectProblem(await client.post(hooksUrl, { url: receiver.url, events: ['ping'] }), 422, 'webhook_url_not_public')
      expectProblem(await client.post(hooksUrl, { url: 'https://no-such-host.invalid/hook', events: ['ping'] }), 422, 'webhook_url_unresolvable')
    } finally {
      await strict.close()
    }
  })

  it('allows at most 20 per organization', async () => {
    const globex = await seedOrganization(t.app, 'Globex')
    const client = await loginOwner(t.app, globex)
    const url = `/app/api/orgs/${globex.org.slug}/webhooks`
    const results = await Promise.all(Array.from({ length: 22 }, () => client.post(url, { url: receiver.url, events: ['ping'] })))
    expect(results.filter((res) => res.statusCode === 201)).toHaveLength(20)
    for (const res of results.filter((r) => r.statusCode !== 201)) expectProblem(res, 422, 'webhook_limit_reached')
  })

  it('updates url, events, description and enabled, and deletes', async () => {
    const subscription = await subscribe()
    const url = `${hooksUrl}/${subscription.id}`
    const res = await owner.patch(url, { events: ['asset.deleted'], description: 'only deletes', enabled: false, url: `${receiver.url}?v=2` })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ events: ['asset.deleted'], description: 'only deletes', enabled: false, url: `${receiver.url}?v=2` })
    expectProblem(await owner.patch(url, { url: 'http://example.com/' }), 422, 'webhook_url_not_https')
    expectProblem(await owner.patch(url, { events: ['nope'] }), 422, 'unknown_event')
    expectProblem(await owner.patch(url, {}), 400, 'validation_failed')
    expect((await owner.get(url)).json()).toMatchObject({ events: ['asset.deleted'], enabled: false })
    expect((await owner.delete(url)).statusCode).toBe(204)
    expectProblem(await owner.get(url), 404, 'not_found')
    expectProblem(await owner.delete(url), 404, 'not_found')
  })
})

describe('delivery', () => {
  it('sends a ping: signed headers, the envelope, and a history entry', async () => {
    const subscription = await subscribe({ events: ['asset.created'] })
    const deliveryId = await ping(subscription.id)
    const [request] = await receiver.waitForCount(1)
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': `AssetLibrary-Webhooks/${SERVICE_VERSION}`,
      'x-service-event': 'ping',
      'x-service-delivery-id': deliveryId,
      'x-service-timestamp': expect.stringMatching(/^\d{10}$/),
      'x-service-signature': expect.stringMatching(new RegExp(`^t=${request!.headers['x-service-timestamp']},v1=[0-9a-f]{64}$`)),
    })
    expect(Math.abs(Number(request!.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(5)
    const event = verified(request!, subscription.secret)
    expect(event).toEqual({ id: deliveryId, event: 'ping', organization_id: acme.org.id, emitted_at: expect.stringMatching(ISO), data: { subscription_id: subscription.id } })
    expect(() => verifyWebhook(request!.body, request!.headers, 'whsec_wrong')).toThrow(/No signature matches/)

    const delivery = await settled(subscription.id, deliveryId)
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 1, last_status_code: 200, next_attempt_at: null, body: event })
    expect(delivery.attempts).toEqual([
      { number: 1, attempted_at: expect.stringMatching(ISO), trigger: 'ping', status_code: 200, error: null, duration_ms: expect.any(Number), response_body: 'ok' },
    ])
  })

  it('fires every event kind from its real cause, and nothing for a duplicate push', async () => {
    const subscription = await subscribe()
    const { id: assetId, image } = await pushAsset({ tag_names: ['launch'] })
    await pushAsset() // new bytes: a second asset, not a duplicate
    const duplicate = await t.app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(acme.writeKey), payload: { image_base64: image.toString('base64') } })
    expect(duplicate.json()).toMatchObject({ duplicate: true })
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/v1/assets/${assetId}`, headers: bearer(acme.writeKey), payload: { title: 'Summer banner' } })
    expect(patched.statusCode).toBe(200)
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${assetId}`, headers: bearer(acme.writeKey) })).statusCode).toBe(204)
    const collection = await t.app.inject({ method: 'POST', url: '/api/v1/collections', headers: bearer(acme.writeKey), payload: { name: `Press ${Date.now()}` } })
    const collectionId = collection.json().id
    const shared = await t.app.inject({ method: 'POST', url: `/api/v1/collections/${collectionId}/share`, headers: bearer(acme.writeKey) })
    const invited = await owner.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email: `new-${Date.now()}@example.com`, role: 'member' })
    const accepted = await t.app.inject({ method: 'POST', url: '/app/api/invitations/accept', payload: { token: invited.json().token, password: 'a long enough password' } })
    expect(accepted.statusCode, accepted.body).toBe(200)
    await ping(subscription.id)

    const requests = await receiver.waitForCount(9)
    await webhooksAtRest(t.database.handle.db, acme.org.id)
    expect(receiver.received).toHaveLength(9)
    const events = requests.map((request) => verified(request, subscription.secret))
    const byKind = (kind: string) => events.filter((event) => event.event === kind)
    expect(events.map((e) => e.event).sort()).toEqual(
      ['asset.created', 'asset.created', 'asset.updated', 'asset.deleted', 'collection.created', 'collection.shared', 'member.invited', 'member.joined', 'ping'].sort(),
    )
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
    for (const request of requests) expect(request.headers['x-service-delivery-id']).toBe(JSON.parse(request.body).id)
    expect(byKind('asset.created').map((e) => e.data.id)).toContain(assetId)
    expect(byKind('asset.created').find((e) => e.data.id === assetId)!.data).toMatchObject({ title: 'Spring banner', tags: ['launch'] })
    expect(byKind('asset.updated')[0]!.data).toMatchObject({ id: assetId, title: 'Summer banner' })
    expect(byKind('asset.deleted')[0]!.data).toEqual({ id: assetId })
    expect(byKind('collection.created')[0]!.data).toMatchObject({ id: collectionId, kind: 'manual' })
    expect(byKind('collection.shared')[0]!.data).toEqual({
      collection: expect.objectContaining({ id: collectionId, shared: true, shared_at: expect.stringMatching(ISO) }),
      share_url: shared.json().share_url,
    })
    expect(byKind('member.invited')[0]!.data).toMatchObject({ email: invited.json().email, role: 'member', invited_by: { user_id: acme.owner.id } })
    expect(byKind('member.joined')[0]!.data).toEqual({ user_id: accepted.json().user.id, email: invited.json().email, role: 'member' })
  })

  it('sends only the events subscribed to, and nothing to a disabled subscription', async () => {
    const deletes = await subscribe({ events: ['asset.deleted'] })
    const disabled = await subscribe({ events: ['asset.created'] })
    await owner.patch(`${hooksUrl}/${disabled.id}`, { enabled: false })
    const { id: assetId } = await pushAsset()
    await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${assetId}`, headers: bearer(acme.writeKey) })
    const [request] = await receiver.waitForCount(1)
    expect(verified(request!, deletes.secret)).toMatchObject({ event: 'asset.deleted', data: { id: assetId } })
    await webhooksAtRest(t.database.handle.db, acme.org.id)
    expect(receiver.received).toHaveLength(1)
  })

  it('sends asset.restored only to a subscription that lists it: the kind is additive', async () => {
    const deletes = await subscribe({ events: ['asset.deleted'] })
    const restores = await subscribe({ events: ['asset.restored'] })
    const { id: assetId } = await pushAsset()
    await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${assetId}`, headers: bearer(acme.writeKey) })
    const restored = await t.app.inject({ method: 'POST', url: `/api/v1/trash/${assetId}/restore`, headers: bearer(acme.writeKey) })
    expect(restored.statusCode).toBe(200)
    const requests = await receiver.waitForCount(2)
    await webhooksAtRest(t.database.handle.db, acme.org.id)
    expect(receiver.received).toHaveLength(2)
    // Each delivery is signed with its subscription's secret: what each subscription received.
    const signedWith = (secret: string) =>
      requests.filter((request) => {
        try {
          return verifyWebhook(request.body, request.headers, secret) !== undefined
        } catch {
          return false
        }
      })
    expect(signedWith(deletes.secret).map((request) => verified(request, deletes.secret).event)).toEqual(['asset.deleted'])
    expect(signedWith(restores.secret).map((request) => verified(request, restores.secret))).toMatchObject([{ event: 'asset.restored', data: { id: assetId } }])
  })

  it('never sends an event whose transaction rolled back', async () => {
    const subscription = await subscribe({ events: ['asset.deleted'] })
    const db = t.database.handle.db
    await expect(
      inTransaction(db, async (tx) => {
        await emit(tx, acme.org.id, 'asset.deleted', { id: 'rolled-back' })
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    await inTransaction(db, (tx) => emit(tx, acme.org.id, 'asset.deleted', { id: 'committed' }))
    t.app.services.webhookDelivery.eventsCommitted()
    const [request] = await receiver.waitForCount(1)
    expect(verified(request!, subscription.secret).data).toEqual({ id: 'committed' })
    await webhooksAtRest(t.database.handle.db, acme.org.id)
    expect(receiver.received).toHaveLength(1)
  })

  it('lists each subscription with its newest delivery, and none before the first', async () => {
    const quiet = await subscribe({ events: ['ping'] })
    const pinged = await subscribe({ events: ['ping'] })
    await settled(pinged.id, await ping(pinged.id))
    receiver.answer(() => ({ status: 503 }))
    const newest = await ping(pinged.id)
    await waitFor('a failed attempt', async () => ((await deliveryOf(pinged.id, newest)).attempt_count > 0 ? true : undefined))
    expect(await lastDeliveryOf(quiet.id)).toBeNull()
    expect(await lastDeliveryOf(pinged.id)).toMatchObject({ id: newest, event: 'ping', last_status_code: 503, last_error: 'http_error' })
    // The history's rows and a delivery's page say why too, for the screen's words.
    const history = await owner.get(`${hooksUrl}/${pinged.id}/deliveries`)
    expect(history.json().data.map((d: { last_status_code: number; last_error: string | null }) => [d.last_status_code, d.last_error])).toEqual([
      [503, 'http_error'],
      [200, null],
    ])
    expect(await deliveryOf(pinged.id, newest)).toMatchObject({ last_status_code: 503, last_error: 'http_error' })
  })

  it('retries on the schedule, re-signing each attempt, fails after the fifth, and a replay keeps the id', async () => {
    const subscription = await subscribe({ events: ['ping'] })
    receiver.answer(() => ({ status: 500, body: 'down for maintenance' }))
    const deliveryId = await ping(subscription.id)
    const requests = await receiver.waitForCount(5)
    const failed = await settled(subscription.id, deliveryId, 'failed')
    await webhooksAtRest(t.database.handle.db, acme.org.id)
    expect(receiver.received).toHaveLength(5)

    const bodies = new Set(requests.map((request) => request.body))
    expect(bodies.size).toBe(1)
    for (const request of requests) {
      expect(request.headers['x-service-delivery-id']).toBe(deliveryId)
      expect(request.headers['x-service-signature']).toMatch(new RegExp(`^t=${request.headers['x-service-timestamp']},v1=[0-9a-f]{64}$`))
      verified(request, subscription.secret)
    }
    const gaps = requests.slice(1).map((request, i) => request.at - requests[i]!.at)
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(SCHEDULE_MS[i]! - 20)
      expect(gap).toBeLessThan(SCHEDULE_MS[i]! + 1500)
    })
    expect(failed).toMatchObject({ attempt_count: 5, last_status_code: 500, next_attempt_at: null })
    expect(await lastDeliveryOf(subscription.id)).toEqual({
      id: deliveryId,
      event: 'ping',
      status: 'failed',
      attempt_count: 5,
      last_status_code: 500,
      last_error: 'http_error',
      next_attempt_at: null,
      updated_at: expect.stringMatching(ISO),
    })
    expect(failed.attempts.map((a) => [a.number, a.trigger, a.status_code, a.error, a.response_body])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [n, 'ping', 500, 'http_error', 'down for maintenance']),
    )

    receiver.answer(() => ({ status: 204 }))
    const replay = await owner.post(`${hooksUrl}/${subscription.id}/deliveries/${deliveryId}/replay`)
    expect(replay.statusCode, replay.body).toBe(202)
    expect(replay.json()).toEqual({ delivery_id: deliveryId })
    const [, , , , , again] = await receiver.waitForCount(6)
    expect(again!.body).toBe(requests[0]!.body)
    expect(again!.headers['x-service-delivery-id']).toBe(deliveryId)
    const succeeded = await settled(subscription.id, deliveryId)
    expect(succeeded).toMatchObject({ attempt_count: 6, last_status_code: 204 })
    expect(succeeded.attempts.at(-1)).toMatchObject({ number: 6, trigger: 'replay', status_code: 204, error: null })
    expect(await lastDeliveryOf(subscription.id)).toMatchObject({ id: deliveryId, status: 'succeeded', attempt_count: 6, last_status_code: 204, last_error: null })

    expectProblem(await owner.post(`${hooksUrl}/${subscription.id}/deliveries/00000000-0000-7000-8000-000000000000/replay`), 404, 'not_found')
  })

  it('does not replay a delivery still pending, nor ping or replay for a disabled subscription', async () => {
    const subscription = await subscribe({ events: ['ping'] })
    receiver.answer(() => ({ hang: true }))
    const deliveryId = await ping(subscription.id)
    await receiver.waitForCount(1)
    expectProblem(await owner.post(`${hooksUrl}/${subscription.id}/deliveries/${deliveryId}/replay`), 409, 'delivery_in_progress')
    await owner.patch(`${hooksUrl}/${subscription.id}`, { enabled: false })
    expectProblem(await owner.post(`${hooksUrl}/${subscription.id}/deliveries/${deliveryId}/replay`), 409, 'webhook_disabled')
    expectProblem(await owner.post(`${hooksUrl}/${subscription.id}/ping`), 409, 'webhook_disabled')
  })

  it('counts a redirect, a slow answer, a refused connection and an untrusted certificate as failures', async () => {
    const untrusted = await startReceiver({ untrusted: true })
    try {
      receiver.answer((request) => (request.path.endsWith('slow') ? { delayMs: TIMEOUT_MS + 500 } : { status: 302, headers: { location: '/hooks/elsewhere' } }))
      const cases = [
        { url: receiver.url, status_code: 302, error: 'redirect_not_followed' },
        { url: `${receiver.url}/slow`, status_code: 0, error: 'timeout' },
        { url: 'https://127.0.0.1:1/hooks', status_code: 0, error: 'connection_refused' },
        { url: untrusted.url, status_code: 0, error: 'tls_error' },
      ]
      const pinged = await Promise.all(
        cases.map(async (expected) => {
          const subscription = await subscribe({ url: expected.url, events: ['ping'] })
          return { subscription, deliveryId: await ping(subscription.id), expected }
        }),
      )
      for (const { subscription, deliveryId, expected } of pinged) {
        const delivery = await waitFor(`first attempt of ${expected.error}`, async () => {
          const found = await deliveryOf(subscription.id, deliveryId)
          return found.attempt_count >= 1 ? found : undefined
        })
        expect(delivery.attempts[0]).toMatchObject({ status_code: expected.status_code, error: expected.error })
      }
      expect(receiver.received.some((request) => request.path === '/hooks/elsewhere')).toBe(false)
      const slow = pinged[1]!
      const slowAttempt = (await deliveryOf(slow.subscription.id, slow.deliveryId)).attempts[0]!
      expect(slowAttempt.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50)
      expect(slowAttempt.duration_ms).toBeLessThan(TIMEOUT_MS + 450)
    } finally {
      await untrusted.close()
    }
  })

  it('keeps the first 4 KiB of an answer and honours a longer Retry-After up to the next step', async () => {
    const subscription = await subscribe({ events: ['ping'] })
    receiver.answer((request) => (receiver.received.indexOf(request) === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: 'x'.repeat(10_000) } : {}))
    const deliveryId = await ping(subscription.id)
    const [first, second] = await receiver.waitForCount(2)
    // Retry-After 1 s is longer than the first step (100 ms): honoured, capped at the next step (200 ms).
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(SCHEDULE_MS[1]! - 20)
    expect(second!.at - first!.at).toBeLessThan(900)
    const delivery = await settled(subscription.id, deliveryId)
    expect(delivery.attempts[0]).toMatchObject({ status_code: 429, error: 'http_error' })
    expect(delivery.attempts[0]!.response_body).toBe('x'.repeat(4096))
  })

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const subscription = await subscribe({ events: ['ping'] })
    const rotated = await owner.post(`${hooksUrl}/${subscription.id}/rotate-secret`)
    expect(rotated.statusCode, rotated.body).toBe(200)
    const { secret, previous_secret_expires_at: until } = rotated.json()
    expect(secret).toMatch(SECRET)
    expect(secret).not.toBe(subscription.secret)
    expect(Date.parse(until) - Date.now()).toBeGreaterThan(23.9 * 3600_000)
    expect((await owner.get(`${hooksUrl}/${subscription.id}`)).json().previous_secret_expires_at).toBe(until)

    await ping(subscription.id)
    const [request] = await receiver.waitForCount(1)
    expect((request!.headers['x-service-signature'] as string).match(/v1=/g)).toHaveLength(2)
    verified(request!, secret)
    verified(request!, subscription.secret)

    // Once the overlap is over, only the new secret signs.
    await t.database.handle.db.updateTable('webhook_subscriptions').set({ previous_secret_expires_at: new Date(Date.now() - 1000) }).where('id', '=', subscription.id).execute()
    await ping(subscription.id)
    const [, later] = await receiver.waitForCount(2)
    verified(later!, secret)
    expect(() => verifyWebhook(later!.body, later!.headers, subscription.secret)).toThrow(/No signature matches/)
  })

  it('checks the address again at every send', async () => {
    const subscription = await subscribe({ events: ['ping'] })
    await t.app.services.webhookDelivery.stop(1000)
    const strict = await startTestApp({ database: t.database, env: { ...WEBHOOK_TEST_ENV, OUTBOUND_ALLOWLIST: '' } })
    try {
      await strict.app.services.webhookDelivery.start()
      const deliveryId = (await strict.app.services.webhooks.ping(acme.org.id, subscription.id)).delivery_id
      const delivery = await waitFor('a blocked attempt', async () => {
        const found = await deliveryOf(subscription.id, deliveryId)
        return found.attempt_count >= 1 ? found : undefined
      })
      expect(delivery.attempts[0]).toMatchObject({ status_code: 0, error: 'blocked' })
      expect(receiver.received).toHaveLength(0)
    } finally {
      await strict.close()
      await t.app.services.webhookDelivery.start()
    }
  })
})

describe('delivery history', () => {
  it('lists newest first with filters and pagination, and prunes past the retention', async () => {
    const subscription = await subscribe({ events: ['ping', 'asset.created'] })
    const first = await ping(subscription.id)
    await pushAsset()
    await receiver.waitForCount(2)
    receiver.answer(() => ({ status: 410 }))
    const failing = await ping(subscription.id)
    await receiver.waitForCount(7)
    await settled(subscription.id, failing, 'failed')
    const url = `${hooksUrl}/${subscription.id}/deliveries`

    const all = (await owner.get(url)).json()
    expect(all).toMatchObject({ total: 3, limit: 50, offset: 0 })
    expect(all.data[0]).toEqual({
      id: failing,
      event: 'ping',
      status: 'failed',
      attempt_count: 5,
      last_status_code: 410,
      last_error: 'http_error',
      next_attempt_at: null,
      created_at: expect.stringMatching(ISO),
    })
    expect(all.data.at(-1).id).toBe(first)
    expect((await owner.get(`${url}?status=failed`)).json().data.map((d: { id: string }) => d.id)).toEqual([failing])
    expect((await owner.get(`${url}?event=asset.created`)).json().data.map((d: { event: string }) => d.event)).toEqual(['asset.created'])
    const page = (await owner.get(`${url}?limit=1&offset=1`)).json()
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1, data: [{ event: 'asset.created', status: 'succeeded' }] })
    expectProblem(await owner.get(`${url}?status=lost`), 400, 'validation_failed')
    expectProblem(await owner.get(`${url}/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`), 404, 'not_found')

    const db = t.database.handle.db
    await sql`update webhook_deliveries set created_at = now() - interval '31 days' where id = ${first}`.execute(db)
    expect(await t.app.services.webhookDelivery.prune()).toBe(1)
    expect((await owner.get(url)).json().total).toBe(2)
    expect(await db.selectFrom('webhook_attempts').select('number').where('delivery_id', '=', first).execute()).toEqual([])
  })

  it('prunes outbox events once they are fanned out', async () => {
    await pushAsset()
    await waitFor('an empty outbox', async () => {
      const left = await t.database.handle.db.selectFrom('outbox_events').select('id').where('organization_id', '=', acme.org.id).execute()
      return left.length === 0
    })
  })
})

describe('the receiver example in docs/examples', () => {
  it('verifies a real delivery through the package export and refuses a forged one', async () => {
    const subscription = await subscribe({ events: ['ping'] })
    // The source condition resolves `asset-library/webhooks` to src/webhooks.ts, so no build is needed.
    const example = spawn(process.execPath, ['--conditions=asset-library-source', '--import', 'tsx', 'docs/examples/webhook-receiver.mjs'], {
      env: { ...process.env, ASSET_LIBRARY_WEBHOOK_SECRET: subscription.secret, TLS_KEY: RECEIVER_KEY_FILE, TLS_CERT: RECEIVER_CA_FILE, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    example.stdout.on('data', (chunk: Buffer) => (output += chunk))
    example.stderr.on('data', (chunk: Buffer) => (output += chunk))
    try {
      const port = (await waitFor('the example to listen', () => /listening on (\d+)/.exec(output), 20_000))[1]
      const url = `https://127.0.0.1:${port}/`
      expect((await owner.patch(`${hooksUrl}/${subscription.id}`, { url })).statusCode).toBe(200)
      const deliveryId = await ping(subscription.id)
      await settled(subscription.id, deliveryId)
      await waitFor('the example to log the ping', () => output.includes(`ping { subscription_id: '${subscription.id}' }`))

      const forged = await postTo(url, '{"id":"x","event":"ping"}', { 'x-service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` })
      expect(forged).toEqual({ status: 400, body: 'signature_mismatch' })
    } finally {
      example.kill()
    }
  })
})

function postTo(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'POST', headers, ca: readFileSync(RECEIVER_CA_FILE) }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe.runIf(process.env.TEST_DATABASE_URL)('deleting a subscription while a runner records its attempts (PostgreSQL)', () => {
  it('takes the locks in the runner\'s order, delivery then subscription: both finish, neither deadlocks', async () => {
    const subscription = await subscribe()
    const deliveryId = await ping(subscription.id)
    await settled(subscription.id, deliveryId)
    // What recording an outcome that changes the endpoint's health does: the delivery's row, then its subscription's.
    const recorder = new pg.Client({ connectionString: t.database.url })
    await recorder.connect()
    try {
      await recorder.query('begin')
      await recorder.query('update webhook_deliveries set updated_at = now() where id = $1', [deliveryId])
      const deleting = owner.delete(`${hooksUrl}/${subscription.id}`)
      await waitFor('the delete to wait for the delivery\'s lock', async () => {
        const waiting = await recorder.query(`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)
        return waiting.rowCount! > 0 || undefined
      })
      await recorder.query('select 1 from webhook_subscriptions where id = $1 for no key update', [subscription.id])
      await recorder.query('commit')
      expect((await deleting).statusCode).toBe(204)
    } finally {
      await recorder.end()
    }
  })
})
