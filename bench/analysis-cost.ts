/**
 * What each analysis of issue 36 costs per image, as a share of the thumbnail's cost: the same bytes
 * through `ImageProcessor.thumbnail` (what the thumbnail derivation does) and through each analysis'
 * `analyse` (what its derivation does before its one write), one after the other in this process, each
 * image BENCH_REPEATS times, alternating the order so no step always runs on a warm cache. The images:
 * the ~1 MiB noise PNG and JPEG of push.ts, and a C2PA-signed JPEG from c2pa-rs's fixtures (a manifest
 * to read). No database: the derivations' writes (one statement each, the hash's one transaction) are
 * not timed here; they are the same kind of write as the thumbnail's job row.
 *
 *   npx tsx bench/analysis-cost.ts
 */
import { readFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { percentile } from './support/child.js'
import { envNumber } from './support/env.js'
import { imagesIn } from './support/noise-images.js'
import type { Analysis, AnalysedFile } from '../src/modules/assets/analysis.js'
import { metadataAnalysis } from '../src/modules/assets/metadata.js'
import { PaletteAnalysis } from '../src/modules/colors/palette-analysis.js'
import { PerceptualHashAnalysis } from '../src/modules/duplicates/perceptual-hash-analysis.js'
import { provenanceAnalysis } from '../src/modules/provenance/analysis.js'
import { C2paReader } from '../src/platform/images/c2pa.js'
import { ImageProcessor, inspectImage } from '../src/platform/images/images.js'

const IMAGES = envNumber('BENCH_IMAGES', 10)
const REPEATS = envNumber('BENCH_REPEATS', 3)
const IMAGE_DIR = process.env.BENCH_IMAGE_DIR || join(tmpdir(), 'al-bench-structure-images')

interface Step {
  name: string
  run: (file: AnalysedFile) => Promise<unknown>
}

async function filesOf(name: string, images: Buffer[]): Promise<{ name: string; files: AnalysedFile[] }> {
  const files = await Promise.all(
    images.map(async (bytes, i) => {
      const info = await inspectImage(bytes)
      return { assetId: `bench-${i}`, organizationId: 'bench', sha256: String(i), mimeType: info.mimeType, width: info.width, height: info.height, bytes }
    }),
  )
  return { name, files }
}

async function main(): Promise<void> {
  const images = new ImageProcessor()
  const c2pa = new C2paReader()
  const analyses: Array<Analysis<unknown>> = [
    new PerceptualHashAnalysis({ images, nearDuplicateDistance: 6 }),
    new PaletteAnalysis(images),
    metadataAnalysis({ exposeGps: false }),
    provenanceAnalysis(c2pa),
  ]
  const steps: Step[] = [{ name: 'thumbnail', run: (file) => images.thumbnail(file.bytes) }, ...analyses.map((analysis) => ({ name: analysis.name, run: (file: AnalysedFile) => analysis.analyse(file) }))]
  const signed = readFileSync(new URL('../test/fixtures/c2pa/C.jpg', import.meta.url))
  const sets = [
    await filesOf('~1 MiB noise PNG', (await imagesIn(IMAGE_DIR, 'png', IMAGES)).files.map((file) => readFileSync(file))),
    await filesOf('~1 MiB noise JPEG (3 MP)', (await imagesIn(IMAGE_DIR, 'jpeg', IMAGES)).files.map((file) => readFileSync(file))),
    await filesOf('C2PA-signed JPEG (c2pa-rs C.jpg)', [signed]),
  ]
  console.log(`analysis cost per image against the thumbnail's: ${IMAGES} images per set, ${REPEATS} repeats, load ${loadavg()[0]!.toFixed(1)}`)
  console.log(`| images | ${steps.map((step) => `${step.name} p50`).join(' | ')} | ${analyses.map((analysis) => `${analysis.name} / thumbnail`).join(' | ')} |`)
  console.log(`|---|${steps.map(() => '---|').join('')}${analyses.map(() => '---|').join('')}`)
  try {
    for (const set of sets) {
      const times = new Map(steps.map((step) => [step.name, [] as number[]]))
      for (let round = 0; round < REPEATS; round++) {
        const order = round % 2 === 0 ? steps : [...steps].reverse()
        for (const file of set.files) {
          for (const step of order) {
            const started = performance.now()
            await step.run(file)
            times.get(step.name)!.push(performance.now() - started)
          }
        }
      }
      const p50 = new Map([...times].map(([name, values]) => [name, percentile(values, 50)]))
      const thumbnail = p50.get('thumbnail')!
      console.log(
        `| ${set.name} | ${steps.map((step) => `${p50.get(step.name)!.toFixed(1)} ms`).join(' | ')} | ${analyses.map((analysis) => `${((p50.get(analysis.name)! / thumbnail) * 100).toFixed(0)}%`).join(' | ')} |`,
      )
    }
  } finally {
    await c2pa.close()
    images.close()
  }
}

await main()
