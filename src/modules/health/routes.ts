import { sql } from 'kysely'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import type { App } from '../../platform/http/app-type.js'
import type { DatabaseHandle } from '../../platform/db/index.js'
import { hasVector, pendingMigrations } from '../../platform/db/migrate.js'
import type { Embeddings } from '../search/embeddings.js'

/**
 * GET /health (the process is up) and GET /ready (it can serve: database reachable and migrated, blob
 * store reachable: the bucket there and the credentials accepted, or the directory writable). Search
 * in text mode, or a failing embedding provider, is reported but does not make the service unready:
 * search still answers, by full text. Nor does PostgreSQL's autovacuum being off: `statistics` says so,
 * and whether this process keeps the statistics fresh instead. Every instance shares the server's
 * setting, so a 503 would take them all out of the load balancer at once, for something that slows
 * plans but breaks nothing and that no restart mends. A process draining before it stops (SIGTERM) is
 * unready at once, while it still serves every other request.
 */
export function healthRoutes(app: App, deps: { database: DatabaseHandle; embeddings: Embeddings; blobs: BlobStore; draining: () => boolean }): void {
  app.get('/health', { config: { auth: { kind: 'public' } } }, async () => ({ status: 'ok' }))

  app.get('/ready', { config: { auth: { kind: 'public' } } }, async (request, reply) => {
    const { db, kind } = deps.database
    if (deps.draining()) return reply.code(503).send({ status: 'shutting_down' })
    const storage = deps.blobs.checkReachable().then(
      () => ({ kind: deps.blobs.kind, reachable: true }),
      (error: unknown) => {
        request.log.warn({ err: error }, 'readiness check: the blob store is unreachable')
        return { kind: deps.blobs.kind, reachable: false }
      },
    )
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
        search: await deps.embeddings.readiness(),
        statistics: await deps.database.statistics.status(),
      })
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed')
      return reply.code(503).send({ status: 'database_unreachable', database: { kind, reachable: false }, storage: await storage })
    }
  })
}
