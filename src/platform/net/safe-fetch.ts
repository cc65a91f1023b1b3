import type { IncomingHttpHeaders } from 'node:http'
import { isIP } from 'node:net'
import type { Agent, Dispatcher } from 'undici'
import { createAddressPolicy } from './address-policy.js'
import { fetchErrors, toSafeFetchError } from './errors.js'
import { guardedConnector, resolveAllowed, systemResolver, type HostResolver } from './guarded-connector.js'
import { loadUndici } from './undici.js'

export { failureClass, SafeFetchError, type SafeFetchErrorKind } from './errors.js'
export type { HostResolver, ResolvedAddress } from './guarded-connector.js'

export interface SafeFetcherOptions {
  /** Hosts, IPs and CIDRs reachable although not public (tests, self-hosters). Empty by default. */
  allowlist?: readonly string[]
  /** DNS lookup plus TCP (and TLS) handshake. Default 5 s. */
  connectTimeoutMs?: number
  /** Defaults for every fetch; each can be overridden per call. */
  totalTimeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
  followRedirects?: boolean
  /** Sent unless the call sets its own user-agent header. */
  userAgent?: string
  /** Replaces the system resolver (tests). */
  resolver?: HostResolver
  /** Extra trusted certificate authorities (PEM), beside Node's bundled ones. */
  ca?: string
}

export interface SafeFetchRequest {
  method?: 'GET' | 'POST' | 'DELETE'
  headers?: Record<string, string>
  /** Buffered, never a stream, so a 307/308 redirect can send it again. */
  body?: string | Buffer
  /** Covers connect, headers and body of every hop together. */
  totalTimeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
  /** When false a 3xx answer fails with `bad_status` (webhooks). */
  followRedirects?: boolean
  /** Resolve with the final answer whatever its status, instead of failing with `bad_status` (webhooks record it). */
  anyStatus?: boolean
  /** Cut a body longer than maxBytes there, instead of failing with `too_large`. */
  truncateBody?: boolean
  /** Aborting it rejects with its reason, unchanged. */
  signal?: AbortSignal
}

export interface SafeFetchResponse {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
  /** The URL that answered, after redirects. */
  url: string
  redirects: number
}

export interface SafeFetcher {
  /** Resolves for a 2xx answer only (any status with `anyStatus`); every failure is a SafeFetchError with a stable `kind`. */
  fetch(url: string | URL, request?: SafeFetchRequest): Promise<SafeFetchResponse>
  /**
   * Checks now what a fetch checks at connect time: the URL, and that its host resolves only to
   * allowed addresses (for a URL stored to be fetched later). Throws a SafeFetchError: `blocked`, or
   * `unreachable` for a name that does not resolve.
   */
  assertAllowed(url: string | URL): Promise<void>
  close(): Promise<void>
}

export const SAFE_FETCH_DEFAULTS = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 10_000,
  maxBytes: 25 * 1024 * 1024,
  maxRedirects: 5,
  followRedirects: true,
  anyStatus: false,
  truncateBody: false,
  userAgent: 'asset-library',
} as const

type Limits = Required<Pick<SafeFetchRequest, 'totalTimeoutMs' | 'maxBytes' | 'maxRedirects' | 'followRedirects' | 'anyStatus' | 'truncateBody'>>

interface Hop {
  url: URL
  method: NonNullable<SafeFetchRequest['method']>
  headers: Record<string, string>
  body: string | Buffer | undefined
}

/**
 * One undici Agent whose every connection goes through the address guard; redirects are followed
 * here rather than by undici so each hop's URL is validated before its connection is guarded.
 * undici's Agent never reads proxy variables, and this never touches the global dispatcher.
 */
export function createSafeFetcher(options: SafeFetcherOptions = {}): SafeFetcher {
  const defaults = withOverrides(SAFE_FETCH_DEFAULTS, options)
  const userAgent = options.userAgent ?? SAFE_FETCH_DEFAULTS.userAgent
  const policy = createAddressPolicy(options.allowlist)
  const connectTimeoutMs = options.connectTimeoutMs ?? SAFE_FETCH_DEFAULTS.connectTimeoutMs
  const resolver = options.resolver ?? systemResolver
  let agent: Agent | undefined
  const agentOf = () => (agent ??= new (loadUndici().Agent)({ connect: guardedConnector(policy, resolver, connectTimeoutMs, options.ca) }))

  return {
    async fetch(url, call = {}) {
      const limits = withOverrides(defaults, call)
      const headers = { 'user-agent': userAgent, ...lowerCaseKeys(call.headers ?? {}) }
      const first: Hop = { url: parseTarget(url), method: call.method ?? 'GET', headers, body: call.body }
      const deadline = startDeadline(limits.totalTimeoutMs, call.signal)
      try {
        return await followHops(agentOf(), first, limits, deadline.signal)
      } catch (error) {
        if (call.signal?.aborted) throw call.signal.reason
        throw toSafeFetchError(error, deadline.expired())
      } finally {
        deadline.clear()
      }
    },
    async assertAllowed(url) {
      const host = parseTarget(url).hostname.replace(/^\[(.*)\]$/, '$1')
      if (isIP(host) !== 0) {
        if (!policy.allowsAddress(host)) throw fetchErrors.blocked()
        return
      }
      try {
        await resolveAllowed(policy, resolver, host)
      } catch (error) {
        throw toSafeFetchError(error, false)
      }
    },
    close: async () => agent?.close(),
  }
}

async function followHops(agent: Agent, first: Hop, limits: Limits, signal: AbortSignal): Promise<SafeFetchResponse> {
  let hop = first
  for (let redirects = 0; ; redirects++) {
    const response = await send(agent, hop, limits, signal)
    const location = redirectLocation(response, hop.url)
    if (location === undefined || (!limits.followRedirects && limits.anyStatus)) return readAnswer(response, hop.url, redirects, limits)
    await discard(response.body)
    if (!limits.followRedirects) throw fetchErrors.badStatus(response.statusCode)
    if (redirects >= limits.maxRedirects) throw fetchErrors.tooManyRedirects(limits.maxRedirects)
    hop = nextHop(hop, response.statusCode, parseTarget(location))
  }
}

function send(agent: Agent, hop: Hop, limits: Limits, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  return loadUndici().request(hop.url, {
    dispatcher: agent,
    method: hop.method,
    headers: hop.headers,
    body: hop.body,
    signal,
    // The deadline's abort is what ends a slow answer; these only keep undici's 300 s defaults away.
    headersTimeout: limits.totalTimeoutMs,
    bodyTimeout: limits.totalTimeoutMs,
  })
}

async function readAnswer(response: Dispatcher.ResponseData, url: URL, redirects: number, limits: Limits): Promise<SafeFetchResponse> {
  const { statusCode: status, headers, body } = response
  if ((status < 200 || status > 299) && !limits.anyStatus) {
    await discard(body)
    throw fetchErrors.badStatus(status)
  }
  if (Number(headers['content-length']) > limits.maxBytes && !limits.truncateBody) {
    // Destroying an unread body emits undici's abort error; with no listener it would be an uncaught exception.
    body.on('error', () => undefined)
    body.destroy()
    throw fetchErrors.tooLarge(limits.maxBytes)
  }
  return { status, headers, body: await readCapped(body, limits), url: url.href, redirects }
}

/** Stops reading, and drops the connection, the moment the body passes the cap. */
async function readCapped(body: Dispatcher.ResponseData['body'], { maxBytes, truncateBody }: Limits): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size + chunk.length > maxBytes) {
      body.destroy()
      if (!truncateBody) throw fetchErrors.tooLarge(maxBytes)
      chunks.push(chunk.subarray(0, maxBytes - size))
      return Buffer.concat(chunks, maxBytes)
    }
    size += chunk.length
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size)
}

/** Reads a small unwanted body so the connection can be reused; a larger one just closes it. */
async function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
  await body.dump({ limit: 16 * 1024 }).catch(() => undefined)
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

function redirectLocation(response: Dispatcher.ResponseData, base: URL): string | undefined {
  const location = response.headers.location
  if (!REDIRECT_STATUSES.has(response.statusCode) || typeof location !== 'string') return undefined
  try {
    return new URL(location, base).href
  } catch {
    throw fetchErrors.invalidUrl()
  }
}

/** Browser semantics: 303, and 301/302 after a POST, continue as a GET without the body. */
function nextHop(previous: Hop, status: number, url: URL): Hop {
  const becomesGet = status === 303 || ((status === 301 || status === 302) && previous.method === 'POST')
  const headers = { ...previous.headers }
  if (url.origin !== previous.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name]
  if (!becomesGet) return { ...previous, url, headers }
  for (const name of BODY_HEADERS) delete headers[name]
  return { url, headers, method: 'GET', body: undefined }
}

const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization']
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding']

/** Validates what can be judged from the URL alone; the address is judged at connect time. */
function parseTarget(input: string | URL): URL {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    throw fetchErrors.invalidUrl()
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fetchErrors.schemeNotAllowed()
  if (url.username !== '' || url.password !== '') throw fetchErrors.credentialsNotAllowed()
  return url
}

/** One deadline for the whole fetch, every hop included, so redirects cannot stretch it. */
function startDeadline(ms: number, callerSignal: AbortSignal | undefined) {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(fetchErrors.timeout()), ms)
  const signal = callerSignal ? AbortSignal.any([controller.signal, callerSignal]) : controller.signal
  return {
    signal,
    expired: () => controller.signal.aborted,
    clear: () => clearTimeout(timer),
  }
}

function withOverrides(base: Limits, overrides: Partial<Limits>): Limits {
  return {
    totalTimeoutMs: overrides.totalTimeoutMs ?? base.totalTimeoutMs,
    maxBytes: overrides.maxBytes ?? base.maxBytes,
    maxRedirects: overrides.maxRedirects ?? base.maxRedirects,
    followRedirects: overrides.followRedirects ?? base.followRedirects,
    anyStatus: overrides.anyStatus ?? base.anyStatus,
    truncateBody: overrides.truncateBody ?? base.truncateBody,
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
}
