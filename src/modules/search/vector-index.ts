import type { FastifyBaseLogger } from 'fastify'
import type { DatabaseHandle, Db } from '../../platform/db/index.js'
import { vectorVersion } from '../../platform/db/migrate.js'
import * as store from './store.js'

const INDEX_LOCK_POLL_MS = 1_000
/** pgvector's HNSW limits: `vector` up to 2,000 dimensions, `halfvec` (pgvector 0.7+) up to 4,000. */
const HNSW_MAX = { vector: 2_000, halfvec: 4_000 }

export type IndexState = 'ready' | 'building' | 'failed' | 'none'

/** What the installed pgvector can do. */
interface VectorSupport {
  installed: boolean
  /** hnsw.iterative_scan exists (0.8+). */
  iterativeScan: boolean
  /** halfvec exists (0.7+). */
  halfvec: boolean
}

/** The database's pgvector, asked once per process and shared by the text and the image vectors. */
export class PgVector {
  private support: Promise<VectorSupport> | undefined

  constructor(private readonly db: Db) {}

  async installed(): Promise<boolean> {
    return (await this.read()).installed
  }

  /** The settings of a statement that scans the HNSW index for `candidates` neighbours. */
  async scanSettings(candidates: number, efSearch: number): Promise<{ efSearch: number; iterativeScan: boolean }> {
    return { efSearch: Math.max(efSearch, candidates), iterativeScan: (await this.read()).iterativeScan }
  }

  /** The HNSW index of `dimensions` and the type it stores, when pgvector can build one. */
  async indexFor(dimensions: number): Promise<{ dimensions: number; type: store.IndexType } | undefined> {
    const support = await this.read()
    if (!support.installed) return undefined
    if (dimensions <= HNSW_MAX.vector) return { dimensions, type: 'vector' }
    if (dimensions <= HNSW_MAX.halfvec && support.halfvec) return { dimensions, type: 'halfvec' }
    return undefined
  }

  private read(): Promise<VectorSupport> {
    this.support ??= vectorVersion(this.db).then((version) => ({
      installed: version !== undefined,
      iterativeScan: version !== undefined && atLeast(version, [0, 8]),
      halfvec: version !== undefined && atLeast(version, [0, 7]),
    }))
    return this.support
  }
}

function atLeast(version: [number, number], minimum: [number, number]): boolean {
  return version[0] > minimum[0] || (version[0] === minimum[0] && version[1] >= minimum[1])
}

/**
 * Builds the HNSW cosine index of one dimension of a vector table when it is missing (once; over a large
 * library this takes a while, and is logged), and reports its state through `onState`. Under an advisory
 * lock, so processes starting together build it once; CONCURRENTLY on PostgreSQL, so writes go on. The
 * lock is tried, not waited for: a session blocked on it would hold a snapshot that CREATE INDEX
 * CONCURRENTLY waits out, and the two would deadlock. A failed build is logged and search goes on
 * comparing exactly.
 */
export async function ensureVectorIndex(
  deps: { database: DatabaseHandle; logger: FastifyBaseLogger },
  index: { table: store.VectorTable; dimensions: number; type: store.IndexType },
  onState: (state: IndexState) => void,
): Promise<void> {
  const name = `${index.table}_hnsw_${index.dimensions}`
  try {
    await deps.database.db.connection().execute(async (connection) => {
      while (!(await store.tryIndexLock(connection, name))) await sleep(INDEX_LOCK_POLL_MS)
      try {
        await buildIndex(connection, deps, { ...index, name }, onState)
      } finally {
        await store.indexUnlock(connection, name)
      }
    })
  } catch (error) {
    onState('failed')
    deps.logger.error({ err: error, index: name }, 'building the vector index failed; search compares vectors exactly meanwhile')
  }
}

async function buildIndex(
  connection: Db,
  deps: { database: DatabaseHandle; logger: FastifyBaseLogger },
  index: { table: store.VectorTable; name: string; dimensions: number; type: store.IndexType },
  onState: (state: IndexState) => void,
): Promise<void> {
  const state = await store.indexState(connection, index.name)
  if (state === 'valid') return onState('ready')
  onState('building')
  const concurrently = deps.database.kind === 'postgres'
  if (state === 'invalid') await store.dropIndex(connection, index.name, concurrently)
  deps.logger.info({ index: index.name, type: index.type }, 'building the vector index (once per dimension; large libraries take a while)')
  const started = Date.now()
  await store.createIndex(connection, { ...index, concurrently })
  onState('ready')
  deps.logger.info({ index: index.name, ms: Date.now() - started }, 'vector index built')
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
