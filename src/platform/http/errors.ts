import { ERROR_CODES, type ErrorCode } from './error-codes.js'

export interface FieldProblem {
  /** JSON Pointer into the body, or `/query/<name>` / `/params/<name>` for the URL. */
  pointer: string
  detail: string
}

/** A name as one segment of a JSON Pointer (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}

/**
 * An error whose code and message are meant for the client, answered as problem+json; its status and
 * title come with the code from the catalogue (error-codes.ts).
 */
export class AppError extends Error {
  /** For a 502: what failed upstream, as a class safe to log (never an address). */
  upstream?: string
  /** Members the problem adds for its code (RFC 9457 extension members), such as the `asset_id` of a conflict. */
  extensions?: Record<string, unknown>
  /** For a 429 not counted by the route's guard: sent as `Retry-After`. */
  retryAfterSeconds?: number
  readonly status: number
  readonly title: string

  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly errors?: FieldProblem[],
  ) {
    super(detail ?? ERROR_CODES[code].title)
    this.status = ERROR_CODES[code].status
    this.title = ERROR_CODES[code].title
  }
}

export const problems = {
  validation: (errors: FieldProblem[], detail = 'The request is not valid.') =>
    new AppError('validation_failed', detail, errors),
  invalidApiKey: () =>
    new AppError('invalid_api_key', 'The API key is missing, malformed, unknown, revoked or expired.'),
  notSignedIn: () => new AppError('not_signed_in', 'Sign in first.'),
  insufficientScope: (needed: string) =>
    new AppError('insufficient_scope', `This endpoint needs an API key with the ${needed} scope.`),
  forbidden: (code: ErrorCode, detail: string) => new AppError(code, detail),
  notFound: (what: string) => new AppError('not_found', `${what} was not found.`),
  conflict: (code: ErrorCode, detail: string) => new AppError(code, detail),
  unprocessable: (code: ErrorCode, detail: string, errors?: FieldProblem[]) => new AppError(code, detail, errors),
  badGateway: (code: ErrorCode, detail: string, upstream: string) => Object.assign(new AppError(code, detail), { upstream }),
  badUrl: () => new AppError('bad_url', 'The URL cannot be read (a bad percent-encoding?).'),
  repeatedHeader: (name: string) => new AppError('bad_request', `The request has more than one ${name} header; send it once.`),
  bodyRefused: () => problems.validation([{ pointer: '/', detail: 'this endpoint takes no body' }]),
}

export interface ProblemBody {
  type: string
  title: string
  status: number
  detail?: string
  code: string
  errors?: FieldProblem[]
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

export function problemType(code: string): string {
  return `urn:asset-library:problem:${code}`
}

export function problemBody(error: AppError): ProblemBody {
  return {
    type: problemType(error.code),
    title: error.title,
    status: error.status,
    ...(error.detail !== undefined && { detail: error.detail }),
    code: error.code,
    ...(error.errors !== undefined && { errors: error.errors }),
    ...error.extensions,
  }
}
