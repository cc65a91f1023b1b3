import type { components } from './generated/v1.js'

/** Every `code` the API answers in a problem: the catalogue of docs/api-conventions.md, from openapi/v1.json. */
export type ProblemCode = components['schemas']['Problem']['code']
export type Problem = components['schemas']['Problem']
export type FieldProblem = components['schemas']['FieldProblem']

/**
 * The server answered with an error status. `code` is the problem's code, safe to branch on; it is
 * undefined only when something other than the API answered (a proxy's HTML 502, say).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  readonly status: number
  readonly code: ProblemCode | undefined
  readonly detail: string | undefined
  /** The fields at fault, for a 400 `validation_failed`: a JSON Pointer into the body, or `/query/<name>`. */
  readonly fieldProblems: FieldProblem[]
  /** Seconds the server asked to wait (`Retry-After`), on a 429 and some 503s. */
  readonly retryAfter: number | undefined
  readonly requestId: string | undefined
  readonly method: string
  readonly path: string
  /** The whole problem body as the server sent it, when it was one. */
  readonly problem: Problem | undefined

  constructor(init: {
    status: number
    method: string
    path: string
    problem: Problem | undefined
    retryAfter: number | undefined
    requestId: string | undefined
  }) {
    const { status, problem } = init
    super(`${init.method} ${init.path}: ${status}${problem ? ` ${problem.code}: ${problem.detail ?? problem.title}` : ''}`)
    this.status = status
    this.code = problem?.code
    this.detail = problem?.detail ?? problem?.title
    this.fieldProblems = problem?.errors ?? []
    this.retryAfter = init.retryAfter
    this.requestId = init.requestId
    this.method = init.method
    this.path = init.path
    this.problem = problem
  }
}

/** What an answer with an error status carried, as fetch or an XMLHttpRequest saw it. */
export interface ErrorAnswer {
  method: string
  path: string
  status: number
  /** The parsed body: a problem when the API answered, anything else (a proxy's HTML page, say) otherwise. */
  body: unknown
  /** The `Retry-After` header as sent. */
  retryAfter: string | null
  requestId?: string | null | undefined
}

/** The ApiError of an answer: its problem (when the body is one), Retry-After in seconds and request id. */
export function apiErrorOf(answer: ErrorAnswer): ApiError {
  return new ApiError({
    status: answer.status,
    method: answer.method,
    path: answer.path,
    problem: isProblem(answer.body) ? answer.body : undefined,
    retryAfter: parseRetryAfter(answer.retryAfter),
    requestId: answer.requestId ?? undefined,
  })
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string'
}

/** `Retry-After` in seconds: delay-seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

/**
 * No answer came: the connection was refused, dropped or reset, the name did not resolve, or the
 * client's `timeoutMs` passed. `cause` is what fetch threw. The request may or may not have been done.
 */
export class NetworkError extends Error {
  override readonly name = 'NetworkError'
  readonly timedOut: boolean

  constructor(
    readonly method: string,
    readonly path: string,
    cause: unknown,
    timedOut = false,
  ) {
    super(`${method} ${path}: ${timedOut ? 'no answer in time' : `no answer (${describe(cause)})`}`, { cause })
    this.timedOut = timedOut
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}
