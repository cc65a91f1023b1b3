import { Type } from 'typebox'
import { EVENT_NAMES } from '../../platform/events/outbox.js'
import { PaginationQuery } from '../../platform/http/pagination.js'

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

export const DeliveriesQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(['pending', 'succeeded', 'failed'], { type: 'string' })),
    event: Type.Optional(Type.Enum([...EVENT_NAMES], { type: 'string' })),
    ...PaginationQuery,
  },
  { additionalProperties: false },
)
