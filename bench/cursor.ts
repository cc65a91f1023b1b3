/**
 * Deep pages by offset against the same pages by cursor (issue 39): GET /api/v1/assets at `offset=9950`
 * and with the `next_cursor` of the page before it, in a library of 10,000 assets seeded with SQL (as
 * list.ts's BENCH_SEED=sql), and the first page for reference. Newest first (the created_at index) and by
 * title (migration 0023's expression index). The kept pages are off (`LIST_CACHE_RECORDS=0`), so every
 * request runs the list statement, as after any change; the planner's statistics are fresh (ANALYZE).
 *
 * One connection, one request at a time; the variants alternate in rounds (the machine is shared and
 * noisy), and each variant's latencies of every round are pooled into its p50 and p95. Both forms are
 * checked to answer the same page first.
 *
 *   npx tsx bench/cursor.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/cursor.ts
 *   BENCH_ASSETS=100000 BENCH_ROUNDS=8 BENCH_REQUESTS=100 npx tsx bench/cursor.ts
 */
import { sql } from 'kysely'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { benchKey } from './support/app.js'
import { startBenchAppOn, redactedUrl, type BenchAppOn } from './support/database.js'
import { percentile } from './support/child.js'
import { envNumber } from './support/env.js'
import { COLLECTIONS, plannedLibrary, seedDirectly } from './support/library.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL
const ASSETS = envNumber('BENCH_ASSETS', 10_000)
const ROUNDS = envNumber('BENCH_ROUNDS', 6)
/** Requests of each variant per round. */
const REQUESTS = envNumber('BENCH_REQUESTS', 100)
const PAGE_SIZE = 50
/** The last full page: what `offset=9950` reads at 10,000 assets. */
const DEEP_OFFSET = ASSETS - PAGE_SIZE

interface Page {
  data: Array<{ id: string }>
  next_cursor: string | null
}

interface Variant {
  name: string
  url: string
  latencies: number[]
}

async function main(): Promise<void> {
  let bench: BenchAppOn | undefined
  try {
    const env = { LIST_CACHE_RECORDS: '0', RATE_LIMIT_CHEAP: '1000000', PLAN_LIMITS: JSON.stringify({ free: { max_assets: 10_000_000, max_bytes: 1e15 } }) }
    bench = await startBenchAppOn('cursor', SERVER_URL, env)
    const { app, database, baseUrl } = bench
    console.log(`Database: ${SERVER_URL ? `PostgreSQL (${redactedUrl(SERVER_URL)})` : 'embedded (PGlite)'}`)
    const { organizationId, token } = await benchKey(app, 'assets:read')
    const headers = { authorization: `Bearer ${token}` }
    for (const name of COLLECTIONS) await app.services.collections.create(organizationId, { name })
    const started = performance.now()
    await seedDirectly(database.db, organizationId, plannedLibrary(ASSETS))
    await sql`analyze assets`.execute(database.db)
    console.log(`Inserted ${ASSETS} assets with SQL in ${((performance.now() - started) / 1000).toFixed(1)} s, then ANALYZE.`)

    const read = async (url: string): Promise<Page> => {
      const response = await fetch(`${baseUrl}${url}`, { headers })
      if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`)
      return (await response.json()) as Page
    }
    const variants: Variant[] = []
    for (const sort of ['-created_at', 'title']) {
      const list = `/api/v1/assets?sort=${sort}&limit=${PAGE_SIZE}`
      const before = await read(`${list}&offset=${DEEP_OFFSET - PAGE_SIZE}`)
      const byCursor = `${list}&cursor=${before.next_cursor}`
      const byOffset = `${list}&offset=${DEEP_OFFSET}`
      const ids = async (url: string) => (await read(url)).data.map((asset) => asset.id).join()
      if ((await ids(byCursor)) !== (await ids(byOffset))) throw new Error(`${sort}: the cursor and offset=${DEEP_OFFSET} answer different pages`)
      variants.push(
        { name: `${sort}, first page`, url: list, latencies: [] },
        { name: `${sort}, offset=${DEEP_OFFSET}`, url: byOffset, latencies: [] },
        { name: `${sort}, cursor at ${DEEP_OFFSET}`, url: byCursor, latencies: [] },
      )
    }
    for (const variant of variants) for (let i = 0; i < 20; i++) await read(variant.url)

    for (let round = 0; round < ROUNDS; round++) {
      // Each round in another order, so no variant always runs first.
      const order = round % 2 === 0 ? variants : [...variants].reverse()
      for (const variant of order) {
        for (let i = 0; i < REQUESTS; i++) {
          const sent = performance.now()
          await read(variant.url)
          variant.latencies.push(performance.now() - sent)
        }
      }
    }

    console.log(`\n${ROUNDS} alternating rounds of ${REQUESTS} requests each, 1 connection, page of ${PAGE_SIZE}, kept pages off; load average ${loadavg().map((load) => load.toFixed(2)).join(' ')}\n`)
    console.log('| variant | p50 ms | p95 ms |')
    console.log('|---|---|---|')
    for (const variant of variants) console.log(`| ${variant.name} | ${percentile(variant.latencies, 50).toFixed(2)} | ${percentile(variant.latencies, 95).toFixed(2)} |`)
    console.log('')
    for (let i = 0; i < variants.length; i += 3) {
      const [first, offset, cursor] = [variants[i]!, variants[i + 1]!, variants[i + 2]!]
      const ratio = (p: number) => (percentile(offset.latencies, p) / percentile(cursor.latencies, p)).toFixed(2)
      const ofFirst = (percentile(cursor.latencies, 50) / percentile(first.latencies, 50)).toFixed(2)
      console.log(`${offset.name} / cursor: ${ratio(50)}x at p50, ${ratio(95)}x at p95; the cursor's p50 is ${ofFirst}x the first page's`)
    }
  } finally {
    await bench?.close()
  }
}

await main()
