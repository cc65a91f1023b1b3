import type { EmbeddingErrorKind } from './provider.js'

/** The image-embedding provider's settings (`IMAGE_EMBEDDING_*`); undefined when it is `none`. */
export type ImageEmbeddingConfig = ImmichMlConfig | OnnxModelConfig

interface ImageEmbeddingCommon {
  /** The model's name, kept with every vector: a change of model makes them all due again. */
  model: string
  /** Budget of the one text request a search makes (the text provider's `EMBEDDING_TIMEOUT_MS`). */
  timeoutMs: number
  /** Budget of one image in the background (`IMAGE_EMBEDDING_JOB_TIMEOUT_MS`): a model on a laptop's CPU may take seconds. */
  jobTimeoutMs: number
}

/** Immich's machine-learning service (`POST <url>/predict`), or its container alone. */
export interface ImmichMlConfig extends ImageEmbeddingCommon {
  provider: 'immich-ml'
  /** The service's base URL, without `/predict`. The operator's: it may be loopback or private. */
  url: string
}

/** A CLIP model as ONNX files, laid out as Immich's model repositories are, run in this process. */
export interface OnnxModelConfig extends ImageEmbeddingCommon {
  provider: 'onnx'
  /** Holds `config.json`, `visual/model.onnx` (+ `preprocess_cfg.json`) and `textual/model.onnx` (+ `tokenizer.json`, `tokenizer_config.json`). */
  modelDir: string
}

/** The side of a request: an image to embed, or the text of a query. */
export interface ImageEmbeddingCallOptions {
  timeoutMs: number
  signal?: AbortSignal
}

/**
 * CLIP: images and texts embedded in one space, so the cosine between a query's text and an image says
 * how well the words describe the picture. Failures are `EmbeddingError`s (provider.ts) of the same
 * kinds as the text provider's, so the callers' retries, pauses and fallbacks are the same.
 */
export interface ImageEmbeddingProvider {
  readonly kind: ImageEmbeddingConfig['provider']
  readonly model: string
  /** One image, encoded (the derivation's 224 × 224 rendition, cropped as CLIP crops); its vector. */
  embedImage(image: Buffer, options: ImageEmbeddingCallOptions): Promise<number[]>
  /** A query's words, in the images' space. */
  embedText(text: string, options: ImageEmbeddingCallOptions): Promise<number[]>
  close(): Promise<void>
}

/**
 * The side of the square rendition an image is embedded from: what CLIP ViT-B models take. The image is
 * scaled until its shorter side fits and the middle is kept, as CLIP's own preprocessing does.
 */
export const IMAGE_EMBEDDING_SIZE = 224

export type { EmbeddingErrorKind }
