/**
 * Renditions on demand (issue 34), three measures in one run on the real app over real HTTP, on the
 * embedded database (or PostgreSQL):
 *
 * 1. A cached rendition served against a thumbnail file: the signed link of a stored 512 px WebP
 *    rendition (`w512-contain-q80.webp`) against the asset's signed thumbnail link (a 512 px WebP too, so
 *    the bytes are alike), each under a forked autocannon load (BENCH_CONNECTIONS at once for
 *    BENCH_SECONDS), alternating BENCH_ROUNDS rounds of each. Target: the rendition at >= 90% of the
 *    thumbnail's rate, as the median of the rounds' ratios (each round's two runs are neighbours in time).
 * 2. A first rendition against sharp alone: `GET /api/v1/assets/{id}/render?width=1200&format=webp`
 *    (302 once made: the original read from the store, the render, the row, the file written) of a
 *    ~1 MiB PNG (2400x1600, flat blocks and a square of noise) no call rendered before, against
 *    `sharp(bytes).resize(1200).webp({quality: 80})` of another such PNG already in memory, alternating
 *    which goes first, one at a time. Target: the app's p50 and p95 <= 120% of sharp's.
 * 3. Peak RSS during BENCH_BURST (500) concurrent first renders of distinct sizes, sampled every 10 ms in
 *    this process (the server, and the undici client sending the burst), with what was made and what
 *    was answered 503 `render_busy`.
 *
 *   npx tsx bench/renditions.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/renditions.ts
 *   BENCH_ROUNDS=6 BENCH_SECONDS=3 BENCH_CONNECTIONS=10 BENCH_FIRST=20 BENCH_BURST=500 npx tsx bench/renditions.ts
 */
import { randomBytes } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import sharp from 'sharp'
import { Agent, request } from 'undici'
import { benchKey } from './support/app.js'
import { percentile } from './support/child.js'
import { redactedUrl, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { envNumber } from './support/env.js'
import { startLoadGenerator, type LoadGenerator, type LoadResult } from './support/load-generator.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const ROUNDS = envNumber('BENCH_ROUNDS', 6)
const SECONDS = envNumber('BENCH_SECONDS', 3)
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10)
const FIRST = envNumber('BENCH_FIRST', 20)
const BURST = envNumber('BENCH_BURST', 500)
const WARMUP = 2
const CACHED_TARGET = 0.9
const FIRST_TARGET = 1.2
const MiB = 1024 * 1024

await main()

async function main(): Promise<void> {
  let bench: BenchAppOn | undefined
  let load: LoadGenerator | undefined
  try {
    bench = await startBenchAppOn('renditions', SERVER_URL, {
      RATE_LIMIT_FILES: '1000000',
      RATE_LIMIT_CHEAP: '1000000',
      RATE_LIMIT_EXPENSIVE: '1000000',
      PLAN_LIMITS: JSON.stringify({ free: { max_assets: 1_000_000, max_bytes: 1e15 } }),
    })
    const { token } = await benchKey(bench.app, 'assets:write')
    const api = apiOf(bench.baseUrl, token)
    const database = SERVER_URL ? `PostgreSQL (${redactedUrl(SERVER_URL)})` : 'embedded PGlite'
    console.log(`renditions.ts: ${database}; Node ${process.version}, ${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`)

    load = await startLoadGenerator()
    await cachedAgainstThumbnail(api, load)
    await firstAgainstSharp(api)
    await burst(api)
  } finally {
    load?.stop()
    await bench?.close()
  }
}

interface Api {
  baseUrl: string
  push(image: Buffer): Promise<{ id: string; thumbnail_url: string }>
  /** The render endpoint's answer: its status, Location and time. */
  render(id: string, query: string, dispatcher?: Agent): Promise<{ status: number; location: string | undefined; ms: number }>
  /** A signed URL as the app hands it out, pointed at this server. */
  local(url: string): string
}

function apiOf(baseUrl: string, token: string): Api {
  const authorization = `Bearer ${token}`
  return {
    baseUrl,
    async push(image) {
      const res = await fetch(`${baseUrl}/api/v1/assets`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ image_base64: image.toString('base64') }) })
      const { asset_id: id } = (await res.json()) as { asset_id: string }
      const record = (await (await fetch(`${baseUrl}/api/v1/assets/${id}`, { headers: { authorization } })).json()) as { id: string; thumbnail_url: string }
      return record
    },
    async render(id, query, dispatcher) {
      const started = performance.now()
      const res = await request(`${baseUrl}/api/v1/assets/${id}/render?${query}`, { headers: { authorization }, ...(dispatcher && { dispatcher }) })
      await res.body.dump()
      const location = res.headers.location
      return { status: res.statusCode, location: typeof location === 'string' ? location : undefined, ms: performance.now() - started }
    },
    local(url) {
      const { pathname, search } = new URL(url)
      return `${baseUrl}${pathname}${search}`
    },
  }
}

/** 1: a stored rendition's link against the thumbnail's, alternating rounds under the same load. */
async function cachedAgainstThumbnail(api: Api, load: LoadGenerator): Promise<void> {
  const asset = await api.push(await sharp(randomBytes(900 * 600 * 3), { raw: { width: 900, height: 600, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer())
  const made = await api.render(asset.id, 'width=512&format=webp')
  if (made.status !== 302 || !made.location) throw new Error(`the rendition was not made: ${made.status}`)
  const urls = { thumbnail: api.local(asset.thumbnail_url), rendition: api.local(made.location) }
  for (const url of Object.values(urls)) {
    const res = await fetch(url)
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`)
    await res.arrayBuffer()
  }
  await load.run({ url: urls.thumbnail, connections: CONNECTIONS, duration: 1 })
  await load.run({ url: urls.rendition, connections: CONNECTIONS, duration: 1 })
  const runs: Record<keyof typeof urls, LoadResult[]> = { thumbnail: [], rendition: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order: Array<keyof typeof urls> = round % 2 === 0 ? ['thumbnail', 'rendition'] : ['rendition', 'thumbnail']
    for (const name of order) {
      const result = await load.run({ url: urls[name], connections: CONNECTIONS, duration: SECONDS })
      if (result.failures) throw new Error(`${name}: ${result.failures}`)
      runs[name].push(result)
    }
  }
  const summary = (results: LoadResult[]) => ({
    rate: results.reduce((sum, r) => sum + r.reqPerSec, 0) / results.length,
    p50: percentile(results.map((r) => r.p50Ms), 50),
    p95: percentile(results.map((r) => r.p95Ms), 50),
  })
  const thumbnail = summary(runs.thumbnail)
  const rendition = summary(runs.rendition)
  // Each round's two runs are neighbours in time: the median of their ratios shrugs off a round the
  // shared machine slowed down, which the ratio of the means would carry.
  const ratio = percentile(runs.rendition.map((run, round) => run.reqPerSec / runs.thumbnail[round]!.reqPerSec), 50)
  console.log(`1. A stored rendition's signed link against the thumbnail's: ${ROUNDS} rounds of ${SECONDS} s each, alternating, ${CONNECTIONS} connections (median of the rounds' percentiles)\n`)
  console.log('| file | req/s | p50 ms | p95 ms |')
  console.log('|---|---|---|---|')
  console.log(`| thumbnail (512 px WebP) | ${thumbnail.rate.toFixed(0)} | ${thumbnail.p50.toFixed(1)} | ${thumbnail.p95.toFixed(1)} |`)
  console.log(`| rendition w512-contain-q80.webp | ${rendition.rate.toFixed(0)} | ${rendition.p50.toFixed(1)} | ${rendition.p95.toFixed(1)} |`)
  console.log(`| rendition / thumbnail | ${(rendition.rate / thumbnail.rate).toFixed(2)} (median of the rounds' ratios ${ratio.toFixed(2)}) | ${(rendition.p50 / thumbnail.p50).toFixed(2)} | ${(rendition.p95 / thumbnail.p95).toFixed(2)} |`)
  console.log(`\n${ratio >= CACHED_TARGET ? 'PASS' : 'MISS'}: a stored rendition is served at >= ${CACHED_TARGET * 100}% of the thumbnail's rate (median of the rounds' ratios)\n`)
}

/** 2: a first rendition through the app against sharp alone, alternating, one at a time. */
async function firstAgainstSharp(api: Api): Promise<void> {
  const images = await Promise.all(Array.from({ length: 2 * (FIRST + WARMUP) }, () => designPng()))
  const size = images.reduce((sum, image) => sum + image.length, 0) / images.length
  const ids: string[] = []
  for (const image of images.slice(0, FIRST + WARMUP)) ids.push((await api.push(image)).id)
  const inMemory = images.slice(FIRST + WARMUP)
  const app: number[] = []
  const alone: number[] = []
  for (let i = 0; i < FIRST + WARMUP; i++) {
    const viaApp = async () => {
      const made = await api.render(ids[i]!, 'width=1200&format=webp')
      if (made.status !== 302) throw new Error(`the render answered ${made.status}`)
      return made.ms
    }
    const viaSharp = async () => {
      const started = performance.now()
      await sharp(inMemory[i]!).resize(1200).webp({ quality: 80 }).toBuffer()
      return performance.now() - started
    }
    const [first, second] = i % 2 === 0 ? [viaApp, viaSharp] : [viaSharp, viaApp]
    const a = await first()
    const b = await second()
    if (i < WARMUP) continue
    app.push(i % 2 === 0 ? a : b)
    alone.push(i % 2 === 0 ? b : a)
  }
  const stats = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95) })
  const appStats = stats(app)
  const sharpStats = stats(alone)
  const ratio50 = appStats.p50 / sharpStats.p50
  const ratio95 = appStats.p95 / sharpStats.p95
  console.log(`2. A first rendition (a ${(size / MiB).toFixed(2)} MiB 2400x1600 PNG to 1200 px WebP, quality 80): ${FIRST} of each, alternating, one at a time\n`)
  console.log('| how | p50 ms | p95 ms |')
  console.log('|---|---|---|')
  console.log(`| GET /render (read, render, row, write; 302) | ${appStats.p50.toFixed(1)} | ${appStats.p95.toFixed(1)} |`)
  console.log(`| sharp alone, bytes in memory | ${sharpStats.p50.toFixed(1)} | ${sharpStats.p95.toFixed(1)} |`)
  console.log(`| app / sharp | ${ratio50.toFixed(2)} | ${ratio95.toFixed(2)} |`)
  console.log(`\n${ratio50 <= FIRST_TARGET && ratio95 <= FIRST_TARGET ? 'PASS' : 'MISS'}: a first rendition costs <= ${FIRST_TARGET * 100}% of sharp alone (p50 and p95)\n`)
}

/** 3: peak RSS while BURST first renders of distinct sizes arrive at once. */
async function burst(api: Api): Promise<void> {
  const asset = await api.push(await designPng())
  const agent = new Agent({ connections: BURST + 10 })
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
  const started = performance.now()
  const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => api.render(asset.id, `width=${200 + i}&format=webp`, agent)))
  const wallMs = performance.now() - started
  clearInterval(sampler)
  await agent.close()
  const count = (status: number) => answers.filter((answer) => answer.status === status).length
  const other = answers.filter((answer) => answer.status !== 302 && answer.status !== 503).map((answer) => answer.status)
  console.log(`3. ${BURST} first renders of distinct sizes at once (200..${199 + BURST} px wide WebP of a 2400x1600 PNG), default RENDER_CONCURRENCY and RENDER_QUEUE_MAX\n`)
  console.log('| made (302) | busy (503) | other | wall s | p95 answer ms | RSS before MiB | peak RSS MiB | growth MiB |')
  console.log('|---|---|---|---|---|---|---|---|')
  const p95 = percentile(answers.map((answer) => answer.ms), 95)
  console.log(
    `| ${count(302)} | ${count(503)} | ${other.length === 0 ? 'none' : other.join(', ')} | ${(wallMs / 1000).toFixed(1)} | ${p95.toFixed(0)} | ${(before / MiB).toFixed(0)} | ${(peak / MiB).toFixed(0)} | ${((peak - before) / MiB).toFixed(0)} |\n`,
  )
}

/** A ~1 MiB PNG of 2400x1600 no call rendered before: flat blocks of colour, and a square of noise. */
async function designPng(): Promise<Buffer> {
  const blocks = await sharp(randomBytes(120 * 80 * 3), { raw: { width: 120, height: 80, channels: 3 } }).resize(2400, 1600, { kernel: 'nearest' }).png().toBuffer()
  const noise = await sharp(randomBytes(520 * 520 * 3), { raw: { width: 520, height: 520, channels: 3 } }).png().toBuffer()
  return sharp(blocks).composite([{ input: noise, left: 900, top: 500 }]).png().toBuffer()
}
