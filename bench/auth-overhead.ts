/**
 * What the public API's guard costs: req/s of a no-op route behind a key route's guard (the real
 * ApiKeyService.authenticate, our rate limiter counting every request) next to the same no-op route
 * without it, on the embedded database, or on a throwaway database on the PostgreSQL server of
 * BENCH_DATABASE_URL (dropped at the end). Both routes live on one real app (buildApp), so the logger,
 * request-id hook, cookie plugin and error handler are the same and only the guard differs.
 *
 * autocannon runs in a forked child: the server keeps its process to itself, and its CPU time per
 * request (which other load on the machine barely moves, unlike req/s) can be read from process.cpuUsage().
 *
 *   npx tsx bench/auth-overhead.ts
 *   BENCH_DURATION=10 BENCH_WARMUP=3 BENCH_CONNECTIONS=10 BENCH_ROUNDS=2 npx tsx bench/auth-overhead.ts
 *   BENCH_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/auth-overhead.ts   # adds the Redis rate-limit store
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/auth-overhead.ts
 */
import type { Redis } from 'ioredis'
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'
import { benchKey, silent } from './support/app.js'
import { redactedUrl, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { envNumber } from './support/env.js'
import { startLoadGenerator, type LoadGenerator, type LoadResult } from './support/load-generator.js'
import { type BuiltApp } from '../src/app.js'
import { type Config } from '../src/config.js'
import { MemoryStore, RateLimiter, RedisStore } from '../src/platform/http/rate-limit.js'
import { RouteGuard } from '../src/platform/http/route-auth.js'
import { connectRedis } from '../src/platform/redis.js'

const DURATION_S = envNumber('BENCH_DURATION', 10)
const WARMUP_S = envNumber('BENCH_WARMUP', 3)
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10)
const ROUNDS = envNumber('BENCH_ROUNDS', 2)
const REDIS_URL = process.env.BENCH_REDIS_URL
const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const TARGET_OVERHEAD = 0.15
// Counted but never reached. Passed directly: RATE_LIMIT_CHEAP is capped at 1,000,000 by config.ts.
const UNREACHABLE_LIMIT = 100_000_000

interface Variant {
  name: string
  path: string
}


interface Measurement extends LoadResult {
  serverCpuUsPerRequest: number
}

await main()

async function main(): Promise<void> {
  const redisNamespace = `al-bench:${randomBytes(6).toString('hex')}:`
  let redis: Redis | undefined
  let bench: BenchAppOn | undefined
  let loadGenerator: LoadGenerator | undefined
  try {
    redis = REDIS_URL ? await connectRedis(REDIS_URL, silent) : undefined
    bench = await startBenchAppOn('auth', SERVER_URL, {}, (app, config) => {
      app.get('/bench/plain', { config: { auth: { kind: 'public' } } }, noop)
      registerGuardedNoop(app, config, '/bench/guarded', { redis: undefined, redisNamespace })
      if (redis) registerGuardedNoop(app, config, '/bench/guarded-redis', { redis, redisNamespace })
    })
    const { baseUrl } = bench
    const { token } = await benchKey(bench.app, 'assets:read')
    // The plain route gets the same header, so both variants send identical requests.
    const headers = { authorization: `Bearer ${token}` }
    const variants: Variant[] = [
      { name: 'plain (no guard)', path: '/bench/plain' },
      { name: 'guarded, memory store', path: '/bench/guarded' },
      ...(redis ? [{ name: 'guarded, Redis store', path: '/bench/guarded-redis' }] : []),
    ]
    for (const variant of variants.slice(1)) await assertGuarded(`${baseUrl}${variant.path}`, headers)

    loadGenerator = await startLoadGenerator()
    const measure = async (variant: Variant, seconds: number): Promise<Measurement> => {
      const cpuBefore = process.cpuUsage()
      const result = await loadGenerator!.run({ url: `${baseUrl}${variant.path}`, headers, connections: CONNECTIONS, duration: seconds })
      const cpu = process.cpuUsage(cpuBefore)
      if (result.failures) throw new Error(`${variant.name}: ${result.failures}`)
      return { ...result, serverCpuUsPerRequest: (cpu.user + cpu.system) / result.completed }
    }

    console.log(SERVER_URL ? `PostgreSQL at ${redactedUrl(SERVER_URL)}, throwaway database ${bench.databaseName}` : 'embedded database (PGlite)')
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, ${ROUNDS} x ${DURATION_S} s per variant, alternating`)
    for (const variant of variants) await measure(variant, WARMUP_S)
    const runs = new Map<Variant, Measurement[]>(variants.map((v) => [v, []]))
    for (let round = 1; round <= ROUNDS; round++) {
      for (const variant of variants) {
        const run = await measure(variant, DURATION_S)
        runs.get(variant)!.push(run)
        console.log(`  round ${round} ${variant.name.padEnd(24)} ${Math.round(run.reqPerSec)} req/s, server CPU ${run.serverCpuUsPerRequest.toFixed(1)} µs/request`)
      }
    }
    report(variants, runs)
  } finally {
    loadGenerator?.stop()
    await bench?.close()
    if (redis) await removeCounters(redis, redisNamespace)
    redis?.disconnect()
  }
}

async function noop() {
  return { ok: true }
}

/**
 * The hooks of a v1 read route (`auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' }`), as
 * src/app.ts's guard makes them, but from a guard of its own: its own store, and a limit that counts
 * but never refuses. The route itself is declared public, so the app's guard adds nothing to it.
 */
function registerGuardedNoop(
  app: BuiltApp,
  config: Config,
  path: string,
  store: { redis: Redis | undefined; redisNamespace: string },
): void {
  const windowMs = config.rateLimits.windowMs
  const limiter = new RateLimiter(
    store.redis ? new RedisStore(store.redis, store.redisNamespace, app.log) : new MemoryStore(windowMs),
    windowMs,
  )
  app.addHook('onClose', async () => limiter.close())
  const guard = new RouteGuard({
    authenticate: (header) => app.services.keys.authenticate(header),
    sessions: { caller: async () => null, require: async () => undefined },
    limiter,
    rateLimits: { ...config.rateLimits, cheap: UNREACHABLE_LIMIT },
    publicBaseUrl: config.publicBaseUrl,
  })
  app.get(path, { config: { auth: { kind: 'public' } }, ...guard.hooks({ kind: 'key', scope: 'assets:read', bucket: 'cheap' }) }, noop)
}

/** A benchmark of a guard that lets everyone in, or counts nothing, would measure the wrong thing. */
async function assertGuarded(url: string, headers: Record<string, string>): Promise<void> {
  const anonymous = await fetch(url)
  const keyed = await fetch(url, { headers })
  const remaining = Number(keyed.headers.get('x-ratelimit-remaining'))
  if (anonymous.status !== 401 || keyed.status !== 200 || !(remaining > 0 && remaining < UNREACHABLE_LIMIT)) {
    throw new Error(`${url}: guard not in effect (anonymous ${anonymous.status}, keyed ${keyed.status}, remaining ${remaining})`)
  }
}


function report(variants: Variant[], runs: Map<Variant, Measurement[]>): void {
  const best = (variant: Variant) => runs.get(variant)!.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a))
  const leastCpu = (variant: Variant) => Math.min(...runs.get(variant)!.map((r) => r.serverCpuUsPerRequest))
  const plain = variants[0]!
  const headings = ['best req/s', 'mean ms', 'p50 ms', 'p99 ms', 'CPU µs/req', 'overhead']
  console.log(`\n  ${'variant'.padEnd(24)}${headings.map((h) => h.padStart(11)).join('')}   all runs (req/s)`)
  for (const variant of variants) {
    const { reqPerSec, p50Ms, p99Ms } = best(variant)
    // autocannon keeps whole milliseconds; with a fixed number of connections the mean follows exactly from req/s.
    const meanMs = ((CONNECTIONS * 1000) / reqPerSec).toFixed(2)
    const overhead = variant === plain ? '' : percent(1 - reqPerSec / best(plain).reqPerSec)
    const cells = [Math.round(reqPerSec), meanMs, p50Ms, p99Ms, leastCpu(variant).toFixed(1), overhead]
    console.log(`  ${variant.name.padEnd(24)}${cells.map((c) => String(c).padStart(11)).join('')}   ${runs.get(variant)!.map((r) => Math.round(r.reqPerSec)).join(', ')}`)
  }
  console.log('')
  for (const variant of variants.slice(1)) {
    const overhead = 1 - best(variant).reqPerSec / best(plain).reqPerSec
    // What the throughput loss would be on a CPU-bound server: the same ratio, read from CPU time per request.
    const cpuOverhead = 1 - leastCpu(plain) / leastCpu(variant)
    console.log(
      `${overhead < TARGET_OVERHEAD ? 'PASS' : 'MISS'}: auth + rate limiting (${variant.name}) costs ${percent(overhead)} of throughput ` +
        `(target < ${percent(TARGET_OVERHEAD)}); by server CPU per request ${percent(cpuOverhead)}`,
    )
  }
}

/** The limiter's Redis keys expire with the window anyway; a benchmark should still leave nothing behind. */
async function removeCounters(redis: Redis, namespace: string): Promise<void> {
  const keys = await redis.keys(`${namespace}*`).catch(() => [])
  if (keys.length > 0) await redis.del(...keys).catch(() => undefined)
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`
}
