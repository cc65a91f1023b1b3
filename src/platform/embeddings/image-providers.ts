import type { ImageEmbeddingConfig, ImageEmbeddingProvider } from './image-provider.js'
import { createImmichMlProvider } from './immich-ml.js'

/**
 * The configured image-embedding provider. The `onnx` one is imported only when configured (and only
 * its worker thread loads onnxruntime-node, an optional dependency a machine may go without).
 */
export async function createImageEmbeddingProvider(config: ImageEmbeddingConfig): Promise<ImageEmbeddingProvider> {
  if (config.provider === 'immich-ml') return createImmichMlProvider(config)
  const { createOnnxProvider } = await import('./onnx/provider.js')
  return createOnnxProvider(config)
}
