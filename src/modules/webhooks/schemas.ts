import { Type } from 'typebox'
import { EVENT_NAMES } from '../../platform/events/names.js'
import { ListSchema, PaginationQuery } from '../../platform/http/pagination.js'
import { COMPONENT, DateTimeSchema, nullableDateTime } from '../../platform/http/schemas.js'

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'An https:// URL that resolves to a public address.' })
const Events = Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 32, description: `Among ${EVENT_NAMES.join(', ')}.` })
const Description = Type.String({ maxLength: 500 })

export const OrgParams = Type.Object({ org: Type.String() })
export const SubscriptionParams = Type.Object({ org: Type.String(), id: Type.String({ format: 'uuid' }) })
export const DeliveryParams = Type.Object({ org: Type.String(), id: Type.String({ format: 'uuid' }), delivery_id: Type.String({ format: 'uuid' }) })

export const CreateSubscriptionBody = Type.Object({ url: Url, events: Events, description: Type.Optional(Description) }, { additionalProperties: false })

export const UpdateSubscriptionBody = Type.Object(
  { url: Type.Optional(Url), events: Type.Optional(Events), description: Type.Optional(Description), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
)

const DeliveryStatus = Type.Enum(['pending', 'succeeded', 'failed'], { type: 'string' })
const EventName = Type.Enum([...EVENT_NAMES], { type: 'string' })
const Uuid = Type.String({ format: 'uuid' })

export const DeliveriesQuery = Type.Object(
  {
    status: Type.Optional(DeliveryStatus),
    event: Type.Optional(EventName),
    ...PaginationQuery,
  },
  { additionalProperties: false },
)

// --- responses -------------------------------------------------------------------------------------

export const SubscriptionSchema = Type.Object(
  {
    id: Uuid,
    url: Type.String(),
    description: Type.String(),
    events: Type.Array(EventName),
    enabled: Type.Boolean({ description: 'A disabled subscription is sent nothing.' }),
    previous_secret_expires_at: nullableDateTime('While set, after a rotation, deliveries are signed with the previous secret too.'),
    failing_since: nullableDateTime('Since when every attempt has failed; null while the last ones succeed. Failing like this for 5 days (a deployment may set another period) disables the subscription.'),
    disabled_at: nullableDateTime('When the service disabled the subscription because its endpoint kept failing; null when enabled or disabled by hand.'),
    disabled_reason: Type.Union([Type.Null(), Type.String()], { description: 'Why the service disabled it. Enabling it again clears this, `disabled_at` and `failing_since`.' }),
    created_at: DateTimeSchema,
    updated_at: DateTimeSchema,
  },
  { [COMPONENT]: 'AppWebhookSubscription', additionalProperties: false, description: 'A webhook subscription: never its secret.' },
)

const Secret = Type.String({ description: 'The signing secret (`whsec_\u2026`). Shown once: store it now.' })

export const CreatedSubscriptionSchema = Type.Object(
  { ...SubscriptionSchema.properties, secret: Secret },
  { [COMPONENT]: 'AppCreatedWebhookSubscription', additionalProperties: false, description: 'A new subscription, with its signing secret.' },
)

export const RotatedSecretSchema = Type.Object(
  { secret: Secret, previous_secret_expires_at: SubscriptionSchema.properties.previous_secret_expires_at },
  { additionalProperties: false },
)

export const DeliveryIdSchema = Type.Object(
  { delivery_id: Type.String({ format: 'uuid', description: 'Its history is at `\u2026/deliveries/{delivery_id}`.' }) },
  { additionalProperties: false },
)

export const DeliverySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Also the body\u2019s `id`: receivers dedupe on it.' }),
    event: EventName,
    status: DeliveryStatus,
    attempt_count: Type.Integer(),
    last_status_code: Type.Union([Type.Null(), Type.Integer()], { description: 'The receiver\u2019s last answer; null before any attempt.' }),
    last_error: Type.Union([Type.Null(), Type.String()], { description: 'Why the last attempt failed, as a class such as `http_error` or `timeout`; null when it succeeded or before any attempt.' }),
    next_attempt_at: nullableDateTime('When it is tried next; null once it has succeeded or failed.'),
    created_at: DateTimeSchema,
  },
  { [COMPONENT]: 'AppWebhookDelivery', additionalProperties: false },
)

export const DeliveryListSchema = ListSchema(DeliverySchema, 'Deliveries, newest first.')

const { id, event, status, attempt_count, last_status_code, last_error, next_attempt_at } = DeliverySchema.properties

export const LastDeliverySchema = Type.Object(
  {
    id,
    event,
    status,
    attempt_count,
    last_status_code,
    last_error,
    next_attempt_at,
    updated_at: Type.String({ format: 'date-time', description: 'When its status last changed: when it succeeded, failed, or was last tried.' }),
  },
  { [COMPONENT]: 'AppWebhookLastDelivery', additionalProperties: false, description: 'The subscription\u2019s newest delivery, test pings included.' },
)

export const ListedSubscriptionSchema = Type.Object(
  { ...SubscriptionSchema.properties, last_delivery: Type.Union([Type.Null(), LastDeliverySchema], { description: 'Null before the first delivery.' }) },
  { [COMPONENT]: 'AppListedWebhookSubscription', additionalProperties: false, description: 'A webhook subscription and how its newest delivery went.' },
)

const EnvelopeSchema = Type.Object(
  {
    id: Uuid,
    event: EventName,
    organization_id: Uuid,
    emitted_at: DateTimeSchema,
    data: Type.Unknown({ description: 'The event\u2019s own data (see docs/webhooks.md).' }),
  },
  { additionalProperties: false, description: 'The body sent, the same at every attempt.' },
)

const AttemptSchema = Type.Object(
  {
    number: Type.Integer(),
    attempted_at: DateTimeSchema,
    trigger: Type.Enum(['automatic', 'replay', 'ping'], { type: 'string' }),
    status_code: Type.Integer({ description: 'The receiver\u2019s status code; 0 when no answer came.' }),
    error: Type.Union([Type.Null(), Type.String()], {
      description:
        'Why the attempt failed, as a class such as `http_error`; null when it succeeded. `interrupted`: the send was cut off (its worker stopped or died) before an answer was recorded, so the receiver may or may not have got it.',
    }),
    duration_ms: Type.Integer(),
    response_body: Type.String({ description: 'The start of the receiver\u2019s answer.' }),
  },
  { additionalProperties: false },
)

export const DeliveryDetailSchema = Type.Object(
  { ...DeliverySchema.properties, updated_at: DateTimeSchema, body: EnvelopeSchema, attempts: Type.Array(AttemptSchema, { description: 'Oldest first.' }) },
  { [COMPONENT]: 'AppWebhookDeliveryDetail', additionalProperties: false },
)
