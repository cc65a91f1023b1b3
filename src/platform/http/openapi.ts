import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify'
import type { Scope } from '../db/schema.js'
import { IDEMPOTENCY_KEY_HEADER, isKeptStatus, MAX_KEY_LENGTH, REPLAYED_HEADER, takesIdempotencyKey } from './idempotency.js'
import { registerApiReference } from './api-reference.js'
import type { Bucket, BucketChoice, RouteAuth } from './route-auth.js'
import { declaresBody } from './request-rules.js'
import { appProblemResponses, COMPONENT, mergeProblemResponses, problemResponses, type ProblemCodes } from './schemas.js'

const DESCRIPTION = `The public REST API of Asset Library: push, read, filter and search design assets, and manage collections.

Authenticate with an API key: \`Authorization: Bearer al_<prefix>_<secret>\`. A key has one scope:
\`assets:read\` (the GET endpoints and search) or \`assets:write\` (everything). Each operation names the
scope it needs (\`x-required-scope\`, and in its \`security\` requirement).

Errors are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`. Each operation lists the
codes it can answer under their status, with when it answers each.

Requests are counted per key in buckets: \`expensive\` (POST /api/v1/assets and POST /api/v1/search, 30 a minute
together), \`cheap\` (every GET, 120 a minute) and \`standard\` (the other writes, 60 a minute). Every response carries
\`x-ratelimit-limit\`, \`x-ratelimit-remaining\` and \`x-ratelimit-reset\`; a 429 also carries \`retry-after\` in seconds.
Back off exponentially.

Every POST, PATCH and DELETE takes an optional \`Idempotency-Key\` header (1 to ${MAX_KEY_LENGTH} characters, a UUID say):
the first answer to a key is kept for 24 hours, per API key, and a retry of the same request (method, path and body)
gets it again with \`Idempotent-Replayed: true\`, without doing anything twice. A 5xx is not kept, so its retry runs.

The version is in the path: \`/api/v1\` is stable, breaking changes ship as \`/api/v2\` beside it.`

/** How often a bucket allows a call, as the description states it; the numbers are the defaults of config.ts. */
const BUCKET_TEXT: Record<Bucket, string> = {
  expensive: '`expensive` (30 a minute per key, or the key\u2019s own `limit_expensive`; shared with the other expensive calls)',
  cheap: '`cheap` (120 a minute per key, or the key\u2019s own `limit_cheap`; shared by every GET and `POST /assets/check`)',
  standard: '`standard` (60 a minute per key, shared by the other writes)',
}

/**
 * What every route answers before its handler runs (the router, request-rules.ts, the body parsers), by
 * whether it takes a body: documented for every operation of both documents from here, not route by route.
 */
function platformProblems(schema: FastifySchema): ProblemCodes {
  const always: ProblemCodes = {
    bad_url: 'a bad percent-encoding in the path or the query',
    bad_request: '`Authorization`, `Content-Type` or `Host` sent twice',
  }
  if (!declaresBody(schema)) return { ...always, validation_failed: 'the request fails its schema; a body is refused (`/`): this endpoint takes none' }
  return {
    ...always,
    validation_failed: true,
    malformed_json: true,
    body_too_large: "a body over this endpoint's limit (1 MiB unless it says otherwise)",
    unsupported_media_type: true,
    unsupported_charset: true,
    unsupported_content_encoding: true,
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Whether the route changes something: a session must then send its CSRF token. */
function isWrite(route: { method: string | string[] }): boolean {
  return [route.method].flat().some((method) => !SAFE_METHODS.has(method))
}

/**
 * What the v1 guard answers before the handler runs, from what the route needs: the `scope` of a key,
 * and for the web app's session (the other way in) whether it must be an owner or admin (`manager`).
 */
function guardProblems(needs: { scope: Scope; manager: boolean }, write: boolean): ProblemCodes {
  return {
    invalid_api_key: true,
    not_signed_in: 'the web app\'s session cookie, sent instead of a key, is for a session that expired or was signed out',
    organization_required: 'the web app\'s session, of a user of several organizations, without `X-Organization`',
    not_found: 'the web app\'s `X-Organization` names an organization the signed-in user is not a member of',
    ...(needs.scope === 'assets:write' && { insufficient_scope: 'an `assets:read` key: this endpoint needs `assets:write`' }),
    ...(needs.manager && { role_required: 'the web app\'s session of a member: only owners and admins may do this (for a key its scope is all that counts)' }),
    ...(write && { csrf_token_invalid: 'the web app\'s session without its `X-CSRF-Token`' }),
    ...(write && { idempotency_key_in_use: true, idempotency_key_reused: true }),
    rate_limited: 'too many requests in this bucket from this key (or web-app user, or without either this address); wait `Retry-After` seconds',
    internal_error: true,
  }
}

type CountedKeyAuth = Extract<RouteAuth, { kind: 'key' }> & { bucket: Bucket | BucketChoice }

/**
 * The declaration of a route the v1 document describes: the key routes counted in a bucket, and only
 * them (not /mcp, which speaks JSON-RPC and is described in docs/mcp.md).
 */
function keyAuth(route: RouteOptions): CountedKeyAuth | undefined {
  const auth = route.config?.auth
  return auth?.kind === 'key' && auth.bucket !== null ? (auth as CountedKeyAuth) : undefined
}

const IDEMPOTENCY_KEY_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_KEY_LENGTH,
  description:
    'Makes a retry safe: the first answer to this key is kept for 24 hours (per API key) and replayed to a retry of the same method, path and body, which then does nothing. Another request with the key is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_key_in_use`. A 5xx, 408, 409 or 429 is not kept. A UUID makes a good key.',
  examples: ['5f2b7c0e-8a51-4d0c-9a4e-1f3f6f0c2b7d'],
}

const REPLAYED_HEADER_SCHEMA = {
  [REPLAYED_HEADER]: { type: 'string', enum: ['true'], description: 'Present on an answer replayed for an `Idempotency-Key`: it was kept from the first request with that key.' },
}

/** The `Idempotency-Key` header parameter, and `Idempotent-Replayed` on every answer that may be replayed. */
function withIdempotencyKey(schema: FastifySchema, responses: Record<number, unknown>): Pick<FastifySchema, 'headers' | 'response'> {
  const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> }
  const response = Object.fromEntries(
    Object.entries(responses).map(([status, answer]) => {
      if (!isKeptStatus(Number(status))) return [status, answer]
      const documented = answer as { headers?: Record<string, unknown> }
      return [status, { ...documented, headers: { ...documented.headers, ...REPLAYED_HEADER_SCHEMA } }]
    }),
  )
  return { headers: { ...headers, properties: { ...headers.properties, [IDEMPOTENCY_KEY_HEADER]: IDEMPOTENCY_KEY_SCHEMA } }, response }
}

type SwaggerOptions = Pick<FastifyDynamicSwaggerOptions, 'openapi' | 'transform'>

const V1_OPTIONS: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Asset Library API',
      version: '1.0.0',
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The Asset Library deployment this document was fetched from.' }],
    // The default for every operation; each also states the scope it needs.
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'al_<prefix>_<secret>',
          description: 'An organization API key, created in the app under Settings → API keys. Scopes: `assets:read`, `assets:write`.',
        },
      },
    },
    tags: [
      { name: 'auth', description: 'The calling API key.' },
      { name: 'assets', description: 'Push, read, filter, update and delete assets.' },
      { name: 'trash', description: 'Deleted assets: list, restore, or purge before their time.' },
      { name: 'duplicates', description: 'Near-duplicates across the library (assets whose pictures are nearly the same): groups to review, and keeping one of them.' },
      { name: 'collections', description: 'Manual and smart collections, their assets, and public links.' },
      { name: 'catalogue', description: 'Tags, asset types, clients, products and colour names: for autocomplete and filters.' },
      { name: 'presets', description: 'The organization\'s rendition presets, which every asset record links in `renditions`.' },
      { name: 'imports', description: 'Design-tool imports (Figma): frames and components become assets, and running an import again syncs them.' },
    ],
  },
  transform: ({ schema, url, route }) => {
    const auth = keyAuth(route)
    if (!auth) return { schema: { ...schema, hide: true }, url }
    const { scope, bucket } = auth
    const guarded = guardProblems({ scope, manager: auth.role === 'manager' }, isWrite(route))
    const needs =
      scope === 'assets:read'
        ? 'Needs an API key with scope `assets:read` or `assets:write`.'
        : 'Needs an API key with scope `assets:write`.'
    // A bucket chosen per request is listed as the first it may be (the dearer): what a client should pace by.
    const buckets = typeof bucket === 'string' ? [bucket] : bucket.among
    const description = [schema.description, `${needs} Rate-limit bucket: ${buckets.map((one) => BUCKET_TEXT[one]).join(', or ')}.`].filter(Boolean).join('\n\n')
    const response = mergeProblemResponses((schema.response ?? {}) as Record<number, unknown>, problemResponses({ ...platformProblems(schema), ...guarded }))
    return {
      schema: {
        ...schema,
        description,
        security: [{ apiKey: [scope] }],
        'x-required-scope': scope,
        'x-rate-limit-bucket': buckets[0],
        ...(takesIdempotencyKey(route) ? withIdempotencyKey(schema, response) : { response }),
      } as typeof schema,
      url,
    }
  },
}

export const APP_PREFIX = '/app/api'

const APP_DESCRIPTION = `The browser application's own endpoints under \`${APP_PREFIX}\`, for its generated types.

**Internal and unstable**: not part of the public contract. They change with the application, in any release
and without notice. Integrations use the public API, \`/api/v1\` (openapi/v1.json).

Sign in with \`POST ${APP_PREFIX}/login\` (or by accepting an invitation): the answer sets the session cookie
\`al_session\` (HttpOnly, SameSite=Lax, 14 days) and carries the session's \`csrf_token\`, which
\`GET ${APP_PREFIX}/session\` also returns. Every POST, PATCH and DELETE made with the session must send it in the
\`X-CSRF-Token\` header, or is refused with 403 \`csrf_token_invalid\`.

Each operation says which session it needs (\`x-session\`): none, any signed-in user, a member of the organization
\`{org}\` (by its slug), or an owner or admin of it. An organization you are not a member of is a 404.

Errors are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`. Only the three sign-in
endpoints (login, invitation lookup and accept) are rate limited (per IP address).`

/** What the app document says an /app/api operation needs (`x-session`). */
type SessionRequirement = 'none' | Extract<RouteAuth, { kind: 'session' }>['role']

const SESSION_TEXT: Record<SessionRequirement, string> = {
  none: 'Needs no session.',
  user: 'Needs a session.',
  member: 'Needs a session of a member of the organization `{org}`, in any role.',
  manager: 'Needs a session of an owner or admin of the organization `{org}`.',
}

/** An /app/api route is called with a session, or by anyone (signing in). */
function sessionRequirement(route: RouteOptions): SessionRequirement {
  const auth = route.config?.auth
  if (auth?.kind === 'session') return auth.role
  if (auth?.kind === 'public') return 'none'
  throw new Error(`${route.url}: an /app/api route needs a session or is public, not ${auth?.kind ?? 'undeclared'}`)
}

/** What the session guard answers before the handler runs, from the route's session requirement. */
function sessionProblems(session: SessionRequirement, write: boolean): ProblemCodes {
  if (session === 'none') return {}
  return {
    not_signed_in: 'no session cookie, or its session expired or was signed out',
    ...(write && { csrf_token_invalid: '`X-CSRF-Token` is missing or is not this session\'s token' }),
    ...(session !== 'user' && { not_found: 'no organization with this slug, or you are not a member of it' }),
    ...(session === 'manager' && { role_required: 'you are a member; only owners and admins may do this' }),
  }
}

const APP_OPTIONS: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Asset Library app API (internal)',
      version: 'unstable',
      description: APP_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The Asset Library deployment the application is served from.' }],
    security: [{ session: [] }],
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'al_session',
          description: `The session cookie set by \`POST ${APP_PREFIX}/login\` and \`POST ${APP_PREFIX}/invitations/accept\`.`,
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-CSRF-Token',
          description: `The session's \`csrf_token\` (from signing in or \`GET ${APP_PREFIX}/session\`), required beside the cookie on every POST, PATCH and DELETE.`,
        },
      },
    },
    tags: [
      { name: 'app-session', description: 'Signing in and out, and who is signed in.' },
      { name: 'app-org', description: 'The organization: its settings, members and invitations.' },
      { name: 'app-keys', description: 'The organization\'s API keys, for owners and admins.' },
      { name: 'app-catalogue', description: 'The asset-type, client and product registries, for owners and admins.' },
      { name: 'app-presets', description: 'Rendition presets: members read them, owners and admins define them.' },
      { name: 'app-webhooks', description: 'Webhook subscriptions, their deliveries and replays, for owners and admins.' },
      { name: 'app-integrations', description: 'Figma: the organization\'s stored token, its Figma webhooks, and file outlines for the Import screen.' },
      { name: 'app-collections', description: 'What the web app shows of collections beyond their public record: their covers, and what the user may do to one.' },
      { name: 'app-assets', description: 'What the web app shows of assets beyond their public record: what the user may do to one.' },
    ],
  },
  transform: ({ schema, url, route }) => {
    if (!url.startsWith(`${APP_PREFIX}/`)) return { schema: { ...schema, hide: true }, url }
    const session = sessionRequirement(route)
    const write = isWrite(route)
    const guarded = sessionProblems(session, write)
    const problems = appProblemResponses({ ...platformProblems(schema), ...guarded, internal_error: true })
    const needs = [SESSION_TEXT[session], session !== 'none' && write && 'Send the session\'s `csrf_token` in `X-CSRF-Token`.']
    return {
      schema: {
        ...schema,
        description: [schema.description, needs.filter(Boolean).join(' ')].filter(Boolean).join('\n\n'),
        security: session === 'none' ? [] : [write ? { session: [], csrfToken: [] } : { session: [] }],
        response: mergeProblemResponses((schema.response ?? {}) as Record<number, unknown>, problems),
        'x-session': session,
      } as typeof schema,
      url,
    }
  },
}

/** Each schema marked with `COMPONENT` written once, under its name, in `components.schemas`, and referenced where used. */
function withNamedComponents<T extends { paths?: unknown; components?: { schemas?: Record<string, unknown> } }>(document: T): T {
  const components = (document.components ??= {})
  const schemas = (components.schemas ??= {})
  const hoist = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(hoist)
    if (!node || typeof node !== 'object') return node
    const { [COMPONENT]: name, ...rest } = node as Record<string, unknown>
    const schema = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, hoist(value)]))
    if (typeof name !== 'string') return schema
    if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) throw new Error(`Two different schemas are named ${name}`)
    schemas[name] = schema
    return { $ref: `#/components/schemas/${name}` }
  }
  document.paths = hoist(document.paths)
  return document
}

/** The document without the component schemas no operation reaches (directly or through other components). */
function withoutUnusedSchemas<T extends { components?: { schemas?: Record<string, unknown> } }>(document: T): T {
  const schemas = document.components?.schemas
  if (!schemas) return document
  const prefix = '#/components/schemas/'
  const used = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit)
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith(prefix)) {
          const name = value.slice(prefix.length)
          if (!used.has(name)) {
            used.add(name)
            visit(schemas[name])
          }
        } else visit(value)
      }
    }
  }
  visit({ ...document, components: { ...document.components, schemas: {} } })
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name]
  return document
}

/** Which document an app builds: the public v1 one (served, and committed as openapi/v1.json) or the app's own. */
export type OpenApiDocument = 'v1' | 'app'

/** The v1 document's `webhooks` section (OpenAPI 3.1), made from the document's component schemas it refers to. */
export type WebhooksSection = (schemas: Record<string, Record<string, unknown>>) => Record<string, unknown>

/** The document with its `webhooks` section, when there is one. */
function withWebhooks<T extends { components?: { schemas?: Record<string, unknown> } }>(document: T, webhooks: WebhooksSection | undefined): T {
  if (!webhooks) return document
  return { ...document, webhooks: webhooks((document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>) }
}

/**
 * Registers the OpenAPI generator for one document; only `'v1'` is served (at /api/v1/openapi.json, with
 * the reference at /api/v1/docs), with `webhooks` as its section of the same name. `'app'` documents the /app/api endpoints instead, for scripts/openapi.ts to
 * write to openapi/app.json: an internal, unstable document for the browser application's types.
 *
 * Both documents are the same on every machine and deployment (they are committed and CI compares them):
 * their server is the relative URL `/`, which OpenAPI resolves against wherever the document was fetched
 * from, so clients and the reference call the deployment that served it.
 */
export async function registerOpenApi(app: FastifyInstance, document: OpenApiDocument = 'v1', webhooks?: WebhooksSection): Promise<void> {
  await app.register(swagger, {
    ...(document === 'v1' ? V1_OPTIONS : APP_OPTIONS),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    // Every shared schema is registered in every app; a document lists those its operations (and webhooks) use.
    transformObject: (documents) =>
      'openapiObject' in documents
        ? withoutUnusedSchemas(withWebhooks(withNamedComponents(documents.openapiObject), document === 'v1' ? webhooks : undefined))
        : documents.swaggerObject,
  })
  if (document !== 'v1') return

  app.get('/api/v1/openapi.json', { config: { auth: { kind: 'public' } }, schema: { hide: true } }, async () => app.swagger())

  registerApiReference(app)
}
