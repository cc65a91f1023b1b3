import type { IncomingMessage, ServerResponse } from 'node:http'
import sharp from 'sharp'
import { startServer, type TestServer } from './http-server.js'

/**
 * The colours the fake model sees, each a dimension of its space: an image's vector is how much of it
 * lies near each colour, a text's the colour words it has. "red" then points where red pictures do.
 */
export const SEEN_COLORS: ReadonlyArray<readonly [name: string, rgb: readonly [number, number, number]]> = [
  ['red', [220, 30, 30]],
  ['orange', [245, 140, 20]],
  ['yellow', [240, 220, 40]],
  ['green', [40, 170, 60]],
  ['blue', [30, 90, 220]],
  ['purple', [130, 50, 180]],
  ['white', [245, 245, 245]],
  ['black', [15, 15, 15]],
]

/** Image vectors have this many dimensions, unless a test asks for another model's. */
export const IMMICH_DIMENSIONS = 16

/** What one request to `/predict` carried. */
export interface Prediction {
  /** The `entries` field, parsed: `{clip: {visual|textual: {modelName, options?}}}`. */
  entries: { clip?: { visual?: { modelName: string }; textual?: { modelName: string; options?: { language?: string } } } }
  kind: 'image' | 'text'
  text?: string
  /** The image's sides, as it was sent. */
  image?: { width: number; height: number; format: string }
}

export interface FakeImmichMl extends TestServer {
  predictions: Prediction[]
  /** `down`: 503 to every request; `hang`: never answers; `malformed`: 200 with a `clip` that is no vector; null: answers. */
  fail(mode: 'down' | 'hang' | 'malformed' | null): void
  /** Vectors of this length from now on (another model), or the usual length again with null. */
  answerDimensions(dimensions: number | null): void
  /** Waits this long before each answer (a slow service). */
  delay(ms: number): void
  /** Answers again at once, in the usual length: what a test changed is undone for the next. */
  reset(): void
}

/** A real HTTP server on 127.0.0.1 speaking Immich's ML protocol, with vectors made from pixels and words. */
export async function startFakeImmichMl(): Promise<FakeImmichMl> {
  const predictions: Prediction[] = []
  let failure: 'down' | 'hang' | 'malformed' | null = null
  let dimensions = IMMICH_DIMENSIONS
  let delayMs = 0
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url === '/ping') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('pong')
    if (req.method !== 'POST' || req.url !== '/predict') return void res.writeHead(404).end()
    answer(req, { failure, dimensions, delayMs }).then(
      ({ status, body, prediction }) => {
        if (prediction) predictions.push(prediction)
        if (status !== 0) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      },
      (error: Error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: error.message })),
    )
  })
  return {
    ...server,
    predictions,
    fail: (mode) => void (failure = mode),
    answerDimensions: (length) => void (dimensions = length ?? IMMICH_DIMENSIONS),
    delay: (ms) => void (delayMs = ms),
    reset: () => {
      failure = null
      dimensions = IMMICH_DIMENSIONS
      delayMs = 0
    },
  }
}

/** Status 0: no answer at all (a hung service). */
async function answer(
  req: IncomingMessage,
  state: { failure: string | null; dimensions: number; delayMs: number },
): Promise<{ status: number; body?: unknown; prediction?: Prediction }> {
  const form = await formOf(req)
  if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs))
  if (state.failure === 'hang') return { status: 0 }
  if (state.failure === 'down') return { status: 503, body: { detail: 'Service Unavailable' } }
  const entriesField = form.get('entries')
  if (typeof entriesField !== 'string') return { status: 422, body: { detail: 'Invalid request format.' } }
  const entries = JSON.parse(entriesField) as Prediction['entries']
  const image = form.get('image')
  const text = form.get('text')
  let prediction: Prediction
  let vector: number[]
  if (image !== null && typeof image !== 'string') {
    const bytes = Buffer.from(await image.arrayBuffer())
    const meta = await sharp(bytes).metadata()
    prediction = { entries, kind: 'image', image: { width: meta.width!, height: meta.height!, format: meta.format! } }
    vector = await pixelVector(bytes, state.dimensions)
  } else if (typeof text === 'string') {
    prediction = { entries, kind: 'text', text }
    vector = wordVector(text, state.dimensions)
  } else {
    return { status: 400, body: { detail: 'Either image or text must be provided' } }
  }
  if (state.failure === 'malformed') return { status: 200, body: { clip: 'not a vector' }, prediction }
  // Immich serialises the vector as a JSON array inside a string (serialize_np_array).
  const body = { clip: JSON.stringify(vector), ...(prediction.image && { imageHeight: prediction.image.height, imageWidth: prediction.image.width }) }
  return { status: 200, body, prediction }
}

function formOf(req: IncomingMessage): Promise<FormData> {
  const chunks: Buffer[] = []
  return new Promise((resolve, reject) => {
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('error', reject)
    req.on('end', () => {
      new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData().then(resolve, reject)
    })
  })
}

/** The share of the image's pixels nearest each seen colour, normalised; the dimensions past the colours stay a small constant. */
export async function pixelVector(image: Buffer, dimensions = IMMICH_DIMENSIONS): Promise<number[]> {
  const { data, info } = await sharp(image).resize(32, 32, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const vector = new Array<number>(dimensions).fill(0.01)
  for (let i = 0; i < data.length; i += info.channels) {
    const nearest = nearestColor(data[i]!, data[i + 1]!, data[i + 2]!)
    vector[nearest % dimensions]! += 1
  }
  return normalised(vector)
}

/** One unit on each seen colour the text names; the others words weigh nothing, as they say nothing of colour. */
export function wordVector(text: string, dimensions = IMMICH_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0.01)
  for (const word of text.toLowerCase().split(/[^\p{L}]+/u)) {
    const color = SEEN_COLORS.findIndex(([name]) => name === word)
    if (color >= 0) vector[color % dimensions]! += 1
  }
  return normalised(vector)
}

function nearestColor(r: number, g: number, b: number): number {
  let best = 0
  let bestDistance = Infinity
  SEEN_COLORS.forEach(([, [cr, cg, cb]], index) => {
    const distance = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2
    if (distance < bestDistance) [best, bestDistance] = [index, distance]
  })
  return best
}

function normalised(vector: number[]): number[] {
  const norm = Math.hypot(...vector)
  return vector.map((value) => value / norm)
}
