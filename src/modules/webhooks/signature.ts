import { createHmac, timingSafeEqual } from 'node:crypto'

/*
 * The signature scheme of the spec, byte for byte Stripe's: `X-Service-Signature: t=<unix seconds>,v1=<hex>`
 * where hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret string. During a
 * rotation the header carries one `v1` per secret. This file has no dependency but node:crypto, because
 * receivers import it (the package export `asset-library/webhooks`).
 */

export const DEFAULT_TOLERANCE_SECONDS = 300

/** The lowercase hex HMAC-SHA256 of `<timestamp>.<body>`. */
export function sign(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')
}

/** `t=<timestamp>,v1=<hex>[,v1=<hex>...]`, one `v1` per secret, newest first. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string | Uint8Array): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${sign(secret, timestamp, body)}`)].join(',')
}

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

/** Node's `request.headers`, a Fetch `Headers`, or a plain record. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>

export interface VerifyOptions {
  /** How far the timestamp may be from now, in either direction. Default 300. */
  toleranceSeconds?: number
  /** Unix seconds to judge the timestamp against (tests). Default: the clock. */
  now?: number
}

/**
 * Checks a delivery and returns its parsed envelope, or throws a WebhookVerificationError. Pass the raw
 * body exactly as received (before any JSON parsing), and one secret or several (while you roll yours).
 * The signature is compared in constant time, and a timestamp more than `toleranceSeconds` in the past
 * or the future is refused, so a captured delivery cannot be replayed later.
 */
export function verifyWebhook<Data = Record<string, unknown>>(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEvent<Data> {
  const header = headerValue(headers, 'x-service-signature')
  if (header === undefined) throw new WebhookVerificationError('missing_signature', 'The X-Service-Signature header is missing.')
  const { timestamp, signatures } = parseSignatureHeader(header)
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', `The signature's timestamp is more than ${tolerance} s from now.`)
  }
  const secrets = typeof secret === 'string' ? [secret] : secret
  const expected = secrets.map((candidate) => Buffer.from(sign(candidate, timestamp, rawBody), 'hex'))
  // Every pair is compared, so the time taken does not depend on which one matched.
  let matched = false
  for (const received of signatures) {
    for (const wanted of expected) matched = timingSafeEqual(received, wanted) || matched
  }
  if (!matched) throw new WebhookVerificationError('signature_mismatch', 'No signature matches the body with this secret.')
  return parseEnvelope<Data>(rawBody)
}

const HEX_SHA256 = /^[0-9a-f]{64}$/

function parseSignatureHeader(header: string): { timestamp: number; signatures: Buffer[] } {
  let timestamp: number | undefined
  const signatures: Buffer[] = []
  for (const part of header.split(',')) {
    const separator = part.indexOf('=')
    const key = part.slice(0, separator)
    const value = part.slice(separator + 1)
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    else if (key === 'v1' && HEX_SHA256.test(value)) signatures.push(Buffer.from(value, 'hex'))
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError('malformed_signature', 'X-Service-Signature must look like t=<unix seconds>,v1=<64 hex digits>.')
  }
  return { timestamp, signatures }
}

function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined
  const record = headers as Record<string, string | string[] | undefined>
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return Array.isArray(value) ? value.join(',') : value
}

function parseEnvelope<Data>(rawBody: string | Uint8Array): WebhookEvent<Data> {
  try {
    const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8')
    return JSON.parse(text) as WebhookEvent<Data>
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The body is not JSON.')
  }
}
