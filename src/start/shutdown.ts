import type { FastifyBaseLogger } from 'fastify'

/** What a started process closes when it stops, and what it logs first. */
interface Running {
  logger: FastifyBaseLogger
  announcement: string
  close: () => Promise<void>
}

/**
 * How a long-running process (`serve`, `worker`) stops, once, whichever asks first: SIGTERM, SIGINT or
 * its embedded database crashing. It says why, closes what runs within the shutdown budget, and sets
 * the exit code for Node to use once nothing holds the event loop; past the budget it exits with 1.
 */
export class Shutdown {
  private running: Running | undefined
  private stopping = false

  constructor(private readonly budgetMs: number) {}

  /** The process is up: from now on a signal stops it by `close`. A stop asked for before this does nothing. */
  started(running: Running): void {
    this.running = running
    process.once('SIGTERM', () => void this.stop('SIGTERM', 0))
    process.once('SIGINT', () => void this.stop('SIGINT', 0))
  }

  async stop(reason: string, exitCode: number): Promise<void> {
    if (!this.running || this.stopping) return
    this.stopping = true
    const { logger, announcement, close } = this.running
    logger.info({ reason }, announcement)
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting')
      process.exit(1)
    }, this.budgetMs)
    force.unref()
    try {
      await close()
      logger.info('stopped')
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed')
      exitCode = 1
    }
    process.exitCode = exitCode
  }
}
