import { Type } from 'typebox'
import { COMPONENT, nullableDateTime } from '../../platform/http/schemas.js'

export const ScopeSchema = Type.Enum(['assets:read', 'assets:write'], {
  type: 'string',
  description: '`assets:read`: the GET endpoints and search. `assets:write`: everything.',
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
  },
  {
    $id: 'ApiKey',
    additionalProperties: false,
    description: 'An API key as listed: never its secret.',
    examples: [API_KEY_EXAMPLE],
  },
)

export const CurrentKeySchema = Type.Object(
  {
    ...ApiKeySchema.properties,
    organization: Type.Object(
      { id: Type.String({ format: 'uuid' }), name: Type.String(), slug: Type.String() },
      { additionalProperties: false },
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
        organization: { id: '0193a5b2-6b00-7000-8000-000000000001', name: 'Acme Design', slug: 'acme-design' },
      },
    ],
  },
)

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    scope: ScopeSchema,
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  },
  { additionalProperties: false },
)

export const CreatedKeySchema = Type.Object(
  { ...ApiKeySchema.properties, token: Type.String({ description: 'The full key. Shown once: store it now.' }) },
  { [COMPONENT]: 'AppCreatedApiKey', additionalProperties: false, description: 'A new API key, with its secret.' },
)
