import type { FastifyBaseLogger } from 'fastify'
import type { Embeddings } from '../modules/search/embeddings.js'
import type { ImageEmbeddings } from '../modules/search/image-embeddings.js'
import { searchReadiness } from '../modules/search/readiness.js'

/** Says at start-up how search will run, then gets the embeddings ready (indexes, vectors of another model, images to queue). */
export async function prepareEmbeddings(embeddings: Embeddings, images: ImageEmbeddings, logger: FastifyBaseLogger): Promise<void> {
  const readiness = await searchReadiness(embeddings, images)
  if (readiness.images && readiness.mode === 'hybrid') {
    logger.info({ provider: readiness.images.provider, model: readiness.images.model }, 'search: hybrid (full text and CLIP image embeddings)')
  } else if (readiness.mode === 'hybrid') logger.info({ model: readiness.model, dimensions: readiness.dimensions }, 'search: hybrid (full text and embeddings)')
  else if (readiness.reason === 'no_provider') logger.info('search: text mode (no EMBEDDING_BASE_URL or IMAGE_EMBEDDING_PROVIDER: full-text ranking only)')
  else logger.info('search: text mode (pgvector is not installed in the database: full-text ranking only)')
  await embeddings.prepare()
  await images.prepare()
}
