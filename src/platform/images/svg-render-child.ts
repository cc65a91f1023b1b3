import sharp from 'sharp'
import { ImageError } from './image-error.js'
import { inspectImage, rasterizeSvg } from './images.js'
import type { SvgJob, SvgReply } from './svg-render.js'

/**
 * An SVG render process (see `svg-render.ts`): sanitizes, and renders, one job at a time from its
 * parent, which kills it past its limits. It ends with its parent, when the IPC channel closes.
 */

// One thread and no cache: a render process holds one image at a time, and its memory is what is limited.
sharp.concurrency(1)
sharp.cache(false)

process.on('message', (job: SvgJob) => {
  void answer(job).then((reply) => process.send!(reply))
})
process.on('disconnect', () => process.exit(0))
process.send!({ ready: true })

async function answer(job: SvgJob): Promise<SvgReply> {
  try {
    const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength)
    const info = await inspectImage(bytes, { maxPixels: job.maxPixels })
    if (info.format !== 'svg') return { ok: false, kind: 'not_an_image', message: 'The data is not an SVG.' }
    const image = job.target.kind === 'inspect' ? null : await rasterizeSvg(bytes, job.target, job.maxPixels)
    return { ok: true, info, image }
  } catch (error) {
    if (error instanceof ImageError) return { ok: false, kind: error.kind, message: error.message }
    return { ok: false, kind: 'not_an_image', message: `The SVG could not be rendered: ${String(error)}` }
  }
}
