/**
 * The scale model (issue 39): does a read cost the same at 1,000,000 assets as at 10,000? A library of
 * each of `BENCH_SCALE_SIZES` (10k, 100k, 1M), each on a database of its own, is written in bulk by SQL
 * (`insert … select generate_series`, every trigger on: the counters, the tag and name counts, the change
 * log, the library version), then `vacuum analyze`, as autovacuum would leave it. The real app over each
 * (caches off: LIST_CACHE_RECORDS=0, so every request runs its statements) answers each read below over
 * real HTTP, from a forked autocannon client, at 1 connection and at 10: req/s, p50 and p95. Each read is
 * measured at every size back to back, so a shared machine's drifting load weighs on all sizes alike.
 *
 * The library: titles of a season, a subject and a number, "retina" in 10% of them and "zeppelin" in
 * 0.1%; 0 to 3 of 15 tags, "approved" on 50% and "embargoed" on 1%; nine asset types, eight clients, ten
 * products; 15% in one of three manual collections, two smart collections. Every asset has its version
 * row; no file exists (nothing here reads one).
 *
 * PostgreSQL: `BENCH_DATABASE_URL` names the server; the bench creates its databases there
 * (`BENCH_SCALE_DATABASE`_size, default scale_bench_1000000 and so on; dropped first if they exist, and at
 * the end unless `BENCH_SCALE_KEEP=1`, to look at plans afterwards). The embedded database (PGlite) runs
 * the same, in temp dirs, at `BENCH_SCALE_EMBEDDED_SIZES`.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/scale.ts
 *   BENCH_SCALE_TARGETS=embedded BENCH_SCALE_EMBEDDED_SIZES=10000 npx tsx bench/scale.ts
 */
import { sql } from 'kysely'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildApp, type BuiltApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { DEFAULT_ASSET_TYPES } from '../src/modules/catalog/store.js'
import { sha256Hex } from '../src/platform/crypto.js'
import { openDatabase, type DatabaseHandle, type Db } from '../src/platform/db/index.js'
import { migrate } from '../src/platform/db/migrate.js'
import { uuidv7 } from '../src/platform/ids.js'
import { benchKey, silent } from './support/app.js'
import { adminQuery, listenOnLoopback, redactedUrl } from './support/database.js'
import { envList, envNumber } from './support/env.js'
import { startRotatingLoad, type RotatingLoad, type RotatingLoadResult, type RotatingRequest } from './support/rotating-load.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL
const SIZES = envList('BENCH_SCALE_SIZES', '10000,100000,1000000')
const EMBEDDED_SIZES = envList('BENCH_SCALE_EMBEDDED_SIZES', '10000,100000')
/** `postgres`, `embedded` or both (default: both, PostgreSQL only with BENCH_DATABASE_URL). */
const TARGETS = (process.env.BENCH_SCALE_TARGETS ?? 'postgres,embedded').split(',')
const DATABASE_NAME = process.env.BENCH_SCALE_DATABASE ?? 'scale_bench'
const KEEP_DATABASE = process.env.BENCH_SCALE_KEEP === '1'
const DURATION_S = envNumber('BENCH_DURATION', 5)
const WARMUP_S = envNumber('BENCH_WARMUP', 1)
const CONNECTION_LEVELS = envList('BENCH_CONNECTIONS', '1,10')
/** Full-text reads measured again on an app with these `LIST_EXACT_TOTAL_UP_TO` caps (empty: none). */
const EXTRA_CAPS = (process.env.BENCH_SCALE_CAPS ?? '1000').split(',').filter(Boolean).map(Number)
const SEED_BATCH = envNumber('BENCH_SCALE_BATCH', 20_000)
/** `BENCH_SCALE_REUSE=1`: a PostgreSQL database an earlier run kept (BENCH_SCALE_KEEP=1) is measured as it is, not seeded again. */
const REUSE = process.env.BENCH_SCALE_REUSE === '1'
/** `BENCH_SCALE_READS=list,tag`: only the reads whose name starts with one of these. */
const READ_NAMES = process.env.BENCH_SCALE_READS?.split(',')
const CHECK_HASHES = 1000
/** The issue's target: every figure at the largest size within this factor of the smallest's. */
const FLAT_WITHIN = 2

const SEASONS = ['Summer', 'Winter', 'Spring', 'Autumn', 'Holiday', 'Back to school', 'Black Friday', 'Launch']
const SUBJECTS = ['campaign hero', 'sale banner', 'product shot', 'social teaser', 'newsletter header', 'landing page', 'story frame', 'print ad']
const CLIENTS = ['Acme', 'Initech', 'Globex', 'Umbrella', 'Hooli', 'Stark Industries', 'Wayne Enterprises', 'Wonka']
const PRODUCTS = ['Stapler', 'Widget', 'Rocket Skates', 'Anvil', 'Soda', 'Chocolate Bar', 'Phone', 'Sneakers', 'Coffee', 'Backpack']
const TAGS = ['red', 'blue', 'green', 'black', 'white', 'summer', 'winter', 'hero', 'social', 'print', 'draft', 'v2', 'square', 'portrait', 'landscape']
const HALF_TAG = 'approved'
const RARE_TAG = 'embargoed'
const COMMON_WORD = 'retina'
const RARE_WORD = 'zeppelin'
const MANUAL_COLLECTIONS = ['Q3 launch', 'Brand refresh', 'Best of 2025']
const SMART_COLLECTIONS = { client: { client: 'Initech' }, 'tag and client': { tag: 'summer', client: 'Initech' } }

const sha256Of = (i: number) => sha256Hex(`scale asset ${i}`)

interface Read {
  name: string
  requests: RotatingRequest[]
  /** A substring of every answer: a page that is not empty, or search in text mode. */
  expect: string
  /** Measured on the apps with EXTRA_CAPS too. */
  capped?: boolean
}

interface Measured {
  read: string
  size: number
  connections: number
  result: RotatingLoadResult
}

interface Library {
  organizationId: string
  collectionIds: string[]
  smartIds: Record<keyof typeof SMART_COLLECTIONS, string>
  token: string
  size: number
}

async function main(): Promise<void> {
  const load = await startRotatingLoad()
  try {
    if (TARGETS.includes('postgres')) {
      if (SERVER_URL) report(`PostgreSQL (${redactedUrl(SERVER_URL)}, databases ${DATABASE_NAME}_<size>)`, await runOn(load, SERVER_URL, SIZES))
      else console.log('PostgreSQL skipped: set BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)')
    }
    if (TARGETS.includes('embedded')) report('embedded (PGlite)', await runOn(load, undefined, EMBEDDED_SIZES))
  } finally {
    load.stop()
  }
}

/** A library of one size on a database of its own, and the apps that serve it. */
interface Sized {
  size: number
  library: Library
  baseUrl: string
  /** The same database served with each of EXTRA_CAPS. */
  capped: Array<{ cap: number; baseUrl: string }>
  close(): Promise<void>
}

/**
 * A library of each size, each on a database of its own (on the PostgreSQL server `serverUrl`, else
 * embedded), then every read at every size back to back, so that the shared machine's load, which
 * drifts over minutes, weighs on all sizes alike.
 */
async function runOn(load: RotatingLoad, serverUrl: string | undefined, sizes: number[]): Promise<Measured[]> {
  const libraries: Sized[] = []
  try {
    for (const size of sizes) libraries.push(await startLibrary(serverUrl, size))
    const measured: Measured[] = []
    const reads = new Map(libraries.map((sized) => [sized, readsOf(sized.library)]))
    for (const connections of CONNECTION_LEVELS) {
      for (let r = 0; r < reads.get(libraries[0]!)!.length; r++) {
        for (const sized of libraries) {
          const read = reads.get(sized)![r]!
          measured.push({ read: read.name, size: sized.size, connections, result: await measure(load, sized.baseUrl, sized.library.token, read, sized.size, connections) })
          if (!read.capped) continue
          for (const { cap, baseUrl } of sized.capped) {
            const name = `${read.name}, cap ${cap.toLocaleString()}`
            measured.push({ read: name, size: sized.size, connections, result: await measure(load, baseUrl, sized.library.token, { ...read, name }, sized.size, connections) })
          }
        }
      }
    }
    return measured
  } finally {
    for (const sized of libraries) await sized.close()
  }
}

/** The database (created on `serverUrl`, else embedded in a temp dir), the app over it, and `size` assets seeded. */
async function startLibrary(serverUrl: string | undefined, size: number): Promise<Sized> {
  const dataDir = mkdtempSync(join(tmpdir(), 'al-bench-scale-'))
  const databaseName = `${DATABASE_NAME}_${size}`
  const apps: BuiltApp[] = []
  let database: DatabaseHandle | undefined
  const close = async () => {
    for (const app of apps) await app.close()
    await database?.close()
    if (serverUrl && !KEEP_DATABASE) await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`)
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    let databaseUrl: string | undefined
    const reused = serverUrl !== undefined && REUSE && (await adminQuery(serverUrl, 'select 1 from pg_database where datname = $1', [databaseName])).length > 0
    if (serverUrl) {
      if (!reused) {
        await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`)
        await adminQuery(serverUrl, `create database ${databaseName}`)
      }
      const url = new URL(serverUrl)
      url.pathname = `/${databaseName}`
      databaseUrl = url.toString()
    }
    database = await openDatabase({ databaseUrl, dataDir, logger: silent })
    await migrate(database.db)
    const start = async (env: Record<string, string>) => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        APP_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'silent',
        LIST_CACHE_RECORDS: '0',
        RATE_LIMIT_CHEAP: '1000000',
        RATE_LIMIT_EXPENSIVE: '1000000',
        RATE_LIMIT_STANDARD: '1000000',
        ...(databaseUrl && { DATABASE_URL: databaseUrl }),
        ...env,
      })
      const app = await buildApp({ config, database: database! })
      apps.push(app)
      return { app, baseUrl: await listenOnLoopback(app) }
    }
    const { app, baseUrl } = await start({})
    const capped = []
    for (const cap of EXTRA_CAPS) capped.push({ cap, baseUrl: (await start({ LIST_EXACT_TOTAL_UP_TO: String(cap) })).baseUrl })
    if (reused) {
      const library = await keptLibrary(app, database.db)
      if (library.size !== size) throw new Error(`${databaseName} holds ${library.size} assets, not ${size}: run without BENCH_SCALE_REUSE`)
      console.log(`\n${size.toLocaleString()} assets in ${databaseName}, kept by an earlier run`)
      return { size, library, baseUrl, capped, close }
    }
    const library = await createLibrary(app, database.db, baseUrl)
    const started = performance.now()
    await growTo(database.db, library, size)
    const seeded = (performance.now() - started) / 1000
    const vacuumStarted = performance.now()
    await sql`vacuum analyze`.execute(database.db)
    console.log(
      `\n${size.toLocaleString()} assets${serverUrl ? ` in ${databaseName}` : ''}: seeded in ${seeded.toFixed(1)} s, vacuum analyze ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s; ` +
        `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    )
    await checkCounts(database.db, library, baseUrl)
    return { size, library, baseUrl, capped, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** The organization, its key, its tags and its collections (manual and smart), with no asset yet. */
async function createLibrary(app: BuiltApp, db: Db, baseUrl: string): Promise<Library> {
  const { organizationId, token } = await benchKey(app, 'assets:write')
  await db.insertInto('tags').values([...TAGS, HALF_TAG, RARE_TAG].map((name) => ({ id: uuidv7(), organization_id: organizationId, name }))).execute()
  const create = async (body: object) => {
    const response = await fetch(`${baseUrl}/api/v1/collections`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    if (response.status !== 201) throw new Error(`collection ${JSON.stringify(body)}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { id: string }).id
  }
  const collectionIds: string[] = []
  for (const name of MANUAL_COLLECTIONS) collectionIds.push(await create({ name }))
  const smartIds = {} as Library['smartIds']
  for (const [name, query] of Object.entries(SMART_COLLECTIONS)) smartIds[name as keyof typeof SMART_COLLECTIONS] = await create({ name: `Smart: ${name}`, query })
  return { organizationId, collectionIds, smartIds, token, size: 0 }
}

/** The library an earlier run seeded, with a new key. */
async function keptLibrary(app: BuiltApp, db: Db): Promise<Library> {
  const organization = await db.selectFrom('organizations').select(['id', 'asset_count']).where('slug', '=', 'bench').executeTakeFirstOrThrow()
  const { token } = await app.services.keys.create({ organizationId: organization.id, name: 'bench', scope: 'assets:write', expiresAt: null, createdBy: null })
  const collections = new Map((await db.selectFrom('collections').select(['id', 'name']).where('organization_id', '=', organization.id).execute()).map((row) => [row.name, row.id]))
  const smartIds = Object.fromEntries(Object.keys(SMART_COLLECTIONS).map((name) => [name, collections.get(`Smart: ${name}`)!])) as Library['smartIds']
  return { organizationId: organization.id, collectionIds: MANUAL_COLLECTIONS.map((name) => collections.get(name)!), smartIds, token, size: organization.asset_count }
}

const textArray = (values: readonly string[]) => sql`array[${sql.join(values.map((value) => sql.lit(value)))}]::text[]`

/**
 * Adds assets `library.size + 1` to `size`, SEED_BATCH a statement: each its row, its version row and its
 * manual collection (15%), as a push writes them, so the triggers keep every count. Asset i's choices come
 * from md5 of i, its time is 2023-01-01 plus i × 30 s (the newest last), its id a UUIDv7 of that time.
 */
async function growTo(db: Db, library: Library, size: number): Promise<void> {
  for (let first = library.size + 1; first <= size; first += SEED_BATCH) {
    const last = Math.min(size, first + SEED_BATCH - 1)
    await sql`
      with numbered as (
        select i, md5('scale ' || i) || md5('again ' || i) as digest, timestamptz '2023-01-01 00:00:00+00' + i * interval '30 seconds' as created_at
        from generate_series(${first}::int, ${last}::int) as i
      ),
      drawn as (
        -- eight draws of seven hex digits from the digest, d1 to d8
        select numbered.*, ${sql.join(
          Array.from({ length: 8 }, (_, k) => sql`('x' || substr(digest, ${sql.lit(k * 7 + 1)}, 7))::bit(28)::int as ${sql.ref(`d${k + 1}`)}`),
        )}
        from numbered
      ),
      planned as (
        select
          (lpad(to_hex((extract(epoch from created_at) * 1000)::bigint), 12, '0') || '7' || substr(digest, 1, 3) || '8' || substr(digest, 4, 15))::uuid as id,
          i, created_at,
          (${textArray(SEASONS)})[d1 % ${sql.lit(SEASONS.length)} + 1] || ' ' || (${textArray(SUBJECTS)})[d2 % ${sql.lit(SUBJECTS.length)} + 1]
            || case when d3 % 1000 < 100 then ${' ' + COMMON_WORD}::text else '' end || case when d3 / 1000 % 1000 = 0 then ${' ' + RARE_WORD}::text else '' end || ' ' || i as title,
          case when d4 % 10 < 9 then (${textArray(DEFAULT_ASSET_TYPES)})[d4 / 10 % ${sql.lit(DEFAULT_ASSET_TYPES.length)} + 1] end as asset_type,
          case when d5 % 20 < 19 then (${textArray(CLIENTS)})[d5 / 20 % ${sql.lit(CLIENTS.length)} + 1] end as client,
          case when d6 % 10 < 8 then (${textArray(PRODUCTS)})[d6 / 10 % ${sql.lit(PRODUCTS.length)} + 1] end as product,
          coalesce((
            select array_agg(tag order by tag collate "C") from (
              select distinct tag from unnest(array[
                case when d7 % 2 = 0 then ${HALF_TAG}::text end,
                case when d7 / 2 % 100 = 0 then ${RARE_TAG}::text end,
                case when d8 % 4 >= 1 then (${textArray(TAGS)})[d8 / 4 % 15 + 1] end,
                case when d8 % 4 >= 2 then (${textArray(TAGS)})[d8 / 60 % 15 + 1] end,
                case when d8 % 4 >= 3 then (${textArray(TAGS)})[d8 / 900 % 15 + 1] end
              ]) as tag where tag is not null) as chosen
          ), '{}') as tags,
          d3 / 1000000 % 2 = 0 as created_by_ai,
          encode(sha256(convert_to('scale asset ' || i, 'UTF8')), 'hex') as sha256,
          400 + d1 / 8 % 3600 as width, 400 + d2 / 8 % 3600 as height, 20000 + d4 / 100 % 5000000 as byte_size,
          case when d5 / 200 % 100 < 15 then (${sql.val(library.collectionIds)}::uuid[])[d5 / 20000 % 3 + 1] end as collection_id
        from drawn
      ),
      added as (
        insert into assets (id, organization_id, title, asset_type, client, product, created_by_ai, mime_type, width, height, byte_size, sha256, blob_key, thumbnail_key,
          tags, tag_keys, tag_text, created_by_kind, created_by_name, created_at, updated_at)
        select id, ${library.organizationId}::uuid, title, asset_type, client, product, created_by_ai, 'image/png', width, height, byte_size, sha256, sha256, sha256 || '.thumb.webp',
          tags, tags, array_to_string(tags, ' '), 'key', 'bench', created_at, created_at
        from planned
        returning id, organization_id, sha256, blob_key, thumbnail_key, mime_type, width, height, byte_size, created_at
      ),
      versions as (
        insert into asset_versions (asset_id, version, organization_id, sha256, blob_key, thumbnail_key, mime_type, width, height, byte_size, created_at, created_by_kind, created_by_name)
        select id, 1, organization_id, sha256, blob_key, thumbnail_key, mime_type, width, height, byte_size, created_at, 'key', 'bench' from added
      )
      insert into collection_assets (collection_id, asset_id, added_at)
        select collection_id, id, created_at from planned where collection_id is not null
    `.execute(db)
    process.stdout.write(`\r  seeded ${last.toLocaleString()} of ${size.toLocaleString()}`)
  }
  library.size = size
}

/** The kept counts (by trigger) against the rows, and the list's totals: a seeding that skipped a trigger would not measure the real thing. */
async function checkCounts(db: Db, library: Library, baseUrl: string): Promise<void> {
  const { rows } = await sql<{ assets: number; counted: number; approved: number; embargoed: number; kept_approved: number; kept_embargoed: number; word: number; rare: number }>`
    select count(*)::int as assets, (select asset_count from organizations where id = ${library.organizationId}) as counted,
      count(*) filter (where tag_keys @> array[${HALF_TAG}::text])::int as approved, count(*) filter (where tag_keys @> array[${RARE_TAG}::text])::int as embargoed,
      (select asset_count from tags where organization_id = ${library.organizationId} and name = ${HALF_TAG}) as kept_approved,
      (select asset_count from tags where organization_id = ${library.organizationId} and name = ${RARE_TAG}) as kept_embargoed,
      count(*) filter (where title like ${`% ${COMMON_WORD} %`})::int as word, count(*) filter (where title like ${`% ${RARE_WORD} %`})::int as rare
    from assets where organization_id = ${library.organizationId}
  `.execute(db)
  const row = rows[0]!
  if (row.assets !== library.size || row.counted !== row.assets || row.kept_approved !== row.approved || row.kept_embargoed !== row.embargoed) {
    throw new Error(`counts disagree: ${JSON.stringify(row)}`)
  }
  const total = async (query: string) => {
    const response = await fetch(`${baseUrl}/api/v1/assets?limit=1&${query}`, { headers: { authorization: `Bearer ${library.token}` } })
    return ((await response.json()) as { total: number }).total
  }
  if ((await total(`tag=${RARE_TAG}`)) !== row.embargoed) throw new Error(`tag=${RARE_TAG}: the list's total is not ${row.embargoed}`)
  const share = (n: number) => `${((n / row.assets) * 100).toFixed(2)}%`
  console.log(`  "${HALF_TAG}" ${share(row.approved)}, "${RARE_TAG}" ${share(row.embargoed)}, "${COMMON_WORD}" ${share(row.word)}, "${RARE_WORD}" ${share(row.rare)} of the assets`)
}

function readsOf(library: Library): Read[] {
  const page = (query: string) => [{ method: 'GET' as const, path: `/api/v1/assets?limit=50${query}` }]
  const aPage = '"data":[{'
  const checks = Array.from({ length: 20 }, (_, request) => ({
    method: 'POST' as const,
    path: '/api/v1/assets/check',
    // Half of them the library's (spread over it), half unknown.
    body: JSON.stringify({ sha256: Array.from({ length: CHECK_HASHES }, (_, i) => (i % 2 === 0 ? sha256Of(1 + ((request * 7919 + i * 104_729) % library.size)) : sha256Hex(`unknown ${request} ${i}`))) }),
  }))
  const reads: Read[] = [
    { name: 'list', requests: page(''), expect: aPage },
    { name: `tag on 50% (${HALF_TAG})`, requests: page(`&tag=${HALF_TAG}`), expect: aPage },
    { name: `tag on 1% (${RARE_TAG})`, requests: page(`&tag=${RARE_TAG}`), expect: aPage },
    { name: `q= rare word (${RARE_WORD}, 0.1%)`, requests: page(`&q=${RARE_WORD}`), expect: aPage, capped: true },
    { name: `q= 10% word (${COMMON_WORD})`, requests: page(`&q=${COMMON_WORD}`), expect: aPage, capped: true },
    { name: `assets/check, ${CHECK_HASHES.toLocaleString()} hashes`, requests: checks, expect: '"found":[{' },
    { name: `search, text mode (${COMMON_WORD})`, requests: [{ method: 'POST', path: '/api/v1/search', body: JSON.stringify({ q: COMMON_WORD }) }], expect: '"mode":"text"' },
    ...Object.entries(library.smartIds).map(([name, id]) => ({ name: `smart collection (${name})`, requests: [{ method: 'GET' as const, path: `/api/v1/collections/${id}?limit=50` }], expect: aPage })),
    { name: 'offset=9950', requests: page('&offset=9950'), expect: aPage },
  ]
  return READ_NAMES ? reads.filter((read) => READ_NAMES.some((name) => read.name.startsWith(name))) : reads
}

async function measure(load: RotatingLoad, url: string, token: string, read: Read, size: number, connections: number): Promise<RotatingLoadResult> {
  const options = { url, headers: { authorization: `Bearer ${token}` }, connections, requests: read.requests, expect: read.expect }
  await load.run({ ...options, duration: WARMUP_S })
  const result = await load.run({ ...options, duration: DURATION_S })
  if (result.failures) throw new Error(`${read.name} at ${connections} connections: ${result.failures}`)
  console.log(`  ${size.toLocaleString().padStart(9)}, ${String(connections).padStart(2)} conn. ${read.name.padEnd(44)} ${Math.round(result.reqPerSec).toString().padStart(6)} req/s, p50 ${fmt(result.p50Ms)} ms, p95 ${fmt(result.p95Ms)} ms`)
  return result
}

/** Per read: p50/p95 at 1 connection and req/s (p95) at 10, at each size, and the largest size against the smallest. */
function report(where: string, measured: Measured[]): void {
  const sizes = [...new Set(measured.map((m) => m.size))]
  const reads = [...new Set(measured.map((m) => m.read))]
  const [single, many] = [Math.min(...CONNECTION_LEVELS), Math.max(...CONNECTION_LEVELS)]
  const at = (read: string, size: number, connections: number) => measured.find((m) => m.read === read && m.size === size && m.connections === connections)!.result
  const [smallest, largest] = [sizes[0]!, sizes.at(-1)!]
  const label = (size: number) => (size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`)
  console.log(`\n${where}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  console.log(`p50 / p95 ms at ${single} connection; req/s (p95 ms) at ${many}; ratio ${label(largest)}/${label(smallest)}: p95 at ${single}, req/s at ${many}`)
  console.log(`\n| read | ${sizes.map((size) => `${label(size)}: ${single} conn. | ${label(size)}: ${many} conn.`).join(' | ')} | ${label(largest)}/${label(smallest)} p95 | ${label(largest)}/${label(smallest)} req/s |`)
  console.log(`|---|${sizes.map(() => '---|---|').join('')}---|---|`)
  for (const read of reads) {
    const cells = sizes.flatMap((size) => {
      const [one, ten] = [at(read, size, single), at(read, size, many)]
      return [`${fmt(one.p50Ms)} / ${fmt(one.p95Ms)}`, `${Math.round(ten.reqPerSec)} (${fmt(ten.p95Ms)})`]
    })
    // No response within the run leaves no p95 (null over IPC): as slow as can be.
    const p95 = (size: number) => at(read, size, single).p95Ms ?? Infinity
    const p95Ratio = p95(largest) / p95(smallest)
    const rateRatio = at(read, largest, many).reqPerSec / at(read, smallest, many).reqPerSec
    const mark = (outside: boolean) => (outside ? ' **' : '')
    console.log(`| ${read} | ${cells.join(' | ')} | ${p95Ratio.toFixed(2)}×${mark(p95Ratio > FLAT_WITHIN)} | ${rateRatio.toFixed(2)}×${mark(rateRatio < 1 / FLAT_WITHIN)} |`)
  }
  console.log(`\n** not within ${FLAT_WITHIN}× of its ${label(smallest)} figure at ${label(largest)}`)
}

/** Milliseconds; a percentile of no response (none came back within the run) arrives as null. */
function fmt(ms: number | null): string {
  return ms === null || !Number.isFinite(ms) ? 'none' : ms.toFixed(1)
}

await main()
