/**
 * What the push's structure check (issue 36 part 5, platform/images/structure.ts) costs against the push
 * it is part of. The ~1 MiB noise images of push.ts (PNG and JPEG): each is checked BENCH_REPEATS times in
 * this process (the check alone), then pushed once over real HTTP to the real app (multipart, 1 in
 * flight, background work off so the push has the process to itself: the strictest denominator). The
 * ratio is the check's p50 over the push's p50, per format; the target is under 2%.
 *
 *   npx tsx bench/structure-check.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/structure-check.ts
 */
import { readFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { benchKey } from './support/app.js'
import { percentile } from './support/child.js'
import { redactedUrl, startBenchAppOn } from './support/database.js'
import { envNumber } from './support/env.js'
import { imagesIn, type Format } from './support/noise-images.js'
import { checkStructure } from '../src/platform/images/structure.js'

const IMAGES = envNumber('BENCH_IMAGES', 40)
const REPEATS = envNumber('BENCH_REPEATS', 5)
const WARMUP = 4
const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const IMAGE_DIR = process.env.BENCH_IMAGE_DIR || join(tmpdir(), 'al-bench-structure-images')
const FORMATS: Format[] = ['png', 'jpeg']

/** The check's time per image, in ms, over every repeat of every image. */
function timeChecks(format: Format, images: Buffer[]): number[] {
  const times: number[] = []
  for (let round = 0; round < REPEATS; round++) {
    for (const bytes of images) {
      const started = performance.now()
      checkStructure(format, bytes)
      times.push(performance.now() - started)
    }
  }
  return times
}

/** Each image pushed once, one after the other; the latency of each after the warm-up, in ms. */
async function timePushes(baseUrl: string, token: string, format: Format, images: Buffer[]): Promise<number[]> {
  const times: number[] = []
  for (const [i, bytes] of images.entries()) {
    const form = new FormData()
    form.append('file', new Blob([bytes], { type: `image/${format}` }), `bench-${i}.${format}`)
    const started = performance.now()
    const response = await fetch(`${baseUrl}/api/v1/assets`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
    await response.arrayBuffer()
    if (response.status !== 201) throw new Error(`push ${i} answered ${response.status}`)
    if (i >= WARMUP) times.push(performance.now() - started)
  }
  return times
}

async function main(): Promise<void> {
  console.log(`structure check against a push: ${IMAGES} images per format, checks repeated ${REPEATS}x, on ${SERVER_URL ? redactedUrl(SERVER_URL) : 'the embedded database'}, load ${loadavg()[0]!.toFixed(1)}`)
  const bench = await startBenchAppOn('structure', SERVER_URL, { SERVE_BACKGROUND_WORK: 'false', RATE_LIMIT_EXPENSIVE: '1000000' })
  try {
    const { token } = await benchKey(bench.app, 'assets:write')
    console.log('| format | bytes | check p50 | check p95 | push p50 | push p95 | check / push (p50) |')
    console.log('|---|---|---|---|---|---|---|')
    for (const format of FORMATS) {
      const set = await imagesIn(IMAGE_DIR, format, IMAGES)
      const images = set.files.map((file) => readFileSync(file))
      const checks = timeChecks(format, images)
      const pushes = await timePushes(bench.baseUrl, token, format, images)
      const check50 = percentile(checks, 50)
      const push50 = percentile(pushes, 50)
      console.log(
        `| ${format} | ${(set.bytes.min / 1024).toFixed(0)} to ${(set.bytes.max / 1024).toFixed(0)} KiB | ${check50.toFixed(3)} ms | ${percentile(checks, 95).toFixed(3)} ms | ${push50.toFixed(1)} ms | ${percentile(pushes, 95).toFixed(1)} ms | ${((check50 / push50) * 100).toFixed(2)}% |`,
      )
    }
  } finally {
    await bench.close()
  }
}

await main()
