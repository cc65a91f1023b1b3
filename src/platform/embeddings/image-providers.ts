import type { ImageEmbeddingConfig, ImageEmbeddingProvider } from './image-provider.js'
import { createImmichMlProvider } from './immich-ml.js'

/** The configured image-embedding provider. */
export async function createImageEmbeddingProvider(config: ImageEmbeddingConfig): Promise<ImageEmbeddingProvider> {
  if (config.provider === 'immich-ml') return createImmichMlProvider(config)
  throw new Error('IMAGE_EMBEDDING_PROVIDER=onnx is being built (issue 38)')
}
