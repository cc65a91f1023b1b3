import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler, RouteOptions } from 'fastify'
import type { RateLimitConfig } from '../../config.js'
import type { Scope } from '../db/schema.js'
import { AppError, problems } from './errors.js'
import { applyLimit, type RateLimiter, type WindowCount } from './rate-limit.js'

export type Bucket = 'expensive' | 'cheap' | 'standard'

/**
 * Who a v1 request acts for, as a handler may see it: an API key (never its secret or hash), or a
 * signed-in user of the web app acting in one of their organizations.
 */
export interface ApiKeyIdentity {
  via: 'key' | 'session'
  /** The key's id, or `user:<id>` for a session, so a user's sessions share their rate-limit buckets. */
  id: string
  organizationId: string
  name: string
  prefix: string
  scope: Scope
  expiresAt: Date | null
  /** For a session: whether the user is an owner or admin of the organization. */
  manager?: boolean
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scope the route needs; defaults to assets:read for GET and assets:write otherwise. */
    scope?: Scope
    /** Rate-limit bucket; defaults to cheap for GET and standard otherwise. */
    bucket?: Bucket
    /** A web-app session needs an owner or admin here (a key's scope is all that counts for keys). */
    managersOnly?: boolean
  }
  interface FastifyRequest {
    apiKey: ApiKeyIdentity | null
  }
}

export type MaybePromise<T> = T | Promise<T>

export interface PublicApiOptions {
  /** Synchronous for a cached key, so the common case costs no promise. */
  authenticate(authorization: string | undefined): MaybePromise<ApiKeyIdentity | null>
  /** The web app's session, for a request with no Authorization header; throws when the cookie is stale or a write lacks its CSRF token. */
  session(request: FastifyRequest): Promise<ApiKeyIdentity | null>
  limiter: RateLimiter
  rateLimits: RateLimitConfig
}

/**
 * Guards every route registered inside it, in one hook before the body is read: the key is
 * identified, the request is counted against the key's bucket (or, without a valid key, against the
 * caller's IP so key guessing is slowed too), and only then is an over-limit request, a missing key
 * or a missing scope refused.
 */
export function guardPublicApi(app: FastifyInstance, options: PublicApiOptions): void {
  app.decorateRequest('apiKey', null)
  const counterOf = counterNames()
  // Each route gets its own hook with its bucket and scope worked out once, not on every request.
  app.addHook('onRoute', (route) => {
    const managersOnly = (route.config as { managersOnly?: boolean } | undefined)?.managersOnly === true
    const guard = routeGuard(options, counterOf, routeBucket(route), routeScope(route), managersOnly)
    route.onRequest = [guard, ...(route.onRequest === undefined ? [] : [route.onRequest].flat())]
  })
}

function routeGuard(options: PublicApiOptions, counterOf: CounterNames, bucket: Bucket, scope: Scope, managersOnly: boolean): onRequestHookHandler {
  const { limiter, rateLimits } = options
  // Everything comes in as arguments: a closure made per request (which tsx also names with defineProperty) took a quarter of the guard's time.
  const verdict = (reply: FastifyReply, limit: number, counted: WindowCount | null, identity: ApiKeyIdentity | null, refused?: Error) =>
    applyLimit(reply, limit, counted) ?? refused ?? refusal(identity, scope, managersOnly)
  /** Counts the request in its bucket (anonymous ones per IP), then refuses it if over the limit, or with `refused`. */
  const count = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, refused?: Error) => {
    const identity = request.apiKey
    const limit = identity ? rateLimits[bucket] : rateLimits.anonymous
    const counted = limiter.hit(identity ? counterOf(identity, bucket) : `anonymous:${request.ip}`)
    if (counted instanceof Promise) counted.then((c) => done(verdict(reply, limit, c, identity, refused)), done)
    else done(verdict(reply, limit, counted, identity, refused))
  }
  return (request, reply, done) => {
    const { authorization } = request.headers
    const identity = authorization === undefined ? options.session(request) : options.authenticate(authorization)
    if (identity instanceof Promise) {
      identity.then(
        (found) => {
          request.apiKey = found
          count(request, reply, done)
        },
        // A stale cookie or a missing CSRF token is counted like any anonymous call, so it cannot be repeated freely.
        (error: Error) => count(request, reply, done, error),
      )
    } else {
      request.apiKey = identity
      count(request, reply, done)
    }
  }
}

type CounterNames = (identity: ApiKeyIdentity, bucket: Bucket) => string

/**
 * `<bucket>:<key id>`, made once per identity object (a cached key's lives as long as its cache entry):
 * a name concatenated per request is a new string that the limiter's Map has to hash again.
 */
function counterNames(): CounterNames {
  const names = new WeakMap<ApiKeyIdentity, Record<Bucket, string>>()
  return (identity, bucket) => {
    let made = names.get(identity)
    if (made === undefined) {
      const { id } = identity
      made = { expensive: `expensive:${id}`, cheap: `cheap:${id}`, standard: `standard:${id}` }
      names.set(identity, made)
    }
    return made[bucket]
  }
}

function refusal(identity: ApiKeyIdentity | null, needed: Scope, managersOnly: boolean): AppError | undefined {
  if (!identity) return problems.invalidApiKey()
  if (needed === 'assets:write' && identity.scope !== 'assets:write') return problems.insufficientScope(needed)
  if (managersOnly && identity.via === 'session' && !identity.manager) return problems.forbidden('role_required', 'Only owners and admins can do this.')
  return undefined
}

type RouteDefaults = Pick<RouteOptions, 'method' | 'config'>

function isRead(route: RouteDefaults): boolean {
  const method = String(Array.isArray(route.method) ? route.method[0] : route.method)
  return method === 'GET' || method === 'HEAD'
}

/** The rate-limit bucket of a route: its own `config.bucket`, else cheap for reads and standard for writes. */
export function routeBucket(route: RouteDefaults): Bucket {
  const config = route.config as { bucket?: Bucket } | undefined
  return config?.bucket ?? (isRead(route) ? 'cheap' : 'standard')
}

/** The scope a route needs: its own `config.scope`, else assets:read for reads and assets:write for writes. */
export function routeScope(route: RouteDefaults): Scope {
  const config = route.config as { scope?: Scope } | undefined
  return config?.scope ?? (isRead(route) ? 'assets:read' : 'assets:write')
}


