import { access, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { EmbeddingError } from '../provider.js'
import { createClipTokenizer, type ClipTokenizer } from './clip-tokenizer.js'

/** How an image becomes the visual model's input: `visual/preprocess_cfg.json`, as open_clip writes it. */
export interface ClipPreprocessing {
  /** The side of the square the model takes. */
  size: number
  /** Per RGB channel: the input is (value / 255 - mean) / std. */
  mean: [number, number, number]
  std: [number, number, number]
  /** sharp's resampling kernel for the file's `interpolation` (PIL's name). */
  kernel: 'nearest' | 'linear' | 'cubic' | 'lanczos3'
  /** `shortest`: the shorter side scaled to `size` and the middle kept; `squash`: scaled to the square, ratio lost. */
  resizeMode: 'shortest' | 'squash'
}

/** A CLIP model directory laid out as Immich's model repositories are, read and checked. */
export interface ClipModelDir {
  visualModel: string
  textualModel: string
  /** config.json's `embed_dim`: every vector's length. */
  dimensions: number
  preprocessing: ClipPreprocessing
  tokenizer: ClipTokenizer
}

export const CLIP_MODEL_FILES = {
  config: 'config.json',
  visualModel: 'visual/model.onnx',
  preprocessing: 'visual/preprocess_cfg.json',
  textualModel: 'textual/model.onnx',
  tokenizer: 'textual/tokenizer.json',
  tokenizerConfig: 'textual/tokenizer_config.json',
} as const

const KERNELS: Record<string, ClipPreprocessing['kernel']> = { nearest: 'nearest', bilinear: 'linear', bicubic: 'cubic', lanczos: 'lanczos3' }
const DEFAULT_CONTEXT_LENGTH = 77

/**
 * Reads `dir`'s configuration and tokenizer, and checks that both models are there. Every problem is an
 * `unavailable` EmbeddingError that names the file and what is wrong with it.
 */
export async function readClipModelDir(dir: string): Promise<ClipModelDir> {
  const path = (file: string) => join(dir, file)
  const missing = []
  for (const file of Object.values(CLIP_MODEL_FILES)) {
    if (!(await access(path(file)).then(() => true, () => false))) missing.push(file)
  }
  if (missing.length > 0) {
    throw new EmbeddingError('unavailable', `IMAGE_EMBEDDING_MODEL_DIR (${dir}) has no ${missing.join(', ')}: it needs the layout of Immich's CLIP model repositories`)
  }
  const config = await readJson(dir, CLIP_MODEL_FILES.config)
  const dimensions = config.embed_dim
  if (!Number.isInteger(dimensions) || (dimensions as number) < 1) throw fileProblem(dir, CLIP_MODEL_FILES.config, 'has no embed_dim (a positive integer)')
  const contextLength = (config.text_cfg as { context_length?: unknown } | undefined)?.context_length ?? DEFAULT_CONTEXT_LENGTH
  const tokenizerConfig = await readJson(dir, CLIP_MODEL_FILES.tokenizerConfig)
  const padToken = typeof tokenizerConfig.pad_token === 'string' ? tokenizerConfig.pad_token : (tokenizerConfig.pad_token as { content?: unknown } | undefined)?.content
  if (typeof padToken !== 'string') throw fileProblem(dir, CLIP_MODEL_FILES.tokenizerConfig, 'has no pad_token')
  let tokenizer: ClipTokenizer
  try {
    tokenizer = createClipTokenizer(await readJson(dir, CLIP_MODEL_FILES.tokenizer), { contextLength: contextLength as number, padToken })
  } catch (error) {
    if (error instanceof EmbeddingError) throw error
    throw fileProblem(dir, CLIP_MODEL_FILES.tokenizer, `cannot be used: ${(error as Error).message}`)
  }
  return {
    visualModel: path(CLIP_MODEL_FILES.visualModel),
    textualModel: path(CLIP_MODEL_FILES.textualModel),
    dimensions: dimensions as number,
    preprocessing: preprocessingOf(dir, await readJson(dir, CLIP_MODEL_FILES.preprocessing)),
    tokenizer,
  }
}

function preprocessingOf(dir: string, cfg: Record<string, unknown>): ClipPreprocessing {
  const problem = (what: string) => fileProblem(dir, CLIP_MODEL_FILES.preprocessing, what)
  const size = Array.isArray(cfg.size) ? cfg.size[0] : cfg.size
  if (!Number.isInteger(size) || size < 1) throw problem('has no size (a positive integer, or a list of one)')
  const triple = (name: 'mean' | 'std') => {
    const value = cfg[name]
    if (!Array.isArray(value) || value.length !== 3 || !value.every((v) => typeof v === 'number' && Number.isFinite(v))) throw problem(`has no ${name} (three numbers, R, G, B)`)
    return value as [number, number, number]
  }
  const kernel = KERNELS[String(cfg.interpolation ?? 'bicubic').toLowerCase()]
  if (!kernel) throw problem(`has interpolation ${JSON.stringify(cfg.interpolation)}: one of ${Object.keys(KERNELS).join(', ')} is supported`)
  const resizeMode = cfg.resize_mode ?? 'shortest'
  if (resizeMode !== 'shortest' && resizeMode !== 'squash') throw problem(`has resize_mode ${JSON.stringify(resizeMode)}: shortest or squash is supported`)
  const std = triple('std')
  if (std.some((value) => value === 0)) throw problem('has a std of 0')
  return { size, mean: triple('mean'), std, kernel, resizeMode }
}

async function readJson(dir: string, file: string): Promise<Record<string, unknown>> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(join(dir, file), 'utf8'))
  } catch (error) {
    throw fileProblem(dir, file, `cannot be read as JSON (${(error as Error).message.slice(0, 200)})`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fileProblem(dir, file, 'is not a JSON object')
  return value as Record<string, unknown>
}

function fileProblem(dir: string, file: string, what: string): EmbeddingError {
  return new EmbeddingError('unavailable', `IMAGE_EMBEDDING_MODEL_DIR's ${file} (${join(dir, file)}) ${what}`)
}
