import { randomBytes } from 'node:crypto'
import { seal } from '../../platform/crypto.js'
import { inTransaction, type Db } from '../../platform/db/index.js'
import { EVENT_NAMES, type EventName } from '../../platform/events/names.js'
import { problems } from '../../platform/http/errors.js'
import type { Page } from '../../platform/http/pagination.js'
import { uuidv7 } from '../../platform/ids.js'
import { SafeFetchError, type SafeFetcher } from '../../platform/net/safe-fetch.js'
import { SECRET_PURPOSE } from './delivery.js'
import { envelope } from './envelope.js'
import * as store from './store.js'
import type { DeliveryFilter, ListedSubscription, SubscriptionChanges, SubscriptionRow } from './store.js'

export const MAX_SUBSCRIPTIONS = 20
/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

export interface WebhookServiceDeps {
  db: Db
  appSecret: string
  /** Checks a URL against the outbound guard, as every send does. */
  fetcher: SafeFetcher
  /** After the commit of a delivery that is due now (ping, replay). */
  deliveriesDue: () => void
}

export interface NewSubscription {
  url: string
  events: string[]
  description?: string | undefined
  createdBy: string | null
}

const notFound = () => problems.notFound('Webhook subscription')
const deliveryNotFound = () => problems.notFound('Delivery')

/** Subscriptions, their secrets, and their delivery history; sending is delivery.ts. */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  /** Every subscription, each with its newest delivery (null before the first). */
  list(organizationId: string): Promise<ListedSubscription[]> {
    return store.listSubscriptions(this.deps.db, organizationId)
  }

  async get(organizationId: string, id: string): Promise<SubscriptionRow> {
    const subscription = await store.findSubscription(this.deps.db, organizationId, id)
    if (!subscription) throw notFound()
    return subscription
  }

  /** The secret is returned here only; the database keeps it sealed. */
  async create(organizationId: string, input: NewSubscription): Promise<{ subscription: SubscriptionRow; secret: string }> {
    const events = knownEvents(input.events)
    const url = await this.checkedUrl(input.url)
    const secret = newSecret()
    const subscription = await inTransaction(this.deps.db, async (tx) => {
      if ((await store.lockedSubscriptionCount(tx, organizationId)) >= MAX_SUBSCRIPTIONS) {
        throw problems.unprocessable('webhook_limit_reached', `An organization can have at most ${MAX_SUBSCRIPTIONS} webhook subscriptions; delete one first.`)
      }
      return store.insertSubscription(tx, {
        id: uuidv7(),
        organization_id: organizationId,
        url,
        description: input.description?.trim() ?? '',
        events,
        secret: seal(this.deps.appSecret, SECRET_PURPOSE, secret),
        created_by: input.createdBy,
      })
    })
    return { subscription, secret }
  }

  async update(organizationId: string, id: string, changes: { url?: string; events?: string[]; description?: string; enabled?: boolean }): Promise<SubscriptionRow> {
    const checked: SubscriptionChanges = {
      ...(changes.url !== undefined && { url: await this.checkedUrl(changes.url) }),
      ...(changes.events !== undefined && { events: knownEvents(changes.events) }),
      ...(changes.description !== undefined && { description: changes.description.trim() }),
      ...(changes.enabled !== undefined && { enabled: changes.enabled }),
    }
    const updated = await store.updateSubscription(this.deps.db, organizationId, id, checked)
    if (!updated) throw notFound()
    return updated
  }

  /**
   * Its deliveries go first: recording attempts locks deliveries and then, when an endpoint's health
   * changes, their subscription; deleting the subscription first would take the two in the other order
   * and could deadlock with it on PostgreSQL.
   */
  async delete(organizationId: string, id: string): Promise<void> {
    const deleted = await this.deps.db.transaction().execute(async (tx) => {
      await store.deleteDeliveriesOf(tx, organizationId, id)
      return store.deleteSubscription(tx, organizationId, id)
    })
    if (!deleted) throw notFound()
  }

  /** A new secret; the old one keeps signing beside it for ROTATION_OVERLAP_MS, so receivers can roll over. */
  async rotateSecret(organizationId: string, id: string): Promise<{ secret: string; subscription: SubscriptionRow }> {
    const secret = newSecret()
    const subscription = await store.rotateSecret(this.deps.db, organizationId, id, seal(this.deps.appSecret, SECRET_PURPOSE, secret), ROTATION_OVERLAP_MS)
    if (!subscription) throw notFound()
    return { secret, subscription }
  }

  /** A `ping` delivery to this subscription alone, sent at once through the same pipeline. */
  async ping(organizationId: string, id: string): Promise<{ delivery_id: string }> {
    const subscription = await this.enabled(organizationId, id, 'ping it')
    const deliveryId = uuidv7()
    await store.insertDelivery(this.deps.db, {
      id: deliveryId,
      organization_id: organizationId,
      subscription_id: subscription.id,
      event_id: null,
      event: 'ping',
      body: envelope(deliveryId, 'ping', organizationId, new Date(), JSON.stringify({ subscription_id: subscription.id })),
      series_trigger: 'ping',
    })
    this.deps.deliveriesDue()
    return { delivery_id: deliveryId }
  }

  async deliveries(organizationId: string, subscriptionId: string, filter: DeliveryFilter, page: Page) {
    await this.get(organizationId, subscriptionId)
    const { rows, total } = await store.listDeliveries(this.deps.db, subscriptionId, filter, page)
    return { rows, total }
  }

  async delivery(organizationId: string, subscriptionId: string, deliveryId: string) {
    await this.get(organizationId, subscriptionId)
    const delivery = await store.findDelivery(this.deps.db, subscriptionId, deliveryId)
    if (!delivery) throw deliveryNotFound()
    return { delivery, attempts: await store.attemptsOf(this.deps.db, deliveryId) }
  }

  /** The same delivery id and body, a fresh series of attempts, recorded in the same history. */
  async replay(organizationId: string, subscriptionId: string, deliveryId: string): Promise<void> {
    await this.enabled(organizationId, subscriptionId, 'replay a delivery')
    const outcome = await store.replayDelivery(this.deps.db, subscriptionId, deliveryId)
    if (outcome === undefined) throw deliveryNotFound()
    if (outcome === 'pending') {
      throw problems.conflict('delivery_in_progress', 'This delivery is still being attempted; replay it once it has succeeded or failed.')
    }
    this.deps.deliveriesDue()
  }

  /** A disabled subscription sends nothing, a ping or a replay included: it would only wait. */
  private async enabled(organizationId: string, id: string, action: string): Promise<SubscriptionRow> {
    const subscription = await this.get(organizationId, id)
    if (!subscription.enabled) throw problems.conflict('webhook_disabled', `This subscription is disabled; enable it to ${action}.`)
    return subscription
  }

  /** HTTPS, and a host that resolves only to addresses the outbound guard allows (checked again at every send). */
  private async checkedUrl(raw: string): Promise<string> {
    let url: URL
    try {
      url = new URL(raw.trim())
    } catch {
      throw problems.validation([{ pointer: '/url', detail: 'must be an absolute URL' }])
    }
    if (url.protocol !== 'https:') {
      throw problems.unprocessable('webhook_url_not_https', 'Webhook URLs must use https://.', [{ pointer: '/url', detail: 'must start with https://' }])
    }
    try {
      await this.deps.fetcher.assertAllowed(url)
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error
      if (error.kind === 'unreachable') {
        throw problems.unprocessable('webhook_url_unresolvable', 'The URL\'s host name does not resolve.', [{ pointer: '/url', detail: 'does not resolve' }])
      }
      throw problems.unprocessable('webhook_url_not_public', `${error.message} Webhooks are sent to public addresses only.`, [
        { pointer: '/url', detail: 'must resolve to a public address' },
      ])
    }
    return url.href
  }
}

/** `whsec_` and 32 random bytes in base64, as Stripe and Svix secrets look. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** The set of kinds asked for, in the spec's order; an unknown kind is a 422 that lists the allowed ones. */
function knownEvents(requested: string[]): EventName[] {
  const unknown = requested.filter((event) => !(EVENT_NAMES as readonly string[]).includes(event))
  if (unknown.length > 0) {
    throw problems.unprocessable(
      'unknown_event',
      `Unknown event kind ${unknown.map((e) => `"${e}"`).join(', ')}. Allowed: ${EVENT_NAMES.join(', ')}.`,
      requested.flatMap((event, i) => (unknown.includes(event) ? [{ pointer: `/events/${i}`, detail: `must be one of ${EVENT_NAMES.join(', ')}` }] : [])),
    )
  }
  return EVENT_NAMES.filter((event) => requested.includes(event))
}
