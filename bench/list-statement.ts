/**
 * The list statement alone, this tree's against another checkout's (issue 39): each builds GET
 * /api/v1/assets's statement (`listQuery`) for the same reads, and both run on one database in one
 * process, alternating statement by statement, so the machine's drift falls on both alike. What it
 * measures is the database's work per list (planning and execution), without HTTP or JSON: on the
 * embedded database, the thread that bounds the list's throughput.
 *
 * The library is support/library.ts's, seeded with SQL ("retina" in 10% of the titles, "zeppelin" in
 * ~2.5%), and the reads are the unfiltered list, both words, and a rare one: the number in one title
 * (as a prefix it also matches the ten numbers it starts, at 100,000 assets). At
 * `BENCH_ASSETS` of LARGE_LIBRARY or more, the statements are built as the service builds them for a
 * large library. The baseline checkout must have its dependencies (a `node_modules` link will do).
 *
 *   BENCH_BASELINE=/path/to/other/checkout npx tsx bench/list-statement.ts
 *   BENCH_BASELINE=... BENCH_ASSETS=30000 BENCH_ROUNDS=150 npx tsx bench/list-statement.ts
 *   BENCH_BASELINE=... BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/list-statement.ts
 */
import { CompiledQuery, sql } from 'kysely'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import * as current from '../src/modules/assets/store.js'
import { percentile } from './support/child.js'
import { redactedUrl, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { benchKey } from './support/app.js'
import { envNumber } from './support/env.js'
import { COLLECTIONS, plannedLibrary, seedDirectly } from './support/library.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL
const BASELINE = process.env.BENCH_BASELINE
const ASSETS = envNumber('BENCH_ASSETS', 10_000)
/** Runs of each statement per variant; the first WARMUP are not counted. */
const ROUNDS = envNumber('BENCH_ROUNDS', 300)
const WARMUP = 20
const COUNT_CAP = 1_000

const READS: Array<{ name: string; filter: current.AssetFilter }> = [
  { name: 'list', filter: {} },
  { name: 'q=retina (10%)', filter: { q: 'retina' } },
  { name: 'q=zeppelin (~2.5%)', filter: { q: 'zeppelin' } },
  { name: 'q=7777 (one title, and its prefix)', filter: { q: '7777' } },
]

async function main(): Promise<void> {
  if (!BASELINE) throw new Error('set BENCH_BASELINE to the checkout to compare with')
  const baseline = (await import(join(BASELINE, 'src/modules/assets/store.ts'))) as typeof current
  let bench: BenchAppOn | undefined
  try {
    bench = await startBenchAppOn('statement', SERVER_URL, { PLAN_LIMITS: JSON.stringify({ free: { max_assets: 10_000_000, max_bytes: 1e15 } }) })
    const { app, database } = bench
    const { organizationId } = await benchKey(app, 'assets:read')
    for (const name of COLLECTIONS) await app.services.collections.create(organizationId, { name })
    await seedDirectly(database.db, organizationId, plannedLibrary(ASSETS))
    await sql`vacuum analyze assets`.execute(database.db)
    const largeLibrary = ASSETS >= current.LARGE_LIBRARY
    console.log(`${SERVER_URL ? `PostgreSQL (${redactedUrl(SERVER_URL)})` : 'embedded (PGlite)'}, ${ASSETS} assets${largeLibrary ? ' (a large library)' : ''}; baseline ${BASELINE}`)
    console.log('\n| read | baseline p50 / p95 ms | this tree p50 / p95 ms | p50 ratio |')
    console.log('|---|---|---|---|')
    for (const { name, filter } of READS) {
      const options = { countCap: filter.q === undefined ? undefined : COUNT_CAP, largeLibrary }
      const statements = [baseline, current].map((store) => store.listQuery(database.db, organizationId, filter, { limit: 50, offset: 0 }, options).compile())
      const times: [number[], number[]] = [[], []]
      for (let round = 0; round < ROUNDS; round++) {
        // Each round in the other order, so neither always runs first.
        for (const variant of round % 2 === 0 ? [0, 1] : [1, 0]) {
          const statement = statements[variant]!
          const started = performance.now()
          await database.db.executeQuery(CompiledQuery.raw(statement.sql, [...statement.parameters]))
          if (round >= WARMUP) times[variant]!.push(performance.now() - started)
        }
      }
      const cell = (values: number[]) => `${percentile(values, 50).toFixed(2)} / ${percentile(values, 95).toFixed(2)}`
      console.log(`| ${name} | ${cell(times[0])} | ${cell(times[1])} | ${(percentile(times[1], 50) / percentile(times[0], 50)).toFixed(2)} |`)
    }
    console.log(`\nload average ${loadavg().map((load) => load.toFixed(2)).join(' ')}`)
  } finally {
    await bench?.close()
  }
}

await main()
