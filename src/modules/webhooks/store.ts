import { sql, type Insertable, type Selectable } from 'kysely'
import { claimDue, extendClaims, releaseClaims } from '../../platform/background/claims.js'
import type { ClaimRequest } from '../../platform/background/runner.js'
import { notify } from '../../platform/background/listener.js'
import type { Db } from '../../platform/db/index.js'
import type { AttemptTrigger, DeliveryStatus, WebhookDeliveriesTable, WebhookSubscriptionsTable } from '../../platform/db/schema.js'
import type { EventName } from '../../platform/events/names.js'
import type { Page } from '../../platform/http/pagination.js'

/** NOTIFY channels of the triggers in migration 0005. */
export const OUTBOX_CHANNEL = 'outbox_events'
export const DELIVERIES_CHANNEL = 'webhook_deliveries'

export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>
export type DeliveryRow = Selectable<WebhookDeliveriesTable>

// --- subscriptions ---------------------------------------------------------------------------------

export type LastDelivery = Pick<DeliveryRow, 'id' | 'event' | 'status' | 'attempt_count' | 'last_status_code' | 'last_error' | 'next_attempt_at' | 'updated_at'>
export type ListedSubscription = SubscriptionRow & { last_delivery: LastDelivery | null }

/** Each subscription with its newest delivery, in one statement (one index probe a subscription). */
export async function listSubscriptions(db: Db, organizationId: string): Promise<ListedSubscription[]> {
  const rows = await db
    .selectFrom('webhook_subscriptions as s')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('webhook_deliveries as d')
          .select(['d.id', 'd.event', 'd.status', 'd.attempt_count', 'd.last_status_code', 'd.last_error', 'd.next_attempt_at', 'd.updated_at'])
          .whereRef('d.subscription_id', '=', 's.id')
          .orderBy('d.created_at', 'desc')
          .orderBy('d.id', 'desc')
          .limit(1)
          .as('last'),
      (join) => join.onTrue(),
    )
    .selectAll('s')
    .select([
      'last.id as last_id',
      'last.event as last_event',
      'last.status as last_status',
      'last.attempt_count as last_attempt_count',
      'last.last_status_code as last_last_status_code',
      'last.last_error as last_last_error',
      'last.next_attempt_at as last_next_attempt_at',
      'last.updated_at as last_updated_at',
    ])
    .where('s.organization_id', '=', organizationId)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute()
  return rows.map(({ last_id, last_event, last_status, last_attempt_count, last_last_status_code, last_last_error, last_next_attempt_at, last_updated_at, ...subscription }) => ({
    ...subscription,
    last_delivery:
      last_id === null
        ? null
        : {
            id: last_id,
            event: last_event!,
            status: last_status!,
            attempt_count: last_attempt_count!,
            last_status_code: last_last_status_code,
            last_error: last_last_error,
            next_attempt_at: last_next_attempt_at,
            updated_at: last_updated_at!,
          },
  }))
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
    .set({
      ...fields,
      ...(events && { events: sql<EventName[]>`${events}::text[]` }),
      // Enabled again: an automatic disabling's record goes, and the failures of a disabled one count afresh.
      ...(changes.enabled && { disabled_at: null, disabled_reason: null, failing_since: sql<Date | null>`case when enabled then failing_since end` }),
      updated_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

export async function deleteDeliveriesOf(db: Db, organizationId: string, subscriptionId: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('organization_id', '=', organizationId).where('subscription_id', '=', subscriptionId).execute()
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

/** The error of an attempt that was never recorded: cut off by a stop, or its runner died. */
const INTERRUPTED = 'interrupted'

export interface DeliveryJob {
  id: string
  organization_id: string
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

export interface DeliveryClaim extends ClaimRequest {
  /** Retries this runner scheduled that are due now: taken ahead of their subscription's other deliveries. */
  dueRetries: readonly string[]
  /**
   * A delivery other than a due retry is taken only while, counting it, its subscription holds no more
   * than this; subscriptions not listed have their `keyStartWindow`.
   */
  newDeliveryLimits: ReadonlyMap<string, number>
  /**
   * Sends to subscriptions whose last attempt failed (`failing_since` set), retries included, hold
   * together at most this many of the runner's slots, counting those in flight.
   */
  failingEndpointSlots: number
}

/**
 * Claims due deliveries of enabled subscriptions and returns them with their subscription's URL and
 * secrets, in one statement. The candidates are `dueRetries`, then each subscription's oldest due
 * deliveries up to its room (each looked up through its own index range, so one subscription's backlog
 * never hides another's). The free slots go to the organization holding the fewest sends in this
 * runner, within it to the subscription holding the fewest, one at a time (fair queueing); a
 * subscription never holds more than `perKeyLimit`, or its window when that is larger (claimed ahead),
 * and failing subscriptions together never more than `failingEndpointSlots`. The rows come in that
 * order, the order to send them in.
 */
export async function claimDeliveries(db: Db, request: DeliveryClaim): Promise<DeliveryJob[]> {
  const perKey = request.perKeyLimit ?? request.limit
  const newLimit = request.keyStartWindow ?? perKey
  const pairs = (map: ReadonlyMap<string, number>) => sql`${[...map.keys()]}::uuid[], ${[...map.values()]}::int[]`
  const due = sql`d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())`
  const result = await sql<DeliveryJob>`
    with held as (
      select * from unnest(${pairs(request.keysHeld)}) as h(subscription_id, count)
    ),
    org_held as (
      select * from unnest(${pairs(request.groupsHeld)}) as g(organization_id, count)
    ),
    new_limits as (
      select * from unnest(${pairs(request.newDeliveryLimits)}) as l(subscription_id, size)
    ),
    failing_held as (
      select coalesce(sum(h.count), 0) as count
      from held h join webhook_subscriptions s on s.id = h.subscription_id
      where s.failing_since is not null
    ),
    retries as (
      select d.id, d.subscription_id, s.organization_id, d.next_attempt_at, true as retry, s.failing_since is not null as failing,
        coalesce(h.count, 0) as held, ${perKey}::int as new_limit
      from webhook_deliveries d
      join webhook_subscriptions s on s.id = d.subscription_id
      left join held h on h.subscription_id = d.subscription_id
      where d.id = any(${request.dueRetries}::uuid[]) and ${due} and s.enabled
      for update of d skip locked
    ),
    others as (
      select picked.id, s.id as subscription_id, s.organization_id, picked.next_attempt_at, false as retry, s.failing_since is not null as failing,
        coalesce(h.count, 0) as held, coalesce(l.size, ${newLimit}) as new_limit
      from webhook_subscriptions s
      left join held h on h.subscription_id = s.id
      left join new_limits l on l.subscription_id = s.id
      cross join lateral (
        select d.id, d.next_attempt_at from webhook_deliveries d
        where d.subscription_id = s.id and ${due} and d.id <> all(${request.dueRetries}::uuid[])
        order by d.next_attempt_at
        limit greatest(0, coalesce(l.size, ${newLimit}) - coalesce(h.count, 0))
        for update of d skip locked
      ) picked
      where s.enabled
    ),
    by_subscription as (
      select c.*, c.held + row_number() over (partition by c.subscription_id order by c.retry desc, c.next_attempt_at) as subscription_rank
      from (select * from retries union all select * from others) c
    ),
    ranked as (
      select b.id, b.next_attempt_at, b.subscription_rank, b.failing,
        coalesce(g.count, 0) + row_number() over (partition by b.organization_id order by b.subscription_rank, b.next_attempt_at) as organization_rank
      from by_subscription b left join org_held g on g.organization_id = b.organization_id
      where b.subscription_rank <= greatest(${perKey}, b.new_limit) and (b.retry or b.subscription_rank <= b.new_limit)
    ),
    failing_ranked as (
      select r.*, row_number() over (partition by r.failing order by r.organization_rank, r.subscription_rank, r.next_attempt_at) as failing_rank
      from ranked r
    ),
    admitted as (
      select f.* from failing_ranked f, failing_held fh
      where not f.failing or fh.count + f.failing_rank <= ${request.failingEndpointSlots}::int
    ),
    claimed as (
      update webhook_deliveries
      set locked_by = ${request.owner}, locked_until = now() + make_interval(secs => ${request.leaseMs / 1000}),
        -- A start still marked is an attempt never recorded: its runner died, or was stopped mid-send.
        attempt_count = attempt_count + (attempt_started_at is not null)::int,
        attempt_started_at = now()
      where id in (select id from admitted order by organization_rank, subscription_rank, next_attempt_at limit ${request.limit})
      returning id, organization_id, subscription_id, event, body, attempts, series_trigger, locked_by, attempt_count
    ),
    interrupted as (
      -- The receiver may have got it: the attempt goes in the history, with the start its runner marked.
      -- (The statement's snapshot still holds the marks the update replaced.)
      insert into webhook_attempts (delivery_id, number, attempted_at, trigger, status_code, error, duration_ms, response_body)
      select claimed.id, claimed.attempt_count, before.attempt_started_at, claimed.series_trigger, 0, ${INTERRUPTED}, 0, ''
      from claimed join webhook_deliveries before on before.id = claimed.id
      where before.attempt_started_at is not null
      on conflict (delivery_id, number) do nothing
    )
    select claimed.id, claimed.organization_id, claimed.subscription_id, claimed.event, claimed.body, claimed.attempts, claimed.series_trigger, claimed.locked_by,
      s.url, s.secret, s.previous_secret, s.previous_secret_expires_at
    from claimed join webhook_subscriptions s on s.id = claimed.subscription_id
    join admitted a on a.id = claimed.id
    order by a.organization_rank, a.subscription_rank, a.next_attempt_at
  `.execute(db)
  return result.rows
}

/** Gives claimed deliveries back unsent, due at once: no attempt was made, so none stays marked. */
export async function releaseDeliveries(db: Db, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return
  await db
    .updateTable('webhook_deliveries')
    .set({ locked_by: null, locked_until: null, attempt_started_at: null })
    .where('id', '=', sql<string>`any(${ids}::uuid[])`)
    .where('locked_by', '=', owner)
    .execute()
}

/** Extends the lease of claimed deliveries that wait to be sent; returns the ids `owner` still holds. */
export function extendDeliveries(db: Db, owner: string, ids: string[], leaseMs: number): Promise<string[]> {
  return extendClaims(db, { table: 'webhook_deliveries', idColumn: 'id', owner, ids, leaseMs })
}

/**
 * Gives back deliveries whose send was cut off (a stop), due at once. The receiver may have got it, so
 * the start stays marked, and the next claim records the attempt as interrupted.
 */
export function releaseInterrupted(db: Db, owner: string, ids: string[]): Promise<void> {
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

export interface DisabledEndpoint {
  id: string
  failing_since: Date
  disabled_reason: string
}

/**
 * Records attempts made by `owner` in one statement: each delivery's new state and its history row, and
 * each endpoint's health. A delivery whose claim passed to another runner meanwhile is left alone (that
 * runner sends it again). An endpoint whose every attempt has failed for `disableAfterMs` or longer is
 * disabled, with `disabledReason` and its last error; like a disabling by hand, that keeps its pending
 * deliveries for when it is enabled again. Returns the subscriptions it disabled.
 */
export async function recordAttempts(
  db: Db,
  owner: string,
  outcomes: AttemptOutcome[],
  health: { disableAfterMs: number; disabledReason: string },
): Promise<DisabledEndpoint[]> {
  const column = <T>(pick: (outcome: AttemptOutcome) => T) => outcomes.map(pick)
  const failingLongEnough = sql`now() - make_interval(secs => ${health.disableAfterMs / 1000})`
  const result = await sql<DisabledEndpoint>`
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
        attempt_started_at = null,
        updated_at = now()
      from outcome o
      where d.id = o.id and d.locked_by = ${owner}
      returning d.id, d.attempt_count, d.subscription_id
    ),
    attempted as (
      insert into webhook_attempts (delivery_id, number, attempted_at, trigger, status_code, error, duration_ms, response_body)
      select o.id, u.attempt_count, o.attempted_at, o.trigger, o.status_code, o.error, o.duration_ms, o.response_body
      from updated u join outcome o on o.id = u.id
    ),
    endpoint as (
      select u.subscription_id as id, bool_or(o.error is null) as answered, min(o.attempted_at) as first_attempt_at,
        (array_agg(o.error || case when o.status_code > 0 then ' (HTTP ' || o.status_code || ')' else '' end order by o.attempted_at desc))[1] as last_error
      from updated u join outcome o on o.id = u.id
      group by u.subscription_id
    ),
    -- Only endpoints whose health changes are written, locked in id order (two runners' batches may
    -- share endpoints). The first failure after a success starts the clock; any success stops it.
    changed as (
      select s.id, e.answered, e.last_error, coalesce(s.failing_since, e.first_attempt_at) as failing_since,
        not e.answered and s.enabled and coalesce(s.failing_since, e.first_attempt_at) <= ${failingLongEnough} as disable
      from webhook_subscriptions s join endpoint e on e.id = s.id
      where case when e.answered then s.failing_since is not null
        else s.failing_since is null or (s.enabled and s.failing_since <= ${failingLongEnough}) end
      order by s.id
      for no key update of s
    ),
    health as (
      update webhook_subscriptions s set
        failing_since = case when c.answered then null else c.failing_since end,
        enabled = s.enabled and not c.disable,
        disabled_at = case when c.disable then now() else s.disabled_at end,
        disabled_reason = case when c.disable then ${health.disabledReason}::text || ' The last error: ' || c.last_error || '.' else s.disabled_reason end,
        updated_at = case when c.disable then now() else s.updated_at end
      from changed c
      where s.id = c.id
      returning s.id, s.failing_since, s.disabled_reason, c.disable
    )
    select id, failing_since, disabled_reason from health where disable
  `.execute(db)
  return result.rows
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
