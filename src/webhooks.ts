/**
 * For webhook receivers: `import { verifyWebhook } from 'asset-library/webhooks'`. See docs/webhooks.md.
 * The checks are the client package's (`@asset-library/client/webhooks`, which imports nothing), so this
 * and the client's `verifyWebhook` accept and refuse the same deliveries with the same codes; only the
 * MAC differs: here it is computed synchronously on node:crypto, so `verifyWebhook` returns the event
 * (the client's, on Web Crypto, returns a Promise).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { acceptDelivery, readSignedDelivery, type HeaderSource, type VerifiedEvent, type VerifyOptions } from '@asset-library/client/webhooks'

export { signatureHeader } from './modules/webhooks/signature.js'
export {
  DEFAULT_TOLERANCE_SECONDS,
  WebhookVerificationError,
  type HeaderSource,
  type KnownWebhookEvent,
  type VerifiedEvent,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookEventKind,
  type WebhookEventOf,
  type WebhookVerificationFailure,
} from '@asset-library/client/webhooks'

/**
 * Checks a delivery and returns its parsed envelope, typed by its `event` (KnownWebhookEvent), or throws
 * a WebhookVerificationError. Pass the raw body exactly as received (before any JSON parsing), and one
 * secret or several (while you roll yours). The signature is compared in constant time, and a timestamp
 * more than `toleranceSeconds` in the past or the future is refused, so a captured delivery cannot be
 * replayed later. `verifyWebhook<Data>(…)` types `data` as `Data` instead.
 */
export function verifyWebhook<Data = never>(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): VerifiedEvent<Data> {
  const { signed, signatures, secrets, body } = readSignedDelivery(rawBody, headers, secret, options)
  const expected = secrets.map((candidate) => createHmac('sha256', candidate).update(signed).digest())
  // Every pair is compared, so the time taken does not depend on which one matched.
  let matched = false
  for (const received of signatures) {
    for (const wanted of expected) matched = timingSafeEqual(received, wanted) || matched
  }
  return acceptDelivery<Data>(matched, body) as VerifiedEvent<Data>
}
