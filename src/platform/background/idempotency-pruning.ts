import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/index.js'
import { pruneKeys, RETENTION_HOURS } from '../http/idempotency-store.js'
import { runPeriodically } from './periodic.js'

export const IDEMPOTENCY_PRUNE_INTERVAL_MS = 10 * 60 * 1000
const PRUNE_BATCH = 1000

/**
 * Deletes the `Idempotency-Key` answers past their 24 h, now and every `intervalMs`, a batch at a time so
 * no statement holds many locks. Every serving process runs it: deleting the same old rows twice is
 * harmless. Returns the function that stops it, which waits for a run under way (before the database closes).
 */
export function scheduleIdempotencyPruning(db: Db, options: { intervalMs: number; logger: FastifyBaseLogger }): () => Promise<void> {
  const run = async () => {
    let pruned = 0
    try {
      for (let batch = PRUNE_BATCH; batch === PRUNE_BATCH; pruned += batch) batch = await pruneKeys(db, PRUNE_BATCH)
    } catch (error) {
      options.logger.warn({ err: error }, 'pruning old Idempotency-Key answers failed; it runs again later')
    }
    if (pruned > 0) options.logger.info({ pruned, retention_hours: RETENTION_HOURS }, 'pruned old Idempotency-Key answers')
  }
  return runPeriodically(run, options.intervalMs)
}
