import { buildApp, type BuiltApp } from '../app.js'
import { describeFirstRun, firstRun } from '../bootstrap.js'
import type { Config } from '../config.js'
import { scheduleBlobSweep } from '../modules/assets/blob-sweep.js'
import { IDEMPOTENCY_PRUNE_INTERVAL_MS, scheduleIdempotencyPruning } from '../platform/background/idempotency-pruning.js'
import { createBlobStore } from '../platform/blobs/create.js'
import { migrate } from '../platform/db/migrate.js'
import { createLogger } from '../platform/logger.js'
import { mailerFor } from '../platform/mail/mailer.js'
import { connectRedis } from '../platform/redis.js'
import { openServingDatabase } from './database.js'
import { prepareEmbeddings } from './embeddings.js'
import { Shutdown } from './shutdown.js'

const BLOB_SWEEP_INTERVAL_MS = 60 * 60 * 1000

/** The HTTP API, with the background work in this process unless the configuration leaves it to workers. */
export async function serve(config: Config): Promise<void> {
  const logger = createLogger(config)
  const shutdown = new Shutdown(config.shutdownTimeoutMs)
  // A missing bucket or refused credentials stop the start with one line, before anything is opened.
  const probe = createBlobStore(config)
  await probe.checkReachable().finally(() => probe.close?.())
  const database = await openServingDatabase(config, logger, shutdown)
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined
  const mailer = mailerFor(config.smtp)
  const release = async () => {
    mailer?.close()
    redis?.disconnect()
    await database.close()
  }
  let app: BuiltApp
  let stopSweep = () => undefined as void
  let stopPruning = async () => undefined as void
  try {
    const outcome = await migrate(database.db)
    app = await buildApp({ config, database, redis, logger, mailer })
    app.log.info({ database: database.kind, applied: outcome.applied, pgvector: outcome.vector }, 'database ready')
    await prepareEmbeddings(app.services.embeddings, app.services.imageEmbeddings, app.log)
    const credentials = await firstRun(database.db, app.services, config.firstRunOwnerEmail)
    if (credentials) process.stdout.write(describeFirstRun(credentials, config.publicBaseUrl))
    await app.listen({ port: config.port, host: config.host })
    if (config.serveBackgroundWork) {
      await Promise.all([...app.services.derivations.map((derivation) => derivation.start()), app.services.webhookDelivery.start(), app.services.importJob.start()])
      app.services.trashPurge.start()
    }
    stopPruning = scheduleIdempotencyPruning(database.db, { intervalMs: IDEMPOTENCY_PRUNE_INTERVAL_MS, logger: app.log })
    stopSweep = scheduleBlobSweep(database.db, app.blobs, { graceMs: config.blobSweepGraceMs, intervalMs: BLOB_SWEEP_INTERVAL_MS, logger: app.log })
  } catch (error) {
    await release()
    throw error
  }
  shutdown.started({
    logger: app.log,
    announcement: 'shutting down: no new connections, finishing requests in flight',
    drain: { ms: config.shutdownDrainMs, begin: () => app.startDraining() },
    close: async () => {
      stopSweep()
      await stopPruning()
      await app.close()
      await release()
    },
  })
}
