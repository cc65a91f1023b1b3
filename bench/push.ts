/**
 * Pushing images: assets/s and latency of POST /api/v1/assets over real HTTP, the real app on the embedded
 * database (or PostgreSQL), in two variants: the image as base64 in a JSON body, and the image's bytes as
 * a multipart/form-data `file` part. Next to them a baseline that only decodes and thumbnails images of
 * the same kind with ImageProcessor in this process: the sharp-only rate, the most the API could reach.
 *
 * The images are ~1 MiB PNGs and JPEGs of noise made with sharp at start-up. Every push sends bytes no
 * earlier push sent (a few pixels differ), so no push takes the duplicate short cut, nor finds its files
 * already stored: the two variants push different images of the same size and noise, and sharp-only
 * decodes the JSON variant's. The pushes come from a forked child process that builds its request bodies
 * before the timed window; the server keeps its process (and the embedded database's worker thread) to
 * itself.
 *
 * BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) runs on a throwaway database
 * created on that PostgreSQL server and dropped at the end.
 *
 *   npx tsx bench/push.ts
 *   BENCH_IMAGES=40 BENCH_CONCURRENCY=2,4 BENCH_WARMUP=4 npx tsx bench/push.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/push.ts
 *   BENCH_CONCURRENCY=1,4 BENCH_BURST=400 BENCH_IMAGE_DIR=/tmp/push-images npx tsx bench/push.ts
 *
 * The app makes thumbnails (and, since issue 36, four analyses) after the push's commit, with its background
 * runners (as `serve` does): each row starts once the previous rows' derived work is all done, and its rate
 * includes the work done meanwhile. BENCH_BURST=n then pushes n more images (half PNG, half JPEG, multipart, 4 in flight) and
 * reports the time from the first push until every one of their thumbnails is stored. On code that
 * makes the thumbnail before answering (before issue 25) the same script measures the same things.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import sharp from 'sharp'
import { benchKey } from './support/app.js'
import { percentile } from './support/child.js'
import { redactedUrl, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { envList, envNumber } from './support/env.js'
import { imagesIn, type Format, type ImageSet } from './support/noise-images.js'
import { runWorkers, startPushClient, VARIANTS, type Outcome, type PushClient, type Run, type Variant } from './support/push-client.js'
import { FileBlobStore, variantKey } from '../src/platform/blobs/blob-store.js'
import type { Db } from '../src/platform/db/index.js'
import { ImageProcessor } from '../src/platform/images/images.js'

const IMAGES_PER_RUN = envNumber('BENCH_IMAGES', 40)
const IN_FLIGHT_LEVELS = envList('BENCH_CONCURRENCY', '2,4')
const WARMUP_IMAGES = envNumber('BENCH_WARMUP', 4)
const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const BURST_IMAGES = Number(process.env.BENCH_BURST ?? 0)
const BURST_IN_FLIGHT = 4
/** Keeps the generated images there for the next run (each run has a database and files of its own). */
const IMAGE_DIR = process.env.BENCH_IMAGE_DIR || undefined
/** BENCH_DERIVATIONS=thumbnails,palette: only these run (to find what a derivation costs the pushes); all but the embeddings by default. */
const DERIVATIONS = process.env.BENCH_DERIVATIONS ? process.env.BENCH_DERIVATIONS.split(',') : undefined
const FORMATS = ['png', 'jpeg'] as const
/** The share of the sharp-only rate each variant should reach: base64 costs the JSON body more. */
const TARGET_RATIO: Record<Variant, number> = { json: 0.7, multipart: 0.8 }
const VARIANT_NAMES: Record<Variant, string> = { json: 'API JSON', multipart: 'API multipart' }
/** The queues of the work that follows a push, on code that has them: the thumbnails (issue 25) and the analyses (issue 36). */
const DERIVED_QUEUES: Record<string, string> = {
  thumbnails: 'thumbnail_jobs',
  perceptual_hash: 'perceptual_hash_jobs',
  palette: 'palette_jobs',
  metadata: 'metadata_jobs',
  provenance: 'provenance_jobs',
}


interface Measurement extends Run {
  cpuMsPerImage: number
}

interface Row {
  format: Format
  inFlight: number
  sharp: Measurement
  api: Record<Variant, Measurement>
}

await main()

async function main(): Promise<void> {
  let bench: BenchAppOn | undefined
  let client: PushClient | undefined
  try {
    bench = await startBenchAppOn('push', SERVER_URL, {
      RATE_LIMIT_EXPENSIVE: '1000000',
      // Limits that are checked on every push (the plan's usage query runs) but never reached.
      PLAN_LIMITS: JSON.stringify({ free: { max_assets: 1_000_000_000, max_bytes: 1e15 } }),
    })
    const { app, config, database } = bench
    const url = `${bench.baseUrl}/api/v1/assets`
    const { token } = await benchKey(app, 'assets:write')
    const imageDir = IMAGE_DIR ?? join(bench.dataDir, 'bench-images')
    // Each variant pushes images of its own: a second push of the same bytes would find its files stored.
    const perVariant = WARMUP_IMAGES + IN_FLIGHT_LEVELS.length * IMAGES_PER_RUN
    const perFormat = VARIANTS.length * perVariant
    const burstPerFormat = Math.ceil(BURST_IMAGES / FORMATS.length)
    const started = performance.now()
    const sets = new Map<Format, ImageSet>()
    for (const format of FORMATS) sets.set(format, await imagesIn(imageDir, format, perFormat + burstPerFormat))
    console.log(`Generated ${perFormat} distinct images per format in ${((performance.now() - started) / 1000).toFixed(1)} s:`)
    for (const set of sets.values()) {
      const mp = ((set.width * set.height) / 1e6).toFixed(2)
      console.log(`  ${set.format.toUpperCase().padEnd(5)} ${set.width} x ${set.height} (${mp} MP), ${mib(set.bytes.min)} to ${mib(set.bytes.max)} MiB`)
    }

    // Its own processor, configured as the app's (IMAGE_CONCURRENCY decodes at once, the rest queue).
    const images = new ImageProcessor({ maxConcurrent: config.imageConcurrency })

    // As `serve` runs them (the embeddings aside: no provider here); code from before issue 25 has no
    // such runner (and makes thumbnails in the push), from before issue 32 only `thumbnails`.
    const services = app.services as { thumbnails?: { start(): void }; derivations?: ReadonlyArray<{ name: string; start(): Promise<void> }> }
    if (services.derivations) await Promise.all(services.derivations.filter((derivation) => benchRuns(derivation.name)).map((derivation) => derivation.start()))
    else services.thumbnails?.start()
    client = await startPushClient()
    const measureApi = async (format: Format, variant: Variant, files: string[], inFlight: number): Promise<Measurement> => {
      await client!.prepare(files, format, variant)
      await derivedWorkDone(database.db)
      const cpuBefore = process.cpuUsage()
      const run = await client!.run(url, token, inFlight)
      return { ...run, cpuMsPerImage: cpuMs(process.cpuUsage(cpuBefore)) / files.length }
    }
    const measureSharp = async (files: string[], inFlight: number): Promise<Measurement> => {
      const inputs = files.map((file) => readFileSync(file))
      const cpuBefore = process.cpuUsage()
      const run = await runWorkers(inputs, inFlight, async (bytes) => {
        await images.process(bytes)
        return { ok: true }
      })
      return { ...run, cpuMsPerImage: cpuMs(process.cpuUsage(cpuBefore)) / files.length }
    }

    const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(database.db)).rows[0]!.v
    console.log(
      `\nDatabase: ${SERVER_URL ? `PostgreSQL ${version} at ${redactedUrl(SERVER_URL)}, throwaway database ${bench.databaseName}` : `embedded (PGlite, PostgreSQL ${version})`}`,
    )
    console.log(
      `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${IMAGES_PER_RUN} images per run, ` +
        `in flight ${IN_FLIGHT_LEVELS.join(' and ')}, IMAGE_CONCURRENCY ${config.imageConcurrency}, sharp threads ${sharp.concurrency()}`,
    )
    /** The variant's images: its own slice of the format's set. */
    const filesOf = (set: ImageSet, variant: Variant, first: number, count: number) => {
      const start = VARIANTS.indexOf(variant) * perVariant + first
      return set.files.slice(start, start + count)
    }
    const warmupFailures: string[] = []
    for (const set of sets.values()) {
      await measureSharp(filesOf(set, 'json', 0, WARMUP_IMAGES), 2)
      for (const variant of VARIANTS) {
        warmupFailures.push(...failures((await measureApi(set.format, variant, filesOf(set, variant, 0, WARMUP_IMAGES), 2)).outcomes))
      }
    }
    if (warmupFailures.length > 0) throw new Error(`warm-up pushes failed: ${warmupFailures.slice(0, 3).join('; ')}`)

    const rows: Row[] = []
    for (const [level, inFlight] of IN_FLIGHT_LEVELS.entries()) {
      for (const set of sets.values()) {
        const first = WARMUP_IMAGES + level * IMAGES_PER_RUN
        const sharpOnly = await measureSharp(filesOf(set, 'json', first, IMAGES_PER_RUN), inFlight)
        const json = await measureApi(set.format, 'json', filesOf(set, 'json', first, IMAGES_PER_RUN), inFlight)
        const form = await measureApi(set.format, 'multipart', filesOf(set, 'multipart', first, IMAGES_PER_RUN), inFlight)
        rows.push({ format: set.format, inFlight, sharp: sharpOnly, api: { json, multipart: form } })
        console.log(
          `  ${set.format.toUpperCase().padEnd(5)} ${inFlight} in flight: sharp-only ${rate(sharpOnly).toFixed(1)}/s, ` +
            `API JSON ${rate(json).toFixed(1)}/s, API multipart ${rate(form).toFixed(1)}/s`,
        )
      }
    }

    const stored = await database.db.selectFrom('assets').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()
    const expected = FORMATS.length * VARIANTS.length * perVariant
    report(rows, Number(stored.n), expected)

    if (BURST_IMAGES > 0) {
      const burst = [...sets.values()].flatMap((set) => set.files.slice(perFormat, perFormat + burstPerFormat)).slice(0, BURST_IMAGES)
      await measureBurst(burst, new FileBlobStore(config.blobDir), database.db, async (format, files) => {
        await client!.prepare(files, format, 'multipart')
        return client!.run(url, token, BURST_IN_FLIGHT)
      })
    }
  } finally {
    client?.stop()
    await bench?.close()
  }
}

/** Until the background runners have nothing left to make from the pushes (at once on code without queues). */
/** Whether the bench runs this derivation (BENCH_DERIVATIONS). */
function benchRuns(name: string): boolean {
  return DERIVATIONS ? DERIVATIONS.includes(name) : name !== 'embeddings'
}

async function derivedWorkDone(db: Db): Promise<void> {
  const present: string[] = []
  for (const [name, queue] of Object.entries(DERIVED_QUEUES)) {
    if (!benchRuns(name)) continue
    const { rows } = await sql<{ queue: string | null }>`select to_regclass(${queue})::text as queue`.execute(db)
    if (rows[0]!.queue !== null) present.push(queue)
  }
  if (present.length === 0) return
  const counts = sql.join(present.map((queue) => sql`(select count(*) from ${sql.table(queue)})`), sql` + `)
  const queued = async () => (await sql<{ n: number }>`select (${counts})::int as n`.execute(db)).rows[0]!.n
  while ((await queued()) > 0) await new Promise((resolve) => setTimeout(resolve, 20))
}

/**
 * Pushes the burst (each format's images in turn, 4 in flight) and times it from the first push until
 * every thumbnail of it is stored, polling the blob store every 20 ms.
 */
async function measureBurst(files: string[], blobs: FileBlobStore, db: Db, push: (format: Format, files: string[]) => Promise<Run>): Promise<void> {
  await derivedWorkDone(db)
  const keys = files.map((file) => variantKey(createHash('sha256').update(readFileSync(file)).digest('hex'), 'thumb.webp'))
  const started = performance.now()
  const runs: Run[] = []
  for (const format of FORMATS) runs.push(await push(format, files.filter((file) => file.endsWith(`.${format}`))))
  const pushedMs = performance.now() - started
  let missing = keys
  while (missing.length > 0) {
    const present = await Promise.all(missing.map((key) => blobs.exists(key)))
    missing = missing.filter((_, i) => !present[i])
    if (missing.length > 0) await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const allMs = performance.now() - started
  const outcomes = runs.flatMap((run) => run.outcomes)
  console.log(
    `\nBurst of ${files.length} images (multipart, ${BURST_IN_FLIGHT} in flight): pushed in ${(pushedMs / 1000).toFixed(2)} s ` +
      `(${((files.length / pushedMs) * 1000).toFixed(1)}/s, p50 ${fmt(percentile(outcomes.map((o) => o.ms), 50))} ms, ${failures(outcomes).length} failed); ` +
      `every thumbnail stored ${(allMs / 1000).toFixed(2)} s after the first push`,
  )
}

function report(rows: Row[], stored: number, expected: number): void {
  const headings = ['in flight', 'images', 'assets/s', 'p50 ms', 'p95 ms', 'CPU ms/img', 'API/sharp']
  console.log(`\n  ${'variant'.padEnd(24)}${headings.map((h) => h.padStart(11)).join('')}`)
  for (const row of rows) {
    const measured: Array<[string, Measurement, string]> = [
      ['sharp-only', row.sharp, ''],
      ...VARIANTS.map((variant): [string, Measurement, string] => [VARIANT_NAMES[variant], row.api[variant], percent(rate(row.api[variant]) / rate(row.sharp))]),
    ]
    for (const [name, m, ratio] of measured) {
      const times = m.outcomes.map((o) => o.ms)
      const cells = [row.inFlight, m.outcomes.length, rate(m).toFixed(1), fmt(percentile(times, 50)), fmt(percentile(times, 95)), fmt(m.cpuMsPerImage), ratio]
      console.log(`  ${`${row.format.toUpperCase()} ${name}`.padEnd(24)}${cells.map((c) => String(c).padStart(11)).join('')}`)
    }
  }
  console.log(`\n${stored} assets stored (expected ${expected}: every push created an asset, none was a duplicate)\n`)
  const failed = rows.flatMap((row) => VARIANTS.flatMap((variant) => failures(row.api[variant].outcomes)))
  for (const detail of failed.slice(0, 5)) console.log(`  failed push: ${detail}`)
  for (const variant of VARIANTS) {
    for (const row of rows) {
      const api = row.api[variant]
      const ratio = rate(api) / rate(row.sharp)
      const rowFailures = failures(api.outcomes).length + failures(row.sharp.outcomes).length
      const pass = ratio >= TARGET_RATIO[variant] && rowFailures === 0 && stored === expected
      console.log(
        `${pass ? 'PASS' : 'MISS'}: ${VARIANT_NAMES[variant]}, ${row.format.toUpperCase()}, ${row.inFlight} in flight: ${percent(ratio)} of the sharp-only rate ` +
          `(${rate(api).toFixed(1)} vs ${rate(row.sharp).toFixed(1)} images/s; target >= ${percent(TARGET_RATIO[variant])})${rowFailures ? `, ${rowFailures} failed` : ''}`,
      )
    }
  }
}

function failures(outcomes: Outcome[]): string[] {
  return outcomes.filter((o) => !o.ok).map((o) => o.detail ?? 'failed')
}

function rate(run: Run): number {
  return (run.outcomes.length / run.windowMs) * 1000
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000
}


function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(2)
}

function fmt(value: number): string {
  return value.toFixed(1)
}
