import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bytePairEncoder, CLIP_BYTE_SYMBOLS, toByteSymbols } from '../../src/platform/embeddings/onnx/clip-tokenizer.js'
import { encodeModel, FLOAT, INT32, INT64, type Graph } from './onnx-proto.js'

/**
 * A CLIP model of a few KB in the layout of Immich's model repositories, for the `onnx` provider
 * through the real runtime. It sees colour and nothing else, in 4 dimensions:
 * - an image's vector is its mean colour, each channel less 0.5, then 0.1, normalised (a grey image
 *   points along the 4th dimension alone);
 * - a text's vector is the sum of its colour words' vectors ("red" is the vector of a pure red image,
 *   "yellow" of pure yellow), plus the same 0.1, normalised: the word "red" points exactly where a pure
 *   red image does, and a text without colour words where a grey one does.
 */
export const TINY_CLIP_DIMENSIONS = 4
export const TINY_CLIP_COLOURS: Record<string, [number, number, number]> = {
  red: [1, 0, 0],
  green: [0, 1, 0],
  blue: [0, 0, 1],
  yellow: [1, 1, 0],
  cyan: [0, 1, 1],
  magenta: [1, 0, 1],
  orange: [1, 0.5, 0],
  purple: [0.5, 0, 0.5],
  white: [1, 1, 1],
  black: [0, 0, 0],
  grey: [0.5, 0.5, 0.5],
}
/** Words that are single tokens beside the colours, so common queries tokenize in a few ids. */
const OTHER_WORDS = ['a', 'an', 'the', 'of', 'on', 'in', 'and', 'photo', 'picture', 'car', 'sky', 'logo']
/** CLIP's (OpenAI's) normalisation, so the model has to undo it as real ones learn to. */
const MEAN: [number, number, number] = [0.48145466, 0.4578275, 0.40821073]
const STD: [number, number, number] = [0.26862954, 0.26130258, 0.27577711]
const BIAS = 0.1

export interface TinyClipOptions {
  /** The visual model's square side (CLIP's 224 unless said). */
  size?: number
  /** Tokens per text (CLIP's 77 unless said). */
  contextLength?: number
  /**
   * Chained 672 × 672 matrix products on the image before its mean (each ~0.3 G multiply-adds, about
   * 10-30 ms on one core): a model that is slow for real, to time calls out. 0 unless said.
   */
  slowImageProducts?: number
}

/** Writes the model directory into a new temporary folder named `tiny-clip` (the model's name); its path. */
export async function createTinyClipModelDir(options: TinyClipOptions = {}): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), 'asset-library-onnx-')), 'tiny-clip')
  await writeTinyClipModel(dir, options)
  return dir
}

/** Writes config.json, visual/ and textual/ into `dir`, as Immich's model repositories hold them. */
export async function writeTinyClipModel(dir: string, { size = 224, contextLength = 77, slowImageProducts = 0 }: TinyClipOptions = {}): Promise<void> {
  const tokenizer = clipTokenizerJson([...Object.keys(TINY_CLIP_COLOURS), ...OTHER_WORDS])
  await mkdir(join(dir, 'visual'), { recursive: true })
  await mkdir(join(dir, 'textual'), { recursive: true })
  const json = (value: unknown) => JSON.stringify(value, null, 2)
  const vocabularySize = Object.keys(tokenizer.model.vocab).length + tokenizer.added_tokens.length
  await writeFile(join(dir, 'config.json'), json({ embed_dim: TINY_CLIP_DIMENSIONS, vision_cfg: { image_size: size }, text_cfg: { context_length: contextLength, vocab_size: vocabularySize } }))
  await writeFile(join(dir, 'visual/preprocess_cfg.json'), json({ size: [size, size], mode: 'RGB', mean: MEAN, std: STD, interpolation: 'bicubic', resize_mode: 'shortest', fill_color: 0 }))
  await writeFile(join(dir, 'visual/model.onnx'), encodeModel(visualGraph(size, slowImageProducts)))
  await writeFile(join(dir, 'textual/tokenizer.json'), json(tokenizer))
  await writeFile(join(dir, 'textual/tokenizer_config.json'), json({ bos_token: '<|startoftext|>', eos_token: '<|endoftext|>', pad_token: '<|endoftext|>', unk_token: '<|endoftext|>', model_max_length: contextLength }))
  const rows = Array.from({ length: vocabularySize }, () => [0, 0, 0, 0])
  for (const [word, rgb] of Object.entries(TINY_CLIP_COLOURS)) rows[tokenizer.model.vocab[`${word}</w>`]!] = [...rgb.map((v) => v - 0.5), 0]
  await writeFile(join(dir, 'textual/model.onnx'), encodeModel(textualGraph(rows, contextLength)))
}

/** The vector the tiny model gives an image of one colour (0-1 per channel), before normalising. */
export function tinyClipColourVector([r, g, b]: [number, number, number]): number[] {
  return [r - 0.5, g - 0.5, b - 0.5, BIAS]
}

function visualGraph(size: number, slowProducts: number): Graph {
  const nodes: Graph['nodes'] = [
    // Undo the normalisation: mean over the pixels × std + mean is the mean colour, 0-1; less 0.5.
    { op: 'ReduceMean', inputs: ['image'], outputs: ['normalised_mean'], attributes: { axes: [2, 3], keepdims: 0 } },
    { op: 'Mul', inputs: ['normalised_mean', 'std'], outputs: ['scaled'] },
    { op: 'Add', inputs: ['scaled', 'mean_less_half'], outputs: ['colour'] },
    { op: 'Concat', inputs: ['colour', 'bias'], outputs: ['unnormalised'], attributes: { axis: 1 } },
  ]
  let last = 'unnormalised'
  if (slowProducts > 0) {
    // Row-stochastic products stay finite however many; times 0, they add nothing to the answer.
    nodes.push(
      { op: 'Reshape', inputs: ['image', 'rows_shape'], outputs: ['rows'] },
      { op: 'Transpose', inputs: ['rows'], outputs: ['columns'] },
      { op: 'MatMul', inputs: ['rows', 'columns'], outputs: ['gram'] },
      { op: 'Softmax', inputs: ['gram'], outputs: ['product_0'], attributes: { axis: 1 } },
    )
    for (let i = 1; i <= slowProducts; i++) nodes.push({ op: 'MatMul', inputs: [`product_${i - 1}`, `product_${i - 1}`], outputs: [`product_${i}`] })
    nodes.push(
      { op: 'ReduceMean', inputs: [`product_${slowProducts}`], outputs: ['product_mean'], attributes: { keepdims: 0 } },
      { op: 'Mul', inputs: ['product_mean', 'zero'], outputs: ['nothing'] },
      { op: 'Add', inputs: ['unnormalised', 'nothing'], outputs: ['slow_unnormalised'] },
    )
    last = 'slow_unnormalised'
  }
  nodes.push({ op: 'LpNormalization', inputs: [last], outputs: ['embedding'], attributes: { axis: 1, p: 2 } })
  return {
    nodes,
    initializers: [
      { name: 'std', dims: [3], type: FLOAT, values: STD },
      { name: 'mean_less_half', dims: [3], type: FLOAT, values: MEAN.map((v) => v - 0.5) },
      { name: 'bias', dims: [1, 1], type: FLOAT, values: [BIAS] },
      ...(slowProducts > 0
        ? [
            { name: 'rows_shape', dims: [2], type: INT64, values: [3 * size, size] },
            { name: 'zero', dims: [], type: FLOAT, values: [0] },
          ]
        : []),
    ],
    inputs: [{ name: 'image', type: FLOAT, dims: [1, 3, size, size] }],
    outputs: [{ name: 'embedding', type: FLOAT, dims: [1, TINY_CLIP_DIMENSIONS] }],
  } as Graph
}

function textualGraph(rows: number[][], contextLength: number): Graph {
  return {
    nodes: [
      { op: 'Gather', inputs: ['table', 'text'], outputs: ['token_vectors'], attributes: { axis: 0 } },
      { op: 'ReduceSum', inputs: ['token_vectors', 'token_axis'], outputs: ['summed'], attributes: { keepdims: 0 } },
      { op: 'Add', inputs: ['summed', 'bias'], outputs: ['unnormalised'] },
      { op: 'LpNormalization', inputs: ['unnormalised'], outputs: ['embedding'], attributes: { axis: 1, p: 2 } },
    ],
    initializers: [
      { name: 'table', dims: [rows.length, TINY_CLIP_DIMENSIONS], type: FLOAT, values: rows.flat() },
      { name: 'token_axis', dims: [1], type: INT64, values: [1] },
      { name: 'bias', dims: [TINY_CLIP_DIMENSIONS], type: FLOAT, values: [0, 0, 0, BIAS] },
    ],
    inputs: [{ name: 'text', type: INT32, dims: [1, contextLength] }],
    outputs: [{ name: 'embedding', type: FLOAT, dims: [1, TINY_CLIP_DIMENSIONS] }],
  }
}

/**
 * A tokenizer.json in the format of CLIP's (Hugging Face tokenizers: byte-level BPE with the `</w>`
 * suffix, the vocabulary ordered as OpenAI's: the 256 byte symbols, the same with `</w>`, one token per
 * merge, then the start and end tokens), with merges enough to make each of `words` one token.
 */
export function clipTokenizerJson(words: string[]) {
  const printable = (byte: number) => CLIP_BYTE_SYMBOLS[byte] === String.fromCodePoint(byte)
  const bytesInOrder = [...Array.from({ length: 256 }, (_, b) => b).filter(printable), ...Array.from({ length: 256 }, (_, b) => b).filter((b) => !printable(b))]
  const tokens = [...bytesInOrder.map((b) => CLIP_BYTE_SYMBOLS[b]!), ...bytesInOrder.map((b) => `${CLIP_BYTE_SYMBOLS[b]}</w>`)]
  const ranks = new Map<string, number>()
  const bpe = bytePairEncoder(ranks, '</w>')
  for (const word of words) {
    for (let parts = bpe(toByteSymbols(word)); parts.length > 1; parts = bpe(toByteSymbols(word))) {
      ranks.set(`${parts[0]} ${parts[1]}`, ranks.size)
      if (!tokens.includes(parts[0]! + parts[1]!)) tokens.push(parts[0]! + parts[1]!)
    }
  }
  const vocab = Object.fromEntries(tokens.map((token, id) => [token, id]))
  const special = (content: string, id: number) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: true, special: true })
  const start = tokens.length
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special('<|startoftext|>', start), special('<|endoftext|>', start + 1)],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' }, { type: 'Lowercase' }] },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: "<\\|startoftext\\|>|<\\|endoftext\\|>|'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+" }, behavior: 'Removed', invert: true },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
    post_processor: { type: 'RobertaProcessing', sep: ['<|endoftext|>', start + 1], cls: ['<|startoftext|>', start], trim_offsets: false, add_prefix_space: false },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: '<|endoftext|>', continuing_subword_prefix: '', end_of_word_suffix: '</w>', fuse_unk: false, byte_fallback: false, vocab, merges: [...ranks.keys()] },
  }
}
