import type { FastifyBaseLogger } from 'fastify'

/** What a started process closes when it stops, and what it logs first. */
interface Running {
  logger: FastifyBaseLogger
  announcement: string
  close: () => Promise<void>
  /**
   * A process behind a load balancer (`serve`): on SIGTERM, `begin` makes it look unready and it goes on
   * serving for `ms` before `close`, so the balancer's health check takes it out first.
   */
  drain?: { ms: number; begin: () => void }
}

/**
 * How a long-running process (`serve`, `worker`) stops, once, whichever asks first: SIGTERM, SIGINT or
 * its embedded database crashing. It says why, drains on SIGTERM, closes what runs within the shutdown
 * budget, and sets the exit code for Node to use once nothing holds the event loop; past the budget it
 * exits with 1. SIGINT (Ctrl-C at a terminal) and a crash do not drain: no balancer is waiting on them.
 */
export class Shutdown {
  private running: Running | undefined
  private stopping = false

  constructor(private readonly budgetMs: number) {}

  /** The process is up: from now on a signal stops it by `close`. A stop asked for before this does nothing. */
  started(running: Running): void {
    this.running = running
    process.once('SIGTERM', () => void this.stop('SIGTERM', 0, { drain: true }))
    process.once('SIGINT', () => void this.stop('SIGINT', 0))
  }

  async stop(reason: string, exitCode: number, { drain = false } = {}): Promise<void> {
    if (!this.running || this.stopping) return
    this.stopping = true
    const { logger, announcement, close } = this.running
    const draining = drain && this.running.drain && this.running.drain.ms > 0 ? this.running.drain : undefined
    if (draining) {
      logger.info({ reason, drain_ms: draining.ms }, 'draining: /ready answers 503 while requests are still served')
      draining.begin()
      await new Promise((resolve) => setTimeout(resolve, draining.ms))
    }
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
