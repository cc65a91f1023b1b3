import type { FastifyBaseLogger } from 'fastify'
import type { WebhookConfig } from '../../config.js'
import { listen } from '../../platform/background/listener.js'
import { Runner, type ClaimRequest, type WorkQueue } from '../../platform/background/runner.js'
import { unseal } from '../../platform/crypto.js'
import type { Db } from '../../platform/db/index.js'
import { uuidv7 } from '../../platform/ids.js'
import { failureClass, SafeFetchError, type SafeFetcher, type SafeFetchResponse } from '../../platform/net/safe-fetch.js'
import { envelope } from './envelope.js'
import { signatureHeader } from './signature.js'
import * as store from './store.js'
import type { AttemptOutcome, DeliveryJob, OutboxJob } from './store.js'

/** Seal purpose of subscription secrets (see platform/crypto.ts). */
export const SECRET_PURPOSE = 'webhook-secret'
/** The first bytes of a receiver's answer kept in the history. */
export const RESPONSE_BODY_BYTES = 4096
const FAN_OUT_BATCH = 200
/** Node timers may fire a millisecond early; a claim then finds the retry not yet due and waits for the poll. */
const TIMER_MARGIN_MS = 20
const WAKE_BUCKET_MS = 25
const POLL_INTERVAL_MS = 5_000
const RETENTION_INTERVAL_MS = 10 * 60 * 1000
const PRUNE_BATCH = 1000
/** Outcomes written together: one statement records up to this many attempts. */
const MAX_OUTCOMES_PER_WRITE = 200
/**
 * Deliveries claimed per free slot, for endpoints at their full window. Sends to a fast endpoint end a
 * few at a time, so a claim sized to the free slots carried ~4 rows and cost about as much as the sends
 * (bench/RESULTS.md, webhooks.ts); claimed 8 rounds ahead, one claim serves 8 rounds of an endpoint's
 * slots. More would hold more deliveries from other runners for little gain.
 */
const CLAIM_AHEAD = 8

export interface WebhookDeliveryDeps {
  db: Db
  config: WebhookConfig
  appSecret: string
  /** The guarded client, which names the service and its version in User-Agent. */
  fetcher: SafeFetcher
  logger: FastifyBaseLogger
  /** Set for PostgreSQL: other processes' events and deliveries wake this one through LISTEN/NOTIFY. */
  databaseUrl?: string | undefined
}

/**
 * The background side of webhooks: a dispatcher that turns outbox events into deliveries, and a sender
 * that makes their attempts, both on the platform runner; plus the retention sweep.
 */
export class WebhookDelivery {
  private dispatcher: Runner<OutboxJob> | undefined
  private sender: Runner<DeliveryJob> | undefined
  private sendQueue: SendQueue | undefined
  private stopListening: (() => Promise<void>) | undefined
  private retention: NodeJS.Timeout | undefined
  private readonly retryWakes = new Map<number, NodeJS.Timeout>()
  private stopping = false
  private pruning: Promise<number> | undefined

  constructor(private readonly deps: WebhookDeliveryDeps) {}

  /** After the commit of a change that emitted events. */
  eventsCommitted(): void {
    this.dispatcher?.wake()
  }

  /** After the commit of a new due delivery (a ping, a replay). */
  deliveriesDue(): void {
    this.sender?.wake()
  }

  /** Runs fan-out, sending and retention in this process until stop(). */
  async start(): Promise<void> {
    if (this.dispatcher) return
    this.stopping = false
    const { config, db, logger } = this.deps
    this.dispatcher = new Runner(new FanOutQueue(db, () => this.deliveriesDue()), {
      logger,
      batchSize: FAN_OUT_BATCH,
      concurrency: 1,
      leaseMs: 60_000,
      pollIntervalMs: POLL_INTERVAL_MS,
    })
    this.sendQueue = new SendQueue(this.deps, (at) => this.wakeSenderAt(at))
    this.sender = new Runner(this.sendQueue, {
      logger,
      batchSize: 1,
      concurrency: config.concurrency,
      perKeyConcurrency: config.perEndpointConcurrency,
      // An endpoint earns its slots by answering: one that never answers starts one new delivery at a time.
      perKeyStartWindow: 1,
      // Longer than any one send can take, so no other runner takes a delivery over while it is being sent
      // (one claimed ahead starts with at least two thirds of it left: the runner extends it while it waits).
      leaseMs: 2 * config.timeoutMs + 5_000,
      claimAhead: CLAIM_AHEAD,
      pollIntervalMs: POLL_INTERVAL_MS,
    })
    this.dispatcher.start()
    this.sender.start()
    const prune = () => {
      this.pruning ??= this.prune().finally(() => (this.pruning = undefined))
    }
    this.retention = setInterval(prune, RETENTION_INTERVAL_MS).unref()
    prune()
    if (this.deps.databaseUrl) {
      const listener = await listen(
        this.deps.databaseUrl,
        [store.OUTBOX_CHANNEL, store.DELIVERIES_CHANNEL],
        (channel) => (channel === store.OUTBOX_CHANNEL ? this.dispatcher : this.sender)?.wake(),
        logger,
      )
      // A stop that came while the connection was being made has already passed the listener by.
      if (this.stopping) await listener.close()
      else this.stopListening = () => listener.close()
    }
  }

  /** Stops claiming; sends in flight finish within `timeoutMs` or are given back. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true
    clearInterval(this.retention)
    await this.stopListening?.()
    this.stopListening = undefined
    await Promise.all([this.dispatcher?.stop(timeoutMs), this.sender?.stop(timeoutMs), this.pruning])
    await this.sendQueue?.writer.flushed()
    // Cleared last: sends that finished during the stop may have set some.
    for (const timer of this.retryWakes.values()) clearTimeout(timer)
    this.retryWakes.clear()
    this.sendQueue = undefined
    this.dispatcher = undefined
    this.sender = undefined
  }

  /** Deletes deliveries past the retention period, a batch at a time. */
  async prune(): Promise<number> {
    let pruned = 0
    try {
      for (let batch = PRUNE_BATCH; batch === PRUNE_BATCH; pruned += batch) {
        batch = await store.pruneDeliveries(this.deps.db, this.deps.config.retentionDays, PRUNE_BATCH)
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'pruning old webhook deliveries failed; retrying later')
    }
    if (pruned > 0) this.deps.logger.info({ pruned, retention_days: this.deps.config.retentionDays }, 'pruned old webhook deliveries')
    return pruned
  }

  /**
   * Wakes the sender when a retry this process scheduled is due; retries due within one bucket share a
   * timer. Other processes' retries come with the poll.
   */
  private wakeSenderAt(at: number): void {
    const bucket = Math.ceil(at / WAKE_BUCKET_MS) * WAKE_BUCKET_MS
    if (!this.sender || this.stopping || this.retryWakes.has(bucket)) return
    const timer = setTimeout(
      () => {
        this.retryWakes.delete(bucket)
        this.sender?.wake()
      },
      Math.max(0, bucket - Date.now()) + TIMER_MARGIN_MS,
    )
    timer.unref()
    this.retryWakes.set(bucket, timer)
  }
}

/** Turns a batch of outbox events into their deliveries: three statements however many there are. */
class FanOutQueue implements WorkQueue<OutboxJob> {
  readonly name = 'webhook fan-out'

  constructor(
    private readonly db: Db,
    private readonly deliveriesMade: () => void,
  ) {}

  claim(request: { owner: string; limit: number; leaseMs: number }): Promise<OutboxJob[]> {
    return store.claimEvents(this.db, request)
  }

  async work(events: OutboxJob[]): Promise<void> {
    const subscribers = await store.subscribersOf(this.db, [...new Set(events.map((event) => event.organization_id))])
    const deliveries = events.flatMap((event) =>
      subscribers
        // A subscription gets the events of changes made after it existed, as with Stripe.
        .filter((s) => s.organization_id === event.organization_id && s.events.includes(event.event) && s.created_at <= event.created_at)
        .map((subscription): store.NewDelivery => {
          const id = uuidv7()
          return {
            id,
            organization_id: event.organization_id,
            subscription_id: subscription.id,
            event_id: event.id,
            event: event.event,
            body: envelope(id, event.event, event.organization_id, event.created_at, event.payload),
            series_trigger: 'automatic',
          }
        }),
    )
    const ids = events.map((event) => event.id)
    const made = await store.fanOut(this.db, events[0]!.locked_by, ids, deliveries)
    if (made > 0) this.deliveriesMade()
  }

  release(owner: string, ids: string[]): Promise<void> {
    return store.releaseEvents(this.db, owner, ids)
  }
}

/**
 * Sends each claimed delivery once and records the attempt. A send frees its slot as soon as the answer
 * is in; attempts finished together are then written in one statement (on the embedded database every
 * statement shares the API's one connection). Until its outcome is written a delivery stays claimed,
 * so nothing takes it meanwhile.
 *
 * Keys are subscriptions, grouped by organization. A failed attempt shrinks its subscription's window
 * (see the runner); the retries this queue scheduled are claimed when due ahead of the subscription's
 * other deliveries, and may use all of its slots: a new delivery waits while retries due within a
 * send's timeout would need its slot. So a struggling endpoint's retries keep to the schedule, within
 * the share of failing endpoints: together they hold at most the process's slots less one endpoint's,
 * so a healthy endpoint always finds its slots free of them. An endpoint at its full window has up to
 * `CLAIM_AHEAD` rounds of its slots claimed, waiting in the runner; its first failure gives back those
 * not yet sent, due at once, for the next claim to take in order.
 */
class SendQueue implements WorkQueue<DeliveryJob> {
  readonly name = 'webhook deliveries'
  readonly writer: OutcomeWriter
  /** Retries this queue scheduled and has not claimed yet, by delivery id. */
  private readonly retries = new Map<string, { subscriptionId: string; dueAt: number }>()

  constructor(
    private readonly deps: WebhookDeliveryDeps,
    private readonly retryAt: (at: number) => void,
  ) {
    this.writer = new OutcomeWriter(deps.db, deps.logger, deps.config.disableAfterMs)
  }

  keyOf(job: DeliveryJob): string {
    return job.subscription_id
  }

  groupOf(job: DeliveryJob): string {
    return job.organization_id
  }

  async claim(request: ClaimRequest): Promise<DeliveryJob[]> {
    const jobs = await store.claimDeliveries(this.deps.db, { ...request, ...this.retryPlan(request), failingEndpointSlots: this.failingEndpointSlots })
    for (const job of jobs) this.retries.delete(job.id)
    return jobs
  }

  async work([job]: DeliveryJob[], signal: AbortSignal): Promise<readonly boolean[] | undefined> {
    let outcome: AttemptOutcome
    try {
      outcome = await this.attempt(job!, signal)
    } catch (error) {
      // Stopping: the send was cut off, so it goes back at once rather than after the lease.
      if (!signal.aborted) throw error
      await store.releaseInterrupted(this.deps.db, job!.locked_by, [job!.id])
      return undefined
    }
    const { retryInMs } = outcome
    const expectRetryAt = (dueAt: number) => this.retries.set(job!.id, { subscriptionId: job!.subscription_id, dueAt })
    // Known from now on, so that no new delivery takes the slot the retry will need; due from the write.
    if (retryInMs !== null) expectRetryAt(Date.now() + retryInMs)
    this.writer.record(job!.locked_by, outcome, () => {
      if (retryInMs === null) return
      const dueAt = Date.now() + retryInMs
      expectRetryAt(dueAt)
      this.retryAt(dueAt)
    })
    return [outcome.error === null]
  }

  release(owner: string, ids: string[]): Promise<void> {
    return store.releaseDeliveries(this.deps.db, owner, ids)
  }

  extend(owner: string, ids: string[], leaseMs: number): Promise<string[]> {
    return store.extendDeliveries(this.deps.db, owner, ids, leaseMs)
  }

  private get failingEndpointSlots(): number {
    const { concurrency, perEndpointConcurrency } = this.deps.config
    return Math.max(1, concurrency - perEndpointConcurrency)
  }

  /**
   * The retries due now, and how many sends each subscription may hold for new deliveries: its window,
   * less the slots its retries coming due within a send's timeout will need (those due now are ranked
   * ahead of the new deliveries by the claim itself). A retry still unclaimed a lease
   * after its due time was taken by another runner, replayed or deleted: it is forgotten.
   */
  private retryPlan({ perKeyLimit, keyWindows, keyStartWindow, leaseMs }: ClaimRequest): Pick<store.DeliveryClaim, 'dueRetries' | 'newDeliveryLimits'> {
    const now = Date.now()
    const dueRetries: string[] = []
    const comingRetries = new Map<string, number>()
    for (const [id, { subscriptionId, dueAt }] of this.retries) {
      if (dueAt < now - leaseMs) {
        this.retries.delete(id)
        continue
      }
      if (dueAt <= now) dueRetries.push(id)
      else if (dueAt <= now + this.deps.config.timeoutMs) comingRetries.set(subscriptionId, (comingRetries.get(subscriptionId) ?? 0) + 1)
    }
    const limit = perKeyLimit ?? this.deps.config.perEndpointConcurrency
    const newDeliveryLimits = new Map(keyWindows)
    for (const [subscriptionId, count] of comingRetries) {
      const window = keyWindows.get(subscriptionId) ?? keyStartWindow ?? limit
      newDeliveryLimits.set(subscriptionId, Math.max(0, Math.min(window, limit - count)))
    }
    return { dueRetries, newDeliveryLimits }
  }

  private async attempt(job: DeliveryJob, signal: AbortSignal): Promise<AttemptOutcome> {
    const attemptedAt = new Date()
    const started = performance.now()
    const result = await this.send(job, signal)
    return {
      deliveryId: job.id,
      ...nextStep(job.attempts + 1, result, this.deps.config),
      attemptedAt,
      trigger: job.series_trigger,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: Math.round(performance.now() - started),
      responseBody: result.body,
    }
  }

  private async send(job: DeliveryJob, signal: AbortSignal): Promise<SendResult> {
    let secrets: string[]
    try {
      secrets = this.secretsOf(job)
    } catch (error) {
      this.deps.logger.error({ err: error, subscription_id: job.subscription_id }, 'a webhook secret cannot be read (was APP_SECRET changed?); rotate the secret')
      return failure('secret_unreadable')
    }
    const timestamp = Math.floor(Date.now() / 1000)
    let response: SafeFetchResponse
    try {
      response = await this.deps.fetcher.fetch(job.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-event': job.event,
          'x-service-delivery-id': job.id,
          'x-service-timestamp': String(timestamp),
          'x-service-signature': signatureHeader(secrets, timestamp, job.body),
        },
        body: job.body,
        totalTimeoutMs: this.deps.config.timeoutMs,
        followRedirects: false,
        anyStatus: true,
        maxBytes: RESPONSE_BODY_BYTES,
        truncateBody: true,
        signal,
      })
    } catch (error) {
      if (signal.aborted || !(error instanceof SafeFetchError)) throw error
      return failure(failureClass(error))
    }
    const { status } = response
    return {
      statusCode: status,
      error: status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? 'redirect_not_followed' : 'http_error',
      body: response.body.toString('utf8').replaceAll('\u0000', ''),
      retryAfterMs: status === 429 || status === 503 ? retryAfterMs(response.headers['retry-after']) : undefined,
    }
  }

  /** The current secret, and the previous one while its rotation overlap lasts. */
  private secretsOf(endpoint: Pick<DeliveryJob, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>): string[] {
    const open = (sealed: string) => unseal(this.deps.appSecret, SECRET_PURPOSE, sealed)
    const previousValid = endpoint.previous_secret !== null && endpoint.previous_secret_expires_at !== null && endpoint.previous_secret_expires_at.getTime() > Date.now()
    return previousValid ? [open(endpoint.secret), open(endpoint.previous_secret!)] : [open(endpoint.secret)]
  }
}

interface SendResult {
  /** 0 when no HTTP answer came. */
  statusCode: number
  error: string | null
  body: string
  retryAfterMs?: number | undefined
}

function failure(error: string): SendResult {
  return { statusCode: 0, error, body: '' }
}

/**
 * What a delivery becomes after attempt number `attempt` of its series: succeeded on a 2xx, failed when
 * no attempt is left, else due again after the schedule's step. A longer Retry-After (429, 503) is
 * honoured up to the step after it.
 */
export function nextStep(attempt: number, result: Pick<SendResult, 'error' | 'retryAfterMs'>, config: Pick<WebhookConfig, 'maxAttempts' | 'retryScheduleMs'>) {
  if (result.error === null) return { status: 'succeeded' as const, retryInMs: null }
  if (attempt >= config.maxAttempts) return { status: 'failed' as const, retryInMs: null }
  const schedule = config.retryScheduleMs
  const step = schedule[Math.min(attempt - 1, schedule.length - 1)]!
  const nextStepMs = schedule[Math.min(attempt, schedule.length - 1)]!
  const asked = result.retryAfterMs
  return { status: 'pending' as const, retryInMs: asked !== undefined && asked > step ? Math.min(asked, Math.max(step, nextStepMs)) : step }
}

/** Retry-After as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined || value.trim() === '') return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/**
 * Group commit for attempt outcomes: outcomes that arrive while a write is under way go together in the
 * next one. A failed write is logged: those deliveries stay claimed until their lease runs out, and are
 * then sent again (delivery is at least once).
 */
class OutcomeWriter {
  private queue: Array<{ owner: string; outcome: AttemptOutcome; written: () => void }> = []
  private writing: Promise<void> | undefined

  private readonly health: { disableAfterMs: number; disabledReason: string }

  constructor(
    private readonly db: Db,
    private readonly logger: FastifyBaseLogger,
    disableAfterMs: number,
  ) {
    this.health = { disableAfterMs, disabledReason: `Every delivery attempt failed for ${spelledDuration(disableAfterMs)}.` }
  }

  record(owner: string, outcome: AttemptOutcome, written: () => void): void {
    this.queue.push({ owner, outcome, written })
    this.writing ??= this.writeAll().finally(() => (this.writing = undefined))
  }

  /** Resolves when every outcome recorded so far is written (or its write failed). */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing
  }

  private async writeAll(): Promise<void> {
    while (this.queue.length > 0) {
      const owner = this.queue[0]!.owner
      const batch = this.queue.filter((entry) => entry.owner === owner).slice(0, MAX_OUTCOMES_PER_WRITE)
      this.queue = this.queue.filter((entry) => !batch.includes(entry))
      try {
        const disabled = await store.recordAttempts(
          this.db,
          owner,
          batch.map((entry) => entry.outcome),
          this.health,
        )
        for (const entry of batch) entry.written()
        for (const endpoint of disabled) {
          this.logger.warn({ subscription_id: endpoint.id, failing_since: endpoint.failing_since, reason: endpoint.disabled_reason }, 'webhook subscription disabled: its endpoint failed every attempt for too long')
        }
      } catch (error) {
        this.logger.warn({ err: error, attempts: batch.length }, 'recording webhook attempts failed; those deliveries are sent again after their lease')
      }
    }
  }
}

/** 5 days, 36 hours, 90 minutes, 300 ms: the largest unit that divides the duration. */
function spelledDuration(ms: number): string {
  const units: Array<[string, number]> = [['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000], ['second', 1000]]
  const [unit, size] = units.find(([, size]) => ms % size === 0) ?? ['ms', 1]
  const count = ms / size
  return unit === 'ms' ? `${count} ms` : `${count} ${unit}${count === 1 ? '' : 's'}`
}
