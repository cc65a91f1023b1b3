import type { FastifyBaseLogger } from 'fastify'
import { runPeriodically } from '../../platform/background/periodic.js'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import type { Db } from '../../platform/db/index.js'
import { removeEachIfUnreferenced } from '../assets/blob-sweep.js'
import * as store from './store.js'

/** Contents whose files one transaction removes: its locks are held while the files go. */
const CONTENTS_PER_REMOVAL = 100

/**
 * Removes the files of purged versions that nothing else uses (another asset, another version, live or
 * trashed), after the purge's commit: a purge never waits on the blob store, and a removal that fails
 * leaves files the blob sweep finds later.
 */
export async function removePurgedFiles(db: Db, blobs: BlobStore, files: store.PurgedFiles[], logger: FastifyBaseLogger): Promise<void> {
  const byContent = new Map<string, Set<string>>()
  for (const file of files) byContent.set(file.sha256, new Set([...(byContent.get(file.sha256) ?? []), file.blob_key, file.thumbnail_key]))
  const contents = [...byContent].map(([sha256, keys]): [string, string[]] => [sha256, [...keys]])
  for (let first = 0; first < contents.length; first += CONTENTS_PER_REMOVAL) {
    const batch = new Map(contents.slice(first, first + CONTENTS_PER_REMOVAL))
    await removeEachIfUnreferenced(db, blobs, batch).catch((error: unknown) =>
      logger.warn({ err: error, contents: batch.size }, 'the files of purged assets could not be removed; the blob sweep will'),
    )
  }
}

/** Purges every trashed asset whose time has come, a batch per statement, each batch's files after its commit; returns how many. */
export async function purgeDueTrash(db: Db, blobs: BlobStore, logger: FastifyBaseLogger): Promise<number> {
  let total = 0
  for (;;) {
    const { purged, files } = await store.purgeDue(db)
    total += purged
    await removePurgedFiles(db, blobs, files, logger)
    if (purged < store.PURGE_BATCH) return total
  }
}

/**
 * The purge of the trash now and then every `intervalMs`, in a process that runs background work.
 * Several processes may run it: each batch claims its rows with `skip locked`. Returns its stop, which
 * waits for a run under way (before the database closes).
 */
export function scheduleTrashPurge(db: Db, blobs: BlobStore, options: { intervalMs: number; logger: FastifyBaseLogger }): () => Promise<void> {
  const run = async () => {
    try {
      const purged = await purgeDueTrash(db, blobs, options.logger)
      if (purged > 0) options.logger.info({ purged }, 'purged assets whose time in the trash was over')
    } catch (error) {
      options.logger.warn({ err: error }, 'the purge of the trash failed; it runs again later')
    }
  }
  return runPeriodically(run, options.intervalMs)
}
