import { createHmac } from 'node:crypto'

/*
 * The signature scheme of the spec, byte for byte Stripe's: `X-Service-Signature: t=<unix seconds>,v1=<hex>`
 * where hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret string. During a
 * rotation the header carries one `v1` per secret. Verifying is the receivers' (`asset-library/webhooks`,
 * src/webhooks.ts, on the client package's checks).
 */

/** The lowercase hex HMAC-SHA256 of `<timestamp>.<body>`. */
export function sign(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')
}

/** `t=<timestamp>,v1=<hex>[,v1=<hex>...]`, one `v1` per secret, newest first. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string | Uint8Array): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${sign(secret, timestamp, body)}`)].join(',')
}
