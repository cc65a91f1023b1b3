import { sql, type Insertable, type Selectable } from 'kysely'
import { claimDue, releaseClaims } from '../../platform/background/claims.js'
import type { ClaimRequest } from '../../platform/background/runner.js'
import { notify } from '../../platform/background/listener.js'
import type { Db } from '../../platform/db/index.js'
import type { AttemptTrigger, DeliveryStatus, WebhookDeliveriesTable, WebhookSubscriptionsTable } from '../../platform/db/schema.js'
import type { EventName } from '../../platform/events/outbox.js'
import type { Page } from '../../platform/http/pagination.js'

/** NOTIFY channels of the triggers in migration 0005. */
export const OUTBOX_CHANNEL = 'outbox_events'
export const DELIVERIES_CHANNEL = 'webhook_deliveries'

export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>
export type DeliveryRow = Selectable<WebhookDeliveriesTable>

// --- subscriptions ---------------------------------------------------------------------------------

export function listSubscriptions(db: Db, organizationId: string): Promise<SubscriptionRow[]> {
  return db.selectFrom('webhook_subscriptions').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').execute()
}

export function findSubscription(db: Db, organizationId: string, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('webhook_subscriptions').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
}

/** Locks the organization's row, so two creations cannot both see room under the limit. */
export async function lockedSubscriptionCount(tx: Db, organizationId: string): Promise<number> {
  await tx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute()
  const row = await tx
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export function insertSubscription(
  db: Db,
  row: { id: string; organization_id: string; url: string; description: string; events: EventName[]; secret: string; created_by: string | null },
): Promise<SubscriptionRow> {
  return db
    .insertInto('webhook_subscriptions')
    .values({ ...row, events: sql<EventName[]>`${row.events}::text[]`, updated_at: sql<Date>`now()` })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export interface SubscriptionChanges {
  url?: string
  description?: string
  events?: EventName[]
  enabled?: boolean
}

export function updateSubscription(db: Db, organizationId: string, id: string, changes: SubscriptionChanges): Promise<SubscriptionRow | undefined> {
  const { events, ...fields } = changes
  return db
    .updateTable('webhook_subscriptions')
    .set({ ...fields, ...(events && { events: sql<EventName[]>`${events}::text[]` }), updated_at: sql<Date>`now()` })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

export async function deleteSubscription(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_subscriptions').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** The current secret becomes the previous one, which keeps signing until `overlapMs` from now. */
export function rotateSecret(db: Db, organizationId: string, id: string, sealedSecret: string, overlapMs: number): Promise<SubscriptionRow | undefined> {
  return db
    .updateTable('webhook_subscriptions')
    .set({
      previous_secret: sql<string>`secret`,
      previous_secret_expires_at: sql<Date>`now() + make_interval(secs => ${overlapMs / 1000})`,
      secret: sealedSecret,
      updated_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

// --- fan-out ---------------------------------------------------------------------------------------

export interface OutboxJob {
  id: string
  organization_id: string
  event: EventName
  /** The event's data as JSON text, exactly as emitted. */
  payload: string
  created_at: Date
  locked_by: string
}

export function claimEvents(db: Db, request: { owner: string; limit: number; leaseMs: number }): Promise<OutboxJob[]> {
  return claimDue<OutboxJob>(db, {
    table: 'outbox_events',
    idColumn: 'id',
    ...request,
    returning: ['id', 'organization_id', 'event', 'payload', 'created_at', 'locked_by'],
    asText: ['payload'],
  })
}

export function releaseEvents(db: Db, owner: string, ids: string[]): Promise<void> {
  return releaseClaims(db, { table: 'outbox_events', idColumn: 'id', owner, ids })
}

export interface Subscriber {
  id: string
  organization_id: string
  events: EventName[]
  created_at: Date
}

/** The enabled subscriptions of these organizations. */
export function subscribersOf(db: Db, organizationIds: string[]): Promise<Subscriber[]> {
  return db
    .selectFrom('webhook_subscriptions')
    .select(['id', 'organization_id', 'events', 'created_at'])
    .where('organization_id', '=', sql<string>`any(${organizationIds}::uuid[])`)
    .where('enabled', '=', true)
    .execute()
}

export type NewDelivery = Required<Pick<Insertable<WebhookDeliveriesTable>, 'id' | 'organization_id' | 'subscription_id' | 'event_id' | 'event' | 'body' | 'series_trigger'>>

/**
 * In one statement: the claimed events that `owner` still holds leave the outbox, and their deliveries
 * are made. An event whose claim passed to another dispatcher is left to it; the unique index on
 * (subscription, event) keeps a repeated fan-out from making a second delivery. Returns how many it made.
 */
export async function fanOut(db: Db, owner: string, eventIds: string[], deliveries: NewDelivery[]): Promise<number> {
  const column = <K extends keyof NewDelivery>(key: K) => deliveries.map((delivery) => delivery[key])
  const result = await sql`
    with done as (
      delete from outbox_events where id = any(${eventIds}::uuid[]) and locked_by = ${owner} returning id
    )
    insert into webhook_deliveries (id, organization_id, subscription_id, event_id, event, body, series_trigger)
    select d.* from unnest(
      ${column('id')}::uuid[], ${column('organization_id')}::uuid[], ${column('subscription_id')}::uuid[],
      ${column('event_id')}::uuid[], ${column('event')}::text[], ${column('body')}::text[], ${column('series_trigger')}::text[]
    ) as d(id, organization_id, subscription_id, event_id, event, body, series_trigger)
    -- A subscription deleted since it was read is skipped, not a foreign-key error for the whole batch.
    join webhook_subscriptions s on s.id = d.subscription_id
    where d.event_id in (select id from done)
    for key share of s
    on conflict (subscription_id, event_id) do nothing
  `.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}

export async function insertDelivery(db: Db, delivery: NewDelivery): Promise<void> {
  await db.insertInto('webhook_deliveries').values({ ...delivery, updated_at: sql<Date>`now()` }).execute()
}

// --- sending ---------------------------------------------------------------------------------------

export interface DeliveryJob {
  id: string
  subscription_id: string
  event: EventName
  body: string
  attempts: number
  series_trigger: AttemptTrigger
  locked_by: string
  /** The subscription as it is now: a changed URL or secret applies from the next attempt. */
  url: string
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | null
}

/**
 * Claims due deliveries of enabled subscriptions, from each no more than the room it has left under
 * `perKeyLimit` in this runner (oldest first within a subscription, each looked up through its own
 * index range, so one subscription's backlog never hides another's due deliveries), and returns them
 * with their subscription's URL and secrets: one statement.
 */
export async function claimDeliveries(db: Db, request: ClaimRequest): Promise<DeliveryJob[]> {
  const perKey = request.perKeyLimit ?? request.limit
  const result = await sql<DeliveryJob>`
    with claimed as (
      update webhook_deliveries
      set locked_by = ${request.owner}, locked_until = now() + make_interval(secs => ${request.leaseMs / 1000})
      where id in (
        select picked.id
        from webhook_subscriptions s
        left join unnest(${[...request.keysInFlight.keys()]}::uuid[], ${[...request.keysInFlight.values()]}::int[])
          as in_flight(subscription_id, count) on in_flight.subscription_id = s.id
        cross join lateral (
          select d.id, d.next_attempt_at from webhook_deliveries d
          where d.subscription_id = s.id and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())
          order by d.next_attempt_at
          limit greatest(0, ${perKey} - coalesce(in_flight.count, 0))
          for update of d skip locked
        ) picked
        where s.enabled
        order by picked.next_attempt_at
        limit ${request.limit}
      )
      returning id, subscription_id, event, body, attempts, series_trigger, locked_by
    )
    select claimed.*, s.url, s.secret, s.previous_secret, s.previous_secret_expires_at
    from claimed join webhook_subscriptions s on s.id = claimed.subscription_id
  `.execute(db)
  return result.rows
}

export function releaseDeliveries(db: Db, owner: string, ids: string[]): Promise<void> {
  return releaseClaims(db, { table: 'webhook_deliveries', idColumn: 'id', owner, ids })
}

export interface AttemptOutcome {
  deliveryId: string
  /** What the delivery becomes: succeeded, failed (no attempt left), or pending (`retryInMs`). */
  status: DeliveryStatus
  retryInMs: number | null
  attemptedAt: Date
  trigger: AttemptTrigger
  statusCode: number
  error: string | null
  durationMs: number
  responseBody: string
}

/**
 * Records attempts made by `owner` in one statement: each delivery's new state and its history row. A
 * delivery whose claim passed to another runner meanwhile is left alone (that runner sends it again).
 */
export async function recordAttempts(db: Db, owner: string, outcomes: AttemptOutcome[]): Promise<void> {
  const column = <T>(pick: (outcome: AttemptOutcome) => T) => outcomes.map(pick)
  await sql`
    with outcome as (
      select * from unnest(
        ${column((o) => o.deliveryId)}::uuid[], ${column((o) => o.status)}::text[], ${column((o) => o.retryInMs)}::float8[],
        ${column((o) => o.attemptedAt.toISOString())}::timestamptz[], ${column((o) => o.trigger)}::text[],
        ${column((o) => o.statusCode)}::int[], ${column((o) => o.error)}::text[], ${column((o) => o.durationMs)}::int[],
        ${column((o) => o.responseBody)}::text[]
      ) as o(id, status, retry_in_ms, attempted_at, trigger, status_code, error, duration_ms, response_body)
    ),
    updated as (
      update webhook_deliveries d set
        status = o.status,
        next_attempt_at = case when o.retry_in_ms is null then null else now() + make_interval(secs => o.retry_in_ms / 1000) end,
        attempts = d.attempts + 1,
        attempt_count = d.attempt_count + 1,
        last_status_code = o.status_code,
        last_error = o.error,
        locked_by = null,
        locked_until = null,
        updated_at = now()
      from outcome o
      where d.id = o.id and d.locked_by = ${owner}
      returning d.id, d.attempt_count
    )
    insert into webhook_attempts (delivery_id, number, attempted_at, trigger, status_code, error, duration_ms, response_body)
    select o.id, u.attempt_count, o.attempted_at, o.trigger, o.status_code, o.error, o.duration_ms, o.response_body
    from updated u join outcome o on o.id = u.id
  `.execute(db)
}

// --- history ---------------------------------------------------------------------------------------

export interface DeliveryFilter {
  status?: DeliveryStatus | undefined
  event?: EventName | undefined
}

export async function listDeliveries(db: Db, subscriptionId: string, filter: DeliveryFilter, page: Page): Promise<{ rows: DeliveryRow[]; total: number }> {
  let query = db.selectFrom('webhook_deliveries').where('subscription_id', '=', subscriptionId)
  if (filter.status) query = query.where('status', '=', filter.status)
  if (filter.event) query = query.where('event', '=', filter.event)
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.count) }
}

export function findDelivery(db: Db, subscriptionId: string, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId).where('id', '=', id).executeTakeFirst()
}

export function attemptsOf(db: Db, deliveryId: string) {
  return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('number').execute()
}

/**
 * A finished delivery starts a fresh series at once (and wakes other processes' runners). Returns
 * undefined when there is no such delivery, or its status when it is still pending.
 */
export async function replayDelivery(db: Db, subscriptionId: string, id: string): Promise<'replayed' | 'pending' | undefined> {
  const replayed = await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      series_trigger: 'replay',
      attempts: 0,
      next_attempt_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('subscription_id', '=', subscriptionId)
    .where('id', '=', id)
    .where('status', '<>', 'pending')
    .returning(['id', notify(DELIVERIES_CHANNEL).as('notified')])
    .executeTakeFirst()
  if (replayed) return 'replayed'
  return (await findDelivery(db, subscriptionId, id)) ? 'pending' : undefined
}

// --- retention -------------------------------------------------------------------------------------

/** Deletes up to `limit` deliveries (with their attempts) made more than `days` ago; returns how many. */
export async function pruneDeliveries(db: Db, days: number, limit: number): Promise<number> {
  const result = await sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries where created_at < now() - make_interval(days => ${days}) limit ${limit}
    )
  `.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}
