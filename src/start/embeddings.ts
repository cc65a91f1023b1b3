import type { FastifyBaseLogger } from 'fastify'
import type { Embeddings } from '../modules/search/embeddings.js'

/** Says at start-up how search will run, then gets the embeddings ready (index, vectors of another model). */
export async function prepareEmbeddings(embeddings: Embeddings, logger: FastifyBaseLogger): Promise<void> {
  const readiness = await embeddings.readiness()
  if (readiness.mode === 'hybrid') logger.info({ model: readiness.model, dimensions: readiness.dimensions }, 'search: hybrid (full text and embeddings)')
  else if (readiness.reason === 'no_provider') logger.info('search: text mode (no EMBEDDING_BASE_URL: full-text ranking only)')
  else logger.info('search: text mode (pgvector is not installed in the database: full-text ranking only)')
  await embeddings.prepare()
}
