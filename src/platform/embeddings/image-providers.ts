import type { ImageEmbeddingConfig, ImageEmbeddingProvider } from './image-provider.js'
import { createImmichMlProvider } from './immich-ml.js'

/**
 * The configured image-embedding provider. The `onnx` one is imported only when configured, so a
 * machine installed without optional dependencies (no onnxruntime-node) never loads it.
 */
export async function createImageEmbeddingProvider(config: ImageEmbeddingConfig): Promise<ImageEmbeddingProvider> {
  if (config.provider === 'immich-ml') return createImmichMlProvider(config)
  const { createOnnxProvider } = await import('./onnx/provider.js')
  return createOnnxProvider(config)
}
