/**
 * Downloads: the server's memory (RSS of this process, which runs the real app) while many clients
 * download one large original at once through its signed URL, beside the same downloads from a bare
 * Fastify route that serves the file the old way (`FileBlobStore.get`, a whole-file `readFile`, then
 * `send(buffer)`), and beside a bare route that streams it as the app does (`FileBlobStore.stream`), to
 * tell what streaming costs from what the app around it costs.
 *
 * The original is an uncompressed TIFF of random pixels (BENCH_MIB MiB, 20 by default), generated and
 * pushed (POST /api/v1/assets, base64) by a forked child, which then runs every download with undici:
 * BENCH_DOWNLOADS at once (50), BENCH_ROUNDS times (3), reading each body to the end and checking its
 * SHA-256, so the server process holds only what the server holds. Each variant first gets BENCH_WARMUP
 * downloads (2) outside the measurement. While a variant runs, this process samples
 * `process.memoryUsage()` every BENCH_SAMPLE_MS (10); it reports RSS before (after a GC and a second of
 * rest), the peak during the downloads, and after (again after a GC and a rest). The streaming variants
 * run first: memory a process once took is seldom given back, so the baseline would hide it.
 *
 *   npx tsx bench/downloads.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/downloads.ts
 *   BENCH_DOWNLOADS=50 BENCH_ROUNDS=3 BENCH_MIB=20 BENCH_WARMUP=2 BENCH_SAMPLE_MS=10 npx tsx bench/downloads.ts
 */
import { createHash, randomBytes } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import v8 from 'node:v8'
import vm from 'node:vm'
import Fastify, { type FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import sharp from 'sharp'
import { Agent, request } from 'undici'
import { benchKey } from './support/app.js'
import { answerParent, forkChild, percentile, type Child } from './support/child.js'
import { redactedUrl, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { MAX_IMAGE_BYTES } from '../src/modules/assets/push.js'
import { FileBlobStore } from '../src/platform/blobs/blob-store.js'
import { envNumber } from './support/env.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const DOWNLOADS = envNumber('BENCH_DOWNLOADS', 50)
const ROUNDS = envNumber('BENCH_ROUNDS', 3)
const MIB = envNumber('BENCH_MIB', 20)
const SAMPLE_MS = envNumber('BENCH_SAMPLE_MS', 10)
/** Downloads of each variant before its before-reading, so first-use costs (JIT, pools) do not count. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
if (!Number.isInteger(WARMUP) || WARMUP < 0) throw new Error('BENCH_WARMUP must be a whole number, 0 or more')
/** The streaming path may grow the server's RSS by this much at most while the downloads run. */
const TARGET_GROWTH_MIB = 64
const CLIENT_ROLE = '--download-client'
const MiB = 1024 * 1024

type ClientMessage =
  | { kind: 'push'; baseUrl: string; token: string; mib: number }
  | { kind: 'download'; url: string; parallel: number; rounds: number; sha256: string; size: number }

interface Pushed {
  assetId: string
  sha256: string
  size: number
  generateMs: number
  pushMs: number
}

interface Download {
  status: number
  bytes: number
  ms: number
  ok: boolean
  rateLimit: string | undefined
}

interface DownloadRun {
  downloads: Download[]
  wallMs: number
}

interface Memory {
  rss: number
  heapUsed: number
  arrayBuffers: number
}

interface Variant {
  name: string
  run: DownloadRun
  before: Memory
  peak: Memory
  after: Memory
  samples: number
  cpuMs: number
}

if (process.argv.includes(CLIENT_ROLE)) runDownloadClient()
else await main()

async function main(): Promise<void> {
  if (MIB * MiB > MAX_IMAGE_BYTES - 64 * 1024) throw new Error(`BENCH_MIB must leave room under the 25 MiB push limit`)
  const gc = exposeGc()
  let bench: BenchAppOn | undefined
  let bare: FastifyInstance | undefined
  let client: Child | undefined
  try {
    bench = await startBenchAppOn('downloads', SERVER_URL, {
      RATE_LIMIT_FILES: '1000000',
      RATE_LIMIT_CHEAP: '1000000',
      RATE_LIMIT_EXPENSIVE: '1000000',
      SERVE_BACKGROUND_WORK: 'false',
    })
    const { app, config, database } = bench
    const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(database.db)).rows[0]!.v
    console.log(
      `Database: ${database.kind === 'embedded' ? `embedded (PGlite, PostgreSQL ${version})` : `PostgreSQL ${version} at ${redactedUrl(SERVER_URL!)}, throwaway database ${bench.databaseName}`}`,
    )
    console.log(`Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)

    client = await forkChild(new URL(import.meta.url), [CLIENT_ROLE])
    const { token: writeKey } = await benchKey(app, 'assets:write')
    const started = await settled(gc)
    const pushed = await client.ask<Pushed>({ kind: 'push', baseUrl: bench.baseUrl, token: writeKey, mib: MIB })
    const afterPush = await settled(gc)
    console.log(
      `Original: ${(pushed.size / MiB).toFixed(2)} MiB uncompressed TIFF of random pixels, generated in ${(pushed.generateMs / 1000).toFixed(1)} s ` +
        `and pushed in ${(pushed.pushMs / 1000).toFixed(1)} s by the client`,
    )
    console.log(`Server RSS: ${mib(started.rss)} MiB with the app started, ${mib(afterPush.rss)} MiB after the push (decoding it takes memory the process keeps)`)

    // The signed URL as the API hands it out, pointed at this server.
    const record = await app.inject({ method: 'GET', url: `/api/v1/assets/${pushed.assetId}`, headers: { authorization: `Bearer ${writeKey}` } })
    if (record.statusCode !== 200) throw new Error(`reading the asset failed: ${record.statusCode} ${record.body}`)
    const signed = new URL(record.json<{ original_url: string }>().original_url)
    const streamUrl = `${bench.baseUrl}${signed.pathname}${signed.search}`

    // The old code path: the whole file read into one Buffer per request, then sent.
    const blobs = new FileBlobStore(config.blobDir)
    bare = Fastify()
    bare.get('/baseline', async (_request, reply) => {
      const bytes = await blobs.get(pushed.sha256)
      if (!bytes) return reply.code(404).send()
      return reply
        .header('content-type', 'image/tiff')
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(bytes)
    })
    // The new store call without the app around it (no database look-up, signature, limiter or hooks).
    bare.get('/stream', async (_request, reply) => {
      const blob = await blobs.stream(pushed.sha256)
      if (!blob) return reply.code(404).send()
      return reply.header('content-type', 'image/tiff').header('content-length', blob.size).send(blob.body)
    })
    const bareOrigin = await bare.listen({ host: '127.0.0.1', port: 0 })

    console.log(
      `Load: ${DOWNLOADS} downloads at once, ${ROUNDS} round(s) per variant, from a forked undici client that checks every body's SHA-256; ` +
        `${WARMUP} warm-up download(s) each; RSS sampled every ${SAMPLE_MS} ms${gc ? ', GC before each before/after reading' : ''}\n`,
    )
    const variants: Variant[] = []
    for (const [name, url] of [
      ['stream (app, signed URL)', streamUrl],
      ['stream (bare route)', `${bareOrigin}/stream`],
      ['readFile (bare route, old path)', `${bareOrigin}/baseline`],
    ] as const) {
      const downloads = (parallel: number, rounds: number) =>
        client!.ask<DownloadRun>({ kind: 'download', url, parallel, rounds, sha256: pushed.sha256, size: pushed.size })
      if (WARMUP > 0) {
        const warmup = await downloads(WARMUP, 1)
        if (warmup.downloads.some((d) => !d.ok)) throw new Error(`${name}: the warm-up downloads failed: ${warmup.downloads.map((d) => d.status).join(', ')}`)
      }
      const variant = await measure(name, gc, () => downloads(DOWNLOADS, ROUNDS))
      variants.push(variant)
      console.log(`  ${name}: peak RSS ${mib(variant.peak.rss)} MiB (before ${mib(variant.before.rss)})`)
    }
    report(variants, pushed.size)
  } finally {
    client?.stop()
    await bare?.close()
    await bench?.close()
  }
}

async function measure(name: string, gc: (() => void) | undefined, run: () => Promise<DownloadRun>): Promise<Variant> {
  const before = await settled(gc)
  const peak: Memory = { ...before }
  let samples = 0
  const sample = () => {
    const usage = process.memoryUsage()
    samples++
    peak.rss = Math.max(peak.rss, usage.rss)
    peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed)
    peak.arrayBuffers = Math.max(peak.arrayBuffers, usage.arrayBuffers)
  }
  const sampler = setInterval(sample, SAMPLE_MS)
  const cpuBefore = process.cpuUsage()
  let result: DownloadRun
  try {
    result = await run()
  } finally {
    clearInterval(sampler)
  }
  sample()
  const cpu = process.cpuUsage(cpuBefore)
  const after = await settled(gc)
  return { name, run: result, before, peak, after, samples, cpuMs: (cpu.user + cpu.system) / 1000 }
}

/** Memory after a full GC and a second of rest (and another GC), so that garbage does not count. */
async function settled(gc: (() => void) | undefined): Promise<Memory> {
  gc?.()
  await sleep(1000)
  gc?.()
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage()
  return { rss, heapUsed, arrayBuffers }
}

/** `global.gc` without --expose-gc on the command line (tsx runs the script). */
function exposeGc(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc')
    return vm.runInNewContext('gc') as () => void
  } catch {
    return undefined
  }
}

function report(variants: Variant[], size: number): void {
  const headings = ['downloads', 'MiB/s', 'p50 s', 'p95 s', 'CPU ms/dl', 'RSS before', 'RSS peak', 'RSS after', 'peak-before', 'buffers', 'buffers peak']
  console.log(`\n  ${'variant'.padEnd(34)}${headings.map((h) => h.padStart(13)).join('')}`)
  for (const v of variants) {
    const times = v.run.downloads.map((d) => d.ms / 1000)
    const bytes = v.run.downloads.reduce((sum, d) => sum + d.bytes, 0)
    const cells = [
      v.run.downloads.length,
      (bytes / MiB / (v.run.wallMs / 1000)).toFixed(0),
      percentile(times, 50).toFixed(2),
      percentile(times, 95).toFixed(2),
      (v.cpuMs / v.run.downloads.length).toFixed(1),
      mib(v.before.rss),
      mib(v.peak.rss),
      mib(v.after.rss),
      `+${mib(v.peak.rss - v.before.rss)}`,
      mib(v.before.arrayBuffers),
      mib(v.peak.arrayBuffers),
    ]
    console.log(`  ${v.name.padEnd(34)}${cells.map((c) => String(c).padStart(13)).join('')}`)
  }
  console.log(`\n  (MiB; ${variants.map((v) => v.samples).join(', ')} samples; "buffers" is process.memoryUsage().arrayBuffers, where Buffers live, before and at its peak)\n`)

  const [stream, , baseline] = variants as [Variant, Variant, Variant]
  const failed = variants.flatMap((v) => v.run.downloads.filter((d) => !d.ok).map((d) => `${v.name}: ${d.status}, ${d.bytes} bytes`))
  for (const detail of failed.slice(0, 5)) console.log(`  failed download: ${detail}`)
  const limits = new Set(stream.run.downloads.map((d) => d.rateLimit))
  console.log(`  x-ratelimit-limit on the app's answers: ${[...limits].join(', ')} (RATE_LIMIT_FILES raised so the limit does not interfere)`)
  const growth = (stream.peak.rss - stream.before.rss) / MiB
  const baselineGrowth = (baseline.peak.rss - baseline.before.rss) / MiB
  const pass = growth < TARGET_GROWTH_MIB && failed.length === 0
  console.log(
    `${pass ? 'PASS' : 'MISS'}: while ${DOWNLOADS} clients download a ${(size / MiB).toFixed(0)} MiB original at once, the server's RSS grows by ` +
      `${growth.toFixed(1)} MiB streaming (target < ${TARGET_GROWTH_MIB} MiB) against ${baselineGrowth.toFixed(1)} MiB reading whole files ` +
      `(${DOWNLOADS} x ${(size / MiB).toFixed(0)} MiB = ${((DOWNLOADS * size) / MiB).toFixed(0)} MiB)${failed.length ? `; ${failed.length} downloads failed` : ''}`,
  )
}

/** Child side: `push` makes and pushes the original; `download` fetches a URL `parallel` at a time, `rounds` times. */
function runDownloadClient(): void {
  const agent = new Agent({ keepAliveTimeout: 30_000 })
  answerParent(async (message: ClientMessage) => {
    if (message.kind === 'push') {
      let started = performance.now()
      // Random pixels do not compress; uncompressed TIFF keeps the file at the size asked for.
      const width = 4096
      const height = Math.floor((message.mib * MiB) / (width * 3))
      const tiff = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
        .tiff({ compression: 'none' })
        .toBuffer()
      const generateMs = performance.now() - started
      started = performance.now()
      const res = await request(`${message.baseUrl}/api/v1/assets`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${message.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ image_base64: tiff.toString('base64'), title: 'Bench original' }),
      })
      const text = await res.body.text()
      if (res.statusCode !== 201) throw new Error(`push failed: ${res.statusCode} ${text.slice(0, 300)}`)
      const sha256 = createHash('sha256').update(tiff).digest('hex')
      return { assetId: (JSON.parse(text) as { asset_id: string }).asset_id, sha256, size: tiff.length, generateMs, pushMs: performance.now() - started } satisfies Pushed
    }
    const downloads: Download[] = []
    const started = performance.now()
    for (let round = 0; round < message.rounds; round++) {
      downloads.push(...(await Promise.all(Array.from({ length: message.parallel }, () => download(agent, message.url, message.sha256, message.size)))))
    }
    return { downloads, wallMs: performance.now() - started } satisfies DownloadRun
  })
}

async function download(agent: Agent, url: string, sha256: string, size: number): Promise<Download> {
  const started = performance.now()
  const res = await request(url, { dispatcher: agent })
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of res.body) {
    hash.update(chunk as Buffer)
    bytes += (chunk as Buffer).length
  }
  const ok = res.statusCode === 200 && bytes === size && Number(res.headers['content-length']) === size && hash.digest('hex') === sha256
  const rateLimit = res.headers['x-ratelimit-limit']
  return { status: res.statusCode, bytes, ms: performance.now() - started, ok, rateLimit: typeof rateLimit === 'string' ? rateLimit : undefined }
}

function mib(bytes: number): string {
  return (bytes / MiB).toFixed(1)
}
