/**
 * A forked autocannon client (see child.ts) like load-generator.ts, for a rotating set of requests: each
 * send takes the next request of the list (shared by all connections, so concurrent connections send
 * different requests), and every response body must contain `expect`, so that a fallback (search in
 * text mode instead of hybrid) or an empty answer cannot pass as a measurement.
 */
import autocannon from 'autocannon'
import { answerParent, forkChild, type Child } from './child.js'
import { summarise, type LoadResult } from './load-generator.js'

export interface RotatingLoadResult extends LoadResult {
  meanMs: number
}

export interface RotatingRequest {
  method: 'GET' | 'POST'
  path: string
  /** JSON, sent with content-type application/json. */
  body?: string
}

export interface RotatingLoadOptions {
  /** Origin, e.g. http://127.0.0.1:3000. */
  url: string
  headers: Record<string, string>
  connections: number
  /** Seconds. */
  duration: number
  requests: RotatingRequest[]
  /** A substring every response body must contain. */
  expect?: string
}

export interface RotatingLoad {
  run(options: RotatingLoadOptions): Promise<RotatingLoadResult>
  stop(): void
}

export async function startRotatingLoad(): Promise<RotatingLoad> {
  const child: Child = await forkChild(new URL(import.meta.url), [CHILD_ROLE])
  return { run: (options) => child.ask<RotatingLoadResult>(options), stop: () => child.stop() }
}

const CHILD_ROLE = '--rotating-load'

async function runLoad(options: RotatingLoadOptions): Promise<RotatingLoadResult> {
  const times: number[] = []
  let next = 0
  const instance = autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.duration,
    requests: [
      {
        setupRequest: (request) => {
          const chosen = options.requests[next++ % options.requests.length]!
          const headers = chosen.body === undefined ? request.headers : { ...request.headers, 'content-type': 'application/json' }
          return { ...request, method: chosen.method, path: chosen.path, headers, ...(chosen.body !== undefined && { body: chosen.body }) }
        },
      },
    ],
    ...(options.expect !== undefined && { verifyBody: (body: string) => body.includes(options.expect!) }),
  })
  instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime))
  const result = await instance
  const mismatches = { [`responses without ${JSON.stringify(options.expect)}`]: result.mismatches }
  return { ...summarise(result, times, mismatches), meanMs: times.reduce((sum, t) => sum + t, 0) / times.length }
}

if (process.argv.includes(CHILD_ROLE)) answerParent(runLoad)
