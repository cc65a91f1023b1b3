import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import type { Socket } from 'node:net'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { ImageError, type ImageErrorKind } from './image-error.js'
import type { ImageInfo, RenderedImage, RenderOptions } from './images.js'

/**
 * SVG is checked and rendered in child processes, never in the server's: librsvg's work grows with what
 * the file asks for (filters, patterns, references) and not with its size, and a 133 KB SVG of flood
 * filters took 3 GB here; the sanitizer's strict parse of a 25 MiB SVG takes ~2.5 s of CPU, which would
 * stall every request of the server's event loop. A render process is killed when it runs past its time, or when its resident memory
 * passes its limit (read from /proc every `MEMORY_POLL_MS`); where `prlimit` exists, its address space
 * is capped too once it has started (at what it reserved then plus the limit), so an allocation far past
 * the limit fails inside librsvg before the poll sees it.
 * Processes are kept between renders (starting one costs ~100 ms) and end after `IDLE_MS` unused.
 */

export interface SvgRenderLimits {
  /** A render that takes longer is killed and fails. */
  timeoutMs: number
  /** A render process whose resident memory grows past this is killed, and its render fails. */
  maxMemoryMb: number
}

/**
 * What to render: the thumbnail (longest side `size`, WebP), or a rendition as `ImageProcessor.render`
 * asks; one that asks for no size is drawn at the SVG's own, its longest side at most `maxSide`.
 */
export type SvgTarget = { kind: 'thumbnail'; size: number } | { kind: 'render'; options: RenderOptions; maxSide: number }

/** A job as the render process receives it: the SVG is always sanitized first, then rendered if `target` says so. */
export interface SvgJob {
  bytes: Uint8Array
  target: SvgTarget | { kind: 'inspect' }
  maxPixels: number
}

/** What the render process answers: what the sanitizer found and the image asked for, or why the SVG is refused. */
export type SvgReply = { ok: true; info: ImageInfo; image: RenderedImage | null } | { ok: false; kind: ImageErrorKind; message: string }

const MEMORY_POLL_MS = 25
const IDLE_MS = 30_000
/**
 * The address space a started render process may reserve beyond its memory limit: libvips' threads
 * and their malloc arenas reserve more than they touch (a first small render added 34 MB).
 */
const ADDRESS_SPACE_HEADROOM_MB = 256
const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((path) => existsSync(path))
const MB = 1024 * 1024
const run = promisify(execFile)

/** The render processes of one `ImageProcessor`: as many as renders run at once (the processor bounds that). */
export class SvgRenderer {
  private readonly idle: RenderProcess[] = []
  private readonly all = new Set<RenderProcess>()

  constructor(private readonly limits: SvgRenderLimits) {}

  /** The sanitizer's findings (see `svg.ts`); throws `ImageError` to refuse the SVG. */
  async inspect(bytes: Buffer, maxPixels: number): Promise<ImageInfo> {
    return (await this.run({ bytes, target: { kind: 'inspect' }, maxPixels })).info
  }

  /** Sanitizes and renders; throws `ImageError` when the SVG is refused or cannot be rendered within the limits. */
  async render(bytes: Buffer, target: SvgTarget, maxPixels: number): Promise<{ info: ImageInfo; image: RenderedImage }> {
    const { info, image } = await this.run({ bytes, target, maxPixels })
    if (!image) throw new Error('The SVG render process answered without the image asked for.')
    return { info, image }
  }

  /** `Error` when no render process could start. */
  private async run(job: SvgJob): Promise<{ info: ImageInfo; image: RenderedImage | null }> {
    const child = this.idle.pop() ?? (await this.start())
    let kept = false
    try {
      const reply = await child.run(job, this.limits)
      kept = true
      return reply
    } catch (error) {
      // The process is fine after a render that failed in librsvg; not after a kill or a crash.
      kept = error instanceof ImageError && child.alive
      throw error
    } finally {
      if (kept) this.release(child)
      else this.end(child)
    }
  }

  close(): void {
    for (const child of [...this.all]) this.end(child)
  }

  private async start(): Promise<RenderProcess> {
    const child = await RenderProcess.start(this.limits, () => this.end(child))
    this.all.add(child)
    return child
  }

  private release(child: RenderProcess): void {
    this.idle.push(child)
    child.idle(IDLE_MS)
  }

  private end(child: RenderProcess): void {
    this.all.delete(child)
    const index = this.idle.indexOf(child)
    if (index !== -1) this.idle.splice(index, 1)
    child.kill()
  }
}

/** One render process: a child running `svg-render-child`, one job at a time over its IPC channel. */
class RenderProcess {
  private idleTimer: NodeJS.Timeout | undefined
  private stderr = ''
  /** Set when a kill is sent: the process is gone for every use from then, before its exit is seen. */
  private killed = false

  /** `onEnd`: it ended by itself, or has been idle too long; the pool lets it go. */
  private constructor(
    private readonly child: ChildProcess,
    private readonly onEnd: () => void,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-2000)
    })
  }

  /** Spawns it and waits for it to say it is ready (sharp loaded), so a render's time limit counts rendering only. */
  static async start(limits: SvgRenderLimits, onEnd: () => void): Promise<RenderProcess> {
    const entry = fileURLToPath(new URL(`./svg-render-child${extname(import.meta.url)}`, import.meta.url))
    // From the TypeScript sources (tests, benchmarks), the child needs the same loader.
    const child = spawn(process.execPath, [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      // Fewer malloc arenas: less address space reserved, and less memory kept after a large render.
      env: { ...process.env, MALLOC_ARENA_MAX: '2' },
    })
    const started = new RenderProcess(child, onEnd)
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number | null, signal: string | null) => reject(new Error(`The SVG render process did not start (${signal ?? `exit code ${code}`}): ${started.stderr.trim()}`))
      child.once('error', reject)
      child.once('exit', onExit)
      child.once('message', () => {
        child.off('exit', onExit)
        child.off('error', reject)
        resolve()
      })
    })
    if (PRLIMIT) await capAddressSpace(child.pid!, limits.maxMemoryMb)
    // From here (not before: one that ends while starting fails its start instead), an end by itself
    // takes it out of the pool; an exit is never seen before the caller has the process.
    child.once('exit', onEnd)
    return started
  }

  get alive(): boolean {
    return !this.killed && this.child.exitCode === null && this.child.signalCode === null
  }

  /** The job, bounded: past `timeoutMs`, or past `maxMemoryMb` resident, the process is killed and the job fails. */
  run(job: SvgJob, limits: SvgRenderLimits): Promise<{ info: ImageInfo; image: RenderedImage | null }> {
    this.busy()
    const { child } = this
    const work = job.target.kind === 'inspect' ? 'check' : 'render'
    return new Promise((resolve, reject) => {
      const finish = (outcome: () => void) => {
        clearTimeout(timer)
        clearInterval(poll)
        child.off('message', onMessage)
        child.off('exit', onExit)
        outcome()
      }
      const killedFor = (message: string) => {
        this.kill()
        finish(() => reject(new ImageError('svg_too_complex', message)))
      }
      const onMessage = (reply: SvgReply) => {
        if (!reply.ok) return finish(() => reject(new ImageError(reply.kind, reply.message)))
        const image = reply.image && { ...reply.image, data: Buffer.from(reply.image.data.buffer, reply.image.data.byteOffset, reply.image.data.byteLength) }
        finish(() => resolve({ info: reply.info, image }))
      }
      const onExit = (code: number | null, signal: string | null) => {
        // librsvg aborts the process when an allocation fails under the address-space cap.
        finish(() => reject(new ImageError('svg_too_complex', `The SVG could not be ${work === 'check' ? 'checked' : 'rendered'}: its process ended (${signal ?? `exit code ${code}`}), most likely out of memory.`)))
      }
      const timer = setTimeout(() => killedFor(`The SVG took longer than ${limits.timeoutMs} ms to ${work}.`), limits.timeoutMs)
      const poll = setInterval(() => {
        void residentMb(child.pid!).then((mb) => {
          if (mb > limits.maxMemoryMb && this.alive) killedFor(`The SVG needed more than ${limits.maxMemoryMb} MB of memory to ${work}.`)
        })
      }, MEMORY_POLL_MS)
      child.on('message', onMessage)
      child.once('exit', onExit)
      child.send(job, (error) => {
        if (error) finish(() => reject(error))
      })
    })
  }

  /** Unused: it no longer keeps this process running, and ends after `ms`. */
  idle(ms: number): void {
    this.handles('unref')
    this.idleTimer = setTimeout(this.onEnd, ms).unref()
  }

  kill(): void {
    clearTimeout(this.idleTimer)
    if (this.alive) this.child.kill('SIGKILL')
    this.killed = true
    this.handles('unref')
  }

  private busy(): void {
    clearTimeout(this.idleTimer)
    this.handles('ref')
  }

  private handles(how: 'ref' | 'unref'): void {
    this.child[how]()
    this.child.channel?.[how]()
    ;(this.child.stderr as Socket | null)?.[how]()
  }
}

/**
 * Caps the address space at what the started process has reserved plus its memory limit: Node's own
 * reservations (WebAssembly's alone are gigabytes) are made by then, and vary too much to cap ahead.
 */
async function capAddressSpace(pid: number, maxMemoryMb: number): Promise<void> {
  const reserved = await statusMb(pid, 'VmSize')
  if (reserved === 0) return
  const cap = Math.ceil((reserved + maxMemoryMb + ADDRESS_SPACE_HEADROOM_MB) * MB)
  // Where prlimit may not act (a locked-down container), the resident-memory poll still holds the limit.
  await run(PRLIMIT!, [`--pid=${pid}`, `--as=${cap}`]).catch(() => undefined)
}

function residentMb(pid: number): Promise<number> {
  return statusMb(pid, 'VmRSS')
}

/** A size from the process's /proc status, in MB; 0 where /proc cannot tell (the time limit still holds). */
async function statusMb(pid: number, field: 'VmRSS' | 'VmSize'): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const kb = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]
    return kb ? Number(kb) / 1024 : 0
  } catch {
    return 0
  }
}
