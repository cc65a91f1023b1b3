/**
 * What reading a file's provenance costs, and what it would cost the event loop on the main thread:
 * the C2PA reader (CAI's WebAssembly) run in this thread, as c2pa-worker.js would, against the same
 * files through C2paReader's worker thread. Per file: the median time of a reading, the main thread's
 * busy time per reading (event-loop utilization's active time: what the HTTP side loses), and the
 * longest the event loop was held (a 1 ms timer's largest gap, which a loaded machine's scheduling
 * inflates too). No database: the analysis reads bytes only.
 *
 *   npx tsx bench/provenance.ts
 *   BENCH_ROUNDS=20 npx tsx bench/provenance.ts
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import sharp from 'sharp'
import * as detector from '@contentauth/detector'
import { initSync, WasmReader } from '@contentauth/c2pa-wasm'
import { C2paReader } from '../src/platform/images/c2pa.js'
import { readProvenance } from '../src/platform/images/provenance.js'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10)
const READER_SETTINGS = JSON.stringify({ verify: { remote_manifest_fetch: false, ocsp_fetch: false } })
let initialized = false

interface Sample {
  name: string
  mimeType: string
  bytes: Buffer
}

const signed = readFileSync(new URL('../test/fixtures/c2pa/C.jpg', import.meta.url))
const samples: Sample[] = [
  { name: 'signed JPEG, 130 KB', mimeType: 'image/jpeg', bytes: signed },
  // The manifest's data hash covers the whole file: 20 MB more to hash (the hash then fails: Invalid, same work).
  { name: 'signed JPEG padded to 20 MB', mimeType: 'image/jpeg', bytes: paddedJpeg(signed, 20 * 1024 * 1024) },
  { name: 'PNG without manifest, 20 MB', mimeType: 'image/png', bytes: await noisePng(2600) },
]

console.log(`rounds ${ROUNDS}, load ${loadavg()[0]!.toFixed(2)}, Node ${process.version}`)
console.log('| file | where | median ms per file | main thread busy ms per file | longest event-loop stall ms |')
console.log('|---|---|---|---|---|')
for (const sample of samples) {
  const inThread = await measure(() => readInThread(sample))
  const reader = new C2paReader()
  await reader.read(signed, 'image/jpeg') // the thread's start and the WebAssembly's compile, once per process
  const inWorker = await measure(() => readProvenance(sample.bytes, sample.mimeType, reader))
  await reader.close()
  for (const [where, result] of [['main thread', inThread], ['worker thread', inWorker]] as const) {
    console.log(`| ${sample.name} | ${where} | ${result.medianMs.toFixed(1)} | ${result.busyMs.toFixed(1)} | ${result.stallMs.toFixed(1)} |`)
  }
}

async function readInThread({ bytes, mimeType }: Sample): Promise<void> {
  if (!initialized) {
    detector.initSync({ module: readFileSync(new URL(import.meta.resolve('@contentauth/detector/pkg/detector_bg.wasm'))) })
    initSync({ module: readFileSync(new URL(import.meta.resolve('@contentauth/c2pa-wasm/c2pa.wasm'))) })
    initialized = true
  }
  try {
    detector.scan_array_buffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  } catch {
    return
  }
  const reader = await WasmReader.fromBytes(mimeType, bytes, READER_SETTINGS)
  reader.manifestStore()
  reader.free()
}

/** The median time of a reading over the rounds (after one to warm up), the main thread's busy time per reading, and the event loop's longest gap. */
async function measure(read: () => Promise<unknown>): Promise<{ medianMs: number; busyMs: number; stallMs: number }> {
  await read()
  const utilization = performance.eventLoopUtilization()
  let stallMs = 0
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    stallMs = Math.max(stallMs, now - last)
    last = now
  }, 1)
  const times: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now()
    await read()
    times.push(performance.now() - start)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  clearInterval(timer)
  const { active } = performance.eventLoopUtilization(utilization)
  times.sort((a, b) => a - b)
  return { medianMs: times[Math.floor(times.length / 2)]!, busyMs: active / ROUNDS, stallMs }
}

/** The JPEG with comment segments of zeros after its manifest, up to `size` bytes. */
function paddedJpeg(jpeg: Buffer, size: number): Buffer {
  const segment = Buffer.alloc(2 + 65535)
  segment.writeUInt16BE(0xfffe, 0)
  segment.writeUInt16BE(65535, 2)
  const count = Math.ceil((size - jpeg.length) / segment.length)
  let afterManifest = 2
  while (jpeg[afterManifest + 1] !== 0xeb) afterManifest += 2 + jpeg.readUInt16BE(afterManifest + 2)
  while (jpeg[afterManifest + 1] === 0xeb) afterManifest += 2 + jpeg.readUInt16BE(afterManifest + 2)
  return Buffer.concat([jpeg.subarray(0, afterManifest), ...Array<Buffer>(count).fill(segment), jpeg.subarray(afterManifest)])
}

function noisePng(side: number): Promise<Buffer> {
  const pixels = Buffer.alloc(side * side * 3)
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.imul(i, 2654435761) >>> 24
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer()
}
