/**
 * Event-loop stalls of the real app on the embedded database (PGlite in its worker thread) under a
 * small mixed API load over real HTTP. The server runs in this process and is the one measured; the
 * load comes from a forked child process, so the client's own work never shows up as server delay.
 *
 *   npx tsx bench/event-loop.ts
 *   BENCH_REQUESTS=200 BENCH_CONCURRENCY=8 npx tsx bench/event-loop.ts
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks'
import pino from 'pino'
import { answerParent, forkChild, percentile, type Child } from './support/child.js'
import { buildApp, type BuiltApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase, type DatabaseHandle } from '../src/platform/db/index.js'
import { migrate } from '../src/platform/db/migrate.js'

const TOTAL_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200)
const IN_FLIGHT = Number(process.env.BENCH_CONCURRENCY ?? 8)
const TARGET = { p99Ms: 20, maxMs: 50 }
const CLIENT_ROLE = '--load-client'

interface PlannedRequest {
  kind: string
  method: 'GET' | 'POST'
  path: string
  token?: string
  expectedStatus: number
}

interface Outcome {
  kind: string
  ms: number
  ok: boolean
}

if (process.argv.includes(CLIENT_ROLE)) runLoadClient()
else await runServer()

async function runServer(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'al-bench-loop-'))
  const logger = pino({ level: 'silent' })
  let database: DatabaseHandle | undefined
  let app: BuiltApp | undefined
  let client: Child | undefined
  try {
    // First start on an empty directory runs initdb; timed once, before the measured window.
    const startupLoop = monitorEventLoopDelay({ resolution: 1 })
    startupLoop.enable()
    let started = performance.now()
    database = await openDatabase({ databaseUrl: undefined, dataDir, logger })
    const initdbMs = performance.now() - started
    started = performance.now()
    await migrate(database.db)
    const migrateMs = performance.now() - started
    startupLoop.disable()
    // A later start finds the cluster in place and skips initdb.
    await database.close()
    started = performance.now()
    database = await openDatabase({ databaseUrl: undefined, dataDir, logger })
    const restartMs = performance.now() - started

    const config = loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      // 200 requests on one key within a minute would hit the real limits; this measures stalls, not 429s.
      RATE_LIMIT_CHEAP: '1000000',
      RATE_LIMIT_STANDARD: '1000000',
      RATE_LIMIT_ANONYMOUS: '1000000',
    })
    app = await buildApp({ config, database })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (!address || typeof address === 'string') throw new Error('server has no TCP address')
    const plan = await planRequests(app)

    client = await forkChild(new URL(import.meta.url), [CLIENT_ROLE])
    const loop = monitorEventLoopDelay({ resolution: 1 })
    loop.enable()
    started = performance.now()
    const outcomes = await client.ask<Outcome[]>({ baseUrl: `http://127.0.0.1:${address.port}`, plan })
    const windowMs = performance.now() - started
    loop.disable()

    report({ initdbMs, migrateMs, restartMs, startupMaxStallMs: ms(startupLoop.max) }, loop, outcomes, windowMs)
  } finally {
    client?.stop()
    await app?.close()
    await database?.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Every tenth request: 4 key look-ups, 2 readiness checks (4 queries each), 2 health, 1 refused, 1 revocation. */
async function planRequests(app: BuiltApp): Promise<PlannedRequest[]> {
  const org = await app.services.orgs.createOrganization({ name: 'Bench', slug: 'bench' })
  const createKey = async (name: string, scope: 'assets:read' | 'assets:write') =>
    (await app.services.keys.create({ organizationId: org.id, name, scope, expiresAt: null, createdBy: null })).token
  const readKey = await createKey('read', 'assets:read')
  const writeKey = await createKey('write', 'assets:write')
  const cycles = Math.ceil(TOTAL_REQUESTS / 10)
  const throwawayKeys = await Promise.all(Array.from({ length: cycles }, (_, i) => createKey(`throwaway-${i}`, 'assets:read')))
  // Well-formed but unknown, so each one costs a database look-up, as a guessing attacker's would.
  const unknownKey = `al_zzzzzzzz_${randomBytes(32).toString('base64url')}`

  const keyLookup = (token: string): PlannedRequest => ({ kind: 'GET /api/v1/auth/key', method: 'GET', path: '/api/v1/auth/key', token, expectedStatus: 200 })
  const plan: PlannedRequest[] = []
  for (let i = 0; i < cycles; i++) {
    plan.push(
      keyLookup(readKey),
      keyLookup(readKey),
      keyLookup(writeKey),
      keyLookup(readKey),
      { kind: 'GET /ready', method: 'GET', path: '/ready', expectedStatus: 200 },
      { kind: 'GET /health', method: 'GET', path: '/health', expectedStatus: 200 },
      { kind: 'GET /ready', method: 'GET', path: '/ready', expectedStatus: 200 },
      { kind: 'GET /health', method: 'GET', path: '/health', expectedStatus: 200 },
      { kind: '401 (no key / unknown key)', method: 'GET', path: '/api/v1/auth/key', ...(i % 2 ? { token: unknownKey } : {}), expectedStatus: 401 },
      { kind: 'POST /api/v1/auth/revoke', method: 'POST', path: '/api/v1/auth/revoke', token: throwawayKeys[i]!, expectedStatus: 200 },
    )
  }
  return plan.slice(0, TOTAL_REQUESTS)
}

/** Child side: sends the plan with IN_FLIGHT requests at a time over keep-alive sockets, times each one. */
function runLoadClient(): void {
  answerParent(async ({ baseUrl, plan }: { baseUrl: string; plan: PlannedRequest[] }) => {
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT })
    const outcomes: Outcome[] = []
    let next = 0
    const worker = async () => {
      while (next < plan.length) {
        const planned = plan[next++]!
        const started = performance.now()
        const status = await send(agent, baseUrl, planned)
        outcomes.push({ kind: planned.kind, ms: performance.now() - started, ok: status === planned.expectedStatus })
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
    agent.destroy()
    return outcomes
  })
}

function send(agent: Agent, baseUrl: string, planned: PlannedRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = planned.token ? { authorization: `Bearer ${planned.token}` } : {}
    if (planned.method === 'POST') headers['content-length'] = '0'
    const req = request(`${baseUrl}${planned.path}`, { method: planned.method, agent, headers }, (res) => {
      res.resume()
      res.once('end', () => resolve(res.statusCode ?? 0))
    })
    req.once('error', reject)
    req.end()
  })
}

function report(
  startup: { initdbMs: number; migrateMs: number; restartMs: number; startupMaxStallMs: number },
  loop: IntervalHistogram,
  outcomes: Outcome[],
  windowMs: number,
): void {
  const stallP99 = ms(loop.percentile(99))
  const stallMax = ms(loop.max)
  const failed = outcomes.filter((o) => !o.ok).length
  console.log(`\nload average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  console.log(`First start (outside the window): initdb ${fmt(startup.initdbMs)} ms, migrate ${fmt(startup.migrateMs)} ms, max loop stall meanwhile ${fmt(startup.startupMaxStallMs)} ms; restart on the same directory ${fmt(startup.restartMs)} ms`)
  console.log(`\n${outcomes.length} requests, ${IN_FLIGHT} in flight, in ${fmt(windowMs)} ms (${Math.round((outcomes.length / windowMs) * 1000)} req/s), ${failed} with an unexpected status\n`)
  const rows: [string, ...string[]][] = [['', 'count', 'p50 ms', 'p99 ms', 'max ms']]
  const kinds = [...new Set(outcomes.map((o) => o.kind))].sort()
  for (const kind of ['all requests', ...kinds]) {
    const times = outcomes.filter((o) => kind === 'all requests' || o.kind === kind).map((o) => o.ms)
    rows.push([kind, String(times.length), fmt(percentile(times, 50)), fmt(percentile(times, 99)), fmt(Math.max(...times))])
  }
  rows.push(['event-loop delay (1 ms timer)', String(loop.count), fmt(ms(loop.percentile(50))), fmt(stallP99), fmt(stallMax)])
  for (const row of rows) console.log(`  ${row[0].padEnd(32)}${row.slice(1).map((c) => c.padStart(9)).join('')}`)
  const pass = stallP99 < TARGET.p99Ms && stallMax < TARGET.maxMs && failed === 0
  console.log(`\n${pass ? 'PASS' : 'MISS'}: event-loop stall p99 ${fmt(stallP99)} ms (target < ${TARGET.p99Ms}), max ${fmt(stallMax)} ms (target < ${TARGET.maxMs})${failed ? `, ${failed} unexpected statuses` : ''}`)
}


function ms(nanoseconds: number): number {
  return nanoseconds / 1e6
}

function fmt(value: number): string {
  return value.toFixed(1)
}
