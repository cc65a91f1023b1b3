/**
 * A forked autocannon client (see child.ts): one run per message, every response's time kept so the
 * percentiles are exact (autocannon's own histogram has whole milliseconds and no p95).
 */
import autocannon, { type Options, type Result } from 'autocannon'
import { answerParent, forkChild, percentile, type Child } from './child.js'

export type LoadOptions = Pick<Options, 'url' | 'headers' | 'connections' | 'duration'>

export interface LoadResult {
  reqPerSec: number
  completed: number
  p50Ms: number
  p95Ms: number
  p99Ms: number
  /** Empty when every response was a 2xx in time. */
  failures: string
}

export interface LoadGenerator {
  run(options: LoadOptions): Promise<LoadResult>
  stop(): void
}

export async function startLoadGenerator(): Promise<LoadGenerator> {
  const child: Child = await forkChild(new URL(import.meta.url), [CHILD_ROLE])
  return { run: (options) => child.ask<LoadResult>(options), stop: () => child.stop() }
}

const CHILD_ROLE = '--load-generator'

async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const times: number[] = []
  const instance = autocannon(options)
  instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime))
  return summarise(await instance, times)
}

/** Rate, exact percentiles from every response's time, and what went wrong (`extra` counts more kinds of failure). */
export function summarise(result: Result, times: number[], extra: Record<string, number> = {}): LoadResult {
  const failures = Object.entries({ errors: result.errors, timeouts: result.timeouts, 'non-2xx responses': result.non2xx, ...extra })
    .filter(([, count]) => count > 0)
    .map(([what, count]) => `${count} ${what}`)
    .join(', ')
  return {
    reqPerSec: result.requests.average,
    completed: result.requests.total,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    p99Ms: percentile(times, 99),
    failures,
  }
}

if (process.argv.includes(CHILD_ROLE)) answerParent(runLoad)
