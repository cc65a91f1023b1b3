import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify'
import type { Scope } from '../db/schema.js'
import { AppError, problems } from './errors.js'
import { applyLimit, type RateLimitConfig, type RateLimiter, type WindowCount } from './rate-limit.js'

/** The buckets a caller's key (or signed-in user) is counted in on /api/v1. */
export type Bucket = 'expensive' | 'cheap' | 'standard'
/** The buckets counted per IP address, for callers who have no key: sign-in, and file and share links. */
export type IpBucket = 'sign-in' | 'files'
/** Who may call an /app/api route: any signed-in user, a member of `:org` in any role, or an owner or admin of it. */
export type SessionRole = 'user' | 'member' | 'manager'

/**
 * Who may call a route, declared by every route in `config.auth` (the app refuses to start otherwise):
 * - `key`: /api/v1, an API key with `scope` (or the web app's session acting as `assets:write`), counted
 *   in `bucket` (a session against the session limits, `RATE_LIMIT_SESSION_*`); `role: 'manager'` refuses a session of a plain member (a key's scope is all that counts).
 *   `bucket: null` leaves a valid caller uncounted, for a route whose work is counted where it is done
 *   (/mcp: each tool call counts as the v1 endpoint it stands for); a request without one still counts.
 *   A `BucketChoice` picks the bucket per request once the caller is known (a rendition: `cheap` when
 *   stored, `expensive` when it must be made).
 * - `session`: /app/api, the session cookie (with its CSRF token on writes) of a user in `role`.
 * - `signed-url`: /files, anyone holding a link whose signature the handler verifies; counted per IP.
 * - `public`: anyone; `bucket` counts per IP, `sameOrigin` refuses a browser's request from another site.
 */
export type RouteAuth =
  | { kind: 'key'; scope: Scope; bucket: Bucket | BucketChoice | null; role?: 'manager' }
  | { kind: 'session'; role: SessionRole }
  | { kind: 'signed-url'; bucket: 'files' }
  | { kind: 'public'; bucket?: IpBucket; sameOrigin?: true }

/** A bucket picked per request among `among`, by what the request asks for; the caller is known by then. */
export interface BucketChoice {
  among: readonly Bucket[]
  /** Should not throw: a request it cannot judge is counted in a bucket, and its handler answers the problem. */
  choose(request: FastifyRequest, caller: Caller): Promise<Bucket>
}

interface CallerBase {
  organizationId: string
  scope: Scope
  /** Whom the rate limiter counts: the key, or `user:<id>` so all of a user's sessions share their buckets. */
  rateLimitId: string
  /** Limits per window of its own in some buckets (a key made for bulk imports); null or absent: the server's. */
  ownLimits?: OwnLimits
}

export type OwnLimits = Partial<Record<Bucket, number | null>>

/** An API key, as a handler may see it (never its secret or hash). */
export interface KeyCaller extends CallerBase {
  via: 'key'
  keyId: string
  name: string
  prefix: string
  expiresAt: Date | null
}

/** A signed-in user of the web app acting on /api/v1 in one of their organizations, as `assets:write`. */
export interface SessionCaller extends CallerBase {
  via: 'session'
  userId: string
  email: string
  /** The user's name, which the asset's history records (who deleted it, who pushed a version). */
  name: string
  /** Whether the user is an owner or admin of the organization. */
  manager: boolean
}

/** Who a key route's request acts for, once its guard let it in. */
export type Caller = KeyCaller | SessionCaller

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every route: who may call it (see RouteAuth). */
    auth?: RouteAuth
  }
  interface FastifyRequest {
    /** Set on `key` routes. */
    caller: Caller | null
  }
}

type MaybePromise<T> = T | Promise<T>

/** The session checks, which belong to the auth module; the guard calls them through this. */
export interface SessionChecks {
  /**
   * The web app's session on a `key` route with no Authorization header: null without a session cookie
   * (the request is then anonymous); throws when the cookie is stale or a write lacks its CSRF token.
   */
  caller(request: FastifyRequest): Promise<Caller | null>
  /** Checks a `session` route's requirement, leaving what it found on the request; throws the refusal. */
  require(request: FastifyRequest, role: SessionRole): Promise<void>
}

export interface RouteGuardOptions {
  /** The key of an `Authorization` header; synchronous for a cached key, so the common case costs no promise. */
  authenticate(authorization: string | undefined): MaybePromise<Caller | null>
  sessions: SessionChecks
  limiter: RateLimiter
  rateLimits: RateLimitConfig
  /** Where the app is served from: a same-origin route also accepts the host the request was sent to. */
  publicBaseUrl: string
}

/** A route as registered, with its declaration and the file that registered it. */
export interface DeclaredRoute {
  method: string
  url: string
  auth: RouteAuth
  /** Relative to the project, e.g. `src/modules/assets/routes.ts`; a plugin's routes name the plugin and where it is registered. */
  readonly file: string
}

type RouteHooks = Pick<RouteOptions, 'onRequest' | 'preValidation' | 'preHandler'>

/**
 * Every route declares who may call it in `config.auth`, and this is where that is enforced: a route
 * that declares nothing makes the app refuse to start (registration throws, naming it). Each route gets
 * the hooks of its kind, made once when it is registered, not looked up on every request. Returns the
 * routes as registered, for the route map and the tests that walk every route.
 */
export function requireRouteAuth(app: FastifyInstance, options: RouteGuardOptions): readonly DeclaredRoute[] {
  app.decorateRequest('caller', null)
  const guard = new RouteGuard(options)
  const routes: DeclaredRoute[] = []
  app.addHook('onRoute', function (route) {
    const plugin = (this as PluginScope)[PLUGIN_AUTH]
    const auth = route.config?.auth ?? plugin?.auth
    const method = [route.method].flat().join(',')
    if (!auth) throw new Error(`${method} ${route.url} declares no auth (config.auth): every route must say who may call it`)
    route.config = { ...route.config, auth }
    const where = plugin?.file ?? callSite()
    for (const one of [route.method].flat()) routes.push(declared(one, route.url, auth, where))
    const hooks = guard.hooks(auth)
    for (const name of ['onRequest', 'preValidation', 'preHandler'] as const) {
      const hook = hooks[name]
      if (hook) route[name] = [hook, ...(route[name] === undefined ? [] : [route[name]].flat())] as never
    }
  })
  return routes
}

const PLUGIN_AUTH = Symbol('auth of a plugin\u2019s routes')
type PluginScope = FastifyInstance & { [PLUGIN_AUTH]?: { auth: RouteAuth; file: string } }

/**
 * For a third-party plugin (the docs reference, static files) whose routes take no options of ours:
 * `register` registers it in a scope of its own, and every route it adds there is declared `auth`, here,
 * where it is registered.
 */
export async function declarePluginRoutes(
  app: FastifyInstance,
  auth: RouteAuth,
  pluginName: string,
  register: (scope: FastifyInstance) => PromiseLike<unknown>,
): Promise<void> {
  const file = `${pluginName} (registered in ${sourceFile(callSite())})`
  await app.register(async (scope) => {
    scope.decorate(PLUGIN_AUTH, { auth, file })
    await register(scope)
  })
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const THIS_FILE = fileURLToPath(import.meta.url)

function declared(method: string, url: string, auth: RouteAuth, where: string | Error): DeclaredRoute {
  let file = typeof where === 'string' ? where : undefined
  return {
    method,
    url,
    auth,
    // The stack is formatted (and source-mapped) only when asked for: the app itself never asks.
    get file() {
      return (file ??= sourceFile(where as Error))
    },
  }
}

/** The stack here, deep enough to reach from the onRoute hook through Fastify's registration to the routes file. */
function callSite(): Error {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 40
  const here = new Error()
  Error.stackTraceLimit = limit
  return here
}

/** The first file of the project on the stack, outside this one and node_modules. */
function sourceFile(error: Error): string {
  const frames = (error.stack ?? '').split('\n').slice(1)
  for (const frame of frames) {
    const path = /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/.exec(frame.trim())?.[1]
    if (!path) continue
    const file = path.startsWith('file://') ? fileURLToPath(path) : path
    if (file === THIS_FILE || file.includes('/node_modules/') || !file.startsWith(ROOT)) continue
    return relative(ROOT, file)
  }
  return 'unknown'
}

/** The hooks that enforce each kind of declaration, built once per route. */
export class RouteGuard {
  private readonly counterOf = counterNames()
  private readonly publicOrigin: string

  constructor(private readonly options: RouteGuardOptions) {
    this.publicOrigin = new URL(options.publicBaseUrl).origin
  }

  hooks(auth: RouteAuth): RouteHooks {
    switch (auth.kind) {
      case 'key':
        return { onRequest: keyGuard(this.options, this.counterOf, auth) }
      case 'session':
        return { preValidation: this.sessionGuard(auth.role) }
      case 'signed-url':
        return { onRequest: this.ipLimit(auth.bucket) }
      case 'public':
        return {
          ...(auth.bucket && { onRequest: this.ipLimit(auth.bucket) }),
          ...(auth.sameOrigin && { preHandler: this.sameOriginGuard() }),
        }
      default:
        throw new Error(`unknown auth kind in ${JSON.stringify(auth)}`)
    }
  }

  /** After the body is parsed and before it is validated, so a stranger learns nothing from validation errors. */
  private sessionGuard(role: SessionRole): preValidationHookHandler {
    const { sessions } = this.options
    return async (request) => sessions.require(request, role)
  }

  /** Counts every request under `<bucket>:<ip>` and refuses those over the bucket's limit. */
  private ipLimit(bucket: IpBucket): onRequestHookHandler {
    const { limiter, rateLimits } = this.options
    const limit = bucket === 'sign-in' ? rateLimits.signIn : rateLimits.files
    return (request, reply, done) => {
      const count = limiter.hit(`${bucket}:${request.ip}`)
      if (count instanceof Promise) count.then((c) => done(applyLimit(reply, limit, c)), done)
      else done(applyLimit(reply, limit, count))
    }
  }

  /**
   * For requests made before a session exists (signing in, accepting an invitation): a browser's Origin
   * must be the public URL or the host the request was sent to. Checked once the body is valid, just
   * before the handler.
   */
  private sameOriginGuard(): preHandlerHookHandler {
    return (request, _reply, done) => {
      const origin = request.headers.origin
      const allowed = origin === undefined || origin === this.publicOrigin || hostOf(origin) === request.headers.host
      done(allowed ? undefined : new AppError('cross_site_request', 'This request must come from the application itself.'))
    }
  }
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host
  } catch {
    return null
  }
}

/**
 * A key route's guard, in one hook before the body is read: the caller is identified, the request is
 * counted against the caller's bucket (or, without a valid key, against the caller's IP so key guessing
 * is slowed too), and only then is an over-limit request, a missing key or a missing scope refused.
 */
function keyGuard(options: RouteGuardOptions, counterOf: CounterNames, auth: Extract<RouteAuth, { kind: 'key' }>): onRequestHookHandler {
  const { limiter, rateLimits, sessions } = options
  const { scope, bucket } = auth
  const managersOnly = auth.role === 'manager'
  // Everything comes in as arguments: a closure made per request (which tsx also names with defineProperty) took a quarter of the guard's time.
  const verdict = (reply: FastifyReply, limit: number, counted: WindowCount | null, caller: Caller | null, refused?: Error) =>
    applyLimit(reply, limit, counted) ?? refused ?? refusal(caller, scope, managersOnly)
  /** Counts the request in its bucket (anonymous ones per IP), then refuses it if over the limit, or with `refused`. */
  const count = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, refused?: Error) => {
    const caller = request.caller
    if (caller && bucket === null) return done(refused ?? refusal(caller, scope, managersOnly))
    if (caller && typeof bucket === 'object' && refused === undefined) {
      bucket!.choose(request, caller).then((chosen) => countIn(request, reply, done, chosen), done)
      return
    }
    countIn(request, reply, done, bucket as Bucket, refused)
  }
  const countIn = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, bucket: Bucket, refused?: Error) => {
    const caller = request.caller
    const limit = caller ? (caller.ownLimits?.[bucket] ?? (caller.via === 'session' ? rateLimits.session : rateLimits)[bucket]) : rateLimits.anonymous
    const counted = limiter.hit(caller ? counterOf(caller, bucket) : `anonymous:${request.ip}`)
    if (counted instanceof Promise) counted.then((c) => done(verdict(reply, limit, c, caller, refused)), done)
    else done(verdict(reply, limit, counted, caller, refused))
  }
  return (request, reply, done) => {
    const { authorization } = request.headers
    const caller = authorization === undefined ? sessions.caller(request) : options.authenticate(authorization)
    if (caller instanceof Promise) {
      caller.then(
        (found) => {
          request.caller = found
          count(request, reply, done)
        },
        // A stale cookie or a missing CSRF token is counted like any anonymous call, so it cannot be repeated freely.
        (error: Error) => count(request, reply, done, error),
      )
    } else {
      request.caller = caller
      count(request, reply, done)
    }
  }
}

type CounterNames = (caller: Caller, bucket: Bucket) => string

/**
 * `<bucket>:<rate-limit id>`, made once per caller object (a cached key's lives as long as its cache
 * entry): a name concatenated per request is a new string that the limiter's Map has to hash again.
 */
function counterNames(): CounterNames {
  const names = new WeakMap<Caller, Record<Bucket, string>>()
  return (caller, bucket) => {
    let made = names.get(caller)
    if (made === undefined) {
      const id = caller.rateLimitId
      made = { expensive: `expensive:${id}`, cheap: `cheap:${id}`, standard: `standard:${id}` }
      names.set(caller, made)
    }
    return made[bucket]
  }
}

function refusal(caller: Caller | null, needed: Scope, managersOnly: boolean): AppError | undefined {
  if (!caller) return problems.invalidApiKey()
  if (needed === 'assets:write' && caller.scope !== 'assets:write') return problems.insufficientScope(needed)
  if (managersOnly && caller.via === 'session' && !caller.manager) return problems.forbidden('role_required', 'Only owners and admins can do this.')
  return undefined
}
