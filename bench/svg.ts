/**
 * An SVG logo's thumbnail (issue 34): our path, `ImageProcessor.thumbnail` as the thumbnail runner calls
 * it (the sanitizer's parse, the render process's IPC, its density read and render to a 512 px WebP),
 * against sharp alone rendering the same SVG to the same 512 px WebP in this process at the same
 * density. Calls alternate one by one (which goes first alternates too), one in flight, after a warm-up
 * that starts the render process; the ratio of the two is per pair, reported at p50 and p95 with each
 * side's own percentiles. No database is involved: a push is not timed.
 *
 *   npx tsx bench/svg.ts
 *   BENCH_ROUNDS=400 npx tsx bench/svg.ts
 *
 * Target: our thumbnail costs <= 150% of sharp alone, out of process included.
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import sharp from 'sharp'
import { percentile } from './support/child.js'
import { envNumber } from './support/env.js'
import { ImageProcessor } from '../src/platform/images/images.js'

const ROUNDS = envNumber('BENCH_ROUNDS', 200)
const WARMUP = envNumber('BENCH_WARMUP', 10)
const SIZE = 512
const TARGET_RATIO = 1.5

/** A wordmark-like logo: a gradient badge, 40 glyph-like paths, a stroke and a clip path (~4 KB). */
function logo(): Buffer {
  const glyphs = Array.from({ length: 40 }, (_, i) => {
    const x = 70 + i * 4
    return `<path d="M${x} 24c2-3 5-3 6 0l1 ${8 + (i % 5)}c0 3-3 5-5 4s-3-4-2-7z" fill="${i % 3 ? '#1b2a4a' : 'url(#accent)'}"/>`
  }).join('')
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 80" width="240" height="80">' +
      '<title>Acme wordmark</title><desc>The Acme logo: a badge and the name</desc>' +
      '<defs><linearGradient id="badge" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff6b35"/><stop offset="1" stop-color="#c0392b"/></linearGradient>' +
      '<radialGradient id="accent"><stop offset="0" stop-color="#3b5bdb"/><stop offset="1" stop-color="#1b2a4a"/></radialGradient>' +
      '<clipPath id="round"><circle cx="36" cy="40" r="30"/></clipPath></defs>' +
      '<g clip-path="url(#round)"><rect x="6" y="10" width="60" height="60" fill="url(#badge)"/><path d="M14 62 36 18l22 44z" fill="#fff" opacity=".85"/></g>' +
      '<circle cx="36" cy="40" r="30" fill="none" stroke="#1b2a4a" stroke-width="2"/>' +
      glyphs +
      '<path d="M70 60h160" stroke="#ff6b35" stroke-width="3" stroke-linecap="round"/></svg>',
  )
}

/** An icon as icon sets ship them: 24 px, strokes only. */
function icon(): Buffer {
  return Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">' +
      '<title>Camera</title><path d="M14.5 4h-5L7 7H4a2 2 0 0 0-2 2v9a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V9a2 2 0 0 0-2-2h-3l-2.5-3z"/><circle cx="12" cy="13" r="3"/></svg>',
  )
}

/** sharp alone, as a server rendering SVG in process would: the density that draws the longest side at SIZE. */
async function sharpAlone(bytes: Buffer): Promise<() => Promise<Buffer>> {
  const { width = 1, height = 1 } = await sharp(bytes).metadata()
  const density = (72 * SIZE) / Math.max(width, height)
  return () => sharp(bytes, { density, limitInputPixels: 50_000_000 }).resize(SIZE, SIZE, { fit: 'inside' }).webp({ effort: 2 }).toBuffer()
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
}

async function measure(name: string, bytes: Buffer, images: ImageProcessor) {
  const ours = () => images.thumbnail(bytes)
  const alone = await sharpAlone(bytes)
  const [a, b] = [await sharp(await ours()).metadata(), await sharp(await alone()).metadata()]
  if (a.width !== b.width || a.height !== b.height) throw new Error(`${name}: the two thumbnails differ in size (${a.width}x${a.height}, ${b.width}x${b.height})`)
  for (let i = 0; i < WARMUP; i++) await Promise.all([ours(), alone()])
  const oursMs: number[] = []
  const aloneMs: number[] = []
  const ratios: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    let o: number
    let s: number
    if (round % 2 === 0) {
      o = await timed(ours)
      s = await timed(alone)
    } else {
      s = await timed(alone)
      o = await timed(ours)
    }
    oursMs.push(o)
    aloneMs.push(s)
    ratios.push(o / s)
  }
  const p = (values: number[], q: number) => percentile(values, q)
  return {
    name: `${name} (${bytes.length} B, ${a.width}x${a.height})`,
    ours: [p(oursMs, 50), p(oursMs, 95)],
    alone: [p(aloneMs, 50), p(aloneMs, 95)],
    ratio: [p(oursMs, 50) / p(aloneMs, 50), p(oursMs, 95) / p(aloneMs, 95)],
    pairRatio: [p(ratios, 50), p(ratios, 95)],
  }
}

async function main(): Promise<void> {
  sharp.concurrency(1)
  const images = new ImageProcessor({ maxConcurrent: 1 })
  console.log(`svg.ts: ${ROUNDS} alternating rounds per image after ${WARMUP} warm-up, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
  const rows = [await measure('logo', logo(), images), await measure('icon', icon(), images)]
  images.close()
  console.log('| image | ours p50 / p95 ms | sharp alone p50 / p95 ms | ratio p50 / p95 | per-pair ratio p50 / p95 | target |')
  console.log('|---|---|---|---|---|---|')
  for (const row of rows) {
    const verdict = row.ratio[0]! <= TARGET_RATIO ? 'PASS' : 'MISS'
    const f = (values: number[], digits = 1) => values.map((v) => v.toFixed(digits)).join(' / ')
    console.log(`| ${row.name} | ${f(row.ours)} | ${f(row.alone)} | ${f(row.ratio, 2)} | ${f(row.pairRatio, 2)} | ${verdict} (<= ${TARGET_RATIO} at p50) |`)
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
}

await main()
