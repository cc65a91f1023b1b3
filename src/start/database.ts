import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.js'
import { openDatabase } from '../platform/db/index.js'
import type { Shutdown } from './shutdown.js'

/** The database of a long-running process; an embedded database that dies stops the process. */
export function openServingDatabase(config: Config, logger: FastifyBaseLogger, shutdown: Shutdown) {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    statisticsCheckIntervalMs: config.statisticsCheckIntervalMs,
    logger,
    onCrash: (error) => {
      logger.fatal({ err: error }, 'the embedded database stopped')
      void shutdown.stop('embedded database crashed', 1)
    },
  })
}
