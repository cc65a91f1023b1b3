/**
 * The colour filter (`color=`, issue 36) against the tag filter on a library of 100,000 assets: the
 * first page of 50 with its total, as GET /api/v1/assets answers it when no page is kept
 * (LIST_CACHE_RECORDS=0, so every request runs its statements, as right after a change).
 *
 * The library is bench/support/library.ts's, written with SQL; then each asset is given a palette,
 * the same on every run: `white` on half of them, `black` on a quarter, `blue` on 15%, `teal` on 1%,
 * and `red` on as many as carry the tag `red`, so `color=red` and `tag=red` select the same share and
 * their times compare. Both filters read a text[] column through a GIN index (`color_names`,
 * `tag_keys`). The statistics are gathered (ANALYZE) after the seeding, for both alike.
 *
 * Each round runs every variant once, in turn, BENCH_ROUNDS times: the machine's noise falls on all of
 * them alike. Reported: p50 and p95 of the request (app.inject, one at a time) and of the list
 * statement alone, each with its ratio to its tag baseline from the same run, and the plan's scans.
 *
 *   npx tsx bench/color-filter.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/color-filter.ts
 *   BENCH_ASSETS=10000 BENCH_ROUNDS=50 npx tsx bench/color-filter.ts
 */
import { CompiledQuery, sql } from 'kysely'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { listQuery, type AssetFilter } from '../src/modules/assets/store.js'
import type { Db } from '../src/platform/db/index.js'
import type { ColorName } from '../src/platform/images/color-names.js'
import { benchKey } from './support/app.js'
import { percentile } from './support/child.js'
import { redactedUrl, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { envNumber } from './support/env.js'
import { scansOf } from './support/explain.js'
import { plannedLibrary, seedDirectly } from './support/library.js'
import { mulberry32 } from './support/synthetic.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL
const ASSETS = envNumber('BENCH_ASSETS', 100_000)
const ROUNDS = envNumber('BENCH_ROUNDS', 200)
const WARMUP_ROUNDS = 10
const PAGE_SIZE = 50
const BATCH = 1000

interface Variant {
  name: string
  filter: AssetFilter
  /** The variant this one is compared with (its ratio's denominator); none for a baseline. */
  baseline?: string
}

const VARIANTS: Variant[] = [
  { name: 'tag=red', filter: { tag: 'red' } },
  { name: 'color=red', filter: { color: 'red' }, baseline: 'tag=red' },
  { name: 'tag=approved', filter: { tag: 'approved' } },
  { name: 'color=white', filter: { color: 'white' }, baseline: 'tag=approved' },
  { name: 'color=teal', filter: { color: 'teal' }, baseline: 'tag=red' },
  { name: 'tag=red&client=Acme', filter: { tag: 'red', client: 'Acme' } },
  { name: 'color=red&client=Acme', filter: { color: 'red', client: 'Acme' }, baseline: 'tag=red&client=Acme' },
]

interface Timings {
  requestMs: number[]
  statementMs: number[]
}

await main()

async function main(): Promise<void> {
  let bench: BenchAppOn | undefined
  try {
    const env = { LIST_CACHE_RECORDS: '0', RATE_LIMIT_CHEAP: '1000000', PLAN_LIMITS: JSON.stringify({ free: { max_assets: 10_000_000, max_bytes: 1e15 } }) }
    bench = await startBenchAppOn('colors', SERVER_URL, env)
    const { app, database } = bench
    const db = database.db
    console.log(`Database: ${SERVER_URL ? `PostgreSQL (${redactedUrl(SERVER_URL)})` : 'embedded (PGlite)'}`)
    const { organizationId, token } = await benchKey(app, 'assets:read')

    let started = performance.now()
    await seedDirectly(db, organizationId, plannedLibrary(ASSETS))
    const redShare = await tagShare(db, organizationId, 'red')
    await seedPalettes(db, organizationId, redShare)
    await sql`analyze assets`.execute(db)
    console.log(`Seeded ${ASSETS} assets with palettes in ${((performance.now() - started) / 1000).toFixed(1)} s (tag red on ${(redShare * 100).toFixed(1)}%); ANALYZE done.`)

    const totals = new Map<string, number>()
    for (const variant of VARIANTS) {
      const res = await app.inject({ method: 'GET', url: urlOf(variant), headers: { authorization: `Bearer ${token}` } })
      if (res.statusCode !== 200) throw new Error(`${variant.name}: ${res.statusCode} ${res.body}`)
      const page = res.json<{ data: unknown[]; total: number }>()
      totals.set(variant.name, page.total)
      if (page.data.length !== Math.min(PAGE_SIZE, page.total)) throw new Error(`${variant.name}: a page of ${page.data.length} for a total of ${page.total}`)
    }

    const timings = new Map(VARIANTS.map((variant) => [variant.name, { requestMs: [], statementMs: [] } as Timings]))
    console.log(`load average before the runs ${loadavg().map((load) => load.toFixed(2)).join(' ')}; ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS}`)
    started = performance.now()
    for (let round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
      for (const variant of VARIANTS) {
        const requestStarted = performance.now()
        const res = await app.inject({ method: 'GET', url: urlOf(variant), headers: { authorization: `Bearer ${token}` } })
        const requestMs = performance.now() - requestStarted
        if (res.statusCode !== 200) throw new Error(`${variant.name}: ${res.statusCode}`)
        const statementStarted = performance.now()
        await listQuery(db, organizationId, variant.filter, { limit: PAGE_SIZE, offset: 0 }).execute()
        const statementMs = performance.now() - statementStarted
        if (round < 0) continue
        timings.get(variant.name)!.requestMs.push(requestMs)
        timings.get(variant.name)!.statementMs.push(statementMs)
      }
    }
    console.log(`Runs took ${((performance.now() - started) / 1000).toFixed(1)} s; load average after ${loadavg().map((load) => load.toFixed(2)).join(' ')}`)
    const plans = new Map<string, string>()
    for (const variant of VARIANTS) plans.set(variant.name, scansOf(await planOf(db, organizationId, variant.filter)).join('; '))
    report(timings, totals, plans)
  } finally {
    await bench?.close()
  }
}

function urlOf(variant: Variant): string {
  const query = new URLSearchParams(Object.entries(variant.filter) as [string, string][])
  return `/api/v1/assets?${query.toString()}&limit=${PAGE_SIZE}`
}

async function tagShare(db: Db, organizationId: string, tag: string): Promise<number> {
  const { rows } = await sql<{ share: number }>`
    select (count(*) filter (where tag_keys @> array[${tag}]::text[]))::float8 / count(*) as share from assets where organization_id = ${organizationId}
  `.execute(db)
  return rows[0]!.share
}

/** Each asset's palette, drawn from a seeded generator: 1 to 4 colours, their names as `color_names`. */
async function seedPalettes(db: Db, organizationId: string, redShare: number): Promise<void> {
  const random = mulberry32(36)
  const draws: Array<[ColorName, number, string]> = [
    ['white', 0.5, '#f4f1ea'],
    ['black', 0.25, '#1b1b1b'],
    ['blue', 0.15, '#1e5aa8'],
    ['red', redShare, '#c62828'],
    ['teal', 0.01, '#00897b'],
  ]
  const ids = (await db.selectFrom('assets').select('id').where('organization_id', '=', organizationId).orderBy('id').execute()).map((row) => row.id)
  for (let first = 0; first < ids.length; first += BATCH) {
    const rows = ids.slice(first, first + BATCH).map((id) => {
      const chosen = draws.filter(([, share]) => random() < share)
      const names = chosen.length > 0 ? chosen : [draws[1]!]
      const colors = names.map(([name, , hex]) => ({ hex, share: Math.round((1 / names.length) * 10_000) / 10_000, name }))
      return { id, names: names.map(([name]) => name), colors }
    })
    await sql`
      update assets a set colors = v.colors, color_names = array(select jsonb_array_elements_text(v.names))
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, names jsonb, colors jsonb)
      where a.id = v.id
    `.execute(db)
  }
}

async function planOf(db: Db, organizationId: string, filter: AssetFilter): Promise<string[]> {
  const compiled = listQuery(db, organizationId, filter, { limit: PAGE_SIZE, offset: 0 }).compile()
  const plan = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze) ${compiled.sql}`, [...compiled.parameters]))
  return plan.rows.map((row) => row['QUERY PLAN'])
}

function report(timings: Map<string, Timings>, totals: Map<string, number>, plans: Map<string, string>): void {
  const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1))
  const ratio = (variant: Variant, pick: (t: Timings) => number[], p: number) => {
    if (!variant.baseline) return '1 (baseline)'
    return (percentile(pick(timings.get(variant.name)!), p) / percentile(pick(timings.get(variant.baseline)!), p)).toFixed(2)
  }
  console.log(`\n| filter | matches | request p50 ms | request p95 ms | p50 / baseline | p95 / baseline | statement p50 ms | statement p95 ms | statement p95 / baseline |`)
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const variant of VARIANTS) {
    const t = timings.get(variant.name)!
    const cells = [
      variant.baseline ? `${variant.name} (vs ${variant.baseline})` : variant.name,
      String(totals.get(variant.name)),
      fmt(percentile(t.requestMs, 50)),
      fmt(percentile(t.requestMs, 95)),
      ratio(variant, (x) => x.requestMs, 50),
      ratio(variant, (x) => x.requestMs, 95),
      fmt(percentile(t.statementMs, 50)),
      fmt(percentile(t.statementMs, 95)),
      ratio(variant, (x) => x.statementMs, 95),
    ]
    console.log(`| ${cells.join(' | ')} |`)
  }
  console.log('\nScans of each list statement (EXPLAIN ANALYZE):')
  for (const variant of VARIANTS) console.log(`  ${variant.name}: ${plans.get(variant.name)}`)
}
