import type { App } from '../../platform/http/app-type.js'
import { pageOf } from '../../platform/http/pagination.js'
import { iso } from '../../platform/http/schemas.js'
import { CreateSubscriptionBody, DeliveriesQuery, DeliveryParams, OrgParams, SubscriptionParams, UpdateSubscriptionBody } from './schemas.js'
import type { WebhookService } from './service.js'
import type { DeliveryRow, SubscriptionRow } from './store.js'

function subscriptionView(row: SubscriptionRow) {
  const rotating = row.previous_secret_expires_at !== null && row.previous_secret_expires_at.getTime() > Date.now()
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    /** While set, deliveries are signed with the previous secret too. */
    previous_secret_expires_at: rotating ? iso(row.previous_secret_expires_at) : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  }
}

function deliveryView(row: DeliveryRow) {
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    attempt_count: row.attempt_count,
    last_status_code: row.last_status_code,
    next_attempt_at: iso(row.next_attempt_at),
    created_at: iso(row.created_at),
  }
}

/**
 * /app/api/orgs/:org/webhooks: owners and admins manage subscriptions, look at deliveries and replay
 * them, from a signed-in session (API keys cannot: these are app endpoints).
 */
export function webhookRoutes(app: App, deps: { webhooks: WebhookService }): void {
  const { webhooks } = deps
  const base = '/app/api/orgs/:org/webhooks'

  app.get(base, { config: { session: 'manager' }, schema: { params: OrgParams } }, async (request) => {
    const { organization } = request.membership!
    return { data: (await webhooks.list(organization.id)).map(subscriptionView) }
  })

  app.post(base, { config: { session: 'manager' }, schema: { params: OrgParams, body: CreateSubscriptionBody } }, async (request, reply) => {
    const { organization, user } = request.membership!
    const { subscription, secret } = await webhooks.create(organization.id, { ...request.body, createdBy: user.id })
    return reply.code(201).send({ ...subscriptionView(subscription), secret })
  })

  app.get(`${base}/:id`, { config: { session: 'manager' }, schema: { params: SubscriptionParams } }, async (request) => {
    const { organization } = request.membership!
    return subscriptionView(await webhooks.get(organization.id, request.params.id))
  })

  app.patch(`${base}/:id`, { config: { session: 'manager' }, schema: { params: SubscriptionParams, body: UpdateSubscriptionBody } }, async (request) => {
    const { organization } = request.membership!
    return subscriptionView(await webhooks.update(organization.id, request.params.id, request.body))
  })

  app.delete(`${base}/:id`, { config: { session: 'manager' }, schema: { params: SubscriptionParams } }, async (request, reply) => {
    const { organization } = request.membership!
    await webhooks.delete(organization.id, request.params.id)
    return reply.code(204).send()
  })

  app.post(`${base}/:id/rotate-secret`, { config: { session: 'manager' }, schema: { params: SubscriptionParams } }, async (request) => {
    const { organization } = request.membership!
    const { secret, subscription } = await webhooks.rotateSecret(organization.id, request.params.id)
    return { secret, previous_secret_expires_at: subscriptionView(subscription).previous_secret_expires_at }
  })

  app.post(`${base}/:id/ping`, { config: { session: 'manager' }, schema: { params: SubscriptionParams } }, async (request, reply) => {
    const { organization } = request.membership!
    return reply.code(202).send(await webhooks.ping(organization.id, request.params.id))
  })

  app.get(`${base}/:id/deliveries`, { config: { session: 'manager' }, schema: { params: SubscriptionParams, querystring: DeliveriesQuery } }, async (request) => {
    const { organization } = request.membership!
    const { status, event, ...paging } = request.query
    const page = pageOf(paging)
    const { rows, total } = await webhooks.deliveries(organization.id, request.params.id, { status, event }, page)
    return { data: rows.map(deliveryView), total, ...page }
  })

  app.get(`${base}/:id/deliveries/:delivery_id`, { config: { session: 'manager' }, schema: { params: DeliveryParams } }, async (request) => {
    const { organization } = request.membership!
    const { delivery, attempts } = await webhooks.delivery(organization.id, request.params.id, request.params.delivery_id)
    return {
      ...deliveryView(delivery),
      updated_at: iso(delivery.updated_at),
      body: JSON.parse(delivery.body) as unknown,
      attempts: attempts.map((attempt) => ({
        number: attempt.number,
        attempted_at: iso(attempt.attempted_at),
        trigger: attempt.trigger,
        status_code: attempt.status_code,
        error: attempt.error,
        duration_ms: attempt.duration_ms,
        response_body: attempt.response_body,
      })),
    }
  })

  app.post(`${base}/:id/deliveries/:delivery_id/replay`, { config: { session: 'manager' }, schema: { params: DeliveryParams } }, async (request, reply) => {
    const { organization } = request.membership!
    await webhooks.replay(organization.id, request.params.id, request.params.delivery_id)
    return reply.code(202).send({ delivery_id: request.params.delivery_id })
  })
}
