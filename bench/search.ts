/**
 * Search: hybrid search (`POST /api/v1/search`), its text mode, and `GET /api/v1/assets/{id}/similar` on
 * the real app over a library of 100,000 assets in one organization, each beside the same SQL run in this
 * process through the driver (store.searchAssets / store.similarAssets with the request the service
 * builds), and the recall of the HNSW index against exact search.
 *
 * BENCH_VECTORS says what hybrid search's semantic term compares with, one run per entry, each on a fresh
 * app and database (`text,images` runs both back to back, `text,images,images,text` alternates):
 * - `text` (the default): the texts' vectors, 384 dimensions in `asset_embeddings`, from a text provider
 *   speaking the OpenAI protocol (EMBEDDING_BASE_URL); the HNSW index is built by Embeddings.prepare();
 * - `images`: CLIP's image vectors, 512 dimensions (ViT-B-32's) in `asset_image_embeddings`, with an image
 *   provider speaking Immich's ML protocol (IMAGE_EMBEDDING_PROVIDER=immich-ml) and no text provider: a
 *   search sends its words to `/predict` and compares their vector with the pictures'; /similar compares
 *   pictures. The HNSW index is built by ImageEmbeddings.prepare(). Needs pgvector.
 * With more than one run, a comparison of the runs closes the output: each run's figures against the
 * mean of the `text` runs.
 *
 * The library comes from support/search-corpus.ts (seeded, so every run is the same, in both modes):
 * titles, types, clients, products and tags from a small vocabulary, and vectors with cluster structure
 * tied to each asset's words. Assets, tags and the vector rows (as the app writes them once embedded,
 * vectors as binary parameters) are inserted directly in batches; the HNSW index is then built by the
 * app's own prepare(), and `vacuum analyze` runs. The embedding provider is a real HTTP server in a forked
 * child that answers at once with the vector of the query's words; autocannon runs in another.
 *
 * BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) runs on a throwaway database on
 * that PostgreSQL server instead of the embedded one. Without pgvector there, only text mode runs.
 *
 *   npx tsx bench/search.ts
 *   BENCH_VECTORS=text,images npx tsx bench/search.ts
 *   BENCH_ASSETS=20000 BENCH_DURATION=5 npx tsx bench/search.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/search.ts
 */
import { sql, type RawBuilder } from 'kysely'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { benchKey } from './support/app.js'
import { percentile } from './support/child.js'
import { startBenchAppOn, type BenchAppOn, redactedUrl } from './support/database.js'
import { startEmbeddingProvider, type EmbeddingProtocol, type EmbeddingProvider } from './support/embedding-provider.js'
import { envList, envNumber } from './support/env.js'
import { explainRaw, scansOf } from './support/explain.js'
import { startRotatingLoad, type RotatingLoad, type RotatingLoadResult, type RotatingRequest } from './support/rotating-load.js'
import { assetGenerator, QUERIES, randomQueries, seededUuidv7, TAGS, vectorSpace, type VectorSpace } from './support/search-corpus.js'
import type { BuiltApp } from '../src/app.js'
import { parseQuery, textQuery } from '../src/modules/assets/full-text.js'
import { embeddingText } from '../src/modules/search/embeddings.js'
import { byTagOrder } from '../src/modules/catalog/service.js'
import { searchReadiness } from '../src/modules/search/readiness.js'
import { semanticText } from '../src/modules/search/service.js'
import * as store from '../src/modules/search/store.js'
import { sha256Hex } from '../src/platform/crypto.js'
import type { Db } from '../src/platform/db/index.js'
import { vectorParam } from '../src/platform/embeddings/vector.js'
import { mulberry32, syntheticFile } from './support/synthetic.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const ASSETS = envNumber('BENCH_ASSETS', 100_000)
const DURATION_S = envNumber('BENCH_DURATION', 10)
const WARMUP_S = envNumber('BENCH_WARMUP', 2)
const CONNECTION_LEVELS = envList('BENCH_CONNECTIONS', '1,4')
const RAW_ROUNDS = envNumber('BENCH_RAW', 300)
const RECALL_QUERIES = envNumber('BENCH_RECALL_QUERIES', 200)
const EF_LEVELS = envList('BENCH_EF', '40,64,100,200,400,800')
const SHOW_PLANS = process.env.BENCH_EXPLAIN === '1'
const BATCH = 1000
const LIMIT = 20
/** As SearchService: fewer candidates of each kind than this would let one kind crowd out the mix. */
const CANDIDATES = Math.max(40, 2 * LIMIT)
const SIMILAR_ASSETS = 50
const TARGET_P95_MS = 30
const TARGET_RATIO = 1.5
const TARGET_RECALL = 0.95

type Kind = 'hybrid' | 'text' | 'similar'

/** What hybrid search's semantic term compares with, and how the app is given it. */
interface VectorMode {
  name: 'text' | 'images'
  table: store.VectorTable
  model: string
  space: VectorSpace
  protocol: EmbeddingProtocol
  /** The settings that configure the provider at `url`. */
  env(url: string): Record<string, string>
  /** The app's own start-up step that builds the HNSW index of the stored vectors. */
  prepare(app: BuiltApp): Promise<void>
  /** The index the app uses for this mode's vectors, as SearchService asks for it. */
  index(app: BuiltApp): Promise<{ dimensions: number; type: store.IndexType } | undefined>
  /** A row `e` of `table` holds a vector to compare (as the store's hasVector). */
  hasVector: RawBuilder<boolean>
}

const TEXT_MODEL = 'bench-words-384'
/** Immich's default CLIP model (IMAGE_EMBEDDING_MODEL's default), whose vectors have 512 dimensions. */
const IMAGE_MODEL = 'ViT-B-32__openai'

const MODES: Record<VectorMode['name'], VectorMode> = {
  text: {
    name: 'text',
    table: 'asset_embeddings',
    model: TEXT_MODEL,
    space: vectorSpace(384),
    protocol: 'openai',
    env: (url) => ({ EMBEDDING_BASE_URL: url, EMBEDDING_MODEL: TEXT_MODEL, EMBEDDING_DIMENSIONS: '384' }),
    prepare: (app) => app.services.embeddings.prepare(),
    index: (app) => app.services.embeddings.index(),
    hasVector: sql<boolean>`e.embedded_hash is not null`,
  },
  images: {
    name: 'images',
    table: 'asset_image_embeddings',
    model: IMAGE_MODEL,
    space: vectorSpace(512),
    protocol: 'immich-ml',
    env: (url) => ({ IMAGE_EMBEDDING_PROVIDER: 'immich-ml', IMAGE_EMBEDDING_URL: url, IMAGE_EMBEDDING_MODEL: IMAGE_MODEL }),
    prepare: (app) => app.services.imageEmbeddings.prepare(),
    index: (app) => app.services.pgvector.indexFor(512),
    hasVector: sql<boolean>`e.embedding is not null`,
  },
}

const VECTOR_MODES = (process.env.BENCH_VECTORS ?? 'text').split(',').map((name) => {
  const mode = MODES[name as VectorMode['name']]
  if (!mode) throw new Error(`BENCH_VECTORS takes a comma-separated list of ${Object.keys(MODES).join(', ')}; got "${name}"`)
  return mode
})

interface Row {
  kind: Kind
  where: string
  connections: number | undefined
  reqPerSec: number
  p50Ms: number
  p95Ms: number
  p99Ms: number
  meanMs: number
  cpuUsPerRequest: number | undefined
}

type ScanSettings = Parameters<typeof store.withVectorScan>[1]

type Timing = Pick<RotatingLoadResult, 'reqPerSec' | 'p50Ms' | 'p95Ms' | 'p99Ms' | 'meanMs'>

interface RecallRow {
  ef: number
  /** Mean over all queries, and over the queries of 1, 2 and 3 words. */
  recall: number
  byWords: number[]
  worst: number
  /** Mean of (distance of the k-th hit found / distance of the exact k-th - 1): how far off the misses are. */
  gap: number
  meanMs: number
}

/** One run's figures, for the comparison of runs. */
interface RunResult {
  mode: VectorMode
  rows: Row[]
  recall: RecallSet[] | undefined
  indexMs: number | undefined
  indexSize: string | undefined
  load: { before: number[]; after: number[] }
}

await main()

async function main(): Promise<void> {
  const results: RunResult[] = []
  for (const [i, mode] of VECTOR_MODES.entries()) {
    console.log(`${i > 0 ? '\n\n' : ''}=== Run ${i + 1} of ${VECTOR_MODES.length}: semantic term against the ${mode.name === 'text' ? "texts' vectors" : "images' vectors (CLIP)"} (BENCH_VECTORS entry "${mode.name}") ===`)
    results.push(await run(mode))
  }
  if (results.length > 1) compareRuns(results)
}

async function run(mode: VectorMode): Promise<RunResult> {
  const loadBefore = loadavg()
  let provider: EmbeddingProvider | undefined
  let bench: BenchAppOn | undefined
  let load: RotatingLoad | undefined
  try {
    const { dimensions } = mode.space
    provider = await startEmbeddingProvider(mode.protocol, dimensions)
    bench = await startBenchAppOn('search', SERVER_URL, {
      ...mode.env(provider.baseUrl),
      // Thousands of searches on one key per minute: this measures search, not 429s.
      RATE_LIMIT_EXPENSIVE: '1000000',
      RATE_LIMIT_CHEAP: '1000000',
      RATE_LIMIT_STANDARD: '1000000',
      SERVE_BACKGROUND_WORK: 'false',
    })
    const { app, config, database, baseUrl } = bench
    const db = database.db
    const vector = bench.migration.vector
    if (!vector && mode.name === 'images') throw new Error('BENCH_VECTORS=images needs pgvector: run it on the embedded database (without BENCH_DATABASE_URL)')
    const embeddings = app.services.embeddings
    // As SearchService asks them: the HNSW index of the mode's dimension, and the scan settings.
    const index = await mode.index(app)
    const hybridScan = await app.services.pgvector.scanSettings(CANDIDATES, config.vectorEfSearch)
    const similarScan = await app.services.pgvector.scanSettings(LIMIT, config.vectorEfSearch)

    const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)).rows[0]!.v
    const pgvector = vector ? (await sql<{ v: string }>`select extversion as v from pg_extension where extname = 'vector'`.execute(db)).rows[0]!.v : undefined
    console.log(
      `Database: ${database.kind === 'embedded' ? `embedded (PGlite, PostgreSQL ${version})` : `PostgreSQL ${version} at ${redactedUrl(SERVER_URL!)}, throwaway database ${bench.databaseName}`}; ` +
        `pgvector ${pgvector ?? 'not installed'}`,
    )
    console.log(`Node ${process.version}, ${cpus().length} CPUs, load average ${loadavgText(loadBefore)}`)
    console.log(
      `Library: ${ASSETS} assets in one organization, ${mode.table} of model ${mode.model}, ${dimensions} dimensions (${mode.protocol} provider); ` +
        `search limit ${LIMIT}, ${CANDIDATES} candidates of each kind` +
        (vector ? `, VECTOR_EF_SEARCH ${config.vectorEfSearch} (hybrid scans at ef_search ${hybridScan.efSearch}, iterative scan ${hybridScan.iterativeScan ? 'on' : 'off'})` : ''),
    )
    if (!vector) {
      console.log(
        '\nThis PostgreSQL server has no pgvector: only text mode runs here (API and raw). Hybrid search, similar assets ' +
          'and recall need pgvector; the embedded database has it (run without BENCH_DATABASE_URL).',
      )
    }

    const { organizationId, token } = await benchKey(app, 'assets:read')
    const headers = { authorization: `Bearer ${token}` }

    const seeded = await seed(db, organizationId, ASSETS, mode, vector)
    console.log(
      `\nSeeded ${ASSETS} assets, ${seeded.assetTags} asset tags, ${ASSETS} ${mode.table} rows${vector ? '' : ' (pending: no pgvector)'}: ` +
        `generating ${secs(seeded.generateMs)}, inserting ${secs(seeded.insertMs)} (batches of ${BATCH})`,
    )
    let indexMs: number | undefined
    let indexSize: string | undefined
    if (vector) {
      const started = performance.now()
      await mode.prepare(app)
      indexMs = performance.now() - started
      const indexName = `${mode.table}_hnsw_${dimensions}`
      const built = await sql<{ valid: boolean; options: string[] | null }>`
        select i.indisvalid as valid, c.reloptions as options from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ${indexName}
      `.execute(db)
      if (!index || !built.rows[0]?.valid) throw new Error(`prepare() did not build ${indexName}`)
      indexSize = (await sql<{ size: string }>`select pg_size_pretty(pg_relation_size(${indexName}::regclass)) as size`.execute(db)).rows[0]!.size
      const options = built.rows[0].options?.join(', ') ?? "pgvector's defaults, m 16, ef_construction 64"
      console.log(`HNSW index ${indexName} (${index.type}, ${options}) built by ${mode.name === 'text' ? 'Embeddings' : 'ImageEmbeddings'}.prepare() in ${secs(indexMs)} (${indexSize})`)
    }
    const started = performance.now()
    await sql`vacuum analyze`.execute(db)
    console.log(`vacuum analyze ${secs(performance.now() - started)}`)
    if (vector) console.log(await storageOf(db, mode.table))
    const readiness = await searchReadiness(embeddings, app.services.imageEmbeddings)
    console.log(`Search mode: ${readiness.mode}${readiness.reason ? ` (${readiness.reason})` : ''}${readiness.images ? `; images: ${readiness.images.model}, index ${readiness.images.index}` : ''}`)

    console.log(`\nQueries (rotated in every run), assets whose text matches:`)
    const matches = await Promise.all(QUERIES.map((q) => textMatches(db, organizationId, q)))
    console.log(`  ${QUERIES.map((q, i) => `${q} ${matches[i]}`).join(', ')}`)

    const indexType = index?.dimensions === dimensions ? index.type : undefined
    // The request SearchService builds for q; `withVector` false is its text mode.
    const searchRequest = (q: string, withVector: boolean): store.SearchRequest => ({
      organizationId,
      filter: {},
      tsquery: textQuery(q),
      vector: withVector
        ? { table: mode.table, value: vectorParam(mode.space.textVector(semanticText(parseQuery(q)))), model: mode.model, dimensions, index: indexType }
        : undefined,
      candidates: CANDIDATES,
      limit: LIMIT,
    })
    const similarRequest = { organizationId, limit: LIMIT, table: mode.table, model: mode.model, dimensions, index: indexType }
    const raw: Record<Kind, (i: number) => Promise<Array<{ id: string }>>> = {
      hybrid: (i) => store.withVectorScan(db, hybridScan, (tx) => store.searchAssets(tx, searchRequest(QUERIES[i % QUERIES.length]!, true))),
      text: (i) => store.searchAssets(db, searchRequest(QUERIES[i % QUERIES.length]!, false)),
      similar: (i) =>
        store.withVectorScan(db, similarScan, (tx) =>
          store.similarAssets(tx, { ...similarRequest, assetId: seeded.sampleIds[i % seeded.sampleIds.length]! }),
        ),
    }
    // The same through SearchService in this process: what the service adds to the SQL, without HTTP.
    const search = app.services.search
    const service: Record<Kind, (i: number) => Promise<unknown>> = {
      hybrid: (i) => search.search(organizationId, { q: QUERIES[i % QUERIES.length]!, limit: LIMIT }),
      text: (i) => search.search(organizationId, { q: QUERIES[i % QUERIES.length]!, limit: LIMIT }),
      similar: (i) => search.similar(organizationId, seeded.sampleIds[i % seeded.sampleIds.length]!, LIMIT),
    }
    const searchBodies: RotatingRequest[] = QUERIES.map((q) => ({ method: 'POST', path: '/api/v1/search', body: JSON.stringify({ q, limit: LIMIT }) }))
    const similarPaths: RotatingRequest[] = seeded.sampleIds.map((id) => ({ method: 'GET', path: `/api/v1/assets/${id}/similar?limit=${LIMIT}` }))

    load = await startRotatingLoad()
    const rows: Row[] = []
    const measure = async (kind: Kind, requests: RotatingRequest[], expect: string) => {
      console.log(`\n${kind}: ${WARMUP_S} s warm-up, then ${DURATION_S} s per connection count`)
      for (const connections of CONNECTION_LEVELS) {
        const options = { url: baseUrl, headers, connections, requests, expect }
        await load!.run({ ...options, duration: WARMUP_S })
        const cpuBefore = process.cpuUsage()
        const result = await load!.run({ ...options, duration: DURATION_S })
        const cpu = process.cpuUsage(cpuBefore)
        if (result.failures) throw new Error(`${kind} at ${connections} connections: ${result.failures}`)
        const row = { kind, where: 'API', connections, ...result, cpuUsPerRequest: (cpu.user + cpu.system) / result.completed }
        rows.push(row)
        console.log(`  API, ${connections} conn.: ${Math.round(row.reqPerSec)} req/s, p50 ${fmt(row.p50Ms)} ms, p95 ${fmt(row.p95Ms)} ms`)
      }
      const inService = (await timeRaw(service[kind])).timing
      rows.push({ kind, where: 'service (in process)', connections: undefined, ...inService, cpuUsPerRequest: undefined })
      console.log(`  service, one at a time: ${Math.round(inService.reqPerSec)} /s, p50 ${fmt(inService.p50Ms)} ms, p95 ${fmt(inService.p95Ms)} ms`)
      const { timing, times } = await timeRaw(raw[kind])
      rows.push({ kind, where: 'raw SQL (in process)', connections: undefined, ...timing, cpuUsPerRequest: undefined })
      console.log(`  raw, one at a time: ${Math.round(timing.reqPerSec)} /s, p50 ${fmt(timing.p50Ms)} ms, p95 ${fmt(timing.p95Ms)} ms`)
      if (kind !== 'similar') perQuery.set(kind, QUERIES.map((_, q) => mean(times.filter((_, i) => i % QUERIES.length === q))))
    }
    const perQuery = new Map<Kind, number[]>()

    const plans: Array<[string, string[]]> = []
    if (vector) {
      await checkAgainstRaw(baseUrl, headers, 'hybrid', (i) => raw.hybrid(i))
      plans.push(['hybrid, "summer"', await withPlan(db, hybridScan, (tx) => store.searchAssets(tx, searchRequest('summer', true)))])
      plans.push(['hybrid, "zeppelin"', await withPlan(db, hybridScan, (tx) => store.searchAssets(tx, searchRequest('zeppelin', true)))])
      await measure('hybrid', searchBodies, '"mode":"hybrid"')

      const similar = await getJson<{ data: Array<{ id: string }> }>(`${baseUrl}${similarPaths[0]!.path}`, headers)
      const similarRaw = await raw.similar(0)
      if (similar.data.length !== LIMIT || !sameIds(similar.data, similarRaw)) throw new Error('similar: the API and store.similarAssets disagree, or fewer than the limit')
      plans.push([
        'similar',
        await withPlan(db, similarScan, (tx) =>
          store.similarAssets(tx, { ...similarRequest, assetId: seeded.sampleIds[0]! }),
        ),
      ])
      await measure('similar', similarPaths, '"semantic_score"')

      // Text mode as an organization with AI off gets it (the same library; the service checks the setting per search).
      await app.services.orgs.updateSettings(organizationId, { ai_enabled: false })
    }
    await checkAgainstRaw(baseUrl, headers, 'text', (i) => raw.text(i))
    plans.push(['text, "summer"', await explainRaw(db, (explained) => store.searchAssets(explained, searchRequest('summer', false)))])
    // Two common words whose matches together are few: the slowest kind of text query.
    plans.push(['text, "holiday packshot"', await explainRaw(db, (explained) => store.searchAssets(explained, searchRequest('holiday packshot', false)))])
    await measure('text', searchBodies, '"mode":"text"')
    if (vector) await app.services.orgs.updateSettings(organizationId, { ai_enabled: true })

    const recall = vector && index ? await measureRecall(db, organizationId, mode, config.vectorEfSearch, { type: index.type, iterativeScan: hybridScan.iterativeScan }) : undefined

    console.log(`\nRaw SQL per query (mean ms, one at a time), by how many assets the text matches:`)
    const kinds = [...perQuery.keys()]
    console.log(`  ${'query'.padEnd(20)}${'matches'.padStart(9)}${kinds.map((k) => k.padStart(9)).join('')}`)
    for (const [q, query] of QUERIES.entries()) {
      console.log(`  ${query.padEnd(20)}${String(matches[q]).padStart(9)}${kinds.map((k) => fmt(perQuery.get(k)![q]!).padStart(9)).join('')}`)
    }

    console.log('\nPlans of the statements the store functions run (EXPLAIN ANALYZE; BENCH_EXPLAIN=1 prints them whole):')
    for (const [name, plan] of plans) {
      const time = plan.find((line) => line.startsWith('Execution Time'))
      console.log(`  ${name.padEnd(20)} ${scansOf(plan).join('; ')}${time ? `; ${time}` : ''}`)
      if (SHOW_PLANS) console.log(plan.map((line) => `      ${line}`).join('\n'))
    }

    const loadAfter = loadavg()
    report(rows, recall, database.kind)
    console.log(`Load average at the end of the run: ${loadavgText(loadAfter)}`)
    return { mode, rows, recall, indexMs, indexSize, load: { before: loadBefore, after: loadAfter } }
  } finally {
    load?.stop()
    await bench?.close()
    provider?.stop()
  }
}

interface SeedResult {
  generateMs: number
  insertMs: number
  assetTags: number
  /** Assets spread over the library, for /similar. */
  sampleIds: string[]
}

/**
 * `count` assets with their tags and vector rows as the app leaves them once embedded. Text mode:
 * asset_embeddings with source_text from embeddingText(), text_hash and embedded_hash its SHA-256, the
 * mode's model and dimension, nothing due (without pgvector as the app writes them there: the text, due,
 * no vector). Image mode: asset_image_embeddings with the vector of the asset's file (embedded_sha256),
 * nothing due; and asset_embeddings as the app writes them with no text provider (the text, due).
 */
async function seed(db: Db, organizationId: string, count: number, mode: VectorMode, withVectors: boolean): Promise<SeedResult> {
  const generator = assetGenerator(42, mode.space)
  const ids = mulberry32(7)
  const firstTime = Date.UTC(2025, 0, 1)
  const tagIds = new Map(TAGS.map((name, i) => [name, seededUuidv7(firstTime - 1000 + i, ids)]))
  await db.insertInto('tags').values(TAGS.map((name) => ({ id: tagIds.get(name)!, organization_id: organizationId, name }))).execute()
  const sampleEvery = Math.max(1, Math.floor(count / SIMILAR_ASSETS))
  const result: SeedResult = { generateMs: 0, insertMs: 0, assetTags: 0, sampleIds: [] }
  for (let first = 0; first < count; first += BATCH) {
    let started = performance.now()
    const assets = []
    let assetTags = 0
    const embeddings = []
    const images = []
    for (let i = first; i < Math.min(first + BATCH, count); i++) {
      const asset = generator.next()
      const createdAt = new Date(firstTime + i * 60_000)
      const id = seededUuidv7(createdAt.getTime(), ids)
      const sha256 = sha256Hex(`bench search asset ${i}`)
      const random = generator.random
      assets.push({
        id,
        organization_id: organizationId,
        title: asset.title,
        asset_type: asset.asset_type,
        client: asset.client,
        product: asset.product,
        source_url: null,
        created_by_ai: random() < 0.6,
        mime_type: random() < 0.5 ? 'image/png' : 'image/jpeg',
        ...syntheticFile(random, sha256),
        tags: [...asset.tags].sort(byTagOrder),
        tag_keys: [...asset.tags].sort(byTagOrder).map((tag) => tag.toLowerCase()),
        tag_text: asset.tags.join(' '),
        created_at: createdAt,
        updated_at: createdAt,
      })
      assetTags += asset.tags.length
      const text = embeddingText(asset)
      const hash = sha256Hex(text)
      const vector = sql<Buffer>`${vectorParam(asset.vector)}::vector`
      embeddings.push(
        withVectors && mode.table === 'asset_embeddings'
          ? {
              asset_id: id,
              organization_id: organizationId,
              source_text: text,
              text_hash: hash,
              embedded_hash: hash,
              model: mode.model,
              dimensions: mode.space.dimensions,
              embedding: vector,
              embedded_at: createdAt,
              next_attempt_at: null,
            }
          : { asset_id: id, organization_id: organizationId, source_text: text, text_hash: hash, next_attempt_at: createdAt },
      )
      if (mode.table === 'asset_image_embeddings') {
        images.push({
          asset_id: id,
          organization_id: organizationId,
          embedded_sha256: sha256,
          model: mode.model,
          dimensions: mode.space.dimensions,
          embedding: vector,
          embedded_at: createdAt,
          next_attempt_at: null,
        })
      }
      if (i % sampleEvery === 0 && result.sampleIds.length < SIMILAR_ASSETS) result.sampleIds.push(id)
    }
    result.generateMs += performance.now() - started
    started = performance.now()
    await db.insertInto('assets').values(assets).execute()
    await db.insertInto('asset_embeddings').values(embeddings).execute()
    if (images.length > 0) await db.insertInto('asset_image_embeddings').values(images).execute()
    result.insertMs += performance.now() - started
    result.assetTags += assetTags
  }
  return result
}

/**
 * Where the vectors sit: a row longer than ~2 kB has its vector moved out of line to the TOAST table
 * (pgvector's type is stored `external`), which every read of it from the table (not the index) follows.
 */
async function storageOf(db: Db, table: store.VectorTable): Promise<string> {
  const { rows } = await sql<{ heap: string; toast: string; vector_bytes: number }>`
    select pg_size_pretty(pg_relation_size(c.oid)) as heap, pg_size_pretty(pg_relation_size(c.reltoastrelid)) as toast,
      (select avg(pg_column_size(embedding))::int from ${sql.table(table)}) as vector_bytes
    from pg_class c where c.relname = ${table}
  `.execute(db)
  const row = rows[0]!
  return `${table}: heap ${row.heap}, TOAST ${row.toast}; a stored vector takes ${row.vector_bytes} bytes`
}

async function textMatches(db: Db, organizationId: string, q: string): Promise<number> {
  const tsquery = textQuery(q)!
  const row = await sql<{ n: number }>`select count(*)::int as n from assets where organization_id = ${organizationId} and search @@ ${tsquery}`.execute(db)
  return row.rows[0]!.n
}

/** Every query once through the API and once raw: the same ids in the same order, or the comparison is off. */
async function checkAgainstRaw(
  baseUrl: string,
  headers: Record<string, string>,
  mode: 'hybrid' | 'text',
  raw: (i: number) => Promise<Array<{ id: string }>>,
): Promise<void> {
  let same = 0
  for (const [i, q] of QUERIES.entries()) {
    const answer = await postJson<{ mode: string; data: Array<{ id: string }> }>(`${baseUrl}/api/v1/search`, headers, { q, limit: LIMIT })
    if (answer.mode !== mode) throw new Error(`search for "${q}" answered in ${answer.mode} mode, expected ${mode}`)
    if (mode === 'hybrid' && answer.data.length !== LIMIT) throw new Error(`search for "${q}" answered ${answer.data.length} hits, expected ${LIMIT}`)
    if (sameIds(answer.data, await raw(i))) same += 1
  }
  console.log(`\n${mode}: API and raw SQL return the same ids in the same order for ${same} of ${QUERIES.length} queries`)
  if (same < QUERIES.length) throw new Error(`${mode}: the raw request differs from the service's`)
}

/** `RAW_ROUNDS` calls one at a time (after a few to warm up), rotating like the API runs. */
async function timeRaw(call: (i: number) => Promise<unknown>): Promise<{ timing: Timing; times: number[] }> {
  for (let i = 0; i < 20; i++) await call(i)
  const times: number[] = []
  const started = performance.now()
  for (let i = 0; i < RAW_ROUNDS; i++) {
    const t = performance.now()
    await call(i)
    times.push(performance.now() - t)
  }
  const timing = {
    reqPerSec: (RAW_ROUNDS * 1000) / (performance.now() - started),
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    p99Ms: percentile(times, 99),
    meanMs: mean(times),
  }
  return { timing, times }
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length
}

function withPlan(db: Db, settings: ScanSettings, run: (tx: Db) => Promise<unknown>): Promise<string[]> {
  return store.withVectorScan(db, settings, (tx) => explainRaw(tx, run))
}

interface RecallQuery {
  label: string
  /** A query's vector, as hybrid search sends it; or, for /similar, the asset whose stored vector is the query (itself excluded). */
  vector?: Buffer
  assetId?: string
  words?: number
}

interface RecallSet {
  name: string
  rows: RecallRow[]
  /** The app's own candidate scan, where it differs from the rows: hybrid's top CANDIDATES at its ef_search. */
  app: RecallRow | undefined
  exactMs: number
  worstQueries: string[]
}

/**
 * Recall@20 of the mode's HNSW index (`embedding::vector(N) <=> q`, under withVectorScan's settings) against
 * exact search (the same ORDER BY on the bare column, which no index covers), for two kinds of query:
 * random texts of one to three words (the vectors hybrid search gets from the provider), and stored
 * vectors of random assets (what /similar searches with).
 */
async function measureRecall(
  db: Db,
  organizationId: string,
  mode: VectorMode,
  configuredEf: number,
  scan: { type: store.IndexType; iterativeScan: boolean },
): Promise<RecallSet[]> {
  const { dimensions } = mode.space
  const table = sql.table(mode.table)
  // The expression the HNSW index is built on (embedding::vector(N)), as the store casts it.
  const cast = sql.raw(`${scan.type}(${dimensions})`)
  const settings = (efSearch: number): ScanSettings => ({ efSearch, iterativeScan: scan.iterativeScan })
  const nearest = (executor: Db, query: RecallQuery, k: number, indexed: boolean) => {
    const q = query.vector ? sql`${query.vector}::vector` : sql`(select embedding from ${table} where asset_id = ${query.assetId!})`
    const distance = indexed ? sql`e.embedding::${cast} <=> ${q}::${cast}` : sql`e.embedding <=> ${q}`
    return sql<{ asset_id: string; distance: number }>`
      select e.asset_id, ${distance} as distance from ${table} e
      where e.organization_id = ${organizationId} and e.model = ${mode.model} and e.dimensions = ${dimensions} and ${mode.hasVector}
        ${query.assetId ? sql`and e.asset_id <> ${query.assetId}` : sql``}
      order by ${distance} limit ${k}
    `.execute(executor)
  }

  const texts = randomQueries(99, RECALL_QUERIES)
  const textQueries: RecallQuery[] = texts.map((q) => ({ label: q, vector: vectorParam(mode.space.textVector(q)), words: q.split(' ').length }))
  const stored = await sql<{ asset_id: string }>`
    select asset_id from ${table} where organization_id = ${organizationId} order by md5(asset_id::text) limit ${Math.ceil(RECALL_QUERIES / 2)}
  `.execute(db)
  const storedQueries: RecallQuery[] = stored.rows.map((row) => ({ label: row.asset_id, assetId: row.asset_id }))

  console.log(`\nRecall@${LIMIT} of the HNSW index on ${mode.table} against exact search`)
  for (const query of [textQueries[0]!, storedQueries[0]!]) {
    const indexPlan = await store.withVectorScan(db, settings(40), (tx) => explainRaw(tx, (explained) => nearest(explained, query, LIMIT, true)))
    const exactPlan = await explainRaw(db, (explained) => nearest(explained, query, LIMIT, false))
    const kind = query.vector ? 'text query' : 'stored vector'
    console.log(`  ${kind}, index: ${scansOf(indexPlan).join('; ')}`)
    console.log(`  ${kind}, exact: ${scansOf(exactPlan).join('; ')}`)
    if (!scansOf(indexPlan).some((scan) => scan.includes('hnsw'))) throw new Error(`the index query does not use the HNSW index:\n${indexPlan.join('\n')}`)
    if (scansOf(exactPlan).some((scan) => scan.includes('hnsw'))) throw new Error(`the exact query uses the HNSW index:\n${exactPlan.join('\n')}`)
    if (SHOW_PLANS) console.log([...indexPlan, '', ...exactPlan].map((line) => `      ${line}`).join('\n'))
  }

  const measureSet = async (name: string, queries: RecallQuery[], app: { ef: number; k: number } | undefined): Promise<RecallSet> => {
    const k = Math.max(LIMIT, app?.k ?? 0)
    const exact: Array<Array<{ asset_id: string; distance: number }>> = []
    const started = performance.now()
    for (const query of queries) exact.push((await nearest(db, query, k, false)).rows)
    const exactMs = (performance.now() - started) / queries.length
    console.log(`  ${name}: exact search ${fmt(exactMs)} ms per query`)
    const perQuery: number[] = []
    const measureAt = async (ef: number, limit: number): Promise<RecallRow> => {
      const recalls: number[] = []
      const gaps: number[] = []
      const begun = performance.now()
      for (const [i, query] of queries.entries()) {
        const found = (await store.withVectorScan(db, settings(ef), (tx) => nearest(tx, query, limit, true))).rows
        const truth = exact[i]!.slice(0, limit)
        const ids = new Set(truth.map((row) => row.asset_id))
        recalls.push(found.filter((row) => ids.has(row.asset_id)).length / limit)
        // relaxed_order may return the hits slightly out of order: the farthest of them is the k-th.
        gaps.push(Math.max(...found.map((row) => row.distance)) / truth.at(-1)!.distance - 1)
      }
      if (ef === configuredEf && limit === LIMIT) perQuery.push(...recalls)
      const byWords = [1, 2, 3].map((words) => mean(recalls.filter((_, i) => queries[i]!.words === words)))
      return { ef, recall: mean(recalls), byWords, worst: Math.min(...recalls), gap: mean(gaps), meanMs: (performance.now() - begun) / queries.length }
    }
    const rows: RecallRow[] = []
    for (const ef of EF_LEVELS) {
      const row = await measureAt(ef, LIMIT)
      rows.push(row)
      console.log(`  ${name}, ef_search ${String(ef).padStart(4)}: recall@${LIMIT} ${row.recall.toFixed(3)} (worst ${row.worst.toFixed(2)}), ${fmt(row.meanMs)} ms per query`)
    }
    const appRow = app && (await measureAt(app.ef, app.k))
    if (appRow) console.log(`  ${name}, the app's candidate scan (top ${app!.k} at ef_search ${app!.ef}): recall@${app!.k} ${appRow.recall.toFixed(3)}`)
    // Stored vectors are named by asset id, which says nothing: only text queries are listed.
    const worstQueries = queries[0]?.vector
      ? perQuery
          .map((recall, i) => ({ recall, label: queries[i]!.label }))
          .sort((a, b) => a.recall - b.recall)
          .slice(0, 5)
          .map((q) => `"${q.label}" ${q.recall.toFixed(2)}`)
      : []
    return { name, rows, app: appRow, exactMs, worstQueries }
  }

  return [
    await measureSet(`text queries (${textQueries.length})`, textQueries, { ef: Math.max(configuredEf, CANDIDATES), k: CANDIDATES }),
    await measureSet(`stored vectors (${storedQueries.length})`, storedQueries, undefined),
  ]
}

function report(rows: Row[], recall: RecallSet[] | undefined, kind: 'embedded' | 'postgres'): void {
  const headings = ['conn.', 'req/s', 'mean ms', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU µs/req', 'mean/raw', 'p50/raw']
  console.log(`\nSummary (${kind === 'embedded' ? 'embedded database' : 'PostgreSQL'}, ${ASSETS} assets, limit ${LIMIT}; CPU is this process's${kind === 'embedded' ? ', the database worker included' : ', PostgreSQL not included'})`)
  console.log(`  ${'kind'.padEnd(8)}${'where'.padEnd(22)}${headings.map((h) => h.padStart(11)).join('')}`)
  for (const row of rows) {
    const rawRow = rows.find((r) => r.kind === row.kind && r.where.startsWith('raw'))!
    const cells = [
      row.connections ?? '1 (seq.)',
      Math.round(row.reqPerSec),
      fmt(row.meanMs),
      fmt(row.p50Ms),
      fmt(row.p95Ms),
      fmt(row.p99Ms),
      row.cpuUsPerRequest === undefined ? '' : Math.round(row.cpuUsPerRequest),
      row === rawRow ? '' : `${(row.meanMs / rawRow.meanMs).toFixed(2)}x`,
      row === rawRow ? '' : `${(row.p50Ms / rawRow.p50Ms).toFixed(2)}x`,
    ]
    console.log(`  ${row.kind.padEnd(8)}${row.where.padEnd(22)}${cells.map((c) => String(c).padStart(11)).join('')}`)
  }
  for (const set of recall ?? []) {
    const cells = (values: Array<string | number>) => values.map((v) => String(v).padStart(11)).join('')
    const words = set.rows[0]!.byWords.some((r) => !Number.isNaN(r))
    console.log(`\n  ${set.name.padEnd(30)}${cells([`recall@${LIMIT}`, ...(words ? ['1 word', '2 words', '3 words'] : []), 'worst', '20th dist.', 'ms/query'])}`)
    for (const row of [...set.rows, ...(set.app ? [set.app] : [])]) {
      const name = row === set.app ? `ef_search ${row.ef}, top ${CANDIDATES} (app)` : `ef_search ${row.ef}`
      const byWords = words ? row.byWords.map((r) => r.toFixed(3)) : []
      console.log(`  ${name.padEnd(30)}${cells([row.recall.toFixed(3), ...byWords, row.worst.toFixed(2), `+${(row.gap * 100).toFixed(2)}%`, fmt(row.meanMs)])}`)
    }
    console.log(`  ${'exact'.padEnd(30)}${cells(['1.000', ...(words ? ['1.000', '1.000', '1.000'] : []), '1.00', '+0.00%', fmt(set.exactMs)])}`)
    if (set.worstQueries.length > 0) console.log(`  worst at VECTOR_EF_SEARCH: ${set.worstQueries.join(', ')}`)
  }

  console.log('')
  for (const row of rows) {
    if (row.connections === undefined || row.kind === 'similar') continue
    const verdict = row.p95Ms < TARGET_P95_MS ? 'PASS' : 'MISS'
    console.log(`${verdict}: ${row.kind} search through the API at ${row.connections} connection${row.connections === 1 ? '' : 's'}: p95 ${fmt(row.p95Ms)} ms (target < ${TARGET_P95_MS})`)
  }
  for (const kindName of ['hybrid', 'text', 'similar'] as const) {
    const api = rows.find((r) => r.kind === kindName && r.connections === 1)
    const rawRow = rows.find((r) => r.kind === kindName && r.where.startsWith('raw'))
    if (!api || !rawRow) continue
    const ratio = api.meanMs / rawRow.meanMs
    console.log(
      `${ratio <= TARGET_RATIO ? 'PASS' : 'MISS'}: ${kindName} API within ${TARGET_RATIO}x of raw SQL: mean ${fmt(api.meanMs)} ms at 1 connection vs ${fmt(rawRow.meanMs)} ms raw = ${ratio.toFixed(2)}x ` +
        `(p50 ${(api.p50Ms / rawRow.p50Ms).toFixed(2)}x, p95 ${(api.p95Ms / rawRow.p95Ms).toFixed(2)}x)`,
    )
  }
  for (const set of recall ?? []) {
    const enough = set.rows.find((row) => row.recall >= TARGET_RECALL)
    console.log(
      enough
        ? `PASS: recall@${LIMIT} of ${set.name} >= ${TARGET_RECALL} from ef_search ${enough.ef} (${enough.recall.toFixed(3)}) among ${EF_LEVELS.join(', ')}`
        : `MISS: recall@${LIMIT} of ${set.name} stays below ${TARGET_RECALL} at every ef_search tried (${EF_LEVELS.join(', ')}); best ${Math.max(...set.rows.map((r) => r.recall)).toFixed(3)}`,
    )
  }
  if (!recall) {
    console.log('(hybrid, similar and recall not run: no pgvector on this database)')
  }
}

/**
 * The runs side by side: each run's API, service and raw figures, index and recall, then every kind's
 * figures in each mode against the text runs' (means over the runs of a mode, when a mode ran twice).
 */
function compareRuns(results: RunResult[]): void {
  console.log(`\n\n=== Comparison of the ${results.length} runs (${ASSETS} assets, limit ${LIMIT}, ${DURATION_S} s per API level) ===`)
  for (const [i, result] of results.entries()) {
    const index = result.indexMs === undefined ? 'no index' : `index ${secs(result.indexMs)}, ${result.indexSize}`
    console.log(`  run ${i + 1}: ${result.mode.name} (${result.mode.space.dimensions} dimensions), ${index}, load average ${loadavgText(result.load.before)} -> ${loadavgText(result.load.after)}`)
    for (const set of result.recall ?? []) {
      console.log(`    recall@${LIMIT}, ${set.name}: ${set.rows.map((row) => `ef ${row.ef} ${row.recall.toFixed(3)}`).join(', ')}`)
    }
  }
  const keyOf = (row: Row) => `${row.kind} ${row.where}${row.connections === undefined ? '' : `, ${row.connections} conn.`}`
  const keys = [...new Set(results.flatMap((result) => result.rows.map(keyOf)))]
  const meanOf = (name: VectorMode['name'], key: string) => {
    const rows = results.filter((result) => result.mode.name === name).flatMap((result) => result.rows.filter((row) => keyOf(row) === key))
    if (rows.length === 0) return undefined
    return { p50Ms: mean(rows.map((r) => r.p50Ms)), p95Ms: mean(rows.map((r) => r.p95Ms)), reqPerSec: mean(rows.map((r) => r.reqPerSec)) }
  }
  const headings = ['p50 ms', 'p95 ms', 'req/s']
  console.log(`\n  ${''.padEnd(40)}${results.map((_, i) => `run ${i + 1}: ${headings.join(' / ')}`.padStart(34)).join('')}`)
  for (const key of keys) {
    const cells = results.map((result) => {
      const row = result.rows.find((r) => keyOf(r) === key)
      return (row ? `${fmt(row.p50Ms)} / ${fmt(row.p95Ms)} / ${Math.round(row.reqPerSec)}` : '').padStart(34)
    })
    console.log(`  ${key.padEnd(40)}${cells.join('')}`)
  }
  for (const name of new Set(results.map((result) => result.mode.name).filter((name) => name !== 'text'))) {
    console.log(`\n  ${name} against text (means over the runs of each; > 1 is slower for p50 and p95, faster for req/s):`)
    for (const key of keys) {
      const against = meanOf(name, key)
      const text = meanOf('text', key)
      if (!against || !text) continue
      const ratios = [against.p50Ms / text.p50Ms, against.p95Ms / text.p95Ms, against.reqPerSec / text.reqPerSec]
      console.log(`    ${key.padEnd(40)} p50 ${ratios[0]!.toFixed(2)}x, p95 ${ratios[1]!.toFixed(2)}x, req/s ${ratios[2]!.toFixed(2)}x (p95 ${fmt(against.p95Ms)} ms vs ${fmt(text.p95Ms)} ms)`)
    }
  }
}

function loadavgText(load: number[]): string {
  return load.map((l) => l.toFixed(2)).join(' ')
}

function sameIds(a: Array<{ id: string }>, b: Array<{ id: string }>): boolean {
  return a.length === b.length && a.every((row, i) => row.id === b[i]!.id)
}

async function postJson<T>(url: string, headers: Record<string, string>, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

async function getJson<T>(url: string, headers: Record<string, string>): Promise<T> {
  const response = await fetch(url, { headers })
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

function fmt(value: number, digits = 1): string {
  return value.toFixed(digits)
}
