/**
 * The `onnx` image-embedding provider's cost per image (issue 38), in one process, no database:
 *
 * 1. The pipeline apart from the model, with the tiny CLIP model of the tests (test/support/tiny-clip.ts:
 *    a mean colour, a few hundred operations): a ~1 MP JPEG photo's 224 px rendition made with sharp
 *    (what the derivation makes anyway) alone, against the same rendition then `embedImage` on it (the
 *    224 px JPEG decoded, cut to the model's square, its pixels handed to the worker thread, normalised,
 *    run, the vector back), alternating which goes first, one image in flight. Then `embedImage` alone on
 *    a 224 px JPEG, with 1 and BENCH_IN_FLIGHT (4) calls in flight, and `embedText` of a short query.
 * 2. A real model's cost: the same provider with CLIP ViT-B/32's image tower, random weights, in the
 *    tiny model's folder (its textual side kept, config.json's embed_dim set to 512)
 *    (bench/support/vit-b-32.ts: OpenAI's shapes, ~4.4 G multiply-adds an image; the weights change
 *    nothing to the cost), BENCH_VIT_IMAGES (20) images at 1 and 2 in flight, and the minutes 100k
 *    images would take at the faster rate. BENCH_VIT_IMAGES=0 skips it (it writes ~350 MB to the temp folder).
 *
 *   npx tsx bench/onnx-image-embedding.ts
 *   BENCH_ROUNDS=300 BENCH_IN_FLIGHT=4 BENCH_VIT_IMAGES=20 npx tsx bench/onnx-image-embedding.ts
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import sharp from 'sharp'
import type { ImageEmbeddingProvider } from '../src/platform/embeddings/image-provider.js'
import { createOnnxProvider } from '../src/platform/embeddings/onnx/provider.js'
import { createTinyClipModelDir } from '../test/support/tiny-clip.js'
import { percentile } from './support/child.js'
import { envNumber } from './support/env.js'
import { VIT_B_32_DIMENSIONS, writeVitB32Visual } from './support/vit-b-32.js'

const ROUNDS = envNumber('BENCH_ROUNDS', 300)
const IN_FLIGHT = envNumber('BENCH_IN_FLIGHT', 4)
const VIT_IMAGES = Number(process.env.BENCH_VIT_IMAGES ?? 20)
const WARMUP = 20
const PHOTOS = 8
const CALL = { timeoutMs: 60_000 }

await main()

async function main(): Promise<void> {
  console.log(`onnx-image-embedding.ts: Node ${process.version}, ${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`)
  const photos = await Promise.all(Array.from({ length: PHOTOS }, (_, i) => photo(1152 + i * 8, 864)))
  const renditions = await Promise.all(photos.map(rendition))
  const modelDir = await createTinyClipModelDir()
  const tiny = await createOnnxProvider({ provider: 'onnx', modelDir, model: 'tiny-clip', timeoutMs: CALL.timeoutMs, jobTimeoutMs: CALL.timeoutMs })
  try {
    await pipelineOverhead(tiny, photos)
    await callsAlone(tiny, renditions, 'tiny model', ROUNDS, [1, IN_FLIGHT])
    const texts = await timed(ROUNDS, (i) => tiny.embedText(`a photo of a red car ${i}`, CALL))
    console.log(`embedText("a photo of a red car …"), tiny model: p50 ${fmt(percentile(texts, 50))} ms, p95 ${fmt(percentile(texts, 95))} ms\n`)
  } finally {
    await tiny.close()
  }
  if (VIT_IMAGES > 0) await realModelCost(modelDir, renditions)
  await rm(dirname(modelDir), { recursive: true, force: true })
}

/** The 224 px rendition alone against the rendition then its embedding, alternating, one at a time. */
async function pipelineOverhead(provider: ImageEmbeddingProvider, photos: Buffer[]): Promise<void> {
  const alone: number[] = []
  const embedded: number[] = []
  for (let round = -WARMUP; round < ROUNDS; round++) {
    const bytes = photos[(round + WARMUP) % photos.length]!
    const sides = [
      { times: alone, run: () => rendition(bytes) },
      { times: embedded, run: async () => provider.embedImage(await rendition(bytes), CALL) },
    ]
    if (round % 2) sides.reverse()
    for (const side of sides) {
      const started = performance.now()
      await side.run()
      if (round >= 0) side.times.push(performance.now() - started)
    }
  }
  const row = (name: string, times: number[]) => `| ${name} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} | ${fmt(1000 / mean(times))} |`
  console.log(`A ~1 MP JPEG (${photos[0]!.length} B) to its 224 px rendition, ${ROUNDS} rounds, one in flight:\n`)
  console.log('| path | p50 ms | p95 ms | images/s |\n|---|---|---|---|')
  console.log(row('224 px rendition alone (sharp)', alone))
  console.log(row('rendition + embedImage (tiny model)', embedded))
  console.log(`\nEmbedding's own cost (the difference): p50 ${fmt(percentile(embedded, 50) - percentile(alone, 50))} ms, p95 ${fmt(percentile(embedded, 95) - percentile(alone, 95))} ms\n`)
}

/** `embedImage` on 224 px JPEGs, `inFlight` calls at a time: latency and images per second. */
async function callsAlone(provider: ImageEmbeddingProvider, renditions: Buffer[], model: string, count: number, inFlights: number[]): Promise<number> {
  let best = 0
  console.log(`embedImage of a 224 px JPEG (${renditions[0]!.length} B), ${model}, ${count} images:\n`)
  console.log('| in flight | p50 ms | p95 ms | images/s |\n|---|---|---|---|')
  for (const inFlight of inFlights) {
    await timed(Math.min(WARMUP, count), (i) => provider.embedImage(renditions[i % renditions.length]!, CALL), inFlight)
    const started = performance.now()
    const times = await timed(count, (i) => provider.embedImage(renditions[i % renditions.length]!, CALL), inFlight)
    const rate = (count * 1000) / (performance.now() - started)
    best = Math.max(best, rate)
    console.log(`| ${inFlight} | ${fmt(percentile(times, 50))} | ${fmt(percentile(times, 95))} | ${fmt(rate)} |`)
  }
  console.log('')
  return best
}

/** ViT-B/32's image tower through the same provider; the minutes for 100k images at the best rate. */
async function realModelCost(tinyDir: string, renditions: Buffer[]): Promise<void> {
  let started = performance.now()
  await writeVitB32Visual(join(tinyDir, 'visual/model.onnx'))
  const config = JSON.parse(await readFile(join(tinyDir, 'config.json'), 'utf8'))
  await writeFile(join(tinyDir, 'config.json'), JSON.stringify({ ...config, embed_dim: VIT_B_32_DIMENSIONS }))
  console.log(`ViT-B/32 image tower written (${fmt((performance.now() - started) / 1000)} s)`)
  started = performance.now()
  const provider = await createOnnxProvider({ provider: 'onnx', modelDir: tinyDir, model: 'vit-b-32-random', timeoutMs: CALL.timeoutMs, jobTimeoutMs: CALL.timeoutMs })
  console.log(`loaded by the provider in ${fmt((performance.now() - started) / 1000)} s\n`)
  try {
    const rate = await callsAlone(provider, renditions, 'ViT-B/32 image tower', VIT_IMAGES, [1, 2])
    console.log(`100,000 images at ${fmt(rate)} images/s: ${fmt(100_000 / rate / 60)} minutes (load ${loadavg()[0]!.toFixed(2)})`)
  } finally {
    await provider.close()
  }
}

async function timed(count: number, call: (i: number) => Promise<unknown>, inFlight = 1): Promise<number[]> {
  const times: number[] = []
  let next = 0
  const lane = async () => {
    for (let i = next++; i < count; i = next++) {
      const started = performance.now()
      await call(i)
      times.push(performance.now() - started)
    }
  }
  await Promise.all(Array.from({ length: inFlight }, lane))
  return times
}

/** A photo-like JPEG: smooth colour with grain, so it encodes as a camera's would (~0.3 MB at 1 MP). */
async function photo(width: number, height: number): Promise<Buffer> {
  const grain = await sharp({ create: { width, height, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).blur(1.2).png().toBuffer()
  return sharp(grain).modulate({ hue: width % 360 }).jpeg({ quality: 85 }).toBuffer()
}

function rendition(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).resize(224, 224, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer()
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length
}

function fmt(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1)
}
