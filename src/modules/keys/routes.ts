import type { RateLimitConfig } from '../../platform/http/rate-limit.js'
import type { App } from '../../platform/http/app-type.js'
import { problems } from '../../platform/http/errors.js'
import type { Caller, KeyCaller } from '../../platform/http/route-auth.js'
import { Type } from 'typebox'
import {
  appNoContent,
  appProblemResponses,
  appResponse,
  DataListSchema,
  iso,
  okResponse,
  problemResponses,
  ref,
} from '../../platform/http/schemas.js'
import type { OrgService } from '../orgs/service.js'
import { API_KEY_EXAMPLE, ApiKeySchema, CreateKeyBody, CreatedKeySchema, CurrentKeySchema } from './schemas.js'
import type { ApiKeyService } from './service.js'
import type { ApiKeyRow } from './store.js'

const OrgParams = Type.Object({ org: Type.String() })
const KeyParams = Type.Object({ org: Type.String(), id: Type.String({ format: 'uuid' }) })

function view(key: ApiKeyRow) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scope: key.scope,
    created_at: iso(key.created_at),
    expires_at: iso(key.expires_at),
    last_used_at: iso(key.last_used_at),
    revoked_at: iso(key.revoked_at),
    limit_expensive: key.limit_expensive,
    limit_cheap: key.limit_cheap,
  }
}

/** The limits a key gets in each bucket, as its requests' `X-RateLimit-Limit` states them. */
function effectiveLimits(key: ApiKeyRow, server: RateLimitConfig) {
  return {
    expensive: key.limit_expensive ?? server.expensive,
    cheap: key.limit_cheap ?? server.cheap,
    standard: server.standard,
    window_seconds: server.windowMs / 1000,
  }
}

/** What the two endpoints of the calling key answer to the web app's session, which has no key. */
const NO_KEY = { not_found: "called with the web app's session, which has no API key" } as const

/** GET /api/v1/auth/key and POST /api/v1/auth/revoke: the calling key looks at or revokes itself. */
export function publicKeyRoutes(app: App, deps: { keys: ApiKeyService; orgs: OrgService; rateLimits: RateLimitConfig }): void {
  app.get(
    '/api/v1/auth/key',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'getCurrentKey',
        tags: ['auth'],
        summary: 'Describe the calling API key',
        description: 'Tells a script which organization, name, prefix, scope, expiry and rate limits its key has. Any scope may call it.',
        response: { 200: okResponse('The calling key.', ref(CurrentKeySchema)), ...problemResponses(NO_KEY) },
      },
    },
    async (request) => {
      const identity = callingKey(request)
      const [key, organization] = await Promise.all([
        deps.keys.find(identity.organizationId, identity.keyId),
        deps.orgs.organizationById(identity.organizationId),
      ])
      return {
        ...view(key),
        organization: { id: organization.id, name: organization.name, slug: organization.slug },
        rate_limits: effectiveLimits(key, deps.rateLimits),
      }
    },
  )

  app.post(
    '/api/v1/auth/revoke',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'standard' } },
      schema: {
        operationId: 'revokeCurrentKey',
        tags: ['auth'],
        summary: 'Revoke the calling API key',
        description: 'The key used for this call stops working at once. Any scope may revoke itself. Takes no body.',
        response: {
          200: okResponse('The key, now revoked.', ref(ApiKeySchema), { ...API_KEY_EXAMPLE, revoked_at: '2026-11-21T10:06:00.000Z' }),
          ...problemResponses(NO_KEY),
        },
      },
    },
    async (request) => {
      const identity = callingKey(request)
      return view(await deps.keys.revoke(identity.organizationId, identity.keyId))
    },
  )
}

const TAGS = ['app-keys']

/** /app/api/orgs/:org/keys: owners and admins manage their organization's keys from a signed-in session. */
export function appKeyRoutes(app: App, deps: { keys: ApiKeyService }): void {

  app.get(
    '/app/api/orgs/:org/keys',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appListKeys',
        tags: TAGS,
        summary: 'List API keys',
        description: 'Every key of the organization, revoked and expired ones included; never their secrets.',
        params: OrgParams,
        response: { 200: appResponse('The keys.', DataListSchema(ref(ApiKeySchema))) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      return { data: (await deps.keys.list(organization.id)).map(view) }
    },
  )

  app.post(
    '/app/api/orgs/:org/keys',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appCreateKey',
        tags: TAGS,
        summary: 'Create an API key',
        description:
          'The answer carries the full key in `token`, once; only a hash is kept. `limit_expensive` and `limit_cheap` give the key limits of its own, for bulk imports.',
        params: OrgParams,
        body: CreateKeyBody,
        response: { 201: appResponse('The new key, with its secret.', CreatedKeySchema) },
      },
    },
    async (request, reply) => {
      const { organization, user } = request.membership!
      const body = request.body
      const { key, token } = await deps.keys.create({
        organizationId: organization.id,
        name: body.name.trim(),
        scope: body.scope,
        expiresAt: body.expires_in_days ? new Date(Date.now() + body.expires_in_days * 86_400_000) : null,
        createdBy: user.id,
        ownLimits: { expensive: body.limit_expensive, cheap: body.limit_cheap },
      })
      return reply.code(201).send({ ...view(key), token })
    },
  )

  app.delete(
    '/app/api/orgs/:org/keys/:id',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appRevokeKey',
        tags: TAGS,
        summary: 'Revoke an API key',
        description: 'The key stops working at once; revoking it again changes nothing.',
        params: KeyParams,
        response: { 204: appNoContent('Revoked.'), ...appProblemResponses({ not_found: 'no key with this id in the organization' }) },
      },
    },
    async (request, reply) => {
      const { organization } = request.membership!
      await deps.keys.revoke(organization.id, request.params.id)
      return reply.code(204).send()
    },
  )
}

/** The key these endpoints describe; the web app's session has none. */
function callingKey(request: { caller: Caller | null }): KeyCaller {
  const identity = request.caller!
  if (identity.via !== 'key') throw problems.notFound('API key (this call was made with a session)')
  return identity
}
