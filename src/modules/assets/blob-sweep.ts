import type { FastifyBaseLogger } from 'fastify'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import { inTransaction, type Db } from '../../platform/db/index.js'
import { forgetRenditionsOf } from '../renditions/store.js'
import * as store from './store.js'

/** Contents looked up per statement. */
const BATCH = 500

export interface SweepOutcome {
  /** Files no asset refers to, removed: blobs, and temporary files of writes a crash interrupted. */
  removed: number
  /** Files no asset refers to yet, kept because they are newer than the grace period (pushes under way). */
  recent: number
}

/**
 * Removes blob files that no asset refers to and that are older than `graceMs`: what a crash between a
 * push's file writes and its commit leaves behind, or a delete whose file removal failed. A push writes
 * its files before its transaction, so the grace period keeps the files of pushes under way; each
 * removal then takes the content's lock and looks again, as a push or a delete of those bytes does.
 * The temporary files of writes that a crash interrupted go too, past the same grace period.
 */
export async function sweepBlobs(db: Db, blobs: BlobStore, graceMs: number): Promise<SweepOutcome> {
  const cutoff = Date.now() - graceMs
  const outcome: SweepOutcome = { removed: await blobs.removeUnfinishedWrites(new Date(cutoff)), recent: 0 }
  let batch: string[] = []
  const sweep = async () => {
    outcome.removed += await removeUnreferenced(db, blobs, batch)
    batch = []
  }
  const recent: string[] = []
  for await (const blob of blobs.list()) {
    if (blob.modifiedAt.getTime() > cutoff) recent.push(blob.key)
    else batch.push(blob.key)
    if (batch.length >= BATCH) await sweep()
  }
  await sweep()
  for (let i = 0; i < recent.length; i += BATCH) {
    const keys = recent.slice(i, i + BATCH)
    const used = await store.contentsInUse(db, [...new Set(keys.map(contentOf))])
    outcome.recent += keys.filter((key) => !used.has(contentOf(key))).length
  }
  return outcome
}

async function removeUnreferenced(db: Db, blobs: BlobStore, keys: string[]): Promise<number> {
  const used = await store.contentsInUse(db, [...new Set(keys.map(contentOf))])
  const orphans = new Map<string, string[]>()
  for (const key of keys.filter((candidate) => !used.has(contentOf(candidate)))) {
    orphans.set(contentOf(key), [...(orphans.get(contentOf(key)) ?? []), key])
  }
  let removed = 0
  for (const [sha256, files] of orphans) removed += await removeIfUnreferenced(db, blobs, sha256, files)
  return removed
}

/**
 * Removes these files of one content unless an asset (of any organization) stores it, under the
 * content's lock, which a push and a delete of the same bytes take too; returns how many it removed.
 * The one place that decides whether a content's files may go: the sweep, a purge and a failed push;
 * the renditions made from a content that goes are removed with it, rows and files.
 */
export async function removeIfUnreferenced(db: Db, blobs: BlobStore, sha256: string, keys: string[]): Promise<number> {
  return removeEachIfUnreferenced(db, blobs, new Map([[sha256, keys]]))
}

/**
 * `removeIfUnreferenced` for several contents (content → its files) in one transaction: their locks in
 * one statement, one look at their use. A purge of 500 assets then costs a few statements instead of a
 * transaction per content. Keep the map small (the locks and the transaction are held while the files
 * are removed).
 */
export async function removeEachIfUnreferenced(db: Db, blobs: BlobStore, files: Map<string, string[]>): Promise<number> {
  const contents = [...files.keys()]
  return inTransaction(db, async (tx) => {
    await store.lockContents(tx, contents)
    const used = await store.contentsInUse(tx, contents)
    const unusedContents = contents.filter((sha256) => !used.has(sha256))
    const unused = unusedContents.flatMap((sha256) => files.get(sha256)!)
    // The renditions made from them go too (not counted: they are no asset's files).
    const renditions = await forgetRenditionsOf(tx, unusedContents)
    await Promise.all([...unused, ...renditions].map((key) => blobs.delete(key)))
    return unused.length
  })
}

/** A blob key is `<sha256>` or `<sha256>.<variant>`. */
function contentOf(key: string): string {
  return key.slice(0, 64)
}

/** The sweep at start and then every `intervalMs` in a serving process; returns its stop. */
export function scheduleBlobSweep(db: Db, blobs: BlobStore, options: { graceMs: number; intervalMs: number; logger: FastifyBaseLogger }): () => void {
  const run = async () => {
    try {
      const { removed, recent } = await sweepBlobs(db, blobs, options.graceMs)
      if (removed > 0) options.logger.info({ removed, recent }, 'removed image files no asset refers to')
    } catch (error) {
      options.logger.warn({ err: error }, 'the sweep of unreferenced image files failed; it runs again later')
    }
  }
  void run()
  const timer = setInterval(() => void run(), options.intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
