/**
 * `@asset-library/client`: a typed client for the Asset Library API (`/api/v1`), for Node 20+ and
 * browsers. Node-only helpers (pushing a file by its path) are in `@asset-library/client/node`.
 */
export { createClient, type AssetLibraryClient } from './client.js'
export { ApiError, NetworkError, type FieldProblem, type Problem, type ProblemCode } from './errors.js'
export { MAX_IMAGE_BYTES, type PushSource } from './push.js'
export type { Bucket, ClientOptions, RateLimitState, RequestOptions, ResponseInfo, RetryInfo, RetryReason } from './transport.js'
export type * from './types.js'
export {
  DEFAULT_TOLERANCE_SECONDS,
  verifyWebhook,
  WebhookVerificationError,
  type HeaderSource,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookVerificationFailure,
} from './webhooks.js'
export type { components, operations, paths } from './generated/v1.js'
