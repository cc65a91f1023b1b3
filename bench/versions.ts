/**
 * A new version costs no more than a push (issue 33): POST /api/v1/assets/{id}/versions against
 * POST /api/v1/assets over real HTTP, the real app on the embedded database (or PostgreSQL), in one run,
 * alternating one call of each so both see the same machine. Each call sends a ~450 KiB PNG of noise no
 * call sent before (as base64 JSON), so none takes a duplicate's short cut; the versions go to a few
 * assets in turn. One call in flight at a time, so the SQL statements counted between a request and its
 * answer (every `pg` query of this process: the app's, with no background runner started) are that
 * call's own.
 *
 *   npx tsx bench/versions.ts
 *   BENCH_CALLS=100 npx tsx bench/versions.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/versions.ts
 */
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import sharp from 'sharp'
import { benchKey } from './support/app.js'
import { percentile } from './support/child.js'
import { redactedUrl, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { envNumber } from './support/env.js'

const CALLS = envNumber('BENCH_CALLS', 60)
const WARMUP = envNumber('BENCH_WARMUP', 5)
const TARGETS = 5
const SIDE = 280
const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
/** A version should cost no more than a push: its p50 and p95 within 10% of the push's. */
const TARGET_RATIO = 1.1

/** Counts the statements this process sends, through any `pg` client (the embedded database's included). */
let statements = 0
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements += 1
  return (query as (...a: unknown[]) => unknown).apply(this, args)
} as typeof pg.Client.prototype.query

interface Sample {
  ms: number
  statements: number
}

await main()

async function main(): Promise<void> {
  let bench: BenchAppOn | undefined
  try {
    bench = await startBenchAppOn('versions', SERVER_URL, {
      RATE_LIMIT_EXPENSIVE: '1000000',
      PLAN_LIMITS: JSON.stringify({ free: { max_assets: 1_000_000_000, max_bytes: 1e15 } }),
    })
    const { token } = await benchKey(bench.app, 'assets:write')
    const images = await Promise.all(Array.from({ length: 2 * (CALLS + WARMUP) + TARGETS }, () => noisePng()))
    const base = bench.baseUrl
    const send = async (path: string, image: Buffer): Promise<Sample & { body: { asset_id: string } }> => {
      const body = JSON.stringify({ image_base64: image.toString('base64') })
      const before = statements
      const started = performance.now()
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body })
      const answer = (await res.json()) as { asset_id: string }
      const ms = performance.now() - started
      if (res.status !== 201) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(answer)}`)
      return { ms, statements: statements - before, body: answer }
    }
    const targets: string[] = []
    for (let i = 0; i < TARGETS; i++) targets.push((await send('/api/v1/assets', images.pop()!)).body.asset_id)

    const pushes: Sample[] = []
    const versions: Sample[] = []
    for (let i = 0; i < CALLS + WARMUP; i++) {
      // Alternating which goes first, so neither always follows the other.
      const calls = [() => send('/api/v1/assets', images.pop()!), () => send(`/api/v1/assets/${targets[i % TARGETS]}/versions`, images.pop()!)] as const
      const order = i % 2 === 0 ? [0, 1] : [1, 0]
      const samples: Sample[] = []
      for (const which of order) samples[which] = await calls[which]!()
      if (i < WARMUP) continue
      pushes.push(samples[0]!)
      versions.push(samples[1]!)
    }
    report(pushes, versions)
  } finally {
    await bench?.close()
  }
}

function report(pushes: Sample[], versions: Sample[]): void {
  const database = SERVER_URL ? `PostgreSQL (${redactedUrl(SERVER_URL)})` : 'embedded PGlite'
  const stats = (samples: Sample[]) => ({
    p50: percentile(samples.map((s) => s.ms), 50),
    p95: percentile(samples.map((s) => s.ms), 95),
    statements: percentile(samples.map((s) => s.statements), 50),
    maxStatements: Math.max(...samples.map((s) => s.statements)),
  })
  const push = stats(pushes)
  const version = stats(versions)
  const ratio50 = version.p50 / push.p50
  const ratio95 = version.p95 / push.p95
  console.log(`\nversions.ts: ${CALLS} pushes and ${CALLS} version uploads alternating, one in flight, ${SIDE}x${SIDE} noise PNGs as base64 JSON; ${database}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`)
  console.log('| call | p50 ms | p95 ms | SQL statements (median / max) |')
  console.log('|---|---|---|---|')
  console.log(`| POST /api/v1/assets | ${push.p50.toFixed(1)} | ${push.p95.toFixed(1)} | ${push.statements} / ${push.maxStatements} |`)
  console.log(`| POST /api/v1/assets/{id}/versions | ${version.p50.toFixed(1)} | ${version.p95.toFixed(1)} | ${version.statements} / ${version.maxStatements} |`)
  console.log(`| version / push | ${ratio50.toFixed(2)} | ${ratio95.toFixed(2)} | |`)
  const pass = ratio50 <= TARGET_RATIO && ratio95 <= TARGET_RATIO
  console.log(`\n${pass ? 'PASS' : 'MISS'}: a version upload costs no more than a push (p50 and p95 within ${TARGET_RATIO}x)`)
}

/** A PNG of noise no call sent before. */
function noisePng(): Promise<Buffer> {
  return sharp(randomBytes(SIDE * SIDE * 3), { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer()
}
