import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { WebhookDelivery } from '../../src/modules/webhooks/delivery.js'
import { openDatabase, inTransaction, type DatabaseHandle } from '../../src/platform/db/index.js'
import { emit } from '../../src/platform/events/outbox.js'
import { uuidv7, uuidv7At } from '../../src/platform/ids.js'
import { claimDeliveries, claimEvents, fanOut } from '../../src/modules/webhooks/store.js'
import { createSafeFetcher } from '../../src/platform/net/safe-fetch.js'
import { seedOrganization, startTestApp, TEST_SECRET, type Seeded, type TestApp } from '../support/app.js'
import { silentLogger } from '../support/database.js'
import { loginOwner } from '../support/sessions.js'
import { waitFor } from '../support/wait.js'
import { SCHEDULE_MS, startReceiver, TIMEOUT_MS, WEBHOOK_TEST_ENV, webhooksAtRest, type Answer, type Received, type WebhookReceiver } from '../support/webhook-receiver.js'

const postgres = Boolean(process.env.TEST_DATABASE_URL)

let t: TestApp
let acme: Seeded
let receiver: WebhookReceiver
let subscriptionId: string

beforeAll(async () => {
  t = await startTestApp({ env: WEBHOOK_TEST_ENV })
  acme = await seedOrganization(t.app, 'Acme')
  receiver = await startReceiver()
  const { subscription } = await t.app.services.webhooks.create(acme.org.id, { url: receiver.url, events: ['asset.deleted'], createdBy: null })
  subscriptionId = subscription.id
})
afterAll(async () => {
  await t.close()
  await receiver.close()
})

const deliveryRow = (id: string) => t.database.handle.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
const deliveryIdOf = (request: { headers: Record<string, unknown> }) => request.headers['x-service-delivery-id'] as string
const attemptsOf = (id: string) =>
  t.database.handle.db.selectFrom('webhook_attempts').select(['number', 'status_code', 'error', 'trigger', 'attempted_at']).where('delivery_id', '=', id).orderBy('number').execute()

/** A sender of its own (own database connections, own client) that names itself in User-Agent. */
function runner(database: DatabaseHandle, name: string, env: Record<string, string> = {}) {
  const config = loadConfig({ DATA_DIR: t.database.dataDir, APP_SECRET: TEST_SECRET, ...WEBHOOK_TEST_ENV, ...env })
  const fetcher = createSafeFetcher({ allowlist: config.outboundAllowlist, ca: config.outboundCa, userAgent: name })
  const delivery = new WebhookDelivery({ db: database.db, config: config.webhooks, appSecret: config.appSecret, fetcher, logger: silentLogger })
  return { delivery, close: () => fetcher.close() }
}

/** `count` asset.deleted events in each organization, 100 to a transaction. */
async function emitDeletes(count: number, organizationIds = [acme.org.id]): Promise<void> {
  for (let done = 0; done < count; done += 100) {
    await inTransaction(t.database.handle.db, async (tx) => {
      for (let i = done; i < Math.min(count, done + 100); i++) {
        for (const organizationId of organizationIds) await emit(tx, organizationId, 'asset.deleted', { id: `asset-${i}` })
      }
    })
  }
}

/** A new organization whose subscriptions to asset.deleted go to these URLs. */
async function subscribedOrganization(name: string, urls: string[]): Promise<Seeded> {
  const organization = await seedOrganization(t.app, name)
  for (const url of urls) await t.app.services.webhooks.create(organization.org.id, { url, events: ['asset.deleted'], createdBy: null })
  return organization
}

async function deleteSubscriptionsOf(organization: Seeded): Promise<void> {
  for (const subscription of await t.app.services.webhooks.list(organization.org.id)) await t.app.services.webhooks.delete(organization.org.id, subscription.id)
}

interface TarpitScene {
  /** One receiver behind the four tarpit subscriptions (`?n=0` to `?n=3`), answering as told. */
  tarpit: WebhookReceiver
  healthy: WebhookReceiver
  tarpits: Seeded
  /** Another organization, subscribed to `healthy`. */
  bystander: Seeded
  delivery: WebhookDelivery
}

/** The tarpit scenes' send timeout: long enough that waiting behind a hung send shows. */
const TARPIT_TIMEOUT_MS = 5_000
/**
 * A healthy endpoint's p95 beside the tarpits stays under this. One held behind a hung send would wait
 * for its timeout: half of it proves it was not, with room for a loaded machine's delays (the p95 is
 * ~0.4 s on a quiet one).
 */
const NOT_HELD_BEHIND_MS = TARPIT_TIMEOUT_MS / 2

/**
 * Four tarpit endpoints of one organization and a healthy one of another, and a runner with the default
 * slots (32 a process, 8 an endpoint) and a `TARPIT_TIMEOUT_MS` timeout. Everything is closed and unsubscribed after `test`, whatever it did.
 */
async function withTarpits(name: string, tarpitAnswer: (request: Received) => Answer, test: (scene: TarpitScene) => Promise<void>): Promise<void> {
  const tarpit = await startReceiver()
  tarpit.answer(tarpitAnswer)
  const healthy = await startReceiver()
  const tarpits = await subscribedOrganization(name, [0, 1, 2, 3].map((n) => `${tarpit.url}?n=${n}`))
  const bystander = await subscribedOrganization(`${name}, bystander`, [healthy.url])
  const { delivery, close } = runner(t.database.handle, name, { WEBHOOK_TIMEOUT_MS: String(TARPIT_TIMEOUT_MS) })
  try {
    await test({ tarpit, healthy, tarpits, bystander, delivery })
  } finally {
    await delivery.stop(200)
    await close()
    await Promise.all([deleteSubscriptionsOf(tarpits), deleteSubscriptionsOf(bystander)])
    await Promise.all([tarpit.close(), healthy.close()])
  }
}

/** The value at quantile `q` of `values`, nearest rank. */
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1]!

/**
 * Emits 30 events in each of these organizations, an event at a time, and returns the p95 of the time
 * each took to reach `receiver` (which must get all 30).
 */
async function p95Latency(delivery: WebhookDelivery, receiver: WebhookReceiver, organizationIds: string[]): Promise<number> {
  const emittedAt = new Map<string, number>()
  for (let i = 0; i < 30; i++) {
    const id = `measured-${i}`
    emittedAt.set(id, performance.now())
    await inTransaction(t.database.handle.db, async (tx) => {
      for (const organizationId of organizationIds) await emit(tx, organizationId, 'asset.deleted', { id })
    })
    delivery.eventsCommitted()
  }
  const received = await receiver.waitForCount(30, 20_000)
  const eventIds = received.map((request) => JSON.parse(request.body).data.id as string)
  expect(new Set(eventIds).size).toBe(30)
  return quantile(eventIds.map((id, i) => received[i]!.at - emittedAt.get(id)!), 0.95)
}

describe('stopping', () => {
  it('lets a send in flight finish within the budget', async () => {
    const { delivery, close } = runner(t.database.handle, 'stopping-a')
    receiver.answer(() => ({ delayMs: 300 }))
    try {
      await delivery.start()
      const { delivery_id: id } = await t.app.services.webhooks.ping(acme.org.id, subscriptionId)
      delivery.deliveriesDue()
      await receiver.waitForCount(1)
      await delivery.stop(2_000)
      expect(await deliveryRow(id)).toMatchObject({ status: 'succeeded', attempt_count: 1, locked_by: null })
    } finally {
      await close()
      receiver.received.length = 0
    }
  })

  it('gives a send that outlives the budget back at once, and another runner sends it', async () => {
    const first = runner(t.database.handle, 'stopping-b')
    receiver.answer(() => ({ hang: true }))
    await first.delivery.start()
    const { delivery_id: id } = await t.app.services.webhooks.ping(acme.org.id, subscriptionId)
    first.delivery.deliveriesDue()
    await receiver.waitForCount(1)
    await first.delivery.stop(200)
    await first.close()
    const released = await deliveryRow(id)
    expect(released).toMatchObject({ status: 'pending', attempt_count: 0, locked_by: null, locked_until: null })
    expect(released.next_attempt_at!.getTime()).toBeLessThanOrEqual(Date.now())

    receiver.answer(() => ({}))
    const second = runner(t.database.handle, 'stopping-c')
    try {
      await second.delivery.start()
      const [cutOff, again] = await receiver.waitForCount(2, 3_000)
      expect(deliveryIdOf(again!)).toBe(id)
      await waitFor('the delivery to succeed', async () => (await deliveryRow(id)).status === 'succeeded')
      // The receiver got the cut-off send: the history says so, as an interrupted attempt.
      expect(await deliveryRow(id)).toMatchObject({ attempt_count: 2, attempt_started_at: null })
      expect(await attemptsOf(id)).toEqual([
        { number: 1, status_code: 0, error: 'interrupted', trigger: 'ping', attempted_at: expect.any(Date) },
        { number: 2, status_code: 200, error: null, trigger: 'ping', attempted_at: expect.any(Date) },
      ])
      expect((await attemptsOf(id))[0]!.attempted_at.getTime()).toBeLessThanOrEqual(performance.timeOrigin + cutOff!.at)
    } finally {
      await second.delivery.stop(1_000)
      await second.close()
      receiver.received.length = 0
    }
  })
})

describe('a send that times out', () => {
  it('is sent again after the schedule, with the same delivery id and body', async () => {
    const { delivery, close } = runner(t.database.handle, 'timeouts')
    let sends = 0
    receiver.answer(() => (++sends === 1 ? { delayMs: TIMEOUT_MS + 500 } : {}))
    try {
      await delivery.start()
      const { delivery_id: id } = await t.app.services.webhooks.ping(acme.org.id, subscriptionId)
      delivery.deliveriesDue()
      const [first, second] = await receiver.waitForCount(2)
      expect([deliveryIdOf(first!), deliveryIdOf(second!)]).toEqual([id, id])
      expect(second!.body).toBe(first!.body)
      await waitFor('the delivery to succeed', async () => (await deliveryRow(id)).status === 'succeeded')
      expect((await attemptsOf(id)).map((a) => [a.number, a.status_code, a.error])).toEqual([
        [1, 0, 'timeout'],
        [2, 200, null],
      ])
    } finally {
      await delivery.stop(1_000)
      await close()
      receiver.answer(() => ({}))
      receiver.received.length = 0
    }
  })
})

describe('concurrency', () => {
  it('deliveries claimed ahead go back on stop, unsent and unmarked, and another runner sends each of them once', async () => {
    const endpoint = await startReceiver()
    endpoint.answer(() => ({ delayMs: 50 }))
    const ahead = await subscribedOrganization('Ahead', [endpoint.url])
    const [subscription] = await t.app.services.webhooks.list(ahead.org.id)
    const held = async () => {
      const rows = await t.database.handle.db.selectFrom('webhook_deliveries').select('id').where('subscription_id', '=', subscription!.id).where('locked_by', 'is not', null).execute()
      return rows.length
    }
    const first = runner(t.database.handle, 'ahead-first')
    const second = runner(t.database.handle, 'ahead-second')
    try {
      await first.delivery.start()
      await emitDeletes(300, [ahead.org.id])
      first.delivery.eventsCommitted()
      // 8 sends in flight at most, and outcomes written as they come: more held means claimed ahead.
      await waitFor('deliveries claimed ahead', async () => (await held()) > 16, 20_000)
      await first.delivery.stop(10_000)
      expect(await held()).toBe(0)
      const sentBefore = endpoint.received.length
      expect(sentBefore).toBeLessThan(300)
      const marked = await t.database.handle.db.selectFrom('webhook_deliveries').select('id').where('subscription_id', '=', subscription!.id).where('attempt_started_at', 'is not', null).execute()
      expect(marked).toEqual([])

      await second.delivery.start()
      const received = await endpoint.waitForCount(300, 30_000)
      expect(new Set(received.map(deliveryIdOf)).size).toBe(300)
      expect(received.slice(sentBefore).every((request) => request.headers['user-agent'] === 'ahead-second')).toBe(true)
      await webhooksAtRest(t.database.handle.db, ahead.org.id)
      expect(endpoint.received).toHaveLength(300)
    } finally {
      await Promise.all([first.delivery.stop(200), second.delivery.stop(1_000)])
      await Promise.all([first.close(), second.close()])
      await deleteSubscriptionsOf(ahead)
      await endpoint.close()
    }
  })

  it('a slow endpoint holds at most its own share of the sends; the others go out meanwhile', async () => {
    const slow = await startReceiver()
    slow.answer(() => ({ hang: true }))
    const { subscription: slowSubscription } = await t.app.services.webhooks.create(acme.org.id, { url: slow.url, events: ['asset.deleted'], createdBy: null })
    const { delivery, close } = runner(t.database.handle, 'fairness', { WEBHOOK_CONCURRENCY: '4', WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2' })
    try {
      await delivery.start()
      await emitDeletes(6)
      delivery.eventsCommitted()
      // Every event goes to both subscriptions: the fast receiver gets all six while the slow one, which
      // has not answered yet, holds the one send an endpoint starts with.
      await receiver.waitForCount(6, 5_000)
      expect(slow.received).toHaveLength(1)
    } finally {
      await t.app.services.webhooks.delete(acme.org.id, slowSubscription.id)
      await delivery.stop(200)
      await close()
      await slow.close()
      receiver.received.length = 0
    }
  })

  it('four hanging endpoints with a backlog do not hold up a healthy one: it gets all 30 events, none held behind a hung send', async () => {
    await withTarpits('Tarpits', () => ({ hang: true }), async ({ tarpit, healthy, tarpits, bystander, delivery }) => {
      await emitDeletes(30, [tarpits.org.id])
      await delivery.start()
      await waitFor('every tarpit to hold a send', () => new Set(tarpit.received.map((r) => r.path)).size === 4)

      expect(await p95Latency(delivery, healthy, [tarpits.org.id, bystander.org.id])).toBeLessThan(NOT_HELD_BEHIND_MS)
    })
  })

  it('endpoints that fail together after earning their 8 slots never take every slot with their retries: a healthy endpoint of another organization still gets its deliveries, none held behind a hung send', async () => {
    const requestsTo = new Map<string, number>()
    // Each endpoint answers 16 times (its window is 8 after 7), then hangs with 8 sends in flight.
    const answerThenHang = (request: Received) => {
      requestsTo.set(request.path, (requestsTo.get(request.path) ?? 0) + 1)
      return requestsTo.get(request.path)! <= 16 ? { delayMs: 20 } : { hang: true }
    }
    await withTarpits('Hung tarpits', answerThenHang, async ({ tarpit, healthy, tarpits, bystander, delivery }) => {
      const retriesSent = () => tarpit.received.length - new Set(tarpit.received.map(deliveryIdOf)).size
      const failingCount = async () => {
        const failing = await t.database.handle.db.selectFrom('webhook_subscriptions').select('id').where('organization_id', '=', tarpits.org.id).where('failing_since', 'is not', null).execute()
        return failing.length
      }
      await emitDeletes(60, [tarpits.org.id])
      await delivery.start()
      await tarpit.waitForCount(4 * (16 + 8))
      // The 32 hung sends fail at once, so their retries come due together (and hang in turn).
      tarpit.cutHanging()
      await waitFor('every tarpit to be failing', async () => (await failingCount()) === 4)
      await waitFor('the retry wave of the failed sends', () => retriesSent() >= 24)
      expect(await p95Latency(delivery, healthy, [bystander.org.id])).toBeLessThan(NOT_HELD_BEHIND_MS)
    })
  })

  it('a hanging endpoint\'s retries keep to the schedule, ahead of its backlog of new deliveries', async () => {
    const hanging = await startReceiver()
    hanging.answer(() => ({ hang: true }))
    const backlogged = await subscribedOrganization('Backlog', [hanging.url])
    const { delivery, close } = runner(t.database.handle, 'schedule')
    const attemptTimes = () => {
      const byDelivery = new Map<string, Received[]>()
      for (const request of hanging.received) byDelivery.set(deliveryIdOf(request), [...(byDelivery.get(deliveryIdOf(request)) ?? []), request])
      return byDelivery
    }
    // The receiver shares this process's event loop: an attempt that arrives while the loop is blocked
    // (a query on the embedded database, a busy CI machine) is stamped late by up to the longest block,
    // which shortens the gap to the next attempt by as much.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 })
    try {
      await emitDeletes(60, [backlogged.org.id])
      loopDelay.enable()
      await delivery.start()
      await waitFor('three deliveries at their third attempt', () => [...attemptTimes().values()].filter((attempts) => attempts.length >= 3).length >= 3, 20_000)
      const gaps = [...attemptTimes().values()].flatMap((attempts) => attempts.slice(1).map((attempt, i) => ({ step: SCHEDULE_MS[i]!, gap: attempt.at - attempts[i]!.at })))
      const stampedLateByMs = loopDelay.max / 1e6
      // Each attempt times out, and the next comes after the schedule's step: not behind the backlog.
      for (const { step, gap } of gaps) {
        expect(gap).toBeGreaterThanOrEqual(TIMEOUT_MS + step - 50 - stampedLateByMs)
        expect(gap).toBeLessThan(TIMEOUT_MS + step + 500)
      }
    } finally {
      loopDelay.disable()
      await delivery.stop(200)
      await close()
      await deleteSubscriptionsOf(backlogged)
      await hanging.close()
    }
  })

  it('a failing endpoint drops to one send at a time and earns its slots back one success at a time', async () => {
    const endpoint = await startReceiver()
    let failing = false
    let inFlight = 0
    /** How many sends the endpoint had in flight as each arrived, itself included. */
    const concurrency: number[] = []
    endpoint.answer(() => {
      concurrency.push(++inFlight)
      return { delayMs: 100, status: failing ? 503 : 200, sent: () => inFlight-- }
    })
    const flaky = await subscribedOrganization('Flaky', [endpoint.url])
    // One attempt a delivery: no retries, so every send is a new delivery.
    const { delivery, close } = runner(t.database.handle, 'windows', { WEBHOOK_MAX_ATTEMPTS: '1' })
    try {
      await delivery.start()
      await emitDeletes(100, [flaky.org.id])
      delivery.eventsCommitted()
      await endpoint.waitForCount(20)
      expect(concurrency[0]).toBe(1)
      expect(Math.max(...concurrency)).toBe(8)

      failing = true
      await endpoint.waitForCount(50)
      // Sends under way when the first 503 came back still finish; after them, one at a time.
      expect(concurrency.slice(40, 50)).toEqual(Array(10).fill(1))

      failing = false
      await endpoint.waitForCount(100)
      expect(concurrency[50]).toBe(1)
      expect(Math.max(...concurrency.slice(50))).toBe(8)
    } finally {
      await delivery.stop(200)
      await close()
      await deleteSubscriptionsOf(flaky)
      await endpoint.close()
    }
  })
})

describe('a runner that dies mid-send', () => {
  it('leaves its attempt to the survivor, which records it as interrupted: the history counts both sends', async () => {
    // The doomed runner's send outlives the test; its lease is made to run out, as when its process dies.
    const doomed = runner(t.database.handle, 'doomed', { WEBHOOK_TIMEOUT_MS: '60000' })
    const survivor = runner(t.database.handle, 'survivor')
    receiver.answer((request) => (request.headers['user-agent'] === 'doomed' ? { hang: true } : {}))
    try {
      await doomed.delivery.start()
      const { delivery_id: id } = await t.app.services.webhooks.ping(acme.org.id, subscriptionId)
      doomed.delivery.deliveriesDue()
      const [first] = await receiver.waitForCount(1)
      expect(await deliveryRow(id)).toMatchObject({ status: 'pending', attempt_count: 0, attempt_started_at: expect.any(Date) })
      await t.database.handle.db.updateTable('webhook_deliveries').set({ locked_until: new Date(Date.now() - 1000) }).where('id', '=', id).execute()

      await survivor.delivery.start()
      const [, second] = await receiver.waitForCount(2)
      expect(deliveryIdOf(second!)).toBe(id)
      expect(second!.body).toBe(first!.body)
      await waitFor('the delivery to succeed', async () => (await deliveryRow(id)).status === 'succeeded')
      expect(await deliveryRow(id)).toMatchObject({ attempt_count: 2, attempts: 1, last_status_code: 200 })
      const attempts = await attemptsOf(id)
      expect(attempts).toEqual([
        { number: 1, status_code: 0, error: 'interrupted', trigger: 'ping', attempted_at: expect.any(Date) },
        { number: 2, status_code: 200, error: null, trigger: 'ping', attempted_at: expect.any(Date) },
      ])
      expect(attempts[0]!.attempted_at.getTime()).toBeLessThanOrEqual(performance.timeOrigin + first!.at)
      expect(attempts[1]!.attempted_at.getTime()).toBeGreaterThan(performance.timeOrigin + first!.at - 5)
      const owner = await loginOwner(t.app, acme)
      const detail = await owner.get(`/app/api/orgs/${acme.org.slug}/webhooks/${subscriptionId}/deliveries/${id}`)
      expect(detail.json()).toMatchObject({ attempt_count: 2, attempts: [{ number: 1, error: 'interrupted', status_code: 0 }, { number: 2, status_code: 200 }] })
    } finally {
      await Promise.all([doomed.delivery.stop(100), survivor.delivery.stop(1_000)])
      await Promise.all([doomed.close(), survivor.close()])
      receiver.received.length = 0
    }
  })
})

describe('an endpoint that keeps failing', () => {
  it('is disabled once every attempt has failed for the period, keeping its deliveries; one that succeeded meanwhile is not; enabling clears the record', async () => {
    const PERIOD_MS = 400
    const owner = await loginOwner(t.app, acme)
    const hooks = `/app/api/orgs/${acme.org.slug}/webhooks`
    const subscribe = async (name: string) =>
      (await t.app.services.webhooks.create(acme.org.id, { url: `${receiver.url}?${name}`, events: ['asset.deleted'], createdBy: null })).subscription.id
    const [dead, flaky] = [await subscribe('dead'), await subscribe('flaky')]
    let flakySucceeds = false
    receiver.answer((request) => (request.path.endsWith('flaky') && flakySucceeds ? {} : { status: 500, body: 'broken' }))
    // Retries an hour away: each ping is one attempt, made when the test says.
    const { delivery, close } = runner(t.database.handle, 'health', { WEBHOOK_DISABLE_AFTER_MS: String(PERIOD_MS), WEBHOOK_RETRY_SCHEDULE: '1h' })
    const attempted = async (subscription: string) => {
      const { delivery_id: id } = await t.app.services.webhooks.ping(acme.org.id, subscription)
      delivery.deliveriesDue()
      await waitFor('the attempt to be recorded', async () => (await deliveryRow(id)).attempt_count === 1)
      return deliveryRow(id)
    }
    try {
      await delivery.start()
      const [deadFirst] = [await attempted(dead), await attempted(flaky)]
      flakySucceeds = true
      expect(await attempted(flaky)).toMatchObject({ status: 'succeeded' })
      flakySucceeds = false
      const startedAt = Date.now()
      await waitFor('the period to pass', () => Date.now() - startedAt > PERIOD_MS + 50)
      const [deadLast, flakyLast] = [await attempted(dead), await attempted(flaky)]

      const deadRecord = (await owner.get(`${hooks}/${dead}`)).json()
      expect(deadRecord).toMatchObject({
        enabled: false,
        failing_since: (await attemptsOf(deadFirst!.id))[0]!.attempted_at.toISOString(),
        disabled_at: expect.any(String),
        disabled_reason: 'Every delivery attempt failed for 400 ms. The last error: http_error (HTTP 500).',
      })
      expect(Date.parse(deadRecord.disabled_at)).toBeGreaterThanOrEqual(Date.parse(deadRecord.failing_since) + PERIOD_MS)
      // As when an owner disables it: its deliveries wait, pending, for it to be enabled again.
      for (const id of [deadFirst!.id, deadLast!.id]) expect(await deliveryRow(id)).toMatchObject({ status: 'pending', locked_by: null })
      const flakyRecord = (await owner.get(`${hooks}/${flaky}`)).json()
      expect(flakyRecord).toMatchObject({ enabled: true, disabled_at: null, disabled_reason: null })
      expect(flakyRecord.failing_since).toBe((await attemptsOf(flakyLast!.id))[0]!.attempted_at.toISOString())
      expect(flakyLast).toMatchObject({ status: 'pending' })

      const enabled = await owner.patch(`${hooks}/${dead}`, { enabled: true })
      expect(enabled.statusCode, enabled.body).toBe(200)
      expect(enabled.json()).toMatchObject({ enabled: true, failing_since: null, disabled_at: null, disabled_reason: null })
      expect((await owner.get(`${hooks}/${dead}`)).json()).toMatchObject({ enabled: true, failing_since: null, disabled_reason: null })
    } finally {
      await delivery.stop(1_000)
      await close()
      for (const id of [dead, flaky]) await t.app.services.webhooks.delete(acme.org.id, id)
      receiver.answer(() => ({}))
      receiver.received.length = 0
    }
  })
})

describe.runIf(postgres)('several runners on one PostgreSQL', () => {
  it('two runners deliver 500 events, each exactly once, none sent twice at once', async () => {
    const handles = await Promise.all([0, 1].map(() => openDatabase({ databaseUrl: t.database.url, dataDir: '', logger: silentLogger, poolSize: 4 })))
    // This test is about two runners never holding one delivery at once. With the test's 1 s timeout, a
    // loaded machine made the in-process receiver answer late, and a runner then sent its own delivery
    // again after the timeout (at least once, as designed, but counted here as a duplicate). A timeout
    // far above any load keeps those resends out; 'a send that times out' covers them.
    const runners = handles.map((handle, i) => runner(handle, `runner-${i}`, { WEBHOOK_CONCURRENCY_PER_ENDPOINT: '16', WEBHOOK_TIMEOUT_MS: '30000' }))
    const inFlight = new Set<string>()
    const overlaps: string[] = []
    receiver.answer((request) => {
      const id = deliveryIdOf(request)
      if (inFlight.has(id)) overlaps.push(id)
      inFlight.add(id)
      setTimeout(() => inFlight.delete(id), 10)
      return { delayMs: 10 }
    })
    try {
      await Promise.all(runners.map((r) => r.delivery.start()))
      await emitDeletes(500)
      for (const r of runners) r.delivery.eventsCommitted()
      const requests = await receiver.waitForCount(500, 30_000)
      await webhooksAtRest(t.database.handle.db, acme.org.id)
      expect(overlaps).toEqual([])
      expect(receiver.received).toHaveLength(500)
      expect(new Set(requests.map(deliveryIdOf)).size).toBe(500)
      expect(new Set(requests.map((r) => JSON.parse(r.body).data.id)).size).toBe(500)
      const byRunner = (name: string) => requests.filter((r) => r.headers['user-agent'] === name).length
      expect(byRunner('runner-0')).toBeGreaterThan(0)
      expect(byRunner('runner-1')).toBeGreaterThan(0)
      await waitFor('every delivery recorded', async () => {
        const pending = await t.database.handle.db.selectFrom('webhook_deliveries').select('id').where('status', '<>', 'succeeded').execute()
        return pending.length === 0
      })
    } finally {
      await Promise.all(runners.map((r) => r.delivery.stop(1_000)))
      await Promise.all([...runners.map((r) => r.close()), ...handles.map((h) => h.close())])
      receiver.received.length = 0
    }
  })

  it('a worker is woken by other processes\' commits; killed mid-send, it loses nothing: another runner sends it after the lease', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'al-worker-'))
    const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env
    const env = { ...inherited, ...WEBHOOK_TEST_ENV, DATA_DIR: dataDir, DATABASE_URL: t.database.url!, APP_SECRET: TEST_SECRET, LOG_LEVEL: 'info' }
    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'worker'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    worker.stdout.on('data', (chunk: Buffer) => (output += chunk))
    worker.stderr.on('data', (chunk: Buffer) => (output += chunk))
    const exited = new Promise((resolve) => worker.once('exit', resolve))
    const survivor = runner(t.database.handle, 'survivor')
    // The worker's ping hangs (the send to kill it in); everything else is answered.
    receiver.answer((request) => (request.headers['x-service-event'] === 'ping' && request.headers['user-agent'] !== 'survivor' ? { hang: true } : {}))
    try {
      await waitFor('the worker to start', () => output.includes('worker started'), 20_000)
      // This process runs no sender: only the worker's LISTEN can deliver these before its 5 s poll.
      let emittedAt = performance.now()
      await emitDeletes(1)
      const [event] = await receiver.waitForCount(1)
      expect(event!.at - emittedAt).toBeLessThan(2_000)
      emittedAt = performance.now()
      const { delivery_id: id } = await t.app.services.webhooks.ping(acme.org.id, subscriptionId)
      const [, first] = await receiver.waitForCount(2)
      expect(first!.at - emittedAt).toBeLessThan(2_000)
      expect(deliveryIdOf(first!)).toBe(id)
      worker.kill('SIGKILL')
      await exited
      const killedAt = performance.now()
      const held = await deliveryRow(id)
      expect(held).toMatchObject({ status: 'pending', attempt_count: 0 })
      expect(held.locked_by).not.toBeNull()

      await survivor.delivery.start()
      const [, , second] = await receiver.waitForCount(3, 15_000)
      expect(deliveryIdOf(second!)).toBe(id)
      expect(second!.body).toBe(first!.body)
      // The lease (2 x WEBHOOK_TIMEOUT_MS + 5 s) kept the delivery from the survivor until it ran out.
      expect(second!.at - first!.at).toBeGreaterThan(2 * TIMEOUT_MS + 4_000)
      expect(second!.at).toBeGreaterThan(killedAt)
      await waitFor('the delivery to succeed', async () => (await deliveryRow(id)).status === 'succeeded')
      expect(await deliveryRow(id)).toMatchObject({ attempt_count: 2, last_status_code: 200 })
      expect((await attemptsOf(id)).map((a) => [a.number, a.status_code, a.error])).toEqual([
        [1, 0, 'interrupted'],
        [2, 200, null],
      ])
    } finally {
      worker.kill('SIGKILL')
      await survivor.delivery.stop(1_000)
      await survivor.close()
      rmSync(dataDir, { recursive: true, force: true })
      receiver.received.length = 0
    }
  }, 40_000)
})

describe('claims', () => {
  const db = () => t.database.handle.db

  it('take each subscription\'s due deliveries in turn: one backlog does not hide another subscription\'s', async () => {
    const other = (await t.app.services.webhooks.create(acme.org.id, { url: `${receiver.url}?other`, events: ['asset.deleted'], createdBy: null })).subscription
    try {
      const backlog = Array.from({ length: 120 }, (_, i) => ({ id: uuidv7At(Date.now() - 60_000 + i), subscription_id: subscriptionId }))
      const behind = { id: uuidv7(), subscription_id: other.id }
      for (const [i, delivery] of [...backlog, behind].entries()) {
        await db()
          .insertInto('webhook_deliveries')
          .values({ ...delivery, organization_id: acme.org.id, event_id: null, event: 'asset.deleted', body: '{}', series_trigger: 'automatic', updated_at: new Date(), next_attempt_at: new Date(Date.now() - 60_000 + i) })
          .execute()
      }
      // The backlog's subscription has 7 of its 8 sends in flight: it has room for one more.
      const claimed = await claimDeliveries(db(), {
        owner: 'claims-test',
        limit: 24,
        leaseMs: 60_000,
        keysHeld: new Map([[subscriptionId, 7]]),
        perKeyLimit: 8,
        keyWindows: new Map(),
        keyStartWindow: undefined,
        groupsHeld: new Map([[acme.org.id, 7]]),
        dueRetries: [],
        newDeliveryLimits: new Map(),
        failingEndpointSlots: 24,
      })
      expect(claimed.map((job) => job.subscription_id).sort()).toEqual([subscriptionId, other.id].sort())
      expect(claimed.find((job) => job.subscription_id === other.id)).toMatchObject({ id: behind.id, url: `${receiver.url}?other` })
    } finally {
      await db().deleteFrom('webhook_deliveries').where('locked_by', 'is not', null).execute()
      await db().deleteFrom('webhook_deliveries').where('subscription_id', '=', subscriptionId).where('event_id', 'is', null).where('body', '=', '{}').execute()
      await t.app.services.webhooks.delete(acme.org.id, other.id)
    }
  })

  it('give the free slots to the organization holding the fewest sends, and within it to the subscription holding the fewest', async () => {
    const crowded = await subscribedOrganization('Crowded', [`${receiver.url}?a`, `${receiver.url}?b`])
    const quiet = await subscribedOrganization('Quiet', [`${receiver.url}?c`])
    const [a, b] = await t.app.services.webhooks.list(crowded.org.id)
    const [c] = await t.app.services.webhooks.list(quiet.org.id)
    try {
      // Crowded's deliveries have been due longest, a's the longest of all.
      const due = [[crowded, a!, 60_000], [crowded, b!, 50_000], [quiet, c!, 1_000]] as const
      for (const [organization, subscription, ageMs] of due) {
        for (let i = 0; i < 5; i++) {
          await db()
            .insertInto('webhook_deliveries')
            .values({ id: uuidv7(), organization_id: organization.org.id, subscription_id: subscription.id, event_id: null, event: 'asset.deleted', body: '{}', series_trigger: 'automatic', updated_at: new Date(), next_attempt_at: new Date(Date.now() - ageMs + i) })
            .execute()
        }
      }
      // a has 2 sends in flight: its organization holds 2, the quiet one none.
      const claimed = await claimDeliveries(db(), {
        owner: 'fair-claims',
        limit: 4,
        leaseMs: 60_000,
        keysHeld: new Map([[a!.id, 2]]),
        perKeyLimit: 8,
        keyWindows: new Map(),
        keyStartWindow: undefined,
        groupsHeld: new Map([[crowded.org.id, 2]]),
        dueRetries: [],
        newDeliveryLimits: new Map(),
        failingEndpointSlots: 24,
      })
      const count = (subscription: { id: string }) => claimed.filter((job) => job.subscription_id === subscription.id).length
      expect([count(a!), count(b!), count(c!)]).toEqual([0, 1, 3])
    } finally {
      await Promise.all([deleteSubscriptionsOf(crowded), deleteSubscriptionsOf(quiet)])
    }
  })

  it('give failing subscriptions, retries included, no more than their share of the slots, counting their sends in flight', async () => {
    const failing = await subscribedOrganization('Failing claims', [`${receiver.url}?x`, `${receiver.url}?y`])
    const answering = await subscribedOrganization('Answering claims', [`${receiver.url}?z`])
    const [x, y] = await t.app.services.webhooks.list(failing.org.id)
    const [z] = await t.app.services.webhooks.list(answering.org.id)
    try {
      await db().updateTable('webhook_subscriptions').set({ failing_since: new Date() }).where('organization_id', '=', failing.org.id).execute()
      const insertDue = async (organization: Seeded, subscription: { id: string }) => {
        const id = uuidv7()
        await db()
          .insertInto('webhook_deliveries')
          .values({ id, organization_id: organization.org.id, subscription_id: subscription.id, event_id: null, event: 'asset.deleted', body: '{}', series_trigger: 'automatic', updated_at: new Date(), next_attempt_at: new Date(Date.now() - 1_000) })
          .execute()
        return id
      }
      const retries: string[] = []
      for (let i = 0; i < 4; i++) retries.push(await insertDue(failing, x!), await insertDue(failing, y!))
      for (let i = 0; i < 4; i++) await insertDue(answering, z!)
      // x has one send in flight: of the failing share of 3, two slots are left, though 8 retries are due.
      const claimed = await claimDeliveries(db(), {
        owner: 'failing-claims',
        limit: 20,
        leaseMs: 60_000,
        keysHeld: new Map([[x!.id, 1]]),
        perKeyLimit: 8,
        keyWindows: new Map([[z!.id, 8]]),
        keyStartWindow: 1,
        groupsHeld: new Map([[failing.org.id, 1]]),
        dueRetries: retries,
        newDeliveryLimits: new Map([[z!.id, 8]]),
        failingEndpointSlots: 3,
      })
      const count = (subscription: { id: string }) => claimed.filter((job) => job.subscription_id === subscription.id).length
      expect([count(x!) + count(y!), count(z!)]).toEqual([2, 4])
    } finally {
      await Promise.all([deleteSubscriptionsOf(failing), deleteSubscriptionsOf(answering)])
    }
  })

  it('fan out past a subscription deleted since it was read, and make the other deliveries', async () => {
    const doomed = (await t.app.services.webhooks.create(acme.org.id, { url: receiver.url, events: ['asset.deleted'], createdBy: null })).subscription
    await emitDeletes(1)
    const [event] = await claimEvents(db(), { owner: 'fan-out-test', limit: 10, leaseMs: 60_000 })
    await t.app.services.webhooks.delete(acme.org.id, doomed.id)
    const deliveries = [doomed.id, subscriptionId].map((subscription) => ({
      id: uuidv7(),
      organization_id: acme.org.id,
      subscription_id: subscription,
      event_id: event!.id,
      event: event!.event,
      body: '{}',
      series_trigger: 'automatic' as const,
    }))
    expect(await fanOut(db(), 'fan-out-test', [event!.id], deliveries)).toBe(1)
    await db().deleteFrom('webhook_deliveries').where('event_id', '=', event!.id).execute()
  })
})
