import type { GetFileNodesResponse, GetFileResponse, GetImagesResponse, GetMeResponse, PostWebhookRequestBody, WebhookV2 } from '@figma/rest-api-spec'
import { backoffMs, type Backoff } from '../../platform/background/claims.js'
import { SafeFetchError, type SafeFetcher, type SafeFetchRequest, type SafeFetchResponse } from '../../platform/net/safe-fetch.js'
import { FigmaError, type FigmaApi, type FigmaRenderFormat, type FigmaSession, type FigmaSessionStats } from './figma-api.js'

export interface FigmaApiOptions {
  /** The app's SSRF-guarded client: every call to Figma and every image download goes through it. */
  fetcher: SafeFetcher
  /** `https://api.figma.com`, or the tests' fake; no trailing slash. */
  apiUrl: string
  /** One request, or one download, gives up after this (and is retried like a network failure). */
  requestTimeoutMs: number
  /** The most a session waits before retries, in all; past it a call fails `figma_unavailable`. */
  maxRetryWaitMs: number
}

/** Figma renders at most this many nodes per images call here: larger batches time out on Figma's side. */
export const MAX_IDS_PER_IMAGES_CALL = 50
/** Figma refuses longer request URLs; node ids go in the query string, so long lists are split. */
export const MAX_URL_LENGTH = 2_000
/** A whole file's JSON can be hundreds of megabytes. */
const MAX_API_RESPONSE_BYTES = 512 * 1024 * 1024
/** Two images calls at once at most: each makes Figma render up to 50 nodes, and rate limits count them. */
const IMAGES_CALLS_AT_ONCE = 2
/** Backoff after a 5xx, a 429 without Retry-After, or a network failure. */
const RETRY_BACKOFF: Backoff = { baseMs: 1_000, factor: 2, maxMs: 30_000 }

type NotFound = 'figma_file_not_found' | 'figma_bad_response' | 'gone_is_fine'

interface ApiCall {
  method?: SafeFetchRequest['method']
  path: string
  query?: Record<string, string>
  body?: unknown
  /** What Figma's 404 means for this call. */
  notFound: NotFound
}

/**
 * Figma's REST API over the guarded client (see figma-api.ts for the contract). A session is one
 * token and one retry budget; `close()` aborts every session's pending calls and waits.
 */
export function createFigmaApi(options: FigmaApiOptions): FigmaApi {
  const closing = new AbortController()
  return {
    session(token, signal) {
      return createSession(options, token, signal ? AbortSignal.any([signal, closing.signal]) : closing.signal)
    },
    async close() {
      closing.abort(new Error('The Figma client is closed.'))
    },
  }
}

function createSession(options: FigmaApiOptions, token: string, signal: AbortSignal): FigmaSession {
  const stats: FigmaSessionStats = { apiCalls: 0, downloads: 0, retries: 0, waitedMs: 0 }
  const retrying = retrier(options.maxRetryWaitMs, stats, signal)

  async function api<T>(call: ApiCall, isValid: (body: unknown) => boolean): Promise<T> {
    const url = apiUrl(options.apiUrl, call.path, call.query)
    const request: SafeFetchRequest = {
      method: call.method ?? 'GET',
      headers: { 'x-figma-token': token, accept: 'application/json', ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      maxBytes: MAX_API_RESPONSE_BYTES,
    }
    const response = await retrying(() => {
      stats.apiCalls++
      return send(options, url, request, signal)
    })
    if (response.status === 404 && call.notFound === 'gone_is_fine') return undefined as T
    if (response.status < 200 || response.status > 299) throw apiFailure(response, call.notFound, token)
    const body = parseJson(response.body)
    if (body === undefined || !isValid(body)) throw new FigmaError('figma_bad_response', `Figma answered ${call.path} with a body that is not what Figma documents.`)
    return body as T
  }

  async function imagesBatch(fileKey: string, ids: readonly string[], render: { format: FigmaRenderFormat; scale: number }): Promise<GetImagesResponse['images']> {
    const response = await api<GetImagesResponse>(
      { path: `/v1/images/${encodeURIComponent(fileKey)}`, query: { ids: joinIds(ids), format: render.format, scale: String(render.scale) }, notFound: 'figma_file_not_found' },
      (body) => isObject(body) && isObject(body.images),
    )
    if (response.err !== null && response.err !== undefined) throw new FigmaError('figma_bad_response', `Figma could not render the nodes: ${scrub(String(response.err), token)}`)
    return response.images
  }

  return {
    stats,
    me: () => api<GetMeResponse>({ path: '/v1/me', notFound: 'figma_bad_response' }, (body) => isObject(body) && typeof body.id === 'string'),

    file(fileKey, { depth, ids } = {}) {
      const query: Record<string, string> = {}
      if (depth !== undefined) query.depth = String(depth)
      if (ids !== undefined && ids.length > 0) query.ids = joinIds(ids)
      return api<GetFileResponse>({ path: `/v1/files/${encodeURIComponent(fileKey)}`, query, notFound: 'figma_file_not_found' }, isFile)
    },

    async fileNodes(fileKey, ids, { depth } = {}) {
      const path = `/v1/files/${encodeURIComponent(fileKey)}/nodes`
      const extra: Record<string, string> = depth === undefined ? {} : { depth: String(depth) }
      let merged: GetFileNodesResponse | undefined
      for (const batch of idBatches(unique(ids), apiUrl(options.apiUrl, path, { ...extra, ids: '' }).length, Infinity)) {
        const part = await api<GetFileNodesResponse>({ path, query: { ...extra, ids: joinIds(batch) }, notFound: 'figma_file_not_found' }, isFileNodes)
        merged = merged ? { ...merged, nodes: { ...merged.nodes, ...part.nodes } } : part
      }
      if (merged) return merged
      return api<GetFileNodesResponse>({ path, query: { ...extra, ids: '' }, notFound: 'figma_file_not_found' }, isFileNodes)
    },

    async imageUrls(fileKey, ids, render) {
      const wanted = unique(ids)
      const base = apiUrl(options.apiUrl, `/v1/images/${encodeURIComponent(fileKey)}`, { ids: '', format: render.format, scale: String(render.scale) })
      const batches = idBatches(wanted, base.length, MAX_IDS_PER_IMAGES_CALL)
      const found = new Map<string, string | null>()
      await inParallel(batches, IMAGES_CALLS_AT_ONCE, async (batch) => {
        const images = await imagesBatch(fileKey, batch, render)
        for (const id of batch) found.set(id, typeof images[id] === 'string' ? images[id] : null)
      })
      return new Map(wanted.map((id) => [id, found.get(id) ?? null]))
    },

    async download(url, maxBytes) {
      const response = await retrying(() => {
        stats.downloads++
        return send(options, url, { maxBytes }, signal)
      }).catch((error: unknown) => {
        if (error instanceof SafeFetchError && error.kind === 'too_large') throw new FigmaError('image_too_large', `The rendered image is larger than ${maxBytes} bytes.`)
        throw error
      })
      if (response.status >= 200 && response.status <= 299) return response.body
      if ([403, 404, 410].includes(response.status)) throw new FigmaError('render_expired', `The rendered image's URL answered ${response.status}: it has expired.`)
      throw new FigmaError('figma_bad_response', `The rendered image's URL answered HTTP status ${response.status}.`)
    },

    createWebhook: (body: PostWebhookRequestBody) =>
      api<WebhookV2>({ method: 'POST', path: '/v2/webhooks', body, notFound: 'figma_file_not_found' }, (answer) => isObject(answer) && typeof answer.id === 'string'),

    async deleteWebhook(webhookId) {
      await api<unknown>({ method: 'DELETE', path: `/v2/webhooks/${encodeURIComponent(webhookId)}`, notFound: 'gone_is_fine' }, () => true)
    },
  }
}

/**
 * One attempt, answering whatever the status (the caller judges it). A SafeFetchError other than a
 * timeout or an unreachable host is final: `too_large` reaches the caller as is, the rest (a blocked
 * address, too many redirects) is not Figma answering as documented.
 */
async function send(options: FigmaApiOptions, url: string, request: SafeFetchRequest, signal: AbortSignal): Promise<SafeFetchResponse> {
  try {
    return await options.fetcher.fetch(url, { ...request, anyStatus: true, totalTimeoutMs: options.requestTimeoutMs, signal })
  } catch (error) {
    if (signal.aborted) throw signal.reason
    if (!(error instanceof SafeFetchError)) throw error
    if (error.kind === 'timeout' || error.kind === 'unreachable') throw new Retryable(undefined, error.message)
    if (error.kind === 'too_large') throw error
    throw new FigmaError('figma_bad_response', `The request to Figma failed: ${error.message}`)
  }
}

/** A failed attempt worth another: after `waitMs` when the server said (Retry-After), else after a backoff. */
class Retryable extends Error {
  constructor(
    readonly waitMs: number | undefined,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Runs attempts until one gets an answer that is not a 429 or a 5xx. The session's budget is shared by
 * all its calls (several may wait at once): each wait is booked before it starts. A backoff is cut to
 * what is left of the budget; a Retry-After longer than what is left fails at once, since retrying
 * sooner than Figma asked would only be refused again.
 */
function retrier(maxWaitMs: number, stats: FigmaSessionStats, signal: AbortSignal) {
  return async function retrying(attempt: () => Promise<SafeFetchResponse>): Promise<SafeFetchResponse> {
    for (let failures = 1; ; failures++) {
      let reason: Retryable
      try {
        const response = await attempt()
        if (response.status !== 429 && response.status < 500) return response
        reason = new Retryable(response.status === 429 ? retryAfterMs(response.headers['retry-after']) : undefined, `Figma answered HTTP status ${response.status}`)
      } catch (error) {
        if (!(error instanceof Retryable)) throw error
        reason = error
      }
      const left = maxWaitMs - stats.waitedMs
      const waitMs = reason.waitMs ?? Math.min(left, backoffMs(failures, RETRY_BACKOFF))
      if (left <= 0 || waitMs > left) {
        const asked = reason.waitMs === undefined ? '' : ` (it asked to wait ${Math.ceil(reason.waitMs / 1000)} s)`
        throw new FigmaError('figma_unavailable', `${reason.message}${asked}, past the ${Math.round(maxWaitMs / 1000)} s allowed for waiting on Figma.`)
      }
      stats.retries++
      stats.waitedMs += waitMs
      await sleep(waitMs, signal)
    }
  }
}

/** `Retry-After` in seconds (Figma's form) or as an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined || value.trim() === '') return undefined
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

function apiFailure(response: SafeFetchResponse, notFound: NotFound, token: string): FigmaError {
  const said = figmaMessage(response.body, token)
  const detail = said ? `: ${said}` : ''
  if (response.status === 401 || response.status === 403) {
    return new FigmaError('figma_token_invalid', `Figma refused the token (HTTP ${response.status})${detail}. It may have expired, been revoked, or lack the file's access.`)
  }
  if (response.status === 404 && notFound === 'figma_file_not_found') return new FigmaError('figma_file_not_found', `Figma has no file by that key that this token can open${detail}.`)
  return new FigmaError('figma_bad_response', `Figma answered HTTP status ${response.status}${detail}.`)
}

/** Figma's error text (`{status, err}` or `{error, message}`), short and without the token. */
function figmaMessage(body: Buffer, token: string): string | undefined {
  const parsed = parseJson(body)
  if (!isObject(parsed)) return undefined
  const text = typeof parsed.err === 'string' ? parsed.err : typeof parsed.message === 'string' ? parsed.message : undefined
  return text === undefined ? undefined : scrub(text, token).slice(0, 200)
}

function scrub(text: string, token: string): string {
  return token === '' ? text : text.replaceAll(token, '[token]')
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isFile(body: unknown): boolean {
  return isObject(body) && isObject(body.document) && typeof body.version === 'string' && typeof body.name === 'string'
}

function isFileNodes(body: unknown): boolean {
  return isObject(body) && isObject(body.nodes) && typeof body.version === 'string'
}

function apiUrl(base: string, path: string, query: Record<string, string> = {}): string {
  const search = Object.entries(query)
    // ids are encoded one by one and joined with literal commas, as Figma's documentation writes them.
    .map(([name, value]) => `${name}=${name === 'ids' ? value : encodeURIComponent(value)}`)
    .join('&')
  return `${base}${path}${search ? `?${search}` : ''}`
}

function joinIds(ids: readonly string[]): string {
  return ids.map(encodeURIComponent).join(',')
}

/**
 * Splits ids into runs of at most `maxIds` whose URL stays within MAX_URL_LENGTH, given the URL's
 * length with an empty id list. One id too long for any URL still goes alone (Figma will say no).
 */
function idBatches(ids: readonly string[], emptyUrlLength: number, maxIds: number): string[][] {
  const batches: string[][] = []
  let batch: string[] = []
  let length = emptyUrlLength
  for (const id of ids) {
    const encoded = encodeURIComponent(id).length
    if (batch.length > 0 && (batch.length >= maxIds || length + 1 + encoded > MAX_URL_LENGTH)) {
      batches.push(batch)
      batch = []
      length = emptyUrlLength
    }
    length += encoded + (batch.length > 0 ? 1 : 0)
    batch.push(id)
  }
  if (batch.length > 0) batches.push(batch)
  return batches
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)]
}

/** Runs `work` over `items`, at most `limit` at once; the first failure rejects (the rest finish their current item). */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  let failed = false
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!
      try {
        await work(item)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}
