import { Worker } from 'node:worker_threads'

/** One C2PA manifest of a file's manifest store, as c2pa-worker.js summarizes it. */
export interface ManifestSummary {
  /** A version 1 claim's generator string; null for version 2 claims, which have `claimGeneratorInfo` only. */
  claimGenerator: string | null
  claimGeneratorInfo: { name: string; version: string | null }[]
  /** The signing certificate's subject organization (its common name when it has none). */
  signer: string | null
  actions: { action: string; digitalSourceType: string | null }[]
}

/** What the C2PA reader found in a file. */
export type ManifestReading =
  | { kind: 'none' }
  /** The file points at a manifest stored elsewhere: the service does not fetch it. */
  | { kind: 'remote' }
  /** A manifest is there but cannot be read: truncated, malformed, or past the time limit. */
  | { kind: 'broken'; reason: string }
  /** `state`: c2pa-rs's validation state, `Invalid`, `Valid` or `Trusted`. */
  | { kind: 'read'; state: string | null; active: string | null; manifests: Record<string, ManifestSummary> }

export interface C2paReaderOptions {
  /** Past this, the reading is abandoned (its thread ended) and the manifest counted as broken. */
  timeoutMs?: number
  /** An idle thread ends after this long, giving back its memory (~50 MB: an isolate and the compiled WebAssembly). */
  idleMs?: number
}

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_IDLE_MS = 60_000
const WORKER_URL = new URL('./c2pa-worker.js', import.meta.url)
/**
 * In every file with a manifest of its own: the label of the manifest store's JUMBF box, and the name of
 * an SVG's `c2pa:manifest` element. Bytes without it need no reading; with it, CAI's detector decides.
 */
const MANIFEST_LABEL = Buffer.from('c2pa')

interface Pending {
  resolve: (reading: ManifestReading) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

/**
 * Reads files' C2PA manifests in a worker thread of its own, started at the first file and ended after a
 * minute without one; one file at a time.
 */
export class C2paReader {
  private worker: Worker | undefined
  private ready: Promise<Worker> | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private idleTimer: NodeJS.Timeout | undefined
  private queue: Promise<unknown> = Promise.resolve()
  private readonly timeoutMs: number
  private readonly idleMs: number

  constructor(options: C2paReaderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS
  }

  /** The file's manifest, read and checked; files are read one after the other. */
  read(bytes: Buffer, mimeType: string): Promise<ManifestReading> {
    // Most files have none, and handing one to the thread copies it (a 20 MB copy is 100+ ms of this thread).
    if (!bytes.includes(MANIFEST_LABEL)) return Promise.resolve({ kind: 'none' })
    const reading = this.queue.then(() => this.readNow(bytes, mimeType))
    this.queue = reading.catch(() => undefined)
    return reading
  }

  /** Ends the thread, if one runs. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer)
    await this.end()
  }

  private async readNow(bytes: Buffer, mimeType: string): Promise<ManifestReading> {
    clearTimeout(this.idleTimer)
    const worker = await this.start()
    const id = this.nextId++
    worker.ref()
    try {
      return await new Promise<ManifestReading>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.pending.delete(id)
          void this.end()
          resolve({ kind: 'broken', reason: `the manifest could not be checked within ${this.timeoutMs} ms` })
        }, this.timeoutMs)
        this.pending.set(id, { resolve, reject, timer })
        // A copy of its own (one memcpy), handed over rather than cloned: the caller's buffer may be a slice of a pooled one.
        const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
        worker.postMessage({ id, bytes: new Uint8Array(copy), mimeType }, [copy])
      })
    } finally {
      // Idle, the thread keeps no process alive.
      worker.unref()
      if (this.pending.size === 0 && this.worker) this.idleTimer = setTimeout(() => void this.end(), this.idleMs).unref()
    }
  }

  private start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(WORKER_URL)
      this.worker = worker
      worker.on('message', (message: { ready?: true; id?: number; outcome?: ManifestReading; error?: string }) => {
        if (message.ready) return resolve(worker)
        const pending = this.pending.get(message.id!)
        if (!pending) return
        this.pending.delete(message.id!)
        clearTimeout(pending.timer)
        if (message.outcome) pending.resolve(message.outcome)
        else pending.reject(new Error(`The C2PA reader failed: ${message.error}`))
      })
      worker.on('error', (error) => {
        this.forget(worker)
        reject(error)
        this.failPending(error)
      })
      worker.on('exit', (code) => {
        this.forget(worker)
        const error = new Error(`The C2PA reader's thread ended (exit code ${code})`)
        reject(error)
        this.failPending(error)
      })
    })
    return this.ready
  }

  private failPending(error: Error): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer)
      pending.reject(error)
      this.pending.delete(id)
    }
  }

  /** The next file starts a new thread. */
  private forget(worker: Worker): void {
    if (this.worker !== worker) return
    this.worker = undefined
    this.ready = undefined
  }

  private async end(): Promise<void> {
    const worker = this.worker
    if (!worker) return
    this.forget(worker)
    await worker.terminate()
  }
}
