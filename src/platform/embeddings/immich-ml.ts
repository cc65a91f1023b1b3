import type { FormData } from 'undici'
import type { ImageEmbeddingCallOptions, ImageEmbeddingProvider, ImmichMlConfig } from './image-provider.js'
import { checkedVector, EmbeddingError, postJson } from './provider.js'
import { loadUndici } from '../net/undici.js'

/**
 * Immich's machine-learning service, as Immich's server calls it (server/src/repositories/
 * machine-learning.repository.ts; machine-learning/immich_ml/main.py): `POST <url>/predict` with a
 * multipart form whose `entries` field names the task, `{"clip": {"visual": {"modelName": …}}}` with the
 * image as the `image` file, or `{"clip": {"textual": {"modelName": …, "options": {"language": "en"}}}}`
 * with the words as the `text` field. The answer's `clip` is the vector serialised as a JSON array in a
 * string (`serialize_np_array`); an array as such is taken too.
 *
 * The URL is the operator's (an Immich ML container beside the library, often on a private network),
 * so, like EMBEDDING_BASE_URL, it does not go through the image SSRF guard; it has its own keep-alive Agent.
 */
export function createImmichMlProvider(config: ImmichMlConfig): ImageEmbeddingProvider {
  const undici = loadUndici()
  const agent = new undici.Agent({ connect: { timeout: 5_000 }, keepAliveTimeout: 30_000 })
  const url = `${config.url}/predict`
  const headers = { accept: 'application/json', 'user-agent': 'asset-library' }
  /** Every vector of one model has its length: the first one fixes it for this process. */
  let dimensions: number | undefined

  async function predict(task: 'visual' | 'textual', input: (form: FormData) => void, options: ImageEmbeddingCallOptions): Promise<number[]> {
    const form = new undici.FormData()
    const entry = task === 'visual' ? { modelName: config.model } : { modelName: config.model, options: { language: 'en' } }
    form.append('entries', JSON.stringify({ clip: { [task]: entry } }))
    input(form)
    const answer = await postJson(agent, url, { headers, body: form }, options)
    const vector = checkedVector(parseClip(answer), dimensions, 'the model')
    dimensions ??= vector.length
    return vector
  }

  return {
    kind: 'immich-ml',
    model: config.model,
    embedImage: (image, options) => predict('visual', (form) => form.append('image', new Blob([new Uint8Array(image)]), 'image'), options),
    embedText: (text, options) => predict('textual', (form) => form.append('text', text), options),
    // destroy, not close: a request hanging on a stuck service must not hold the shutdown.
    close: () => agent.destroy(),
  }
}

/** The `clip` field of an answer: a JSON array in a string, as Immich serialises it. */
function parseClip(answer: unknown): unknown {
  const clip = (answer as { clip?: unknown } | null)?.clip
  if (typeof clip !== 'string') return clip
  try {
    return JSON.parse(clip)
  } catch {
    throw new EmbeddingError('bad_response', 'the image embedding provider answered a `clip` that is not a JSON array')
  }
}
