/**
 * Listing assets: req/s and latency of GET /api/v1/assets (first page of 50, unfiltered and with a
 * client, tag or full-text filter) on the real app over the embedded database, with 10,000 assets in
 * one organization, next to a bare route of the same app that serves the same 50 records from memory
 * (same response schema, no key check, no SQL): the most this app's HTTP and serialisation allow.
 *
 * The assets are inserted directly with Kysely in batches (no images are pushed): plausible types,
 * clients, products and titles, 0 to 3 tags each, a few manual collections, distinct sha256 and blob
 * keys, and `tag_text` (the tags, for the generated full-text column) as pushes write it. Then `vacuum analyze`,
 * as the app's hourly job does on the embedded database (it has no autovacuum).
 *
 * Then, in this process and one request at a time, where a list request's time goes: each SQL
 * statement of store.listAssets (the page with its relations, and store.countAssets) (next to `select 1`, the cost of any round trip
 * to the embedded database), AssetService.record (which signs two URLs per asset), and JSON.stringify
 * of the page. autocannon runs in a forked child.
 *
 *   npx tsx bench/list.ts
 *   BENCH_ASSETS=10000 BENCH_DURATION=10 BENCH_WARMUP=2 BENCH_CONNECTIONS=1,10 npx tsx bench/list.ts
 */
import { sql } from 'kysely'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { benchKey, startBenchApp, type BenchApp } from './support/app.js'
import { startLoadGenerator, type LoadGenerator, type LoadResult } from './support/load-generator.js'
import { type BuiltApp } from '../src/app.js'
import { listAssets, whereFilter, type AssetFilter, type AssetWithRelations } from '../src/modules/assets/store.js'
import { AssetSchema } from '../src/modules/assets/schemas.js'
import type { AssetService } from '../src/modules/assets/service.js'
import { DEFAULT_ASSET_TYPES } from '../src/modules/catalog/store.js'
import { byTagOrder } from '../src/modules/catalog/service.js'
import { sha256Hex } from '../src/platform/crypto.js'
import { type Db } from '../src/platform/db/index.js'
import { ListSchema } from '../src/platform/http/pagination.js'
import { ref } from '../src/platform/http/schemas.js'
import { uuidv7, uuidv7At } from '../src/platform/ids.js'
import { mulberry32, syntheticFile } from './support/synthetic.js'

const ASSETS = envNumber('BENCH_ASSETS', 10_000)
const DURATION_S = envNumber('BENCH_DURATION', 10)
const WARMUP_S = envNumber('BENCH_WARMUP', 2)
const CONNECTION_LEVELS = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map((level) => positive('BENCH_CONNECTIONS', Number(level)))
const BREAKDOWN_ITERATIONS = envNumber('BENCH_BREAKDOWN', 100)
const BATCH = 500
const PAGE_SIZE = 50
const TARGET_P95_MS = 25
const BARE_PATH = '/bench/bare'

const CLIENTS = ['Acme', 'Initech', 'Globex', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Enterprises', 'Wonka']
const PRODUCTS = ['Stapler', 'Widget', 'Rocket Skates', 'Anvil', 'Soda', 'Chocolate Bar', 'Phone', 'Sneakers', 'Coffee', 'Backpack']
const SEASONS = ['Summer', 'Winter', 'Spring', 'Autumn', 'Holiday', 'Back to school', 'Black Friday', 'Launch']
const SUBJECTS = ['campaign hero', 'sale banner', 'product shot', 'social teaser', 'newsletter header', 'landing page', 'story frame', 'print ad']
const TAGS = ['red', 'blue', 'green', 'black', 'white', 'summer', 'winter', 'hero', 'social', 'print', 'draft', 'approved', 'v2', 'square', 'portrait', 'landscape']
const COLLECTIONS = ['Q3 launch', 'Brand refresh', 'Best of 2025']
const MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp']

interface Variant {
  name: string
  path: string
  filter: AssetFilter
}

const VARIANTS: Variant[] = [
  { name: 'unfiltered', path: `/api/v1/assets?limit=${PAGE_SIZE}`, filter: {} },
  { name: 'client=Acme', path: `/api/v1/assets?client=Acme&limit=${PAGE_SIZE}`, filter: { client: 'Acme' } },
  { name: 'tag=red', path: `/api/v1/assets?tag=red&limit=${PAGE_SIZE}`, filter: { tag: 'red' } },
  { name: 'q=summer', path: `/api/v1/assets?q=summer&limit=${PAGE_SIZE}`, filter: { q: 'summer' } },
]
const BARE: Variant = { name: 'bare route (memory)', path: BARE_PATH, filter: {} }


interface Measurement extends LoadResult {
  serverCpuUsPerRequest: number
}

/** The JSON of one page, as GET /api/v1/assets answers it. */
type AssetPage = Awaited<ReturnType<AssetService['list']>>

await main()

async function main(): Promise<void> {
  let bench: BenchApp | undefined
  let loadGenerator: LoadGenerator | undefined
  try {
    // Same app, same response schema and serialiser, no key check, no SQL: filled in from the API below.
    const bare: { page?: AssetPage } = {}
    // Thousands of reads (the cheap bucket) on one key per minute: this measures the list, not 429s.
    bench = await startBenchApp('list', { RATE_LIMIT_CHEAP: '1000000' }, (app) => {
      app.get(BARE_PATH, { schema: { response: { 200: ListSchema(ref(AssetSchema), 'The first page, from memory.') } } }, async () => bare.page!)
    })
    const { app, database, baseUrl } = bench
    const { organizationId, token } = await benchKey(app, 'assets:read')
    const headers = { authorization: `Bearer ${token}` }

    let started = performance.now()
    const seeded = await seed(database.db, organizationId, ASSETS)
    const seedMs = performance.now() - started
    started = performance.now()
    await sql`vacuum analyze`.execute(database.db)
    console.log(
      `Seeded ${ASSETS} assets, ${seeded.assetTags} asset tags, ${seeded.collectionAssets} collection entries in ${(seedMs / 1000).toFixed(1)} s; ` +
        `vacuum analyze ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )

    // Every variant must answer a full page, or the numbers would describe an empty result.
    for (const variant of VARIANTS) {
      const page = await getPage(`${baseUrl}${variant.path}`, headers)
      console.log(`  ${variant.path.padEnd(44)} ${page.data.length} records of ${page.total}`)
      if (page.data.length !== PAGE_SIZE) throw new Error(`${variant.path} answered ${page.data.length} records, expected ${PAGE_SIZE}`)
    }
    bare.page = await getPage(`${baseUrl}${VARIANTS[0]!.path}`, headers)
    const fromApi = JSON.stringify(bare.page)
    const fromBare = JSON.stringify(await getPage(`${baseUrl}${BARE_PATH}`, headers))
    if (fromBare !== fromApi) throw new Error('the bare route does not answer the same JSON as the API')
    console.log(`  one page is ${(Buffer.byteLength(fromApi) / 1024).toFixed(1)} KiB of JSON`)

    loadGenerator = await startLoadGenerator()
    const measure = async (variant: Variant, connections: number, seconds: number): Promise<Measurement> => {
      const cpuBefore = process.cpuUsage()
      const result = await loadGenerator!.run({ url: `${baseUrl}${variant.path}`, headers, connections, duration: seconds })
      const cpu = process.cpuUsage(cpuBefore)
      if (result.failures) throw new Error(`${variant.name}: ${result.failures}`)
      return { ...result, serverCpuUsPerRequest: (cpu.user + cpu.system) / result.completed }
    }

    console.log(`\nload average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${WARMUP_S} s warm-up, then ${DURATION_S} s per variant`)
    const results = new Map<number, Map<Variant, Measurement>>()
    for (const connections of CONNECTION_LEVELS) {
      const level = new Map<Variant, Measurement>()
      results.set(connections, level)
      for (const variant of [...VARIANTS, BARE]) {
        await measure(variant, connections, WARMUP_S)
        const run = await measure(variant, connections, DURATION_S)
        level.set(variant, run)
        console.log(`  ${connections} conn. ${variant.name.padEnd(20)} ${Math.round(run.reqPerSec)} req/s, p95 ${run.p95Ms.toFixed(1)} ms`)
      }
    }

    const breakdown = await timeBreakdown(app, database.db, organizationId)
    report(results, breakdown)
  } finally {
    loadGenerator?.stop()
    await bench?.close()
  }
}

/** `count` assets, one a minute up to now, with tags, some in collections; tag_text as the service keeps it. */
async function seed(db: Db, organizationId: string, count: number): Promise<{ assetTags: number; collectionAssets: number }> {
  const random = mulberry32(42)
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!
  const tagIds = TAGS.map(() => uuidv7())
  await db.insertInto('tags').values(TAGS.map((name, i) => ({ id: tagIds[i]!, organization_id: organizationId, name }))).execute()
  const collectionIds = COLLECTIONS.map(() => uuidv7())
  await db
    .insertInto('collections')
    .values(COLLECTIONS.map((name, i) => ({ id: collectionIds[i]!, organization_id: organizationId, name, kind: 'manual' as const, query: null, updated_at: new Date() })))
    .execute()

  const now = Date.now()
  let assetTags = 0
  let collectionAssets = 0
  for (let first = 0; first < count; first += BATCH) {
    const assets = []
    const collectionRows: Array<{ collection_id: string; asset_id: string }> = []
    for (let i = first; i < Math.min(first + BATCH, count); i++) {
      const createdAt = now - (count - i) * 60_000
      const id = uuidv7At(createdAt)
      const sha256 = sha256Hex(`bench asset ${i}`)
      const mime = pick(MIME_TYPES)
      assets.push({
        id,
        organization_id: organizationId,
        title: `${pick(SEASONS)} ${pick(SUBJECTS)} ${i}`,
        asset_type: random() < 0.9 ? pick(DEFAULT_ASSET_TYPES) : null,
        client: random() < 0.95 ? pick(CLIENTS) : null,
        product: random() < 0.8 ? pick(PRODUCTS) : null,
        source_url: random() < 0.5 ? `https://www.figma.com/file/${sha256.slice(0, 12)}` : null,
        created_by_ai: random() < 0.6,
        mime_type: mime,
        ...syntheticFile(random, sha256),
        ...tagColumns([...new Set(Array.from({ length: Math.floor(random() * 4) }, () => pick(TAGS)))]),
        created_at: new Date(createdAt),
        updated_at: new Date(createdAt),
      })
      if (random() < 0.15) collectionRows.push({ collection_id: pick(collectionIds), asset_id: id })
    }
    await db.insertInto('assets').values(assets).execute()
    if (collectionRows.length > 0) await db.insertInto('collection_assets').values(collectionRows).execute()
    assetTags += assets.reduce((sum, asset) => sum + asset.tags.length, 0)
    collectionAssets += collectionRows.length
  }
  return { assetTags, collectionAssets }
}

/** The tag columns a push writes. */
function tagColumns(names: string[]) {
  const tags = names.sort(byTagOrder)
  return { tags, tag_keys: tags.map((name) => name.toLowerCase()), tag_text: tags.join(' ') }
}

async function getPage(url: string, headers: Record<string, string>): Promise<AssetPage> {
  const response = await fetch(url, { headers })
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return (await response.json()) as AssetPage
}

interface StepState {
  rows: AssetWithRelations[]
  page?: unknown
}

interface Step {
  name: string
  where: string
  run: (filter: AssetFilter, state: StepState) => Promise<void>
}

/** Mean ms of each step of a list request, one request at a time, per variant. */
async function timeBreakdown(app: BuiltApp, db: Db, organizationId: string): Promise<Map<Variant, Map<Step, number>>> {
  const page = { limit: PAGE_SIZE, offset: 0 }
  const assets = app.services.assets
  const steps: Step[] = [
    {
      name: 'SQL: select 1 (round trip)',
      where: '(the floor of any query)',
      run: async () => {
        await sql`select 1`.execute(db)
      },
    },
    {
      name: 'SQL: page with tags and collections, and count',
      where: 'store.listAssets (2 queries)',
      run: async (filter, state) => {
        state.rows = (await listAssets(db, organizationId, filter, page)).rows
      },
    },
    {
      name: 'SQL: count(*)',
      where: 'store.countAssets (2nd query)',
      run: async (filter) => {
        await whereFilter(db.selectFrom('assets').select(sql<number>`count(*)::int`.as('n')), organizationId, filter).executeTakeFirstOrThrow()
      },
    },
    {
      name: 'records (2 signed URLs each)',
      where: 'AssetService.record',
      run: async (_filter, state) => {
        state.page = { data: state.rows.map((row) => assets.record(row)), total: 0, ...page }
      },
    },
    {
      name: 'JSON.stringify of the page',
      where: '(serialisation, for scale)',
      run: async (_filter, state) => {
        JSON.stringify(state.page)
      },
    },
    {
      name: 'whole AssetService.list',
      where: 'service.ts list()',
      run: async (filter) => {
        await assets.list(organizationId, filter, page)
      },
    },
  ]
  const result = new Map<Variant, Map<Step, number>>()
  for (const variant of VARIANTS) {
    const totals = new Map<Step, number>(steps.map((step) => [step, 0]))
    const state: StepState = { rows: [] }
    for (let i = 0; i < BREAKDOWN_ITERATIONS + 5; i++) {
      for (const step of steps) {
        const started = performance.now()
        await step.run(variant.filter, state)
        // The first few rounds warm caches and the JIT.
        if (i >= 5) totals.set(step, totals.get(step)! + performance.now() - started)
      }
    }
    result.set(variant, new Map([...totals].map(([step, total]) => [step, total / BREAKDOWN_ITERATIONS])))
  }
  return result
}

function report(results: Map<number, Map<Variant, Measurement>>, breakdown: Map<Variant, Map<Step, number>>): void {
  const headings = ['req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU µs/req', 'vs bare']
  for (const [connections, level] of results) {
    const bare = level.get(BARE)!
    console.log(`\n  ${`${connections} connection${connections === 1 ? '' : 's'}`.padEnd(24)}${headings.map((h) => h.padStart(11)).join('')}`)
    for (const [variant, m] of level) {
      const cells = [Math.round(m.reqPerSec), fmt(m.p50Ms), fmt(m.p95Ms), fmt(m.p99Ms), Math.round(m.serverCpuUsPerRequest), variant === BARE ? '' : percent(m.reqPerSec / bare.reqPerSec)]
      console.log(`  ${variant.name.padEnd(24)}${cells.map((c) => String(c).padStart(11)).join('')}`)
    }
  }

  const steps = [...breakdown.values().next().value!.keys()]
  console.log(`\n  Where a list request's time goes (mean ms, in process, one at a time, ${BREAKDOWN_ITERATIONS} rounds)`)
  console.log(`  ${'step'.padEnd(30)}${'where'.padEnd(31)}${VARIANTS.map((v) => v.name.padStart(13)).join('')}`)
  for (const step of steps) {
    console.log(`  ${step.name.padEnd(30)}${step.where.padEnd(31)}${VARIANTS.map((v) => fmt(breakdown.get(v)!.get(step)!, 2).padStart(13)).join('')}`)
  }

  console.log('')
  for (const [connections, level] of results) {
    const bare = level.get(BARE)!
    for (const variant of VARIANTS) {
      const m = level.get(variant)!
      console.log(
        `${m.p95Ms < TARGET_P95_MS ? 'PASS' : 'MISS'}: ${variant.path} at ${connections} connection${connections === 1 ? '' : 's'}: ` +
          `p95 ${fmt(m.p95Ms)} ms (target < ${TARGET_P95_MS}); ${Math.round(m.reqPerSec)} req/s is ${percent(m.reqPerSec / bare.reqPerSec)} of the bare route's ${Math.round(bare.reqPerSec)}`,
      )
    }
  }
}


function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`
}

function fmt(value: number, digits = 1): string {
  return value.toFixed(digits)
}

function envNumber(name: string, fallback: number): number {
  return positive(name, Number(process.env[name] ?? fallback))
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number (or a comma-separated list of them)`)
  return value
}
