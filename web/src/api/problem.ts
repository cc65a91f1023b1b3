import { ApiError, type ProblemCode } from '@asset-library/client'
import { retrySeconds } from './pacing'

/** What to tell a person about any failure: the problem's detail, or the network's message. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const detail = error.detail ?? `The server answered ${error.status}.`
    const fields = error.fieldProblems.map((e) => `${e.pointer.split('/').pop()}: ${e.detail}`)
    return fields.length > 0 ? `${detail} ${fields.join('; ')}` : detail
  }
  if (error instanceof TypeError) return 'The server cannot be reached. Check your connection.'
  return error instanceof Error ? error.message : String(error)
}

/** The problem's code, when the failure was an answer of ours that carried one. */
export function problemCodeOf(error: unknown): ProblemCode | undefined {
  return error instanceof ApiError ? error.code : undefined
}

/** How many seconds a 429 asks to wait before trying again; undefined for any other failure. */
export function retryWaitOf(error: unknown): number | undefined {
  return error instanceof ApiError && error.status === 429 ? retrySeconds(error.retryAfter) : undefined
}
