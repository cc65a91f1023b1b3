import { Type } from 'typebox'
import { COMPONENT, nullableDateTime } from '../../platform/http/schemas.js'

export const ScopeSchema = Type.Enum(['assets:read', 'assets:write'], {
  type: 'string',
  description: '`assets:read`: the GET endpoints and search. `assets:write`: everything.',
})

/**
 * The highest limit per window a key may be given in a bucket: 10,000 a minute is a push every 6 ms,
 * beyond what one process decodes, so a higher one would only stop protecting the server.
 */
export const MAX_KEY_LIMIT = 10_000

const OwnLimit = (bucket: string, serverDefault: string) =>
  Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: MAX_KEY_LIMIT })], {
    description: `The key\u2019s own limit per window (a minute by default) in the \`${bucket}\` bucket, for bulk imports; null: the server\u2019s (${serverDefault} by default). At most ${MAX_KEY_LIMIT.toLocaleString('en')}.`,
  })

export const API_KEY_EXAMPLE = {
  id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55',
  name: 'ci',
  prefix: 'k3v9x2qa',
  scope: 'assets:read',
  created_at: '2026-11-21T10:00:00.000Z',
  expires_at: null,
  last_used_at: '2026-11-21T10:05:00.000Z',
  revoked_at: null,
  limit_expensive: null,
  limit_cheap: null,
} as const

export const ApiKeySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    prefix: Type.String({ description: 'Public part of the key, shown in listings: `al_<prefix>_…`.' }),
    scope: ScopeSchema,
    created_at: Type.String({ format: 'date-time' }),
    expires_at: nullableDateTime('When the key stops working; null for never.'),
    last_used_at: nullableDateTime('Last use, recorded at most once a minute.'),
    revoked_at: nullableDateTime('When the key was revoked; null while active.'),
    limit_expensive: OwnLimit('expensive', '30'),
    limit_cheap: OwnLimit('cheap', '120'),
  },
  {
    $id: 'ApiKey',
    additionalProperties: false,
    description: 'An API key as listed: never its secret.',
    examples: [API_KEY_EXAMPLE],
  },
)

const Limit = (description: string) => Type.Integer({ minimum: 1, description })

export const CurrentKeySchema = Type.Object(
  {
    ...ApiKeySchema.properties,
    organization: Type.Object(
      { id: Type.String({ format: 'uuid' }), name: Type.String(), slug: Type.String() },
      { additionalProperties: false },
    ),
    rate_limits: Type.Object(
      {
        expensive: Limit('Requests per window in the `expensive` bucket: the key\u2019s own limit, or the server\u2019s.'),
        cheap: Limit('Requests per window in the `cheap` bucket: the key\u2019s own limit, or the server\u2019s.'),
        standard: Limit('Requests per window in the `standard` bucket (the server\u2019s).'),
        window_seconds: Type.Number({ exclusiveMinimum: 0, description: 'The length of a window, in seconds (60 by default).' }),
      },
      { additionalProperties: false, description: 'The limits this key gets, as the `X-RateLimit-Limit` header states them.' },
    ),
  },
  {
    $id: 'CurrentApiKey',
    additionalProperties: false,
    description: 'The calling API key and the organization it belongs to.',
    examples: [
      {
        id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55',
        name: 'ci',
        prefix: 'k3v9x2qa',
        scope: 'assets:write',
        created_at: '2026-11-21T10:00:00.000Z',
        expires_at: '2027-02-19T10:00:00.000Z',
        last_used_at: '2026-11-21T10:05:00.000Z',
        revoked_at: null,
        limit_expensive: 600,
        limit_cheap: null,
        organization: { id: '0193a5b2-6b00-7000-8000-000000000001', name: 'Acme Design', slug: 'acme-design' },
        rate_limits: { expensive: 600, cheap: 120, standard: 60, window_seconds: 60 },
      },
    ],
  },
)

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    scope: ScopeSchema,
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
    limit_expensive: Type.Optional(OwnLimit('expensive', '30')),
    limit_cheap: Type.Optional(OwnLimit('cheap', '120')),
  },
  { additionalProperties: false },
)

export const CreatedKeySchema = Type.Object(
  { ...ApiKeySchema.properties, token: Type.String({ description: 'The full key. Shown once: store it now.' }) },
  { [COMPONENT]: 'AppCreatedApiKey', additionalProperties: false, description: 'A new API key, with its secret.' },
)
