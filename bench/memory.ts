/**
 * Memory: the RSS of a real `serve` process, in a process of its own (spawned, so this script's memory
 * never counts), read from /proc/<pid>/status:
 *
 * 1. a bare Fastify + pg process (one route answering 50 records from memory; on PostgreSQL its pool
 *    runs a query), idle and under the same load: what Node and the two libraries take by themselves;
 * 2. the first start on an empty data directory (on the embedded database: initdb; the peak counts the
 *    processes it starts as well), idle after BENCH_IDLE seconds;
 * 3. a restart on the same directory, idle;
 * 4. a third start that pushes BENCH_ASSETS tiny PNGs with the list benches' planned library's fields
 *    (support/library.ts) through the API (the first start's API key, 16 in flight), and stops;
 * 5. a restart with that library, idle; then BENCH_DURATION seconds of GET /api/v1/assets (first page
 *    of 50: unfiltered, client=, tag=, q=, in turn) from a forked autocannon at BENCH_CONNECTIONS
 *    connections, RSS sampled every 50 ms; then idle again.
 *
 * The server runs as built JavaScript, like `npm start`: the script transpiles src/ into its temp
 * directory (TypeScript's transpileModule, no type check), so tsx's loader does not count (it adds
 * ~40 MiB). BENCH_TSX=1 runs `node --import tsx src/cli.ts serve` instead. Every start gets the same
 * settings: PORT=0, rate limits and the free plan's asset limit lifted, everything else default
 * (background work on). Linux only (/proc).
 *
 *   npx tsx bench/memory.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/memory.ts
 *   BENCH_IDLE=10 BENCH_ASSETS=10000 BENCH_DURATION=20 BENCH_CONNECTIONS=10 BENCH_TSX=1 npx tsx bench/memory.ts
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { adminQuery, redactedUrl } from './support/database.js'
import { envNumber } from './support/env.js'
import { plannedLibrary, pushLibrary } from './support/library.js'
import { startRotatingLoad, type RotatingLoad, type RotatingLoadResult, type RotatingRequest } from './support/rotating-load.js'
import { mib, MiB, prepareAppDir, sampleRss, startServer, status, transpiledServer, type Server, type Status } from './support/serve-process.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const IDLE_S = envNumber('BENCH_IDLE', 10)
const ASSETS = envNumber('BENCH_ASSETS', 10_000)
const DURATION_S = envNumber('BENCH_DURATION', 20)
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10)
const USE_TSX = process.env.BENCH_TSX === '1'
const PUSHES_IN_FLIGHT = 16
/** Issue 10's targets, on the embedded database. */
const TARGET_IDLE_MIB = 250
const TARGET_LOAD_MIB = 400
const REPO = fileURLToPath(new URL('..', import.meta.url))

const LIST_REQUESTS: RotatingRequest[] = ['', 'client=Acme&', 'tag=red&', 'q=summer&'].map((query) => ({ method: 'GET', path: `/api/v1/assets?${query}limit=50` }))

interface Row {
  phase: string
  readyMs?: number
  /** When it started listening (or when the phase began). */
  atStart?: Status
  /** After BENCH_IDLE seconds of rest, or at the end of the load. */
  atEnd?: Status
  /** Highest RSS seen by sampling (the server alone), and VmHWM. */
  peak?: number
  /** The highest RSS of any process the server started (initdb), by its VmHWM. */
  childPeak?: number
  note?: string
}

await main()

async function main(): Promise<void> {
  if (!existsSync('/proc/self/status')) {
    console.log('This bench reads /proc/<pid>/status: Linux only. Nothing measured.')
    return
  }
  const workDir = mkdtempSync(join(tmpdir(), 'al-bench-memory-'))
  const dataDir = join(workDir, 'data')
  const databaseName = SERVER_URL ? `al_bench_memory_${randomBytes(4).toString('hex')}` : undefined
  let databaseUrl: string | undefined
  let load: RotatingLoad | undefined
  const running = new Set<Server>()
  try {
    if (SERVER_URL) {
      await adminQuery(SERVER_URL, `create database ${databaseName}`)
      const url = new URL(SERVER_URL)
      url.pathname = `/${databaseName}`
      databaseUrl = url.toString()
    }
    console.log(`Database: ${SERVER_URL ? `PostgreSQL at ${redactedUrl(SERVER_URL)}, throwaway database ${databaseName}` : 'embedded (PGlite, in the server process)'}`)
    console.log(`Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
    let started = performance.now()
    const appDir = join(workDir, 'app')
    const runner = [process.execPath, ...(USE_TSX ? ['--import', 'tsx'] : [])]
    const command = [...runner, USE_TSX ? join(REPO, 'src/cli.ts') : transpiledServer(REPO, appDir)]
    if (USE_TSX) prepareAppDir(REPO, appDir)
    console.log(
      USE_TSX
        ? 'Server: node --import tsx src/cli.ts serve'
        : `Server: src/ transpiled to JavaScript in ${((performance.now() - started) / 1000).toFixed(1)} s, run as node <build>/cli.js serve`,
    )
    const env = serverEnv(dataDir, databaseUrl)
    load = await startRotatingLoad()
    const rows: Row[] = []
    const launch = async (phase: string) => {
      const server = await startServer(phase, [...command, 'serve'], env, REPO)
      running.add(server)
      return server
    }
    const stop = async (server: Server) => {
      running.delete(server)
      await server.stop()
    }

    // 1. What Node, Fastify and pg take by themselves.
    const bare = await startServer('bare', [...runner, writeBareServer(appDir)], env, REPO)
    running.add(bare)
    rows.push({ phase: 'bare Fastify + pg: idle', readyMs: bare.readyMs, atStart: bare.atListening, atEnd: await idle(bare.pid), peak: status(bare.pid).hwm })
    const bareLoad = await underLoad(bare, load, [{ method: 'GET', path: '/assets' }])
    rows.push(bareLoad.row('bare Fastify + pg: under load'))
    await stop(bare)

    // 2. and 3. An empty library.
    const first = await launch('first start')
    if (!first.apiKey) throw new Error('the first start printed no API key (was the database empty?)')
    const apiKey = first.apiKey
    rows.push(await idleRow(SERVER_URL ? 'first start (migrations)' : 'first start (initdb, migrations)', first, tuningNote(dataDir)))
    await stop(first)
    const restart = await launch('restart')
    rows.push(await idleRow('restart, empty library', restart, tuningNote(dataDir)))
    await stop(restart)

    // 4. The library, pushed through the API.
    const seeder = await launch('seeding')
    started = performance.now()
    const peak = sampleRss(seeder.pid)
    await pushLibrary(seeder.baseUrl, apiKey, plannedLibrary(ASSETS), PUSHES_IN_FLIGHT)
    const pushSeconds = (performance.now() - started) / 1000
    rows.push({ phase: `pushing ${ASSETS} assets`, atStart: seeder.atListening, atEnd: status(seeder.pid), peak: peak.stop(), note: `${Math.round(ASSETS / pushSeconds)}/s` })
    await stop(seeder)

    // 5. Listing that library.
    const lister = await launch('restart with the library')
    rows.push(await idleRow(`restart, ${ASSETS} assets`, lister, tuningNote(dataDir)))
    const listLoad = await underLoad(lister, load, LIST_REQUESTS, apiKey)
    rows.push(listLoad.row(`list load, ${ASSETS} assets`))
    rows.push({ phase: 'after the load, idle', atEnd: await idle(lister.pid), peak: status(lister.pid).hwm })
    await stop(lister)

    report(rows, { bare: bareLoad.result, list: listLoad.result })
  } finally {
    load?.stop()
    for (const server of running) await server.stop().catch(() => undefined)
    try {
      if (databaseName) await adminQuery(SERVER_URL!, `drop database if exists ${databaseName} with (force)`)
    } finally {
      rmSync(workDir, { recursive: true, force: true })
    }
  }
}

/** Same settings for every start: nothing inherited from this shell but PATH and HOME. */
function serverEnv(dataDir: string, databaseUrl: string | undefined): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    APP_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMIT_CHEAP: '1000000',
    RATE_LIMIT_STANDARD: '1000000',
    RATE_LIMIT_EXPENSIVE: '1000000',
    PLAN_LIMITS: JSON.stringify({ free: { max_assets: 10_000_000, max_bytes: 1e15 } }),
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  }
}

/**
 * The baseline: Fastify with one route answering 50 records from memory, and a pg pool of 10 that runs
 * a query when DATABASE_URL is set. Plain JavaScript beside the build, so it resolves the same packages.
 */
function writeBareServer(dir: string): string {
  prepareAppDir(REPO, dir)
  const path = join(dir, 'bare-server.mjs')
  writeFileSync(
    path,
    `import Fastify from 'fastify'
import pg from 'pg'
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
if (process.env.DATABASE_URL) await pool.query('select 1')
const page = { data: Array.from({ length: 50 }, (_, i) => ({ id: String(i).padStart(32, '0'), title: 'Summer campaign hero ' + i, tags: ['red', 'blue'].slice(0, i % 3) })), total: 10000 }
const app = Fastify({ logger: { level: 'info' } })
app.get('/assets', async () => page)
await app.listen({ host: process.env.HOST, port: Number(process.env.PORT) })
process.once('SIGTERM', () => void app.close().then(() => pool.end()))
`,
  )
  return path
}

async function idleRow(phase: string, server: Server, note: string): Promise<Row> {
  const atEnd = await idle(server.pid)
  return { phase, readyMs: server.readyMs, atStart: server.atListening, atEnd, peak: status(server.pid).hwm, ...(server.childPeak > 0 && { childPeak: server.childPeak }), note }
}

/** What the embedded database chose at this start (see embeddedTuning), from the file it writes. */
function tuningNote(dataDir: string): string {
  if (SERVER_URL) return ''
  let conf: string
  try {
    conf = readFileSync(join(dataDir, 'pg', 'asset-library.conf'), 'utf8')
  } catch {
    return 'PostgreSQL defaults'
  }
  const buffers = /^shared_buffers = '([^']+)'/m.exec(conf)?.[1]
  return `shared_buffers ${buffers}, WASM ${/not optimised/.test(conf) ? 'not optimised' : 'optimised'}`
}

async function idle(pid: number): Promise<Status> {
  await sleep(IDLE_S * 1000)
  return status(pid)
}

/** BENCH_DURATION seconds of `requests` in turn; the server's RSS sampled all along. */
async function underLoad(server: Server, load: RotatingLoad, requests: RotatingRequest[], apiKey?: string) {
  const atStart = status(server.pid)
  const peak = sampleRss(server.pid)
  const result = await load.run({
    url: server.baseUrl,
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests,
    expect: '"data"',
  })
  const highest = peak.stop()
  if (result.failures) throw new Error(`the load failed: ${result.failures}`)
  const atEnd = status(server.pid)
  return {
    result,
    row: (phase: string): Row => ({ phase, atStart, atEnd, peak: highest, note: `${Math.round(result.reqPerSec)} req/s, p95 ${result.p95Ms.toFixed(1)} ms` }),
  }
}

function report(rows: Row[], loads: { bare: RotatingLoadResult; list: RotatingLoadResult }): void {
  const headings = ['ready s', 'RSS start', 'RSS end', 'anon/file', 'peak', 'child peak']
  console.log(`\n  MiB; "start" is when it listens (or the phase begins), "end" after ${IDLE_S} s idle or at the end of the phase; peak is VmHWM or the highest sample`)
  console.log(`  ${'phase'.padEnd(36)}${headings.map((h) => h.padStart(11)).join('')}  note`)
  for (const row of rows) {
    const cells = [
      row.readyMs === undefined ? '' : (row.readyMs / 1000).toFixed(1),
      row.atStart ? mib(row.atStart.rss) : '',
      row.atEnd ? mib(row.atEnd.rss) : '',
      row.atEnd ? `${mib(row.atEnd.anon)}/${mib(row.atEnd.file)}` : '',
      row.peak === undefined ? '' : mib(row.peak),
      row.childPeak === undefined ? '' : mib(row.childPeak),
    ]
    console.log(`  ${row.phase.padEnd(36)}${cells.map((c) => c.padStart(11)).join('')}  ${row.note ?? ''}`)
  }
  const find = (prefix: string) => rows.find((row) => row.phase.startsWith(prefix))!
  const idleFirst = find('first start').atEnd!.rss
  const idleRestart = find('restart, empty').atEnd!.rss
  const loadPeak = find('list load').peak!
  const bareIdle = find('bare Fastify + pg: idle').atEnd!.rss
  console.log(
    `\n  The bare Fastify + pg process idles at ${mib(bareIdle)} MiB (${Math.round(loads.bare.reqPerSec)} req/s under the same load): ` +
      `the app adds ${mib(idleRestart - bareIdle)} MiB to it at rest with an empty library.`,
  )
  console.log(
    `${Math.max(idleFirst, idleRestart) <= TARGET_IDLE_MIB * MiB ? 'PASS' : 'MISS'}: idle RSS of an empty library ${mib(idleFirst)} MiB after the first start, ` +
      `${mib(idleRestart)} MiB after a restart (target <= ${TARGET_IDLE_MIB})`,
  )
  console.log(
    `${loadPeak <= TARGET_LOAD_MIB * MiB ? 'PASS' : 'MISS'}: peak RSS under list load at ${ASSETS} assets ${mib(loadPeak)} MiB ` +
      `(target <= ${TARGET_LOAD_MIB}; ${CONNECTIONS} connections, ${Math.round(loads.list.reqPerSec)} req/s, p95 ${loads.list.p95Ms.toFixed(1)} ms)`,
  )
}

