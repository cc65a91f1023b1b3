/**
 * For webhook receivers: `import { verifyWebhook } from 'asset-library/webhooks'`. See docs/webhooks.md.
 * Depends on node:crypto only.
 */
export {
  DEFAULT_TOLERANCE_SECONDS,
  signatureHeader,
  verifyWebhook,
  WebhookVerificationError,
  type HeaderSource,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookVerificationFailure,
} from './modules/webhooks/signature.js'
