import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import type { App } from '../../platform/http/app-type.js'
import type { DatabaseHandle } from '../../platform/db/index.js'
import { hasVector, pendingMigrations } from '../../platform/db/migrate.js'
import type { DerivedWork } from '../../platform/background/derivation.js'
import type { SearchReadiness } from '../search/readiness.js'

/**
 * GET /health (the process is up) and GET /ready (it can serve: database reachable and migrated, blob
 * store reachable: the bucket there and the credentials accepted, or the directory writable). Search
 * in text mode, or a failing embedding provider, is reported but does not make the service unready:
 * search still answers, by full text. Nor does PostgreSQL's autovacuum being off: `statistics` says so,
 * and whether this process keeps the statistics fresh instead. Every instance shares the server's
 * setting, so a 503 would take them all out of the load balancer at once, for something that slows
 * plans but breaks nothing and that no restart mends. A process draining before it stops (SIGTERM) is
 * unready at once, while it still serves every other request. `derivations` says which of the work that
 * follows a change to an asset this process runs (a serving process may leave it all to workers).
 */
export function healthRoutes(app: App, deps: { database: DatabaseHandle; search: () => Promise<SearchReadiness>; derivations: readonly DerivedWork[]; blobs: BlobStore; draining: () => boolean }): void {
  const storageReachable = recentReachability(deps.blobs, app.log)
  app.get('/health', { config: { auth: { kind: 'public' } } }, async () => ({ status: 'ok' }))

  app.get('/ready', { config: { auth: { kind: 'public' } } }, async (request, reply) => {
    const { db, kind } = deps.database
    if (deps.draining()) return reply.code(503).send({ status: 'shutting_down' })
    const storage = storageReachable().then((reachable) => ({ kind: deps.blobs.kind, reachable }))
    try {
      await sql`select 1`.execute(db)
      const pending = await pendingMigrations(db)
      const vector = await hasVector(db)
      const blobs = await storage
      const ready = pending.length === 0 && blobs.reachable
      return reply.code(ready ? 200 : 503).send({
        status: !blobs.reachable ? 'storage_unreachable' : ready ? 'ready' : 'migrations_pending',
        database: { kind, reachable: true },
        storage: blobs,
        migrations: { pending },
        pgvector: vector,
        search: await deps.search(),
        statistics: await deps.database.statistics.status(),
        derivations: deps.derivations.map((derivation) => ({ name: derivation.name, runs_here: derivation.working() })),
      })
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed')
      return reply.code(503).send({ status: 'database_unreachable', database: { kind, reachable: false }, storage: await storage })
    }
  })
}

/**
 * How long one look at the blob store answers /ready. The route is public and every load balancer polls
 * it (haproxy every second per process in docs/deploy), and on S3 each look is a request to the bucket,
 * billed and slower than the rest of the check: at most one every 2 s, shared by the calls meanwhile,
 * makes a lost bucket known 2 s later at worst.
 */
const STORAGE_CHECK_KEPT_MS = 2_000

function recentReachability(blobs: BlobStore, log: FastifyBaseLogger): () => Promise<boolean> {
  let last: { at: number; reachable: Promise<boolean> } | undefined
  return () => {
    if (last && Date.now() - last.at < STORAGE_CHECK_KEPT_MS) return last.reachable
    const reachable = blobs.checkReachable().then(
      () => true,
      (error: unknown) => {
        log.warn({ err: error }, 'readiness check: the blob store is unreachable')
        return false
      },
    )
    last = { at: Date.now(), reachable }
    return reachable
  }
}
