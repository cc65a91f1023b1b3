/**
 * `@asset-library/client`: a typed client for the Asset Library API (`/api/v1`), for Node 20+ and
 * browsers. Node-only helpers (pushing a file by its path) are in `@asset-library/client/node`.
 */
export { createClient, type AssetLibraryClient, type ImportWaitOptions } from './client.js'
export { ApiError, apiErrorOf, NetworkError, parseRetryAfter, type ErrorAnswer, type FieldProblem, type Problem, type ProblemCode } from './errors.js'
export { MAX_IMAGE_BYTES, type PushSource } from './push.js'
export { retryWait, type Bucket, type ClientOptions, type RateLimitState, type RequestOptions, type ResponseInfo, type RetryInfo, type RetryPacing, type RetryReason } from './transport.js'
export type * from './types.js'
export {
  DEFAULT_TOLERANCE_SECONDS,
  verifyWebhook,
  WebhookVerificationError,
  type HeaderSource,
  type KnownWebhookEvent,
  type VerifiedEvent,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookEventKind,
  type WebhookEventOf,
  type WebhookVerificationFailure,
} from './webhooks.js'
export type { components, operations, paths, webhooks } from './generated/v1.js'
