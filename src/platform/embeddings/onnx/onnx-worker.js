// Runs a CLIP model's two ONNX sessions (visual and textual) off the main thread: one image through
// ViT-B/32 is billions of operations, which would stall every request the process serves.
// Plain JavaScript so that it loads the same under tsx, Vitest and the compiled build.
//
// workerData: { visualModel, textualModel, mean, std, size } (paths, and the visual preprocessing).
// It answers { ready: true } once both sessions are loaded, or { failed, runtimeMissing } and ends.
// A message is { id, pixels } (RGB bytes, size × size, row by row) or { id, ids } (an Int32Array of
// token ids); the answer is { id, vector } (a Float32Array: the first output's row 0) or { id, error }.
import { parentPort, workerData } from 'node:worker_threads'

const { visualModel, textualModel, mean, std, size } = workerData

let ort
try {
  ort = await import('onnxruntime-node')
} catch (error) {
  parentPort.postMessage({ failed: String(error?.message ?? error), runtimeMissing: error?.code === 'ERR_MODULE_NOT_FOUND' })
  process.exit(1)
}

let visual
let textual
try {
  visual = await load(visualModel, 'image')
  textual = await load(textualModel, 'text')
} catch (error) {
  parentPort.postMessage({ failed: String(error?.message ?? error) })
  process.exit(1)
}

parentPort.on('message', async ({ id, pixels, ids }) => {
  try {
    const vector = pixels ? await run(visual, 'image', new ort.Tensor('float32', normalized(pixels), [1, 3, size, size])) : await run(textual, 'text', new ort.Tensor('int32', ids, [1, ids.length]))
    parentPort.postMessage({ id, vector }, [vector.buffer])
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) })
  }
})
parentPort.postMessage({ ready: true })

/** A session over `path`, whose input is named as Immich feeds it. */
async function load(path, input) {
  let session
  try {
    session = await ort.InferenceSession.create(path, { graphOptimizationLevel: 'all' })
  } catch (error) {
    throw new Error(`${path} cannot be loaded: ${String(error?.message ?? error).slice(0, 300)}`)
  }
  if (!session.inputNames.includes(input)) throw new Error(`${path} has no input named "${input}" (it has ${session.inputNames.join(', ')})`)
  return session
}

/** The first output's first row, as Immich's encoders take it. */
async function run(session, input, tensor) {
  const outputs = await session.run({ [input]: tensor })
  const output = outputs[session.outputNames[0]]
  const width = output.dims.at(-1)
  return Float32Array.from(output.data.subarray(0, width))
}

/** RGB bytes, interleaved, to planes of (value / 255 - mean) / std: the layout [1, 3, size, size] that CLIP takes. */
function normalized(pixels) {
  const plane = size * size
  const planes = new Float32Array(3 * plane)
  for (let channel = 0; channel < 3; channel++) {
    const scale = 1 / (255 * std[channel])
    const shift = mean[channel] / std[channel]
    const offset = channel * plane
    for (let i = 0; i < plane; i++) planes[offset + i] = pixels[i * 3 + channel] * scale - shift
  }
  return planes
}
