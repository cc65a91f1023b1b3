import { createBackgroundWork, createProcessFiles, createWorkerImports } from '../app.js'
import type { Config } from '../config.js'
import { migrate } from '../platform/db/migrate.js'
import { createLogger } from '../platform/logger.js'
import { openServingDatabase } from './database.js'
import { prepareEmbeddings } from './embeddings.js'
import { Shutdown } from './shutdown.js'

/** Background work only, no HTTP: for PostgreSQL deployments that scale it apart from the API. */
export async function worker(config: Config): Promise<void> {
  const logger = createLogger(config)
  const shutdown = new Shutdown(config.shutdownTimeoutMs)
  const database = await openServingDatabase(config, logger, shutdown)
  const files = createProcessFiles(config)
  const background = createBackgroundWork(config, database, logger, files)
  const imports = createWorkerImports(config, database, logger, files, background)
  const close = async () => {
    await imports.close()
    await background.close()
    await files.blobs.close?.()
    files.images.close()
    await database.close()
  }
  try {
    await migrate(database.db)
    await prepareEmbeddings(background.embeddings, background.imageEmbeddings, logger)
    await background.start()
    await imports.job.start()
  } catch (error) {
    await close()
    throw error
  }
  if (!(await background.embeddings.enabled()) && !(await background.imageEmbeddings.enabled())) {
    logger.info('embeddings are off (they need EMBEDDING_BASE_URL or IMAGE_EMBEDDING_PROVIDER, and pgvector); delivering webhooks, making thumbnails and running imports only')
  }
  logger.info('worker started')
  // The runners' timers are unref'd (they must not hold a CLI or a test open): this is what keeps the worker up.
  const keepAlive = setInterval(() => undefined, 1 << 30)
  shutdown.started({
    logger,
    announcement: 'worker stopping: no new claims, finishing work in flight',
    close: async () => {
      try {
        await close()
      } finally {
        clearInterval(keepAlive)
      }
    },
  })
}
