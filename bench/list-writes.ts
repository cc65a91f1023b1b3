/**
 * Reads while the library is being written (issue 25): req/s of list pages (unfiltered, a tag on half
 * the assets, full text on 10% of the titles) at 10 connections, while a writer pushes new assets and
 * patches titles at a steady rate through the API, on the real app over a library of BENCH_ASSETS
 * (bench/support/library.ts, written with SQL).
 *
 * With BENCH_REFERENCE (a checkout of another commit, with its own `npm ci`), that tree's app is built
 * over the same database and measured in turn with this one in every cell, in alternating order: both
 * see the same library, the same writes and the same machine, so their ratio holds when the machine's
 * speed drifts.
 *
 *   BENCH_REFERENCE=/work/wt/base npx tsx bench/list-writes.ts
 *   BENCH_RATES=0 BENCH_CACHE=none BENCH_REFERENCE=… npx tsx bench/list-writes.ts   (pages not kept, no writes)
 *
 * BENCH_RATES: writes a second, half pushes and half patches (default 0,2,20); BENCH_CACHE: `kept` (the
 * default configuration) or `none` (LIST_CACHE_RECORDS=0); BENCH_ROUNDS (2) × BENCH_DURATION s (4) per
 * side and cell, after 1 s of warm-up.
 */
import { sql } from 'kysely'
import { loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BuiltApp } from '../src/app.js'
import type { Config } from '../src/config.js'
import type { DatabaseHandle } from '../src/platform/db/index.js'
import { benchKey } from './support/app.js'
import { listenOnLoopback, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { envNumber } from './support/env.js'
import { COLLECTIONS, HALF_TAG, plannedLibrary, seedDirectly, tinyPng } from './support/library.js'
import { startLoadGenerator, type LoadGenerator } from './support/load-generator.js'

const ASSETS = envNumber('BENCH_ASSETS', 10_000)
const RATES = (process.env.BENCH_RATES ?? '0,2,20').split(',').map(Number)
const CACHE = process.env.BENCH_CACHE === 'none' ? 'none' : 'kept'
const ROUNDS = envNumber('BENCH_ROUNDS', 2)
const DURATION_S = envNumber('BENCH_DURATION', 4)
const CONNECTIONS = 10
const REFERENCE = process.env.BENCH_REFERENCE
/** Twice Directus 12.4's rate in issue 25's window (files API on SQLite, 10 connections, no cache). */
const TARGETS: Record<string, number> = { unfiltered: 2 * 249, [`tag=${HALF_TAG}`]: 2 * 259, 'q=retina': 2 * 212 }
const PAGES = [
  { name: 'unfiltered', query: '' },
  { name: `tag=${HALF_TAG}`, query: `tag=${HALF_TAG}&` },
  { name: 'q=retina', query: 'q=retina&' },
]
const WRITES_IN_FLIGHT = 4

await main()

async function main(): Promise<void> {
  let bench: BenchAppOn | undefined
  let loadGenerator: LoadGenerator | undefined
  const extraApps: Array<{ close(): Promise<unknown> }> = []
  try {
    const env = { RATE_LIMIT_CHEAP: '1000000', RATE_LIMIT_EXPENSIVE: '1000000', RATE_LIMIT_STANDARD: '1000000', PLAN_LIMITS: JSON.stringify({ free: { max_assets: 10_000_000, max_bytes: 1e15 } }) }
    bench = await startBenchAppOn('list-writes', process.env.BENCH_DATABASE_URL, env)
    const { app, database, baseUrl, config } = bench
    const { organizationId, token } = await benchKey(app, 'assets:write')
    const headers = { authorization: `Bearer ${token}` }
    for (const name of COLLECTIONS) {
      const response = await fetch(`${baseUrl}/api/v1/collections`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name }) })
      if (response.status !== 201) throw new Error(`collection ${name}: ${response.status}`)
    }
    await seedDirectly(database.db, organizationId, plannedLibrary(ASSETS))
    await sql`vacuum analyze`.execute(database.db)
    const readConfig: Config = { ...config, serveBackgroundWork: false, ...(CACHE === 'none' && { listCacheRecords: 0 }) }
    const sides: Side[] = []
    const ours = CACHE === 'none' ? await startExtra(readConfig, database, (await import('../src/app.js')).buildApp) : undefined
    if (ours) extraApps.push(ours.app)
    sides.push({ name: 'this tree', url: ours?.url ?? baseUrl })
    if (REFERENCE) {
      const { buildApp } = (await import(pathToFileURL(join(resolve(REFERENCE), 'src/app.ts')).href)) as { buildApp: typeof import('../src/app.js').buildApp }
      const reference = await startExtra(readConfig, database, buildApp)
      extraApps.push(reference.app)
      sides.push({ name: `reference (${REFERENCE})`, url: reference.url })
    }
    const ids = (await sql<{ id: string }>`select id from assets order by random() limit 2000`.execute(database.db)).rows.map((row) => row.id)
    console.log(`${ASSETS} assets, pages ${CACHE === 'none' ? 'not kept' : 'kept'}, ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION_S} s per side and cell`)

    loadGenerator = await startLoadGenerator()
    const rows: string[] = []
    for (const rate of RATES) {
      const writer = startWriter(baseUrl, headers, rate, ids)
      for (const page of PAGES) {
        const rates = new Map<string, number[]>(sides.map((side) => [side.name, []]))
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? sides : [...sides].reverse()
          for (const side of order) {
            const url = `${side.url}/api/v1/assets?${page.query}limit=50`
            await loadGenerator.run({ url, headers, connections: CONNECTIONS, duration: 1 })
            const result = await loadGenerator.run({ url, headers, connections: CONNECTIONS, duration: DURATION_S })
            if (result.failures) throw new Error(`${side.name} ${page.name}: ${result.failures}`)
            rates.get(side.name)!.push(result.reqPerSec)
          }
        }
        const means = sides.map((side) => mean(rates.get(side.name)!))
        const ratio = means.length > 1 ? ` ${(means[0]! / means[1]!).toFixed(2)}×` : ''
        const row = `${String(rate).padStart(3)} writes/s  ${page.name.padEnd(14)} ${sides.map((side, i) => `${side.name}: ${Math.round(means[i]!)} req/s (${rates.get(side.name)!.map(Math.round).join(', ')})`).join('  ')}${ratio}  target ${TARGETS[page.name]}`
        console.log(row)
        rows.push(row)
      }
      const { writes, seconds, failures } = await writer.stop()
      const done = `${String(rate).padStart(3)} writes/s  writer: ${writes} writes in ${seconds.toFixed(0)} s (${(writes / seconds).toFixed(1)}/s)${failures ? `, ${failures} failed` : ''}`
      console.log(done)
      rows.push(done)
    }
    console.log(`\nload average ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n${rows.join('\n')}`)
  } finally {
    loadGenerator?.stop()
    for (const extra of extraApps) await extra.close()
    await bench?.close()
  }
}

/** An app the pages are read from: this tree's or the reference's. */
interface Side {
  name: string
  url: string
}

/** Another app over the same database (the reference tree's, or this tree's not keeping pages), listening. */
async function startExtra(config: Config, database: DatabaseHandle, build: typeof import('../src/app.js').buildApp): Promise<{ app: BuiltApp; url: string }> {
  const app = await build({ config, database })
  return { app, url: await listenOnLoopback(app) }
}

/**
 * Writes at `rate` a second until stopped, alternately a push of a new tiny PNG (with a planned asset's
 * fields, so a tenth of them say "retina") and a patch of a seeded asset's title; at most WRITES_IN_FLIGHT at once.
 */
function startWriter(baseUrl: string, headers: Record<string, string>, rate: number, ids: string[]) {
  const started = performance.now()
  let writes = 0
  let failures = 0
  let stopped = false
  let inFlight = 0
  const planned = plannedLibrary(ASSETS + 100_000).slice(ASSETS)
  const write = async (n: number) => {
    inFlight++
    try {
      const response =
        n % 2 === 0
          ? await fetch(`${baseUrl}/api/v1/assets`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ ...planned[n % planned.length]!, image_base64: (await tinyPng(ASSETS + 1_000_000 + n + Math.floor(started))).toString('base64') }),
            })
          : await fetch(`${baseUrl}/api/v1/assets/${ids[n % ids.length]}`, {
              method: 'PATCH',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ title: `Edited ${n}${n % 10 === 1 ? ' retina' : ''}` }),
            })
      await response.arrayBuffer()
      if (response.ok) writes++
      else failures++
    } catch {
      failures++
    } finally {
      inFlight--
    }
  }
  const pending = new Set<Promise<void>>()
  const loop = (async () => {
    if (rate <= 0) return
    for (let n = 0; !stopped; n++) {
      const due = started + (n * 1000) / rate
      const wait = due - performance.now()
      if (wait > 0) await new Promise((done) => setTimeout(done, wait))
      if (inFlight >= WRITES_IN_FLIGHT) continue
      const writing = write(n).finally(() => pending.delete(writing))
      pending.add(writing)
    }
  })()
  return {
    async stop() {
      stopped = true
      await loop
      // The app closes next: a write still in flight would find its connection gone.
      await Promise.all(pending)
      return { writes, seconds: (performance.now() - started) / 1000, failures }
    },
  }
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}
