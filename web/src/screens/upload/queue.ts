/** The upload queue's logic, free of React and of the network: what an answer means, retries, concurrency. */
import { ApiError, apiErrorOf, parseRetryAfter } from '@asset-library/client'
import { retrySeconds, sleep } from '../../api/pacing'
import { messageOf } from '../../api/problem'

export const PUSH_PATH = '/api/v1/assets'

/** What POST /api/v1/assets answered, as the XMLHttpRequest saw it. */
export interface PushAnswer {
  status: number
  body: unknown
  retryAfter: string | null
}

export type Outcome =
  | { kind: 'new'; assetId: string }
  | { kind: 'duplicate'; assetId: string }
  | { kind: 'failed'; detail: string }
  | { kind: 'retry'; seconds: number }

const record = (body: unknown): Record<string, unknown> => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {})

/** Status 0: the request never got an answer (offline, refused), as fetch would have thrown a TypeError. */
const failure = (answer: PushAnswer): unknown =>
  answer.status === 0 ? new TypeError('Network request failed') : apiErrorOf({ method: 'POST', path: PUSH_PATH, ...answer })

/** Every format the server decodes (src/platform/images); the picker and a refused file's message say them. */
export const ACCEPTED_FORMATS = 'JPEG, PNG, WebP, GIF, AVIF, TIFF or SVG'

/** A refused file's message names what would have been accepted, unless the server's already does. */
function failedDetail(answer: PushAnswer): string {
  const error = failure(answer)
  const message = messageOf(error)
  const refusedFormat = error instanceof ApiError && (error.code === 'not_an_image' || error.code === 'unsupported_image_format')
  return refusedFormat && !message.includes('JPEG') ? `${message} Accepted formats: ${ACCEPTED_FORMATS}.` : message
}

/** 201 is a new asset, 200 with `duplicate` an existing one, 429 waits and tries again, anything else failed. */
export function outcomeOf(answer: PushAnswer): Outcome {
  const body = record(answer.body)
  if ((answer.status === 200 || answer.status === 201) && typeof body.asset_id === 'string') {
    return body.duplicate === true ? { kind: 'duplicate', assetId: body.asset_id } : { kind: 'new', assetId: body.asset_id }
  }
  if (answer.status === 429) return { kind: 'retry', seconds: retrySeconds(parseRetryAfter(answer.retryAfter)) }
  return { kind: 'failed', detail: failedDetail(answer) }
}

export type Final = Exclude<Outcome, { kind: 'retry' }> | { kind: 'cancelled' }

/**
 * Sends until the answer is final: after a 429 it counts down the Retry-After seconds (telling `onWait`
 * each second, so the row can say "Waiting 12s") and sends again, at most `maxRetries` times. Once
 * `signal` aborts (Cancel), nothing more is sent and the outcome is `cancelled`.
 */
export async function pushUntilFinal(
  send: () => Promise<PushAnswer>,
  onWait: (seconds: number) => void,
  options: { wait?: (ms: number, signal?: AbortSignal) => Promise<void>; maxRetries?: number; signal?: AbortSignal } = {},
): Promise<Final> {
  const { signal, wait = sleep, maxRetries = 10 } = options
  const cancelled: Final = { kind: 'cancelled' }
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) return cancelled
    const answer = await send()
    if (signal?.aborted) return cancelled
    const outcome = outcomeOf(answer)
    if (outcome.kind !== 'retry') return outcome
    if (attempt >= maxRetries) return { kind: 'failed', detail: 'The rate limit kept refusing this file. Try again in a minute.' }
    for (let left = outcome.seconds; left > 0; left--) {
      if (signal?.aborted) return cancelled
      onWait(left)
      await wait(1000, signal)
    }
  }
}

/** A title from a file name: without its extension, as the issue asks. */
export function titleOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(0, dot) : base
}

/** A title from an image URL: its last path segment without the extension, or the host. */
export function titleOfUrl(url: string): string {
  try {
    const parsed = new URL(url)
    const last = decodeURIComponent(parsed.pathname.split('/').filter(Boolean).pop() ?? '')
    return last ? titleOf(last) : parsed.hostname
  } catch {
    return url
  }
}

/** Tags typed as "launch, Brand ,q3": trimmed, without empties and repeats (case-insensitive). */
export function parseTags(text: string): string[] {
  const seen = new Set<string>()
  const tags: string[] = []
  for (const raw of text.split(',')) {
    const tag = raw.trim()
    if (tag && !seen.has(tag.toLowerCase())) {
      seen.add(tag.toLowerCase())
      tags.push(tag)
    }
  }
  return tags
}

/** Batch metadata as the push wants it. */
export interface BatchMetadata {
  asset_type: string
  client: string
  product: string
  tags: string
  created_by_ai: boolean
  collection_name: string
}

/** The push's fields for one item: empty ones left out, tags repeated. */
export function pushFields(meta: BatchMetadata, title: string): Array<[string, string]> {
  const fields: Array<[string, string]> = []
  if (title.trim()) fields.push(['title', title.trim()])
  for (const key of ['asset_type', 'client', 'product', 'collection_name'] as const) {
    if (meta[key].trim()) fields.push([key, meta[key].trim()])
  }
  for (const tag of parseTags(meta.tags)) fields.push(['tag_names', tag])
  fields.push(['created_by_ai', String(meta.created_by_ai)])
  return fields
}

/** The JSON body of a URL import. */
export function importBody(meta: BatchMetadata, imageUrl: string, title: string): Record<string, unknown> {
  const body: Record<string, unknown> = { image_url: imageUrl }
  for (const [key, value] of pushFields(meta, title)) {
    if (key === 'tag_names') body.tag_names = [...((body.tag_names as string[] | undefined) ?? []), value]
    else if (key === 'created_by_ai') body.created_by_ai = value === 'true'
    else body[key] = value
  }
  return body
}
