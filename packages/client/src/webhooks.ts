/*
 * Verifies the service's webhook deliveries (docs/webhooks.md): `X-Service-Signature: t=<unix seconds>,v1=<hex>`,
 * hex being the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret, one `v1` per secret
 * during a rotation. The one implementation of the checks: the server package's `asset-library/webhooks`
 * imports this file (`@asset-library/client/webhooks`) and differs only in computing the MAC synchronously
 * on node:crypto. This one uses Web Crypto so that it runs in browsers, workers and Node alike; Web Crypto
 * is asynchronous, so it returns a Promise. `crypto.subtle.verify` compares the MACs in constant time.
 * No runtime imports: the server loads this file by itself (the event types are the generated document's,
 * erased when compiled).
 */

import type { webhooks } from './generated/v1.js'

export const DEFAULT_TOLERANCE_SECONDS = 300

export type WebhookVerificationFailure = 'missing_signature' | 'malformed_signature' | 'timestamp_out_of_tolerance' | 'signature_mismatch' | 'malformed_body'

/** Why a delivery was not accepted; `code` is stable to branch on, `message` is for logs. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError'

  constructor(
    readonly code: WebhookVerificationFailure,
    message: string,
  ) {
    super(message)
  }
}

/** A verified delivery's envelope. */
export interface WebhookEvent<Data = Record<string, unknown>> {
  /** The delivery id: the same on every retry and replay. Dedupe on it. */
  id: string
  event: string
  organization_id: string
  emitted_at: string
  data: Data
}

/** Every event kind of the API's OpenAPI document (its `webhooks` section). */
export type WebhookEventKind = keyof webhooks

/** The body of a delivery of one event kind, as the document's `webhooks` section types it. */
export type WebhookEventOf<Kind extends WebhookEventKind> = webhooks[Kind]['post']['requestBody']['content']['application/json']

/**
 * A delivery of any event kind this SDK knows, discriminated on `event`: `switch (event.event)` types
 * `data`. A newer server may send kinds this SDK does not know yet; let a `default` branch ignore them.
 */
export type KnownWebhookEvent = { [Kind in WebhookEventKind]: WebhookEventOf<Kind> }[WebhookEventKind]

/** What `verifyWebhook` returns: a KnownWebhookEvent, or with a type argument `Data` a WebhookEvent<Data> (as before the typed events). */
export type VerifiedEvent<Data = never> = [Data] extends [never] ? KnownWebhookEvent : WebhookEvent<Data>

/** A Fetch `Headers`, Node's `request.headers`, or a plain record. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>

export interface VerifyOptions {
  /** How far the timestamp may be from now, in either direction. Default 300. */
  toleranceSeconds?: number
  /** Unix seconds to judge the timestamp against (tests). Default: the clock. */
  now?: number
}

const encoder = new TextEncoder()

/** A delivery whose header is well formed and whose timestamp is within tolerance: what its MAC check needs. */
export interface SignedDelivery {
  /** `<t>.<raw body>`, the bytes the signatures are the HMAC-SHA256 of. */
  signed: Uint8Array<ArrayBuffer>
  /** Each `v1` of the header, as bytes. */
  signatures: Uint8Array<ArrayBuffer>[]
  /** The secrets any one of which may have signed it. */
  secrets: readonly string[]
  body: Uint8Array
}

/**
 * The checks before the MAC, the same in every runtime: the header is there and well formed, and its
 * timestamp is at most `toleranceSeconds` from now (so a captured delivery cannot be replayed later).
 * Throws the WebhookVerificationError of the first that fails. `asset-library/webhooks` (synchronous,
 * on node:crypto) and `verifyWebhook` here (Web Crypto) differ only in the MAC between this and `acceptDelivery`.
 */
export function readSignedDelivery(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: HeaderSource,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): SignedDelivery {
  const header = headerValue(headers, 'x-service-signature')
  if (header === undefined) throw new WebhookVerificationError('missing_signature', 'The X-Service-Signature header is missing.')
  const { timestamp, signatures } = parseSignatureHeader(header)
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', `The signature's timestamp is more than ${tolerance} s from now.`)
  }
  const body = bytesOf(rawBody)
  return { signed: concat(encoder.encode(`${timestamp}.`), body), signatures, secrets: typeof secret === 'string' ? [secret] : secret, body }
}

/** The checks after the MAC: one signature matched (checked in constant time, every pair), and the body is a JSON envelope. */
export function acceptDelivery<Data = Record<string, unknown>>(matched: boolean, body: Uint8Array): WebhookEvent<Data> {
  if (!matched) throw new WebhookVerificationError('signature_mismatch', 'No signature matches the body with this secret.')
  return parseEnvelope<Data>(body)
}

/**
 * Checks a delivery and resolves to its parsed envelope, typed by its `event` (KnownWebhookEvent), or
 * rejects with a WebhookVerificationError. Pass the raw body exactly as received (before any JSON
 * parsing), and one secret or several (while you roll yours). A timestamp more than `toleranceSeconds`
 * in the past or the future is refused. `verifyWebhook<Data>(…)` types `data` as `Data` instead.
 */
export async function verifyWebhook<Data = never>(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: HeaderSource,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<VerifiedEvent<Data>> {
  const { signed, signatures, secrets, body } = readSignedDelivery(rawBody, headers, secret, options)
  // Every pair is checked, so the time taken does not depend on which one matched.
  const checks = await Promise.all(
    secrets.flatMap((candidate) => signatures.map(async (signature) => crypto.subtle.verify('HMAC', await hmacKey(candidate), signature, signed))),
  )
  return acceptDelivery<Data>(checks.includes(true), body) as VerifiedEvent<Data>
}

function hmacKey(secret: string) {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
}

const HEX_SHA256 = /^[0-9a-f]{64}$/

function parseSignatureHeader(header: string): { timestamp: number; signatures: Uint8Array<ArrayBuffer>[] } {
  let timestamp: number | undefined
  const signatures: Uint8Array<ArrayBuffer>[] = []
  for (const part of header.split(',')) {
    const separator = part.indexOf('=')
    const key = part.slice(0, separator)
    const value = part.slice(separator + 1)
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    else if (key === 'v1' && HEX_SHA256.test(value)) signatures.push(hexBytes(value))
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError('malformed_signature', 'X-Service-Signature must look like t=<unix seconds>,v1=<64 hex digits>.')
  }
  return { timestamp, signatures }
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length: hex.length / 2 }, (_, index) => parseInt(hex.slice(index * 2, index * 2 + 2), 16))
}

function bytesOf(body: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body)
  return body instanceof Uint8Array ? body : new Uint8Array(body)
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(head.byteLength + tail.byteLength)
  joined.set(head)
  joined.set(tail, head.byteLength)
  return joined
}

function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined
  const record = headers as Record<string, string | string[] | undefined>
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return Array.isArray(value) ? value.join(',') : value
}

function parseEnvelope<Data>(body: Uint8Array): WebhookEvent<Data> {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as WebhookEvent<Data>
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The body is not JSON.')
  }
}
