/**
 * What the public API's guard costs: req/s of a no-op route behind guardPublicApi (the real
 * ApiKeyService.authenticate over the embedded database, @fastify/rate-limit counting every request)
 * next to the same no-op route without it. Both routes live on one real app (buildApp), so the logger,
 * request-id hook, cookie plugin and error handler are the same and only the guard differs.
 *
 *   npx tsx bench/auth-overhead.ts
 *   BENCH_DURATION=10 BENCH_WARMUP=3 BENCH_CONNECTIONS=10 BENCH_ROUNDS=2 npx tsx bench/auth-overhead.ts
 *   BENCH_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/auth-overhead.ts   # adds the Redis rate-limit store
 */
import autocannon from 'autocannon'
import type { Redis } from 'ioredis'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { buildApp, type BuiltApp } from '../src/app.js'
import { loadConfig, type Config } from '../src/config.js'
import { openDatabase, type DatabaseHandle } from '../src/platform/db/index.js'
import { migrate } from '../src/platform/db/migrate.js'
import { guardPublicApi } from '../src/platform/http/public-api.js'
import { connectRedis } from '../src/platform/redis.js'

const DURATION_S = envNumber('BENCH_DURATION', 10)
const WARMUP_S = envNumber('BENCH_WARMUP', 3)
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10)
const ROUNDS = envNumber('BENCH_ROUNDS', 2)
const REDIS_URL = process.env.BENCH_REDIS_URL
const TARGET_OVERHEAD = 0.15
// Counted but never reached. Passed directly: RATE_LIMIT_CHEAP is capped at 1,000,000 by config.ts.
const UNREACHABLE_LIMIT = 100_000_000

interface Variant {
  name: string
  path: string
  headers: Record<string, string>
}

interface Measurement {
  reqPerSec: number
  p50Ms: number
  p99Ms: number
}

const dataDir = mkdtempSync(join(tmpdir(), 'al-bench-auth-'))
const logger = pino({ level: 'silent' })
const redisNamespace = `al-bench:${randomBytes(6).toString('hex')}:`
let database: DatabaseHandle | undefined
let redis: Redis | undefined
let app: BuiltApp | undefined
try {
  database = await openDatabase({ databaseUrl: undefined, dataDir, logger })
  await migrate(database.db)
  const config = loadConfig({ DATA_DIR: dataDir, APP_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' })
  redis = REDIS_URL ? await connectRedis(REDIS_URL, logger) : undefined
  app = await buildApp({ config, database })

  app.get('/bench/plain', noop)
  await registerGuardedNoop(app, config, '/bench/guarded', undefined)
  if (redis) await registerGuardedNoop(app, config, '/bench/guarded-redis', redis)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('server has no TCP address')
  const baseUrl = `http://127.0.0.1:${address.port}`

  const org = await app.services.orgs.createOrganization({ name: 'Bench', slug: 'bench' })
  const { token } = await app.services.keys.create({ organizationId: org.id, name: 'bench', scope: 'assets:read', expiresAt: null, createdBy: null })
  const auth = { authorization: `Bearer ${token}` }
  const variants: Variant[] = [
    { name: 'plain (no guard)', path: '/bench/plain', headers: auth },
    { name: 'guarded, memory store', path: '/bench/guarded', headers: auth },
    ...(redis ? [{ name: 'guarded, Redis store', path: '/bench/guarded-redis', headers: auth }] : []),
  ]
  for (const variant of variants.slice(1)) await assertGuarded(baseUrl, variant)

  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, ${ROUNDS} x ${DURATION_S} s per variant, alternating`)
  for (const variant of variants) await measure(baseUrl, variant, WARMUP_S)
  const runs = new Map<Variant, Measurement[]>(variants.map((v) => [v, []]))
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of variants) {
      const run = await measure(baseUrl, variant, DURATION_S)
      runs.get(variant)!.push(run)
      console.log(`  round ${round} ${variant.name.padEnd(24)} ${Math.round(run.reqPerSec)} req/s`)
    }
  }
  report(variants, runs)
} finally {
  await app?.close()
  if (redis) await removeCounters(redis)
  redis?.disconnect()
  await database?.close()
  rmSync(dataDir, { recursive: true, force: true })
}

async function noop() {
  return { ok: true }
}

/** Wired exactly as src/app.ts wires /api/v1, except for a limit that counts but never refuses. */
async function registerGuardedNoop(app: BuiltApp, config: Config, path: string, store: Redis | undefined): Promise<void> {
  await app.register(async (scope) => {
    await guardPublicApi(scope, {
      authenticate: (header) => app.services.keys.authenticate(header),
      rateLimits: { ...config.rateLimits, cheap: UNREACHABLE_LIMIT },
      redis: store,
      redisNamespace,
    })
    scope.get(path, noop)
  })
}

/** A benchmark of a guard that lets everyone in, or counts nothing, would measure the wrong thing. */
async function assertGuarded(baseUrl: string, variant: Variant): Promise<void> {
  const anonymous = await fetch(`${baseUrl}${variant.path}`)
  const keyed = await fetch(`${baseUrl}${variant.path}`, { headers: variant.headers })
  const remaining = Number(keyed.headers.get('x-ratelimit-remaining'))
  if (anonymous.status !== 401 || keyed.status !== 200 || !(remaining > 0 && remaining < UNREACHABLE_LIMIT)) {
    throw new Error(`${variant.name}: guard not in effect (anonymous ${anonymous.status}, keyed ${keyed.status}, remaining ${remaining})`)
  }
}

async function measure(baseUrl: string, variant: Variant, seconds: number): Promise<Measurement> {
  // One worker thread generates the load, so autocannon's own work stays off the server's event loop.
  const result = await autocannon({ url: `${baseUrl}${variant.path}`, headers: variant.headers, connections: CONNECTIONS, duration: seconds, workers: 1 })
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`${variant.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx responses`)
  }
  return { reqPerSec: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 }
}

function report(variants: Variant[], runs: Map<Variant, Measurement[]>): void {
  const best = (variant: Variant) => runs.get(variant)!.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a))
  const plain = best(variants[0]!).reqPerSec
  const headings = ['best req/s', 'mean ms', 'p50 ms', 'p99 ms', 'overhead']
  console.log(`\n  ${'variant'.padEnd(24)}${headings.map((h) => h.padStart(11)).join('')}   all runs (req/s)`)
  for (const variant of variants) {
    const { reqPerSec, p50Ms, p99Ms } = best(variant)
    // autocannon keeps whole milliseconds; with a fixed number of connections the mean follows exactly from req/s.
    const meanMs = ((CONNECTIONS * 1000) / reqPerSec).toFixed(2)
    const overhead = variant === variants[0] ? '' : percent((plain - reqPerSec) / plain)
    const cells = [Math.round(reqPerSec), meanMs, p50Ms, p99Ms, overhead].map((c) => String(c).padStart(11)).join('')
    console.log(`  ${variant.name.padEnd(24)}${cells}   ${runs.get(variant)!.map((r) => Math.round(r.reqPerSec)).join(', ')}`)
  }
  console.log('')
  for (const variant of variants.slice(1)) {
    const overhead = (plain - best(variant).reqPerSec) / plain
    console.log(`${overhead < TARGET_OVERHEAD ? 'PASS' : 'MISS'}: auth + rate limiting (${variant.name}) costs ${percent(overhead)} of throughput (target < ${percent(TARGET_OVERHEAD)})`)
  }
}

/** The limiter's Redis keys expire with the window anyway; a benchmark should still leave nothing behind. */
async function removeCounters(store: Redis): Promise<void> {
  const keys = await store.keys(`${redisNamespace}*`).catch(() => [])
  if (keys.length > 0) await store.del(...keys).catch(() => undefined)
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`
}

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`)
  return value
}
