/**
 * Work on many assets within the per-user rate limits: DELETE, trash restores and collection adds are in
 * the `standard` bucket (60 a minute), so deletes and restores go two at a time and wait out a 429's Retry-After, and
 * adds go in chunks of the API's maximum of 100 ids.
 */
import { answerError } from '../../api/client'
import { retrySeconds, sleep } from '../../api/pacing'

export const BULK_CONCURRENCY = 2
export const ADD_CHUNK = 100
const MAX_RETRIES = 5

/** What openapi-fetch answers: the body or the problem, and the response for its headers. */
export interface Answer<T> {
  data?: T
  error?: unknown
  response: Response
}

export interface Pacing {
  wait?: (ms: number) => Promise<void>
}

/** Sends until the answer is not a 429 (waiting as Retry-After asks); throws the problem of a failure. */
export async function sendPaced<T>(send: () => Promise<Answer<T>>, { wait = sleep }: Pacing = {}): Promise<T | undefined> {
  for (let attempt = 0; ; attempt++) {
    const answer = await send()
    if (answer.response.ok) return answer.data
    const error = answerError(answer.response, answer.error)
    if (error.status !== 429 || attempt >= MAX_RETRIES) throw error
    await wait(retrySeconds(error.retryAfter) * 1000)
  }
}

/** Runs `job` over every item, at most `concurrency` at once; settles like Promise.allSettled, in order. */
export async function settleLimited<T, R>(items: readonly T[], concurrency: number, job: (item: T) => Promise<R>): Promise<Array<PromiseSettledResult<R>>> {
  const results: Array<PromiseSettledResult<R>> = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      try {
        results[index] = { status: 'fulfilled', value: await job(items[index]!) }
      } catch (reason) {
        results[index] = { status: 'rejected', reason }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return results
}

/** Sends one request per asset (a delete, a restore), two at a time; the ids it succeeded for and the failures. */
export async function sendEach(ids: readonly string[], send: (id: string) => Promise<Answer<unknown>>, pacing?: Pacing) {
  const results = await settleLimited(ids, BULK_CONCURRENCY, (id) => sendPaced(() => send(id), pacing))
  return {
    done: ids.filter((_, index) => results[index]!.status === 'fulfilled'),
    failures: results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : [])),
  }
}

/** Splits a list into chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size))
  return out
}

/**
 * Adds every id to a collection, a chunk of 100 at a time, one chunk after the other: how many were
 * added and how many were there already (counted per chunk, from what each answer says changed). A
 * failing chunk stops the rest: `failed` counts the ids not sent or refused, `error` says why.
 */
export async function addInChunks(ids: readonly string[], add: (chunk: string[]) => Promise<Answer<{ changed: number }>>, pacing?: Pacing) {
  let added = 0
  let already = 0
  for (const chunk of chunks(ids, ADD_CHUNK)) {
    try {
      const changed = (await sendPaced(() => add(chunk), pacing))?.changed ?? 0
      added += changed
      already += chunk.length - changed
    } catch (error) {
      return { added, already, failed: ids.length - added - already, error }
    }
  }
  return { added, already, failed: 0, error: undefined }
}
