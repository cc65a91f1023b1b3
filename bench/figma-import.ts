/**
 * The Figma import (issue 35): import a file of 1,000 top-level frames from the fake Figma API with
 * 50 ms of latency on every request (API calls and image downloads alike), then sync it after 10
 * frames were edited. The real app runs in this process on the embedded database (or PostgreSQL) with
 * its import job started (the derivations are not: thumbnails would be made after the import anyway, and
 * would blur its figures); the fake runs in a forked process (bench/support/fake-figma-child.ts), so its
 * work is not counted in the app's RSS. It reports, per run: the time from POST to `done`, Figma
 * requests by endpoint (the fake's counters), and the process's peak RSS (sampled, and the kernel's
 * high-water mark). It checks the counts: 1,000 created, then 10 updated and 990 unchanged.
 *
 *   npx tsx bench/figma-import.ts
 *   BENCH_FRAMES=200 npx tsx bench/figma-import.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/figma-import.ts
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FakeFigmaEndpoint } from '../test/support/fake-figma.js'
import { benchKey } from './support/app.js'
import { redactedUrl, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { envNumber } from './support/env.js'
import { startFakeFigmaChild, type FakeFigmaChild } from './support/fake-figma-child.js'
import { mib, sampleRss } from './support/serve-process.js'

const FRAMES = envNumber('BENCH_FRAMES', 1_000)
const EDITED = envNumber('BENCH_EDITED', 10)
const LATENCY_MS = envNumber('BENCH_LATENCY_MS', 50)
const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const FILE_KEY = 'BenchFile0123456789'
const FIGMA_TOKEN = 'figd_bench-token-0123456789'
const POLL_MS = 100

interface ImportRecord {
  id: string
  status: 'queued' | 'running' | 'done' | 'failed'
  run: number
  total: number
  created: number
  updated: number
  unchanged: number
  failed: number
  missing: number
  error: { code: string; detail: string } | null
}

interface Measured {
  name: string
  ms: number
  record: ImportRecord
  calls: Record<FakeFigmaEndpoint, number>
  peakRssSampled: number
}

await main()

async function main(): Promise<void> {
  let fake: FakeFigmaChild | undefined
  let bench: BenchAppOn | undefined
  try {
    fake = await startFakeFigmaChild({ token: FIGMA_TOKEN, fileKey: FILE_KEY, frames: FRAMES, latencyMs: LATENCY_MS })
    bench = await startBenchAppOn('figma', SERVER_URL, {
      ...fake.env,
      RATE_LIMIT_EXPENSIVE: '1000000',
      RATE_LIMIT_CHEAP: '1000000',
      RATE_LIMIT_STANDARD: '1000000',
      PLAN_LIMITS: JSON.stringify({ free: { max_assets: 1_000_000_000, max_bytes: 1e15 } }),
    })
    // The import job alone, as `serve` starts it; the derivations (thumbnails) stay stopped so the figures are the import's.
    await bench.app.services.importJob.start()
    const { token } = await benchKey(bench.app, 'assets:write')
    const api = apiClient(bench.baseUrl, token)
    const rssBefore = process.memoryUsage().rss

    const first = await measure('import', fake, async () => {
      const accepted = await api<{ import_id: string }>('POST', '/api/v1/imports', {
        source: 'figma',
        file_url: `https://www.figma.com/design/${FILE_KEY}/Bench`,
        figma_token: FIGMA_TOKEN,
      })
      return waitDone(api, accepted.import_id, 1)
    })
    const edited = await fake.edit(EDITED)
    const sync = await measure(`sync, ${edited.length} frames edited`, fake, async () => {
      await api('POST', `/api/v1/imports/${first.record.id}/rerun`, { figma_token: FIGMA_TOKEN })
      return waitDone(api, first.record.id, 2)
    })
    report([first, sync], rssBefore, bench)
  } finally {
    fake?.stop()
    await bench?.close()
  }
}

type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>

function apiClient(baseUrl: string, token: string): Api {
  return async <T>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const answer = (await res.json()) as T
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(answer)}`)
    return answer
  }
}

async function waitDone(api: Api, id: string, run: number): Promise<ImportRecord> {
  for (;;) {
    const record = await api<ImportRecord>('GET', `/api/v1/imports/${id}`)
    if (record.run === run && (record.status === 'done' || record.status === 'failed')) return record
    await sleep(POLL_MS)
  }
}

async function measure(name: string, fake: FakeFigmaChild, run: () => Promise<ImportRecord>): Promise<Measured> {
  await fake.reset()
  const rss = sampleRss(process.pid)
  const started = performance.now()
  const record = await run()
  const ms = performance.now() - started
  const peakRssSampled = rss.stop()
  return { name, ms, record, calls: await fake.calls(), peakRssSampled }
}

function report(runs: Measured[], rssBefore: number, bench: BenchAppOn): void {
  const database = SERVER_URL ? `PostgreSQL (${redactedUrl(SERVER_URL)})` : 'embedded PGlite'
  console.log(
    `\nfigma-import.ts: ${FRAMES} frames, ${LATENCY_MS} ms latency per Figma request, IMPORT_CONCURRENCY ${bench.config.figma.importConcurrency}; ${database}; ` +
      `load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`,
  )
  console.log('| run | status | s | created | updated | unchanged | failed | missing | Figma API calls (file / nodes / images) | image downloads | peak RSS MiB (sampled) |')
  console.log('|---|---|---|---|---|---|---|---|---|---|---|')
  for (const { name, ms, record, calls, peakRssSampled } of runs) {
    const api = calls.me + calls.file + calls.nodes + calls.images + calls.webhooks
    console.log(
      `| ${name} | ${record.status}${record.error ? ` (${record.error.code})` : ''} | ${(ms / 1000).toFixed(1)} | ${record.created} | ${record.updated} | ${record.unchanged} | ${record.failed} | ${record.missing} | ` +
        `${api} (${calls.file} / ${calls.nodes} / ${calls.images}) | ${calls.download} | ${mib(peakRssSampled)} |`,
    )
  }
  console.log(`\nRSS before the import ${mib(rssBefore)} MiB; the process's high-water mark (maxRSS) ${mib(process.resourceUsage().maxRSS * 1024)} MiB.`)
  const [first, sync] = runs
  const expected = first!.record.created === FRAMES && sync!.record.updated === EDITED && sync!.record.unchanged === FRAMES - EDITED
  console.log(
    expected
      ? `CHECKED: the import created ${FRAMES} assets, the sync updated ${EDITED} and left ${FRAMES - EDITED} unchanged.`
      : `WRONG COUNTS: expected ${FRAMES} created, then ${EDITED} updated and ${FRAMES - EDITED} unchanged.`,
  )
}
