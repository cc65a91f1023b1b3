import type { App } from '../../platform/http/app-type.js'
import { pageOf } from '../../platform/http/pagination.js'
import { appNoContent, appProblemResponses, appResponse, DataListSchema, iso, mergeProblemResponses } from '../../platform/http/schemas.js'
import {
  CreatedSubscriptionSchema,
  CreateSubscriptionBody,
  DeliveriesQuery,
  DeliveryDetailSchema,
  DeliveryIdSchema,
  DeliveryListSchema,
  DeliveryParams,
  ListedSubscriptionSchema,
  OrgParams,
  RotatedSecretSchema,
  SubscriptionParams,
  SubscriptionSchema,
  UpdateSubscriptionBody,
} from './schemas.js'
import type { WebhookService } from './service.js'
import type { DeliveryRow, LastDelivery, ListedSubscription, SubscriptionRow } from './store.js'

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
    failing_since: iso(row.failing_since),
    disabled_at: iso(row.disabled_at),
    disabled_reason: row.disabled_reason,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  }
}

/** What a delivery's entry in the history and a subscription's newest delivery both say. */
function deliveryStateView(row: LastDelivery) {
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    attempt_count: row.attempt_count,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    next_attempt_at: iso(row.next_attempt_at),
  }
}

function listedSubscriptionView(row: ListedSubscription) {
  const last = row.last_delivery
  return { ...subscriptionView(row), last_delivery: last && { ...deliveryStateView(last), updated_at: iso(last.updated_at) } }
}

function deliveryView(row: DeliveryRow) {
  return { ...deliveryStateView(row), created_at: iso(row.created_at) }
}

const TAGS = ['app-webhooks']
const NOT_FOUND = appProblemResponses({ not_found: 'no webhook subscription with this id in the organization' })
const DELIVERY_NOT_FOUND = appProblemResponses({ not_found: 'no such subscription, or no delivery with this id to it' })
const URL_PROBLEMS = appProblemResponses({
  webhook_url_not_https: true,
  webhook_url_not_public: true,
  webhook_url_unresolvable: true,
  unknown_event: true,
})
const DISABLED = appProblemResponses({ webhook_disabled: true })

/**
 * /app/api/orgs/:org/webhooks: owners and admins manage subscriptions, look at deliveries and replay
 * them, from a signed-in session (API keys cannot: these are app endpoints).
 */
export function webhookRoutes(app: App, deps: { webhooks: WebhookService }): void {
  const { webhooks } = deps

  app.get(
    '/app/api/orgs/:org/webhooks',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appListWebhooks',
        tags: TAGS,
        summary: 'List webhook subscriptions',
        description: 'Every subscription of the organization, oldest first, each with how its newest delivery went.',
        params: OrgParams,
        response: { 200: appResponse('The subscriptions.', DataListSchema(ListedSubscriptionSchema)) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      return { data: (await webhooks.list(organization.id)).map(listedSubscriptionView) }
    },
  )

  app.post(
    '/app/api/orgs/:org/webhooks',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appCreateWebhook',
        tags: TAGS,
        summary: 'Subscribe to events',
        description: 'The answer carries the signing secret in `secret`, once. At most 20 subscriptions an organization.',
        params: OrgParams,
        body: CreateSubscriptionBody,
        response: {
          201: appResponse('The new subscription, with its secret.', CreatedSubscriptionSchema),
          ...mergeProblemResponses(URL_PROBLEMS, appProblemResponses({ webhook_limit_reached: true })),
        },
      },
    },
    async (request, reply) => {
      const { organization, user } = request.membership!
      const { subscription, secret } = await webhooks.create(organization.id, { ...request.body, createdBy: user.id })
      return reply.code(201).send({ ...subscriptionView(subscription), secret })
    },
  )

  app.get(
    '/app/api/orgs/:org/webhooks/:id',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appGetWebhook',
        tags: TAGS,
        summary: 'Fetch a webhook subscription',
        params: SubscriptionParams,
        response: { 200: appResponse('The subscription.', SubscriptionSchema), ...NOT_FOUND },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      return subscriptionView(await webhooks.get(organization.id, request.params.id))
    },
  )

  app.patch(
    '/app/api/orgs/:org/webhooks/:id',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appUpdateWebhook',
        tags: TAGS,
        summary: 'Change a webhook subscription',
        description: 'Its URL, events, description, or whether it is enabled.',
        params: SubscriptionParams,
        body: UpdateSubscriptionBody,
        response: { 200: appResponse('The subscription as changed.', SubscriptionSchema), ...NOT_FOUND, ...URL_PROBLEMS },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      return subscriptionView(await webhooks.update(organization.id, request.params.id, request.body))
    },
  )

  app.delete(
    '/app/api/orgs/:org/webhooks/:id',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appDeleteWebhook',
        tags: TAGS,
        summary: 'Delete a webhook subscription',
        description: 'Nothing more is sent to it.',
        params: SubscriptionParams,
        response: { 204: appNoContent('Deleted.'), ...NOT_FOUND },
      },
    },
    async (request, reply) => {
      const { organization } = request.membership!
      await webhooks.delete(organization.id, request.params.id)
      return reply.code(204).send()
    },
  )

  app.post(
    '/app/api/orgs/:org/webhooks/:id/rotate-secret',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appRotateWebhookSecret',
        tags: TAGS,
        summary: 'Rotate the signing secret',
        description: 'A new secret, shown once; deliveries are signed with both until `previous_secret_expires_at`.',
        params: SubscriptionParams,
        response: { 200: appResponse('The new secret.', RotatedSecretSchema), ...NOT_FOUND },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      const { secret, subscription } = await webhooks.rotateSecret(organization.id, request.params.id)
      return { secret, previous_secret_expires_at: subscriptionView(subscription).previous_secret_expires_at }
    },
  )

  app.post(
    '/app/api/orgs/:org/webhooks/:id/ping',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appPingWebhook',
        tags: TAGS,
        summary: 'Send a test ping',
        description: 'A `ping` delivery to this subscription alone, sent at once through the usual pipeline.',
        params: SubscriptionParams,
        response: { 202: appResponse('The ping is on its way.', DeliveryIdSchema), ...NOT_FOUND, ...DISABLED },
      },
    },
    async (request, reply) => {
      const { organization } = request.membership!
      return reply.code(202).send(await webhooks.ping(organization.id, request.params.id))
    },
  )

  app.get(
    '/app/api/orgs/:org/webhooks/:id/deliveries',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appListWebhookDeliveries',
        tags: TAGS,
        summary: 'List deliveries',
        description: 'The subscription\u2019s deliveries, newest first; filter by `status` or `event`.',
        params: SubscriptionParams,
        querystring: DeliveriesQuery,
        response: { 200: appResponse('A page of deliveries.', DeliveryListSchema), ...NOT_FOUND },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      const { status, event, ...paging } = request.query
      const page = pageOf(paging)
      const { rows, total } = await webhooks.deliveries(organization.id, request.params.id, { status, event }, page)
      return { data: rows.map(deliveryView), total, ...page }
    },
  )

  app.get(
    '/app/api/orgs/:org/webhooks/:id/deliveries/:delivery_id',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appGetWebhookDelivery',
        tags: TAGS,
        summary: 'Fetch a delivery and its attempts',
        description: 'The body sent and every attempt, with the receiver\u2019s answers.',
        params: DeliveryParams,
        response: { 200: appResponse('The delivery.', DeliveryDetailSchema), ...DELIVERY_NOT_FOUND },
      },
    },
    async (request) => {
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
    },
  )

  app.post(
    '/app/api/orgs/:org/webhooks/:id/deliveries/:delivery_id/replay',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appReplayWebhookDelivery',
        tags: TAGS,
        summary: 'Replay a delivery',
        description: 'Sends the same delivery (same id and body) again, as a fresh series of attempts in the same history.',
        params: DeliveryParams,
        response: {
          202: appResponse('The replay is on its way.', DeliveryIdSchema),
          ...DELIVERY_NOT_FOUND,
          ...mergeProblemResponses(DISABLED, appProblemResponses({ delivery_in_progress: true })),
        },
      },
    },
    async (request, reply) => {
      const { organization } = request.membership!
      await webhooks.replay(organization.id, request.params.id, request.params.delivery_id)
      return reply.code(202).send({ delivery_id: request.params.delivery_id })
    },
  )
}
