import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createImmichMlProvider } from '../../src/platform/embeddings/immich-ml.js'
import type { ImageEmbeddingProvider } from '../../src/platform/embeddings/image-provider.js'
import { IMMICH_DIMENSIONS, startFakeImmichMl, type FakeImmichMl } from '../support/fake-immich-ml.js'
import { cosine, embeddingFailure } from '../support/embedding-failure.js'

let service: FakeImmichMl
let provider: ImageEmbeddingProvider

beforeAll(async () => {
  service = await startFakeImmichMl()
})
afterEach(async () => {
  service.reset()
  await provider?.close()
})
afterAll(() => service.close())

function connect(url = service.url): ImageEmbeddingProvider {
  provider = createImmichMlProvider({ provider: 'immich-ml', url, model: 'ViT-B-32__openai', timeoutMs: 1000, jobTimeoutMs: 1000 })
  return provider
}

const square = (color: string) => sharp({ create: { width: 224, height: 224, channels: 3, background: color } }).jpeg().toBuffer()

describe("Immich's machine-learning protocol", () => {
  it('sends an image as the `image` file and words as the `text` field, naming the CLIP task and model in `entries`', async () => {
    const red = await connect().embedImage(await square('#dd2020'), { timeoutMs: 1000 })
    const words = await provider.embedText('a red car', { timeoutMs: 1000 })
    expect(red).toHaveLength(IMMICH_DIMENSIONS)
    const [image, text] = service.predictions.slice(-2)
    expect(image).toMatchObject({ kind: 'image', entries: { clip: { visual: { modelName: 'ViT-B-32__openai' } } }, image: { width: 224, height: 224, format: 'jpeg' } })
    expect(text).toMatchObject({ kind: 'text', text: 'a red car', entries: { clip: { textual: { modelName: 'ViT-B-32__openai', options: { language: 'en' } } } } })
    expect(service.hits.at(-1)).toBe('/predict')
    // The vectors share one space: the word "red" is nearer the red image than the blue one.
    const blue = await provider.embedImage(await square('#2050dd'), { timeoutMs: 1000 })
    expect(cosine(words, red)).toBeGreaterThan(cosine(words, blue) + 0.5)
  })

  it('says the service is unavailable when it answers 503 or cannot be reached, and times out when it hangs', async () => {
    service.fail('down')
    expect((await embeddingFailure(connect().embedText('red', { timeoutMs: 1000 }))).kind).toBe('unavailable')
    service.fail('hang')
    const hung = await embeddingFailure(provider.embedText('red', { timeoutMs: 200 }))
    expect(hung.kind).toBe('timeout')
    await provider.close()
    const closed = await embeddingFailure(connect('http://127.0.0.1:9').embedText('red', { timeoutMs: 1000 }))
    expect(closed.kind).toBe('unavailable')
  })

  it('refuses a 200 whose `clip` is not a vector, and a vector of another length than the first', async () => {
    service.fail('malformed')
    const malformed = await embeddingFailure(connect().embedText('red', { timeoutMs: 1000 }))
    expect(malformed).toMatchObject({ kind: 'bad_response' })
    service.fail(null)
    await provider.embedText('red', { timeoutMs: 1000 })
    service.answerDimensions(IMMICH_DIMENSIONS * 2)
    expect((await embeddingFailure(provider.embedText('red', { timeoutMs: 1000 }))).kind).toBe('dimension_mismatch')
  })
})
