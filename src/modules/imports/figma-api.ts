import type { GetFileNodesResponse, GetFileResponse, GetMeResponse, PostWebhookRequestBody, WebhookV2 } from '@figma/rest-api-spec'

/*
 * What the imports module needs of Figma's REST API, in Figma's own types (@figma/rest-api-spec).
 * figma-client.ts implements it over the SSRF-guarded outbound client; the tests' fake Figma
 * (test/support/fake-figma.ts) serves the same shapes.
 */

/**
 * Why a call to Figma failed, as an import reports it:
 * - `figma_token_invalid`: Figma answered 403 (an expired or revoked token, or one without the scope);
 * - `figma_file_not_found`: Figma answered 404 for the file;
 * - `figma_unavailable`: Figma could not be reached, or answered 429 or 5xx past the session's retry budget;
 * - `figma_bad_response`: Figma answered something else, or a body that is not what it documents;
 * - `render_expired`: a rendered image's URL answered 403, 404 or 410 (Figma's URLs expire): render again;
 * - `image_too_large`: a rendered image over the push's limit.
 */
export type FigmaFailure = 'figma_token_invalid' | 'figma_file_not_found' | 'figma_unavailable' | 'figma_bad_response' | 'render_expired' | 'image_too_large'

export class FigmaError extends Error {
  constructor(
    readonly failure: FigmaFailure,
    message: string,
  ) {
    super(message)
    this.name = 'FigmaError'
  }
}

export type FigmaRenderFormat = 'png' | 'svg' | 'jpg'

/** What one session has done: for the import's log and the benchmark. */
export interface FigmaSessionStats {
  /** Requests to api.figma.com, retries included. */
  apiCalls: number
  /** Downloads of rendered images, retries included. */
  downloads: number
  /** Requests answered 429 or 5xx (or not at all) and tried again. */
  retries: number
  /** Time spent waiting before retries. */
  waitedMs: number
}

/**
 * Calls to Figma with one token. Each retries a 429 (after its `Retry-After`) or a 5xx or a network
 * failure (with backoff), until the session has waited `FIGMA_MAX_RETRY_WAIT_MS` in all; then it
 * throws `figma_unavailable`. Every failure is a FigmaError. Aborting `signal` rejects with its reason.
 */
export interface FigmaSession {
  /** `GET /v1/me`: whose token it is. */
  me(): Promise<GetMeResponse>
  /** `GET /v1/files/:key`, the whole document unless `depth` is given (`ids` narrows it to those subtrees). */
  file(fileKey: string, options?: { depth?: number; ids?: readonly string[] }): Promise<GetFileResponse>
  /** `GET /v1/files/:key/nodes?ids=`: the subtrees of `ids`, in batches within Figma's URL length; a missing node is null. */
  fileNodes(fileKey: string, ids: readonly string[], options?: { depth?: number }): Promise<GetFileNodesResponse>
  /**
   * `GET /v1/images/:key?ids=&format=&scale=`, in batches within Figma's limits: each node's rendered
   * image URL, or null when Figma could not render it. Every id asked for is in the map.
   */
  imageUrls(fileKey: string, ids: readonly string[], render: { format: FigmaRenderFormat; scale: number }): Promise<Map<string, string | null>>
  /** Downloads a rendered image (no token is sent with it); at most `maxBytes`, else `image_too_large`. */
  download(url: string, maxBytes: number): Promise<Buffer>
  /** `POST /v2/webhooks`. */
  createWebhook(body: PostWebhookRequestBody): Promise<WebhookV2>
  /** `DELETE /v2/webhooks/:id`; one that is gone already (404) is no error. */
  deleteWebhook(webhookId: string): Promise<void>
  readonly stats: FigmaSessionStats
}

export interface FigmaApi {
  session(token: string, signal?: AbortSignal): FigmaSession
  close(): Promise<void>
}
