import type { Dispatcher, FormData } from 'undici'
import { loadUndici } from '../net/undici.js'

/** The provider's settings (`EMBEDDING_*`). */
export interface EmbeddingConfig {
  /** OpenAI-compatible base URL including /v1; the service POSTs to `<baseUrl>/embeddings`. */
  baseUrl: string
  model: string
  /** Sent as a bearer token when set. Never logged. */
  apiKey: string | undefined
  /** Expected length of every vector; unset means whatever the provider returns (and no HNSW index). */
  dimensions: number | undefined
  /** Budget of the one provider call a search makes. */
  timeoutMs: number
}

export type EmbeddingErrorKind = 'timeout' | 'unavailable' | 'rejected' | 'bad_response' | 'dimension_mismatch'

/**
 * A provider call that produced no usable vectors. `message` is ours alone, safe for /ready and the
 * database; `providerSaid` is the start of the provider's answer, for the log only (with the API key
 * cut out: some proxies echo the Authorization header back).
 */
export class EmbeddingError extends Error {
  constructor(
    readonly kind: EmbeddingErrorKind,
    message: string,
    readonly providerSaid?: string,
  ) {
    super(message)
    this.name = 'EmbeddingError'
  }
}

export interface EmbeddingProvider {
  readonly model: string
  /** Configured length, when the operator fixed one. */
  readonly dimensions: number | undefined
  /** One request for all `texts`; vectors come back in the same order. */
  embed(texts: string[], options: { timeoutMs: number; signal?: AbortSignal }): Promise<number[][]>
  close(): Promise<void>
}

/** Texts of one background request; the OpenAI API takes up to 2048, local servers far fewer comfortably. */
export const EMBEDDING_BATCH_SIZE = 64

const MAX_RESPONSE_BYTES = 64 * 1024 * 1024
const ERROR_EXCERPT_CHARS = 200

/**
 * The OpenAI embeddings protocol (`POST <base>/embeddings` with `{model, input}`), which OpenAI, Azure
 * OpenAI, Ollama, vLLM, LM Studio and Hugging Face TEI all speak. The operator configures the URL, so it
 * may be on localhost and does not go through the image SSRF guard; it has its own keep-alive Agent.
 */
export function createEmbeddingProvider(config: EmbeddingConfig): EmbeddingProvider {
  const agent = new (loadUndici().Agent)({ connect: { timeout: 5_000 }, keepAliveTimeout: 30_000 })
  const url = `${config.baseUrl}/embeddings`
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'asset-library',
    ...(config.apiKey && { authorization: `Bearer ${config.apiKey}` }),
  }
  return {
    model: config.model,
    dimensions: config.dimensions,
    async embed(texts, options) {
      const body = await postJson(agent, url, { headers, body: JSON.stringify({ model: config.model, input: texts }) }, options, config.apiKey)
      return vectorsOf(body, texts.length, config.dimensions)
    },
    // destroy, not close: a request hanging on a stuck provider must not hold the shutdown.
    close: () => agent.destroy(),
  }
}

/**
 * POSTs `request` to a provider and returns its JSON answer, within `timeoutMs`. Every failure is an
 * EmbeddingError of its kind: no answer in time, unreachable, refused (a 4xx other than 408 and 429),
 * or an answer that is not JSON; `signal` aborting (a stop) is rethrown as its reason. `apiKey` is cut
 * out of whatever the provider said.
 */
export async function postJson(
  agent: Dispatcher,
  url: string,
  request: { headers: Record<string, string>; body: string | FormData },
  { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal | undefined },
  apiKey?: string,
): Promise<unknown> {
  const deadline = AbortSignal.timeout(timeoutMs)
  const abort = signal ? AbortSignal.any([deadline, signal]) : deadline
  try {
    const response = await loadUndici().request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: request.headers,
      body: request.body,
      signal: abort,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    })
    const text = await readText(response.body, response.headers['content-length'])
    if (response.statusCode < 200 || response.statusCode >= 300) throw statusError(response.statusCode, redact(text, apiKey))
    return parseJson(text)
  } catch (error) {
    if (error instanceof EmbeddingError) throw error
    if (deadline.aborted) throw new EmbeddingError('timeout', `the embedding provider did not answer within ${timeoutMs} ms`)
    if (signal?.aborted) throw signal.reason
    throw new EmbeddingError('unavailable', `the embedding provider could not be reached (${errorClass(error)})`)
  }
}

async function readText(body: AsyncIterable<Buffer>, declared: string | string[] | undefined): Promise<string> {
  if (Number(declared) > MAX_RESPONSE_BYTES) throw new EmbeddingError('bad_response', 'the embedding provider answered more than 64 MiB')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > MAX_RESPONSE_BYTES) throw new EmbeddingError('bad_response', 'the embedding provider answered more than 64 MiB')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function statusError(status: number, text: string): EmbeddingError {
  const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, ERROR_EXCERPT_CHARS)
  const kind = status >= 400 && status < 500 && status !== 408 && status !== 429 ? 'rejected' : 'unavailable'
  return new EmbeddingError(kind, `the embedding provider answered ${status}`, excerpt || undefined)
}

function redact(text: string, apiKey: string | undefined): string {
  const withoutKey = apiKey ? text.split(apiKey).join('[redacted]') : text
  return withoutKey.replace(/(bearer\s+)\S+/gi, '$1[redacted]')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new EmbeddingError('bad_response', 'the embedding provider answered something that is not JSON')
  }
}

/** `data[i].embedding`, ordered by `data[i].index` when the provider gives one (OpenAI does). */
function vectorsOf(body: unknown, count: number, dimensions: number | undefined): number[][] {
  const data = (body as { data?: unknown })?.data
  if (!Array.isArray(data) || data.length !== count) {
    throw new EmbeddingError('bad_response', `the embedding provider returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${count} texts`)
  }
  const ordered = data.every((item) => Number.isInteger(item?.index)) ? [...data].sort((a, b) => a.index - b.index) : data
  const vectors = ordered.map((item) => (item as { embedding?: unknown })?.embedding)
  const length = dimensions ?? (Array.isArray(vectors[0]) ? vectors[0].length : 0)
  return vectors.map((vector) => checkedVector(vector, length, 'EMBEDDING_DIMENSIONS'))
}

/**
 * `value` as a vector to store and compare: a non-empty list of finite numbers, not all zero, of
 * `length` numbers when one is expected (`setting` names what fixed it, for the message).
 */
export function checkedVector(value: unknown, length: number | undefined, setting: string): number[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new EmbeddingError('bad_response', 'the embedding provider returned a vector that is not a list of numbers')
  }
  if (value.every((v) => v === 0)) {
    throw new EmbeddingError('bad_response', 'the embedding provider returned a zero vector, which has no direction to compare')
  }
  if (length !== undefined && value.length !== length) {
    throw new EmbeddingError(
      'dimension_mismatch',
      `the embedding provider returned ${value.length} dimensions where ${setting} is ${length}: set ${setting} to the model's size`,
    )
  }
  return value as number[]
}

function errorClass(error: unknown): string {
  const cause = (error as { cause?: { code?: string } })?.cause
  return (error as { code?: string })?.code ?? cause?.code ?? (error as Error)?.name ?? 'error'
}
