import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import type { Redis } from 'ioredis'
import type { RateLimitConfig } from '../../config.js'
import type { Scope } from '../db/schema.js'
import { AppError, problems } from './errors.js'

export type Bucket = 'expensive' | 'cheap' | 'standard'

/** The part of an API key a request handler may see: never its secret or hash. */
export interface ApiKeyIdentity {
  id: string
  organizationId: string
  name: string
  prefix: string
  scope: Scope
  expiresAt: Date | null
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scope the route needs; defaults to assets:read for GET and assets:write otherwise. */
    scope?: Scope
    /** Rate-limit bucket; defaults to cheap for GET and standard otherwise. */
    bucket?: Bucket
  }
  interface FastifyRequest {
    apiKey: ApiKeyIdentity | null
  }
}

export interface PublicApiOptions {
  authenticate(authorization: string | undefined): Promise<ApiKeyIdentity | null>
  rateLimits: RateLimitConfig
  redis: Redis | undefined
  redisNamespace: string
}

/**
 * Guards every route registered inside it: the key is identified first, then the request is counted
 * against its bucket (or, without a valid key, against the caller's IP so key guessing is slowed too),
 * and only then is a missing key or scope refused. All of it happens before the body is read.
 */
export async function guardPublicApi(app: FastifyInstance, options: PublicApiOptions): Promise<void> {
  app.decorateRequest('apiKey', null)
  app.addHook('onRequest', async (request) => {
    request.apiKey = await options.authenticate(request.headers.authorization)
  })

  const limits = options.rateLimits
  await registerRateLimit(app, {
    windowMs: limits.windowMs,
    keyGenerator: (request) =>
      request.apiKey ? `${bucketOf(request)}:${request.apiKey.id}` : `anonymous:${request.ip}`,
    max: (request) => (request.apiKey ? limits[bucketOf(request)] : limits.anonymous),
    redis: options.redis,
    redisNamespace: options.redisNamespace,
  })

  app.addHook('preParsing', async (request) => {
    if (!request.apiKey) throw problems.invalidApiKey()
    const needed = scopeOf(request)
    if (needed === 'assets:write' && request.apiKey.scope !== 'assets:write') {
      throw problems.insufficientScope(needed)
    }
  })
}

export interface RateLimitOptions {
  windowMs: number
  keyGenerator(request: FastifyRequest): string
  max(request: FastifyRequest): number
  redis: Redis | undefined
  redisNamespace: string
}

/** Counts every route of the scope it is registered in, in Redis when there is one, failing open. */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    timeWindow: options.windowMs,
    keyGenerator: options.keyGenerator,
    max: options.max,
    ...(options.redis && { redis: options.redis, nameSpace: options.redisNamespace }),
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', 'Too Many Requests', `Rate limit exceeded; retry in ${context.after}.`),
  })
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

function bucketOf(request: FastifyRequest): Bucket {
  return routeBucket(request.routeOptions)
}

function scopeOf(request: FastifyRequest): Scope {
  return routeScope(request.routeOptions)
}
