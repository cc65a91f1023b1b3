import { readdirSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ImageEmbeddingProvider } from '../../src/platform/embeddings/image-provider.js'
import { createImageEmbeddingProvider } from '../../src/platform/embeddings/image-providers.js'
import { createClipTokenizer } from '../../src/platform/embeddings/onnx/clip-tokenizer.js'
import { createOnnxProvider } from '../../src/platform/embeddings/onnx/provider.js'
import { waitFor } from '../support/wait.js'
import { clipTokenizerJson, createTinyClipModelDir, TINY_CLIP_DIMENSIONS } from '../support/tiny-clip.js'
import { cosine, embeddingFailure } from '../support/embedding-failure.js'

const CALL = { timeoutMs: 10_000 }
let modelDir: string
let provider: ImageEmbeddingProvider | undefined

beforeAll(async () => {
  modelDir = await createTinyClipModelDir()
})
afterEach(async () => {
  await provider?.close()
  provider = undefined
})
afterAll(() => rm(dirname(modelDir), { recursive: true, force: true }))

async function open(dir = modelDir): Promise<ImageEmbeddingProvider> {
  provider = await createOnnxProvider({ provider: 'onnx', modelDir: dir, model: 'tiny-clip', timeoutMs: CALL.timeoutMs, jobTimeoutMs: CALL.timeoutMs })
  return provider
}

const picture = (color: string, width = 224, height = 224) => sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer()

/** A copy of the tiny model in a folder of its own, changed by `change`. */
async function brokenModel(change: (dir: string) => Promise<void>): Promise<string> {
  const dir = await createTinyClipModelDir()
  await change(dir)
  return dir
}

describe('the onnx provider through onnxruntime-node', () => {
  it('embeds images and words in one space: "red" is nearest the red picture', async () => {
    const clip = await createImageEmbeddingProvider({ provider: 'onnx', modelDir, model: 'tiny-clip', timeoutMs: 10_000, jobTimeoutMs: 10_000 })
    provider = clip
    expect(clip).toMatchObject({ kind: 'onnx', model: 'tiny-clip' })
    const colours = ['#e02020', '#20c040', '#2040e0', '#f0f0f0']
    const images = await Promise.all(colours.map(async (colour) => clip.embedImage(await picture(colour), CALL)))
    for (const vector of images) {
      expect(vector).toHaveLength(TINY_CLIP_DIMENSIONS)
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5)
    }
    const scores = (words: number[]) => images.map((image) => cosine(words, image))
    const red = scores(await clip.embedText('A red car', CALL))
    expect(red.indexOf(Math.max(...red))).toBe(0)
    expect(red[0]).toBeGreaterThan(0.95)
    const blue = scores(await clip.embedText('  the   BLUE sky ', CALL))
    expect(blue.indexOf(Math.max(...blue))).toBe(2)
  })

  it('scales the shorter side to the model\'s square and keeps the middle, as CLIP does', async () => {
    const clip = await open()
    // 3:1, red in the middle third and blue on either side: the crop sees red only.
    const blue = await picture('#2040e0', 600, 200)
    const middle = await sharp(blue).composite([{ input: await picture('#e02020', 200, 200), left: 200, top: 0 }]).png().toBuffer()
    const image = await clip.embedImage(middle, CALL)
    expect(cosine(image, await clip.embedImage(await picture('#e02020'), CALL))).toBeGreaterThan(0.999)
    expect(cosine(image, await clip.embedText('red', CALL))).toBeGreaterThan(0.99)
  })

  it('refuses bytes that are no image, and keeps answering', async () => {
    const clip = await open()
    const refused = await embeddingFailure(clip.embedImage(Buffer.from('not an image'), CALL))
    expect(refused.kind).toBe('rejected')
    expect(refused.message).toMatch(/could not be decoded/)
    expect(await clip.embedImage(await picture('#e02020'), CALL)).toHaveLength(TINY_CLIP_DIMENSIONS)
  })

  it('checks the vectors against config.json\'s embed_dim', async () => {
    const dir = await brokenModel(async (dir) => {
      const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))
      await writeFile(join(dir, 'config.json'), JSON.stringify({ ...config, embed_dim: 8 }))
    })
    const mismatch = await embeddingFailure((await open(dir)).embedText('red', CALL))
    expect(mismatch.kind).toBe('dimension_mismatch')
    expect(mismatch.message).toMatch(/4 dimensions where config.json's embed_dim is 8/)
  })

  it('times a slow model out, and its thread answers the next call', async () => {
    const dir = await createTinyClipModelDir({ slowImageProducts: 40 })
    const clip = await open(dir)
    const started = performance.now()
    const late = await embeddingFailure(clip.embedImage(await picture('#e02020'), { timeoutMs: 50 }))
    expect(late.kind).toBe('timeout')
    expect(late.message).toBe('the ONNX model did not answer within 50 ms')
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(await clip.embedText('red', CALL)).toHaveLength(TINY_CLIP_DIMENSIONS)
    // The caller's signal stops the wait too, with its own reason.
    const stop = new AbortController()
    const stopped = clip.embedImage(await picture('#e02020'), { timeoutMs: 10_000, signal: stop.signal })
    stop.abort(new Error('shutting down'))
    await expect(stopped).rejects.toThrow('shutting down')
  })

  it('close() ends the thread: calls in flight and later ones are unavailable', async () => {
    // The threads of this process (Linux): the thread pools of libuv and sharp are started before counting.
    const threads = () => readdirSync('/proc/self/task').length
    const dir = await createTinyClipModelDir({ slowImageProducts: 40 })
    const red = await picture('#e02020')
    await sharp(red).resize(100, 100, { fit: 'cover' }).raw().toBuffer()
    const before = threads()
    const clip = await open(dir)
    expect(threads()).toBeGreaterThan(before)
    const inFlight = embeddingFailure(clip.embedImage(red, CALL))
    await clip.close()
    expect((await inFlight).kind).toBe('unavailable')
    const later = await embeddingFailure(clip.embedText('red', CALL))
    expect(later).toMatchObject({ kind: 'unavailable', message: 'the ONNX model is closed' })
    await waitFor('the thread and the runtime\'s threads to end', () => threads() <= before, 5_000)
  })
})

describe('a model directory that cannot be used', () => {
  it('names each missing file', async () => {
    const dir = await brokenModel(async (dir) => {
      await rm(join(dir, 'visual/model.onnx'))
      await rm(join(dir, 'textual/tokenizer.json'))
    })
    const missing = await embeddingFailure(open(dir))
    expect(missing.kind).toBe('unavailable')
    expect(missing.message).toBe(`IMAGE_EMBEDDING_MODEL_DIR (${dir}) has no visual/model.onnx, textual/tokenizer.json: it needs the layout of Immich's CLIP model repositories`)
    expect((await embeddingFailure(open(join(dir, 'nowhere')))).message).toMatch(/has no config.json, visual\/model.onnx, visual\/preprocess_cfg.json, textual\/model.onnx/)
  })

  it('says which file is broken and how', async () => {
    const corrupt = await brokenModel((dir) => writeFile(join(dir, 'textual/model.onnx'), 'not a model'))
    expect((await embeddingFailure(open(corrupt))).message).toMatch(/^the ONNX model could not be loaded: .*textual\/model.onnx cannot be loaded: /)
    const noDimension = await brokenModel((dir) => writeFile(join(dir, 'config.json'), JSON.stringify({ text_cfg: {} })))
    expect((await embeddingFailure(open(noDimension))).message).toMatch(/config.json \(.*\) has no embed_dim/)
    const notJson = await brokenModel((dir) => writeFile(join(dir, 'visual/preprocess_cfg.json'), '{'))
    expect((await embeddingFailure(open(notJson))).message).toMatch(/visual\/preprocess_cfg.json \(.*\) cannot be read as JSON/)
    const squashedUnknown = await brokenModel((dir) => writeFile(join(dir, 'visual/preprocess_cfg.json'), JSON.stringify({ size: 224, mean: [0, 0, 0], std: [1, 1, 1], interpolation: 'bicubic', resize_mode: 'longest' })))
    expect((await embeddingFailure(open(squashedUnknown))).message).toMatch(/has resize_mode "longest": shortest or squash is supported/)
    const wordPiece = await brokenModel((dir) => writeFile(join(dir, 'textual/tokenizer.json'), JSON.stringify({ model: { type: 'WordPiece', vocab: {} } })))
    expect((await embeddingFailure(open(wordPiece))).message).toMatch(/textual\/tokenizer.json \(.*\) cannot be used: it is not a BPE tokenizer/)
  })
})

describe("CLIP's tokenizer", () => {
  /** A tokenizer.json written out by hand: OpenAI's byte order, then four merges and the two special tokens. */
  function handMadeTokenizer(contextLength = 77) {
    const file = clipTokenizerJson([])
    const vocab = file.model.vocab as Record<string, number>
    const merges = ['l l', 'h e', 'he ll', 'hell o</w>']
    merges.forEach((merge, i) => (vocab[merge.replace(' ', '')] = 512 + i))
    const json = { ...file, added_tokens: [{ id: 516, content: '<|startoftext|>' }, { id: 517, content: '<|endoftext|>' }], model: { ...file.model, vocab, merges } }
    return createClipTokenizer(json, { contextLength, padToken: '<|endoftext|>' })
  }
  const START = 516
  const END = 517
  const content = (ids: Int32Array) => [...ids.slice(1, ids.indexOf(END))]

  it('orders the bytes as OpenAI\'s vocabulary does ("a" is 64, "a</w>" 320, as in ViT-B-32\'s)', () => {
    const ids = handMadeTokenizer().encode('a')
    expect([...ids.slice(0, 4)]).toEqual([START, 320, END, END])
  })

  it('merges by rank, marks the end of each word, and splits as CLIP does', () => {
    const tokenizer = handMadeTokenizer()
    expect(content(tokenizer.encode('hello'))).toEqual([515])
    // "hell" ends in "l</w>", which no merge joins to "l": "he", "l", "l</w>".
    expect(content(tokenizer.encode('hell'))).toEqual([513, 75, 331])
    // Punctuation is a word of its own; case and runs of white space do not count.
    expect(content(tokenizer.encode('  HELLO,\n\thello!  '))).toEqual([515, 267, 515, 256])
    // Beyond ASCII, the UTF-8 bytes: "é" is C3 A9, the symbols "Ã" and "©".
    expect(content(tokenizer.encode('é'))).toEqual([127, 358])
    // Digits one word each; contractions apart.
    expect(content(tokenizer.encode("12 it's"))).toEqual([272, 273, 72, 339, 6, 338])
  })

  it('starts, ends and pads to the context length, and truncates long texts keeping the end token', () => {
    const tokenizer = handMadeTokenizer(8)
    expect([...tokenizer.encode('hello hello')]).toEqual([START, 515, 515, END, END, END, END, END])
    expect([...tokenizer.encode('')]).toEqual([START, END, END, END, END, END, END, END])
    const long = tokenizer.encode('hello '.repeat(20))
    expect([...long]).toEqual([START, 515, 515, 515, 515, 515, 515, END])
  })

  it('tokenizes the tiny model\'s words as one token each, in a file of the real format', async () => {
    const file = JSON.parse(await readFile(join(modelDir, 'textual/tokenizer.json'), 'utf8'))
    expect(file.model).toMatchObject({ type: 'BPE', end_of_word_suffix: '</w>' })
    const tokenizer = createClipTokenizer(file, { contextLength: 77, padToken: '<|endoftext|>' })
    const ids = tokenizer.encode('a photo of a red car')
    expect(ids).toHaveLength(77)
    expect([...ids.slice(1, 7)].map((id) => Object.keys(file.model.vocab)[id])).toEqual(['a</w>', 'photo</w>', 'of</w>', 'a</w>', 'red</w>', 'car</w>'])
  })
})
