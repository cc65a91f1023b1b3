import { apiErrorOf, ApiError, NetworkError } from './errors.js'
import type { OperationId, OPERATIONS } from './generated/operations.js'

/**
 * The server's rate-limit buckets (docs/api-conventions.md, Rate limits), as openapi/v1.json gives them
 * to each operation: pushes and searches are `expensive`, reads and the hash check `cheap`, every other
 * write `standard`.
 */
export type Bucket = (typeof OPERATIONS)[OperationId]['bucket']

/** What the last answer of a bucket said about its limit (`X-RateLimit-*`). */
export interface RateLimitState {
  bucket: Bucket
  /** Requests allowed per window. */
  limit: number
  /** Requests left in the current window when the answer was sent. */
  remaining: number
  /** When the window resets (milliseconds since the epoch, this machine's clock). */
  resetAt: number
  /** When the answer was received (milliseconds since the epoch). */
  observedAt: number
}

/**
 * `key_in_use`: the server is still doing the first request with this Idempotency-Key (409
 * `idempotency_key_in_use`, after an attempt that timed out here, say); the retry gets its answer.
 */
export type RetryReason = 'rate_limited' | 'server_unavailable' | 'network_error' | 'timeout' | 'key_in_use'

export interface RetryInfo {
  /** The attempt that failed, from 1; the next one is `attempt + 1`. */
  attempt: number
  delayMs: number
  reason: RetryReason
  method: string
  path: string
  /** The failed attempt's status; undefined for a network error or timeout. */
  status: number | undefined
  /** The key every attempt of this call carries (undefined on a GET). */
  idempotencyKey: string | undefined
}

export interface ResponseInfo {
  method: string
  path: string
  status: number
  attempt: number
  bucket: Bucket
  rateLimit: RateLimitState | undefined
  requestId: string | undefined
  /** The server answered a repeated Idempotency-Key with the first answer (`Idempotent-Replayed: true`). */
  replayed: boolean
}

/** How long retries wait: what `retryWait` needs of the client's options. */
export interface RetryPacing {
  /** A 429 or 503 asking to wait longer than this (seconds) is thrown instead of waited for. Default 60. */
  maxRetryAfterSeconds?: number
  /** The backoff's first step; each retry doubles it, and the wait is a random share of it (full jitter). Default 500. */
  retryBaseDelayMs?: number
  /** The backoff's largest step. Default 10,000. */
  retryMaxDelayMs?: number
}

export interface ClientOptions extends RetryPacing {
  /** The service's address, e.g. `https://assets.example.com` (a path prefix is kept). */
  baseUrl: string | URL
  /** An API key, `al_…`. */
  apiKey: string
  /** Defaults to the global fetch. */
  fetch?: typeof fetch
  /** Attempts per call, the first included. Default 3; 1 turns retries off. */
  maxAttempts?: number
  /** Gives up on an attempt with no answer after this long (then retried like a network error). Default: no limit. */
  timeoutMs?: number
  /** Sets a random Idempotency-Key on every POST, PATCH and DELETE that has none, so they can be retried. Default true. */
  autoIdempotencyKeys?: boolean
  /** Sent with every request (e.g. a User-Agent, where the runtime allows it). */
  headers?: Record<string, string>
  /** Called before each retry's wait. */
  onRetry?: (retry: RetryInfo) => void
  /** Called for every answer received, errors included, with its rate-limit state. */
  onResponse?: (response: ResponseInfo) => void
}

export interface RequestOptions {
  signal?: AbortSignal
  /** This call's Idempotency-Key (POST, PATCH, DELETE); every retry of the call sends the same one. */
  idempotencyKey?: string
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

type Body = NonNullable<RequestInit['body']>

/** A request body, made afresh for each attempt (a file is opened again, a form rebuilt). */
export interface RequestBody {
  make: () => Body | Promise<Body>
  contentType: string
}

export interface Call {
  method: Method
  path: string
  bucket: Bucket
  query?: object | undefined
  body?: RequestBody | undefined
  options?: RequestOptions | undefined
}

export const jsonBody = (value: unknown): RequestBody => ({
  make: () => JSON.stringify(value),
  contentType: 'application/json',
})

type Outcome = { response: Response; body: unknown } | { failure: NetworkError }

/** Sends calls with the key, retries what may be retried, and remembers each bucket's limits. */
export class Transport {
  private readonly rateLimits = new Map<Bucket, RateLimitState>()
  private readonly fetch: typeof fetch
  private readonly base: URL

  constructor(private readonly options: ClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis)
    this.base = new URL(options.baseUrl)
    if (!options.apiKey) throw new TypeError('createClient needs an apiKey')
  }

  rateLimit(bucket: Bucket): RateLimitState | undefined {
    return this.rateLimits.get(bucket)
  }

  async request<T>(call: Call): Promise<T> {
    const idempotencyKey = this.idempotencyKeyOf(call)
    const maxAttempts = Math.max(1, this.options.maxAttempts ?? 3)
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(call, idempotencyKey)
      if ('response' in outcome) this.observe(call, outcome.response, attempt)
      if ('response' in outcome && outcome.response.ok) return outcome.body as T
      const error = 'failure' in outcome ? outcome.failure : this.apiError(call, outcome.response, outcome.body)
      const safeToRepeat = call.method === 'GET' || idempotencyKey !== undefined
      const wait = attempt < maxAttempts ? retryWait(error, safeToRepeat, attempt, this.options) : undefined
      if (!wait) throw error
      this.options.onRetry?.({
        attempt,
        delayMs: wait.delayMs,
        reason: wait.reason,
        method: call.method,
        path: call.path,
        status: error instanceof ApiError ? error.status : undefined,
        idempotencyKey,
      })
      await sleep(wait.delayMs, call.options?.signal)
    }
  }

  private idempotencyKeyOf(call: Call): string | undefined {
    if (call.method === 'GET') return undefined
    if (call.options?.idempotencyKey !== undefined) return call.options.idempotencyKey
    return (this.options.autoIdempotencyKeys ?? true) ? randomUuid() : undefined
  }

  private async attempt(call: Call, idempotencyKey: string | undefined): Promise<Outcome> {
    const headers: Record<string, string> = { ...this.options.headers, authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' }
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey
    if (call.body) headers['content-type'] = call.body.contentType
    const body = await call.body?.make()
    const deadline = this.deadline(call.options?.signal)
    try {
      const init: RequestInit = { method: call.method, headers, signal: deadline.signal }
      if (body !== undefined) init.body = body
      const response = await this.fetch(this.url(call), init)
      const parsed = await readBody(response)
      return { response, body: parsed }
    } catch (error) {
      const userSignal = call.options?.signal
      if (userSignal?.aborted) throw userSignal.reason
      return { failure: new NetworkError(call.method, call.path, error, deadline.timedOut()) }
    } finally {
      deadline.clear()
    }
  }

  /** The caller's signal, joined with this client's per-attempt timeout. */
  private deadline(signal: AbortSignal | undefined): { signal: AbortSignal | undefined; timedOut(): boolean; clear(): void } {
    const timeoutMs = this.options.timeoutMs
    if (timeoutMs === undefined) return { signal, timedOut: () => false, clear: () => {} }
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort(new Error(`no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    const forward = () => controller.abort(signal?.reason)
    if (signal?.aborted) forward()
    signal?.addEventListener('abort', forward, { once: true })
    return {
      signal: controller.signal,
      timedOut: () => timedOut,
      clear: () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', forward)
      },
    }
  }

  private url(call: Call): string {
    const url = new URL(this.base)
    url.pathname = `${url.pathname.replace(/\/+$/, '')}${call.path}`
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value))
    }
    return url.toString()
  }

  private observe(call: Call, response: Response, attempt: number): void {
    const rateLimit = readRateLimit(call.bucket, response.headers)
    if (rateLimit) this.rateLimits.set(call.bucket, rateLimit)
    this.options.onResponse?.({
      method: call.method,
      path: call.path,
      status: response.status,
      attempt,
      bucket: call.bucket,
      rateLimit,
      requestId: response.headers.get('x-request-id') ?? undefined,
      replayed: response.headers.get('idempotent-replayed') === 'true',
    })
  }

  private apiError(call: Call, response: Response, body: unknown): ApiError {
    const { headers } = response
    return apiErrorOf({ method: call.method, path: call.path, status: response.status, body, retryAfter: headers.get('retry-after'), requestId: headers.get('x-request-id') })
  }
}

/**
 * Whether and how long to wait before the next attempt of a call that failed with `error` on attempt
 * `attempt` (from 1). A 429 is refused before anything is done, so it is retried after Retry-After
 * whatever the method. A network error or a 502/503/504 may come after the work was done, so only a
 * call that is `safeToRepeat` (a GET, or one with an Idempotency-Key) is retried then. The client's own
 * retries and the web app's reads wait by this.
 */
export function retryWait(error: ApiError | NetworkError, safeToRepeat: boolean, attempt: number, pacing: RetryPacing = {}): { reason: RetryReason; delayMs: number } | undefined {
  const retryAfterCap = pacing.maxRetryAfterSeconds ?? 60
  if (error instanceof ApiError && error.status === 429) {
    if (error.retryAfter !== undefined && error.retryAfter > retryAfterCap) return undefined
    return { reason: 'rate_limited', delayMs: error.retryAfter !== undefined ? error.retryAfter * 1000 : backoff(attempt, pacing) }
  }
  if (!safeToRepeat) return undefined
  if (error instanceof NetworkError) return { reason: error.timedOut ? 'timeout' : 'network_error', delayMs: backoff(attempt, pacing) }
  if (error.status === 409 && error.code === 'idempotency_key_in_use') return { reason: 'key_in_use', delayMs: backoff(attempt, pacing) }
  if (!GATEWAY_STATUSES.has(error.status) || (error.code !== undefined && THIRD_PARTY_FAILURES.has(error.code))) return undefined
  if (error.retryAfter !== undefined && error.retryAfter > retryAfterCap) return undefined
  return { reason: 'server_unavailable', delayMs: error.retryAfter !== undefined ? error.retryAfter * 1000 : backoff(attempt, pacing) }
}

/** Exponential backoff with full jitter: a random wait up to base × 2^(attempt−1), capped. */
function backoff(attempt: number, pacing: RetryPacing): number {
  const ceiling = Math.min(pacing.retryMaxDelayMs ?? 10_000, (pacing.retryBaseDelayMs ?? 500) * 2 ** (attempt - 1))
  return Math.round(Math.random() * ceiling)
}

const GATEWAY_STATUSES = new Set([502, 503, 504])
/** A 502 about the image_url's host, not ours: repeating the push would not change it. */
const THIRD_PARTY_FAILURES = new Set(['image_fetch_blocked', 'image_fetch_failed'])

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  const type = response.headers.get('content-type') ?? ''
  if (!/json/i.test(type)) return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function readRateLimit(bucket: Bucket, headers: Headers): RateLimitState | undefined {
  const limit = headers.get('x-ratelimit-limit')
  const remaining = headers.get('x-ratelimit-remaining')
  const reset = headers.get('x-ratelimit-reset')
  if (limit === null || remaining === null || reset === null) return undefined
  const observedAt = Date.now()
  return { bucket, limit: Number(limit), remaining: Number(remaining), resetAt: observedAt + Number(reset) * 1000, observedAt }
}

/** A version 4 UUID; `crypto.randomUUID` exists only in secure contexts (https) in browsers, getRandomValues everywhere. */
function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort)
      resolve()
    }, ms)
    const abort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', abort, { once: true })
  })
}
