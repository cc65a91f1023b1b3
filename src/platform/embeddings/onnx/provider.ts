import { Worker } from 'node:worker_threads'
import sharp from 'sharp'
import type { ImageEmbeddingCallOptions, ImageEmbeddingProvider, OnnxModelConfig } from '../image-provider.js'
import { checkedVector, EmbeddingError } from '../provider.js'
import { readClipModelDir, type ClipModelDir, type ClipPreprocessing } from './model-dir.js'

const WORKER_URL = new URL('./onnx-worker.js', import.meta.url)
const RUNTIME_VERSION = '1.30.0'

/**
 * A CLIP model as ONNX files (`IMAGE_EMBEDDING_MODEL_DIR`, laid out as Immich's model repositories are),
 * run with onnxruntime-node in a worker thread of its own, its two sessions loaded once. Images are
 * decoded and cut to the model's square here (sharp works off the main thread too) and the words
 * tokenized here; the thread normalizes and runs. Resolves once both models are loaded: a missing or
 * broken file, or a missing runtime, is an `unavailable` EmbeddingError that says what to do.
 */
export async function createOnnxProvider(config: OnnxModelConfig): Promise<ImageEmbeddingProvider> {
  const model = await readClipModelDir(config.modelDir)
  const thread = new ModelThread(model)
  await thread.start()

  async function embed(input: () => Promise<ModelInput>, { timeoutMs, signal }: ImageEmbeddingCallOptions): Promise<number[]> {
    const deadline = AbortSignal.timeout(timeoutMs)
    const abort = signal ? AbortSignal.any([deadline, signal]) : deadline
    const vector = await thread.run(await input(), abort, () => (deadline.aborted ? timeoutError(timeoutMs) : signal?.reason))
    return checkedVector(Array.from(vector), model.dimensions, "config.json's embed_dim")
  }

  return {
    kind: 'onnx',
    model: config.model,
    embedImage: (image, options) => embed(async () => ({ pixels: await squarePixels(image, model.preprocessing) }), options),
    embedText: (text, options) => embed(async () => ({ ids: model.tokenizer.encode(text) }), options),
    close: () => thread.close(),
  }
}

type ModelInput = { pixels: Uint8Array } | { ids: Int32Array }

interface WorkerMessage {
  ready?: true
  failed?: string
  runtimeMissing?: boolean
  id?: number
  vector?: Float32Array
  error?: string
}

interface Pending {
  resolve: (vector: Float32Array) => void
  reject: (error: unknown) => void
}

/** The worker thread that holds the sessions; started again after a crash, ended by close(). */
class ModelThread {
  private worker: Worker | undefined
  private ready: Promise<Worker> | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private closed = false

  constructor(private readonly model: ClipModelDir) {}

  start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const { visualModel, textualModel, preprocessing } = this.model
      const worker = new Worker(WORKER_URL, { workerData: { visualModel, textualModel, mean: preprocessing.mean, std: preprocessing.std, size: preprocessing.size } })
      this.worker = worker
      worker.unref()
      worker.on('message', (message: WorkerMessage) => {
        if (message.ready) return resolve(worker)
        if (message.failed !== undefined) return reject(startError(message))
        const pending = this.pending.get(message.id!)
        if (!pending) return
        this.settled(message.id!)
        if (message.vector) pending.resolve(message.vector)
        else pending.reject(new EmbeddingError('bad_response', `the ONNX model could not embed it: ${message.error}`))
      })
      const ended = (error: EmbeddingError) => {
        this.forget(worker)
        reject(error)
        for (const [id, pending] of this.pending) {
          this.settled(id)
          pending.reject(error)
        }
      }
      worker.on('error', (error) => ended(new EmbeddingError('unavailable', `the ONNX model's thread failed: ${error.message}`)))
      worker.on('exit', (code) => ended(new EmbeddingError('unavailable', `the ONNX model's thread ended (exit code ${code})`)))
    })
    return this.ready
  }

  /** One input through its model; `abort` ends the wait (the thread finishes the run and its answer is dropped). */
  async run(input: ModelInput, abort: AbortSignal, reason: () => unknown): Promise<Float32Array> {
    if (this.closed) throw new EmbeddingError('unavailable', 'the ONNX model is closed')
    const worker = await this.start()
    if (abort.aborted) throw reason()
    const id = this.nextId++
    return new Promise<Float32Array>((resolve, reject) => {
      const onAbort = () => {
        this.settled(id)
        reject(reason())
      }
      abort.addEventListener('abort', onAbort, { once: true })
      this.pending.set(id, {
        resolve: (vector) => (abort.removeEventListener('abort', onAbort), resolve(vector)),
        reject: (error) => (abort.removeEventListener('abort', onAbort), reject(error)),
      })
      // While an answer is awaited the thread keeps the process alive; idle, it does not.
      if (this.pending.size === 1) worker.ref()
      const payload = 'pixels' in input ? input.pixels : input.ids
      worker.postMessage({ id, ...input }, [payload.buffer as ArrayBuffer])
    })
  }

  async close(): Promise<void> {
    this.closed = true
    const worker = this.worker
    if (worker) {
      this.forget(worker)
      await worker.terminate()
    }
  }

  private settled(id: number): void {
    this.pending.delete(id)
    if (this.pending.size === 0) this.worker?.unref()
  }

  /** The next call starts a new thread. */
  private forget(worker: Worker): void {
    if (this.worker !== worker) return
    this.worker = undefined
    this.ready = undefined
  }
}

function startError({ failed, runtimeMissing }: WorkerMessage): EmbeddingError {
  if (runtimeMissing) {
    return new EmbeddingError(
      'unavailable',
      `IMAGE_EMBEDDING_PROVIDER=onnx needs onnxruntime-node, an optional dependency that is not installed: \`npm ci\` installs it (with npm 10, \`ONNXRUNTIME_NODE_INSTALL=skip npm ci\`), or \`npm install --no-save onnxruntime-node@${RUNTIME_VERSION}\` (${failed})`,
    )
  }
  return new EmbeddingError('unavailable', `the ONNX model could not be loaded: ${failed}`)
}

function timeoutError(timeoutMs: number): EmbeddingError {
  return new EmbeddingError('timeout', `the ONNX model did not answer within ${timeoutMs} ms`)
}

/** The image as the model sees it: oriented, scaled and cut (or squashed) to its square, RGB bytes. */
async function squarePixels(image: Buffer, { size, kernel, resizeMode }: ClipPreprocessing): Promise<Uint8Array> {
  try {
    const { data, info } = await sharp(image, { autoOrient: true, failOn: 'error' })
      .resize(size, size, { fit: resizeMode === 'squash' ? 'fill' : 'cover', position: 'centre', kernel })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    if (info.channels !== 3 || data.length !== size * size * 3) throw new Error(`${info.channels} channels`)
    // A buffer of its own, handed to the thread rather than copied: sharp's may be a slice of a pool.
    return new Uint8Array(data)
  } catch (error) {
    throw new EmbeddingError('rejected', `the image could not be decoded for the ONNX model (${(error as Error).message.slice(0, 200)})`)
  }
}
