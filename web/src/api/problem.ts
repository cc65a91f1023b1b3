import { retrySeconds } from './pacing'
import type { components } from './app.gen'

/** An error code of the server's catalogue (both documents list the same), so a misspelt one does not compile. */
export type ProblemCode = components['schemas']['Problem']['code']

/** An RFC 9457 problem the API answered, thrown so TanStack Query and the toasts can show its `detail`. */
export class ApiError extends Error {
  readonly status: number
  /** `unknown` when the answer carried no code (not one of ours: a proxy's, say). */
  readonly code: ProblemCode | 'unknown'
  readonly detail: string
  readonly errors: Array<{ pointer: string; detail: string }>
  /** A 429's `Retry-After`, as sent. */
  readonly retryAfter: string | null

  constructor(status: number, body: unknown, retryAfter: string | null = null) {
    const problem = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
    const detail = typeof problem.detail === 'string' ? problem.detail : `The server answered ${status}.`
    super(detail)
    this.status = status
    this.code = typeof problem.code === 'string' ? (problem.code as ProblemCode) : 'unknown'
    this.detail = detail
    this.errors = Array.isArray(problem.errors) ? (problem.errors as ApiError['errors']) : []
    this.retryAfter = retryAfter
  }
}

/** What to tell a person about any failure: the problem's detail, or the network's message. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.errors.map((e) => `${e.pointer.split('/').pop()}: ${e.detail}`)
    return fields.length > 0 ? `${error.detail} ${fields.join('; ')}` : error.detail
  }
  if (error instanceof TypeError) return 'The server cannot be reached. Check your connection.'
  return error instanceof Error ? error.message : String(error)
}

/** The problem's code, when the failure was an answer of ours that carried one. */
export function problemCodeOf(error: unknown): ProblemCode | undefined {
  return error instanceof ApiError && error.code !== 'unknown' ? error.code : undefined
}

/** How many seconds a 429 asks to wait before trying again; undefined for any other failure. */
export function retryWaitOf(error: unknown): number | undefined {
  return error instanceof ApiError && error.status === 429 ? retrySeconds(error.retryAfter) : undefined
}
