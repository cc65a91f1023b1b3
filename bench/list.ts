/**
 * Listing assets: req/s and latency of GET /api/v1/assets (first page of 50) on the real app, with a
 * library of 10,000 assets pushed through the API right before, as a newcomer's would be: no manual
 * ANALYZE (the app keeps the planner's statistics fresh itself, or does not: that is measured too).
 *
 * Beside each query, in the same run:
 * - **bare SQL**: a bare route on the same Fastify that runs the same page query (the same filter, the
 *   record's columns, no total, no collections, no signed URLs) through the driver and answers the rows
 *   as Fastify's default JSON. On PostgreSQL it has its own `pg` pool of 10; on the embedded database it
 *   uses the app's one connection, the only one there is.
 * - **bare memory**: a route with the API's response schema that answers the first page from memory:
 *   what this app's HTTP and serialisation allow.
 *
 * The library: plausible types, clients, products and titles; "retina" in 10% of the titles and
 * "zeppelin" in 1%; 0 to 3 of 15 tags each, plus "approved" on half of them; 15% pushed into one of
 * three manual collections. Each push is a distinct 8 x 8 PNG, 16 in flight.
 *
 *   npx tsx bench/list.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/list.ts
 *   BENCH_ASSETS=100000 BENCH_DURATION=5 BENCH_WARMUP=1 BENCH_CONNECTIONS=1,10 npx tsx bench/list.ts
 */
import { CompiledQuery, sql } from 'kysely'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { buildApp, type BuiltApp } from '../src/app.js'
import { benchKey } from './support/app.js'
import { listenOnLoopback, startBenchAppOn, redactedUrl, type BenchAppOn } from './support/database.js'
import { percentile } from './support/child.js'
import { envList, envNumber } from './support/env.js'
import { startLoadGenerator, type LoadGenerator, type LoadResult } from './support/load-generator.js'
import { startRotatingLoad, type RotatingLoad, type RotatingRequest } from './support/rotating-load.js'
import { COLLECTIONS, HALF_TAG, plannedLibrary, seedDirectly, tinyPng, type PlannedAsset } from './support/library.js'
import { ASSET_COLUMNS, libraryVersion, listAssets, listQuery, whereFilter, type AssetFilter } from '../src/modules/assets/store.js'
import { AssetListSchema } from '../src/modules/assets/schemas.js'
import type { AssetService } from '../src/modules/assets/service.js'
import type { Db } from '../src/platform/db/index.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL
const ASSETS = envNumber('BENCH_ASSETS', 10_000)
const DURATION_S = envNumber('BENCH_DURATION', 5)
const WARMUP_S = envNumber('BENCH_WARMUP', 1)
const CONNECTION_LEVELS = envList('BENCH_CONNECTIONS', '1,10')
const BREAKDOWN_ITERATIONS = envNumber('BENCH_BREAKDOWN', 50)
const SEED_IN_FLIGHT = 16
/** `api` (default): pushes through the API; `sql`: rows written directly, for libraries too large to push in a bench. */
const SEED = process.env.BENCH_SEED === 'sql' ? 'sql' : 'api'
/** Pushes timed after the seeding, to compare what a push costs in a small and a large library. */
const PUSH_PROBE = envNumber('BENCH_PUSH_PROBE', 400)
const PAGE_SIZE = 50
/** `BENCH_EXPLAIN=1` prints the plan of each variant's list statement (EXPLAIN ANALYZE) at the end. */
const SHOW_PLANS = process.env.BENCH_EXPLAIN === '1'
const TARGET_CONNECTIONS = 10
/** The issue's targets: PostgreSQL at half a bare route's rate or better with p95 <= 10 ms; the embedded database at 1,000 req/s with p95 <= 15 ms. */
const TARGETS = SERVER_URL ? { shareOfBareSql: 0.5, p95Ms: 10, reqPerSec: 0 } : { shareOfBareSql: 0, p95Ms: 15, reqPerSec: 1000 }
/** Twice Directus 12.4's req/s on the same machine (files API on SQLite, 10 connections), as measured in issue 10. */
const PEER = { unfiltered: 2 * 305, 'tag=approved': 2 * 294, 'q=retina': 2 * 249 } as Record<string, number>
const BARE_MEMORY_PATH = '/bench/bare-memory'

interface Variant {
  name: string
  query: string
  filter: AssetFilter
}

const ALL_VARIANTS: Variant[] = [
  { name: 'unfiltered', query: '', filter: {} },
  { name: 'client=Acme', query: 'client=Acme&', filter: { client: 'Acme' } },
  { name: 'tag=red', query: 'tag=red&', filter: { tag: 'red' } },
  { name: 'tag=approved', query: `tag=${HALF_TAG}&`, filter: { tag: HALF_TAG } },
  { name: 'q=retina', query: 'q=retina&', filter: { q: 'retina' } },
  { name: 'q=zeppelin', query: 'q=zeppelin&', filter: { q: 'zeppelin' } },
]
/** `BENCH_VARIANTS=unfiltered,tag=approved` runs only those (e.g. under a profiler). */
const VARIANTS = process.env.BENCH_VARIANTS ? ALL_VARIANTS.filter((variant) => process.env.BENCH_VARIANTS!.split(',').includes(variant.name)) : ALL_VARIANTS

interface Measurement extends LoadResult {
  serverCpuUsPerRequest: number
}

interface LevelResult {
  /** The app as configured: a page listed again is reused while the library is unchanged. */
  api: Map<Variant, Measurement>
  /** The same app with LIST_CACHE_RECORDS=0: every request runs the list statement, as right after a change. */
  apiFresh: Map<Variant, Measurement>
  bareSql: Map<Variant, Measurement>
  bareMemory: Measurement
  /**
   * Filters whose total is counted (`q=`), paged through: every request a page at an offset not asked
   * for before, as infinite scroll or a script walking the results does, so each runs its statement
   * while the total counted for the filter is reused.
   */
  nextPages: Map<Variant, Measurement>
}

type AssetPage = Awaited<ReturnType<AssetService['list']>>

await main()

async function main(): Promise<void> {
  let bench: BenchAppOn | undefined
  let loadGenerator: LoadGenerator | undefined
  let rotatingLoad: RotatingLoad | undefined
  let barePool: pg.Pool | undefined
  let uncached: BuiltApp | undefined
  try {
    const bare: { page?: AssetPage; queries?: Map<string, CompiledQuery> } = {}
    // The rate limits and the free plan's 10,000 assets would stop the seeding; the plan is still checked on every push.
    const env = { RATE_LIMIT_CHEAP: '1000000', RATE_LIMIT_EXPENSIVE: '1000000', PLAN_LIMITS: JSON.stringify({ free: { max_assets: 10_000_000, max_bytes: 1e15 } }) }
    bench = await startBenchAppOn('list', SERVER_URL, env, (app, config) => {
      app.get(BARE_MEMORY_PATH, { config: { auth: { kind: 'public' } }, schema: { response: { 200: AssetListSchema('The first page, from memory.') } } }, async () => bare.page!)
      barePool = config.databaseUrl ? new pg.Pool({ connectionString: config.databaseUrl, max: 10 }) : undefined
      const run = barePool
        ? async (query: CompiledQuery) => (await barePool!.query(query.sql, query.parameters as unknown[])).rows
        : async (query: CompiledQuery) => (await bench!.database.db.executeQuery(query)).rows
      app.get<{ Params: { variant: string } }>('/bench/bare-sql/:variant', { config: { auth: { kind: 'public' } } }, async (request) => run(bare.queries!.get(request.params.variant)!))
    })
    const { app, database, baseUrl } = bench
    uncached = await buildApp({ config: { ...bench.config, listCacheRecords: 0, serveBackgroundWork: false }, database })
    const freshUrl = await listenOnLoopback(uncached)
    console.log(`Database: ${SERVER_URL ? `PostgreSQL (${redactedUrl(SERVER_URL)})` : 'embedded (PGlite)'}`)
    const { organizationId, token } = await benchKey(app, 'assets:write')
    const headers = { authorization: `Bearer ${token}` }

    for (const name of COLLECTIONS) await post(`${baseUrl}/api/v1/collections`, headers, { name }, 201)
    const library = plannedLibrary(ASSETS)
    const started = performance.now()
    if (SEED === 'sql') await seedDirectly(database.db, organizationId, library)
    else await seedThroughApi(baseUrl, headers, library)
    const seconds = (performance.now() - started) / 1000
    console.log(`${SEED === 'sql' ? 'Inserted' : 'Pushed'} ${ASSETS} assets ${SEED === 'sql' ? 'with SQL' : 'through the API'} in ${seconds.toFixed(1)} s (${Math.round(ASSETS / seconds)}/s); no manual ANALYZE.`)
    console.log(`  planner statistics of assets: ${await statisticsState(database.db)}`)

    bare.queries = new Map(VARIANTS.map((variant) => [slug(variant), barePageQuery(database.db, organizationId, variant.filter)]))
    for (const variant of VARIANTS) {
      const page = await getPage(`${baseUrl}${apiPath(variant)}`, headers)
      const bareRows = (await (await fetch(`${baseUrl}${bareSqlPath(variant)}`)).json()) as unknown[]
      console.log(`  ${apiPath(variant).padEnd(44)} ${page.data.length} records of ${page.total}`)
      if (page.data.length !== PAGE_SIZE || bareRows.length !== PAGE_SIZE) throw new Error(`${variant.name}: a page of ${page.data.length} (bare ${bareRows.length}), expected ${PAGE_SIZE}`)
    }
    bare.page = await getPage(`${baseUrl}${apiPath(VARIANTS[0]!)}`, headers)
    if (JSON.stringify(await getPage(`${baseUrl}${BARE_MEMORY_PATH}`, headers)) !== JSON.stringify(bare.page)) throw new Error('the bare memory route does not answer the same JSON as the API')
    console.log(`  one page is ${(Buffer.byteLength(JSON.stringify(bare.page)) / 1024).toFixed(1)} KiB of JSON`)

    loadGenerator = await startLoadGenerator()
    rotatingLoad = await startRotatingLoad()
    const measure = async (name: string, path: string, connections: number, origin = baseUrl): Promise<Measurement> => {
      await loadGenerator!.run({ url: `${origin}${path}`, headers, connections, duration: WARMUP_S })
      const cpuBefore = process.cpuUsage()
      const result = await loadGenerator!.run({ url: `${origin}${path}`, headers, connections, duration: DURATION_S })
      const cpu = process.cpuUsage(cpuBefore)
      if (result.failures) throw new Error(`${name}: ${result.failures}`)
      console.log(`  ${connections} conn. ${name.padEnd(26)} ${Math.round(result.reqPerSec)} req/s, p95 ${result.p95Ms.toFixed(1)} ms`)
      return { ...result, serverCpuUsPerRequest: (cpu.user + cpu.system) / result.completed }
    }

    const measureNextPages = async (variant: Variant, connections: number): Promise<Measurement> => {
      const { total } = await getPage(`${baseUrl}${apiPath(variant)}`, headers)
      // Limits around PAGE_SIZE as well as offsets, so a 10,000-asset library has pages enough that none repeats.
      const limits = Array.from({ length: 41 }, (_, i) => PAGE_SIZE - 20 + i)
      const requests = limits.flatMap((limit) =>
        Array.from({ length: Math.max(0, total - PAGE_SIZE) }, (_, offset): RotatingRequest => ({ method: 'GET', path: `${apiPath(variant, limit)}&offset=${offset + 1}` })),
      )
      if (requests.length === 0) throw new Error(`${variant.name}, next pages: ${total} matches make no second page`)
      const run = (duration: number, pages: RotatingRequest[]) => rotatingLoad!.run({ url: baseUrl, headers, connections, duration, requests: pages, expect: `"total":${total}` })
      // The warm-up from the last page back, so the measured run asks for none of its pages again.
      await run(WARMUP_S, [...requests].reverse())
      const cpuBefore = process.cpuUsage()
      const result = await run(DURATION_S, requests)
      const cpu = process.cpuUsage(cpuBefore)
      if (result.failures) throw new Error(`${variant.name}, next pages: ${result.failures}`)
      if (result.completed >= requests.length) throw new Error(`${variant.name}, next pages: ${requests.length} distinct pages are too few for ${result.completed} requests`)
      console.log(`  ${connections} conn. ${`${variant.name}, next pages`.padEnd(26)} ${Math.round(result.reqPerSec)} req/s, p95 ${result.p95Ms.toFixed(1)} ms`)
      return { ...result, serverCpuUsPerRequest: (cpu.user + cpu.system) / result.completed }
    }

    console.log(`\nload average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${WARMUP_S} s warm-up, then ${DURATION_S} s per route`)
    const results = new Map<number, LevelResult>()
    for (const connections of CONNECTION_LEVELS) {
      const bareMemory = await measure('bare memory', BARE_MEMORY_PATH, connections)
      const level: LevelResult = { api: new Map(), apiFresh: new Map(), bareSql: new Map(), bareMemory, nextPages: new Map() }
      for (const variant of VARIANTS) {
        level.api.set(variant, await measure(variant.name, apiPath(variant), connections))
        level.apiFresh.set(variant, await measure(`${variant.name}, not kept`, apiPath(variant), connections, freshUrl))
        if (variant.filter.q !== undefined) level.nextPages.set(variant, await measureNextPages(variant, connections))
        level.bareSql.set(variant, await measure(`bare SQL ${variant.name}`, bareSqlPath(variant), connections))
      }
      results.set(connections, level)
    }
    console.log(`  planner statistics of assets after the runs: ${await statisticsState(database.db)}`)
    const probeStarted = performance.now()
    const pushTimes = await seedThroughApi(baseUrl, headers, plannedLibrary(PUSH_PROBE), ASSETS)
    const probeSeconds = (performance.now() - probeStarted) / 1000
    report(results, await timeBreakdown(app.services.assets, database.db, organizationId))
    if (SHOW_PLANS) await printPlans(database.db, organizationId)
    console.log(
      `\nPushes into a library of ${ASSETS}: ${PUSH_PROBE} tiny PNGs, ${SEED_IN_FLIGHT} in flight: ${Math.round(PUSH_PROBE / probeSeconds)}/s, ` +
        `p50 ${fmt(percentile(pushTimes, 50))} ms, p95 ${fmt(percentile(pushTimes, 95))} ms`,
    )
  } finally {
    loadGenerator?.stop()
    rotatingLoad?.stop()
    await uncached?.close()
    await barePool?.end()
    await bench?.close()
  }
}

/** Pushes of distinct tiny PNGs, SEED_IN_FLIGHT at a time. */
async function seedThroughApi(baseUrl: string, headers: Record<string, string>, library: PlannedAsset[], firstImage = 0): Promise<number[]> {
  const times: number[] = []
  let next = 0
  const worker = async () => {
    while (next < library.length) {
      const i = next++
      const body = { ...library[i]!, image_base64: (await tinyPng(firstImage + i)).toString('base64') }
      const started = performance.now()
      await post(`${baseUrl}/api/v1/assets`, headers, body, 201)
      times.push(performance.now() - started)
    }
  }
  await Promise.all(Array.from({ length: SEED_IN_FLIGHT }, worker))
  return times
}

async function post(url: string, headers: Record<string, string>, body: object, status: number): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (response.status !== status) throw new Error(`${url}: ${response.status} ${await response.text()}`)
}

/** When the planner last learnt about `assets`, and how many rows changed since. */
async function statisticsState(db: Db): Promise<string> {
  const { rows } = await sql<{ analyzed: Date | null; changed: number; estimate: number }>`
    select greatest(last_analyze, last_autoanalyze) as analyzed, n_mod_since_analyze::int as changed,
           (select reltuples::int from pg_class where oid = 'assets'::regclass) as estimate
    from pg_stat_user_tables where relname = 'assets'`.execute(db)
  const row = rows[0]
  if (!row) return 'not reported'
  return `${row.analyzed ? `analyzed ${((Date.now() - row.analyzed.getTime()) / 1000).toFixed(0)} s ago` : 'never analyzed'}, ${row.changed} rows changed since, reltuples ${row.estimate}`
}

/** The plan of each variant's list statement, without kept counts, as `listAssets` builds it. */
async function printPlans(db: Db, organizationId: string): Promise<void> {
  for (const variant of VARIANTS) {
    const compiled = listQuery(db, organizationId, variant.filter, { limit: PAGE_SIZE, offset: 0 }).compile()
    const plan = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze, buffers) ${compiled.sql}`, [...compiled.parameters]))
    console.log(`\n${variant.name}:\n${plan.rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`)
  }
}

/** The page query without what the API adds: the same filter and order, the record's own columns. */
function barePageQuery(db: Db, organizationId: string, filter: AssetFilter): CompiledQuery {
  return whereFilter(db.selectFrom('assets').select([...ASSET_COLUMNS]), organizationId, filter)
    .orderBy('assets.created_at', 'desc')
    .orderBy('assets.id', 'desc')
    .limit(PAGE_SIZE)
    .compile()
}

function slug(variant: Variant): string {
  return variant.name.replace(/[^a-z]/gi, '-')
}

function apiPath(variant: Variant, limit = PAGE_SIZE): string {
  return `/api/v1/assets?${variant.query}limit=${limit}`
}

function bareSqlPath(variant: Variant): string {
  return `/bench/bare-sql/${slug(variant)}`
}

async function getPage(url: string, headers: Record<string, string>): Promise<AssetPage> {
  const response = await fetch(url, { headers })
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return (await response.json()) as AssetPage
}

interface Step {
  name: string
  run: (filter: AssetFilter, state: { rows: Parameters<Awaited<ReturnType<AssetService['recorder']>>>[0][]; page?: unknown }) => Promise<void>
}

/** Mean ms of each step of a list request, in process, one at a time, per variant. */
async function timeBreakdown(assets: AssetService, db: Db, organizationId: string): Promise<Map<Variant, Map<Step, number>>> {
  const page = { limit: PAGE_SIZE, offset: 0 }
  const record = await assets.recorder(organizationId)
  const steps: Step[] = [
    { name: 'SQL: select 1 (a round trip)', run: async () => void (await sql`select 1`.execute(db)) },
    { name: 'SQL: list statement, no kept count', run: async (filter, state) => void (state.rows = (await listAssets(db, organizationId, filter, page)).rows) },
    { name: 'records (signed URLs cached)', run: async (_filter, state) => void (state.page = { data: state.rows.map(record), total: 0, ...page }) },
    { name: 'JSON.stringify of the page', run: async (_filter, state) => void JSON.stringify(state.page) },
    { name: 'the library version', run: async () => void (await libraryVersion(db, organizationId)) },
    { name: 'AssetService.list, page kept', run: async (filter) => void (await assets.list(organizationId, filter, page)) },
  ]
  const result = new Map<Variant, Map<Step, number>>()
  for (const variant of VARIANTS) {
    const totals = new Map<Step, number>(steps.map((step) => [step, 0]))
    const state = { rows: [] }
    for (let i = 0; i < BREAKDOWN_ITERATIONS + 5; i++) {
      for (const step of steps) {
        const started = performance.now()
        await step.run(variant.filter, state)
        // The first rounds warm caches and the JIT.
        if (i >= 5) totals.set(step, totals.get(step)! + performance.now() - started)
      }
    }
    result.set(variant, new Map([...totals].map(([step, total]) => [step, total / BREAKDOWN_ITERATIONS])))
  }
  return result
}

function report(results: Map<number, LevelResult>, breakdown: Map<Variant, Map<Step, number>>): void {
  const headings = ['req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU µs/req', 'bare SQL', 'API/SQL', 'API/memory']
  for (const [connections, level] of results) {
    console.log(`\n  ${`${connections} connection${connections === 1 ? '' : 's'}`.padEnd(22)}${headings.map((h) => h.padStart(11)).join('')}`)
    const memory = level.bareMemory
    console.log(`  ${'bare memory'.padEnd(22)}${[Math.round(memory.reqPerSec), fmt(memory.p50Ms), fmt(memory.p95Ms), fmt(memory.p99Ms), Math.round(memory.serverCpuUsPerRequest)].map((c) => String(c).padStart(11)).join('')}`)
    for (const variant of VARIANTS) {
      const bareSql = level.bareSql.get(variant)!
      const nextPages = level.nextPages.get(variant)
      const rows = [[variant.name, level.api.get(variant)!], ['  not kept', level.apiFresh.get(variant)!], ...(nextPages ? [['  next pages', nextPages] as const] : [])] as const
      for (const [label, m] of rows) {
        const cells = [Math.round(m.reqPerSec), fmt(m.p50Ms), fmt(m.p95Ms), fmt(m.p99Ms), Math.round(m.serverCpuUsPerRequest), Math.round(bareSql.reqPerSec), percent(m.reqPerSec / bareSql.reqPerSec), percent(m.reqPerSec / memory.reqPerSec)]
        console.log(`  ${label.padEnd(22)}${cells.map((c) => String(c).padStart(11)).join('')}`)
      }
    }
  }

  const steps = [...breakdown.values().next().value!.keys()]
  console.log(`\n  Where a list request's time goes (mean ms, in process, one at a time, ${BREAKDOWN_ITERATIONS} rounds)`)
  console.log(`  ${'step'.padEnd(32)}${VARIANTS.map((v) => v.name.padStart(13)).join('')}`)
  for (const step of steps) console.log(`  ${step.name.padEnd(32)}${VARIANTS.map((v) => fmt(breakdown.get(v)!.get(step)!, 2).padStart(13)).join('')}`)

  const level = results.get(TARGET_CONNECTIONS)
  if (!level) return
  for (const [kind, measured] of [['a page listed again', level.api], ['a page not kept (LIST_CACHE_RECORDS=0)', level.apiFresh]] as const) {
    console.log(`\n${kind}:`)
    for (const variant of VARIANTS) {
      const m = measured.get(variant)!
      const share = m.reqPerSec / level.bareSql.get(variant)!.reqPerSec
      const pass = m.p95Ms <= TARGETS.p95Ms && share >= TARGETS.shareOfBareSql && m.reqPerSec >= TARGETS.reqPerSec
      const goal = SERVER_URL ? `>= ${percent(TARGETS.shareOfBareSql)} of bare SQL, p95 <= ${TARGETS.p95Ms} ms` : `>= ${TARGETS.reqPerSec} req/s, p95 <= ${TARGETS.p95Ms} ms`
      console.log(`${pass ? 'PASS' : 'MISS'}: ${apiPath(variant)} at ${TARGET_CONNECTIONS} connections: ${Math.round(m.reqPerSec)} req/s (${percent(share)} of bare SQL), p95 ${fmt(m.p95Ms)} ms (target ${goal})`)
    }
    for (const variant of VARIANTS.filter((v) => PEER[v.name] !== undefined)) {
      const m = measured.get(variant)!
      console.log(`${m.reqPerSec >= PEER[variant.name]! ? 'PASS' : 'MISS'}: ${variant.name} at ${TARGET_CONNECTIONS} connections: ${Math.round(m.reqPerSec)} req/s (target >= ${PEER[variant.name]}, twice Directus)`)
    }
  }
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`
}

function fmt(value: number, digits = 1): string {
  return value.toFixed(digits)
}
