import { createHash } from 'node:crypto'
import { isContentKey, type BlobStore } from '../../platform/blobs/blob-store.js'
import type { Db } from '../../platform/db/index.js'
import * as store from './store.js'

/** Contents read per statement. */
const PAGE = 200
/** Contents copied at once: S3 answers in tens of milliseconds, so a few in flight keep the copy moving. */
const IN_FLIGHT = 4

export interface BlobMigrationOutcome {
  /** Files written to the destination and read back with the source's SHA-256. */
  copied: number
  /** Files the destination already held with the right bytes (a resumed run skips them). */
  alreadyThere: number
  /** Originals that rows refer to but that the source does not hold: nothing to copy, and worth a look. */
  missing: string[]
}

export class BlobCopyMismatchError extends Error {
  constructor(key: string, where: string) {
    super(`the ${where} bytes of ${key} do not have the SHA-256 they should; nothing more was copied`)
    this.name = 'BlobCopyMismatchError'
  }
}

/**
 * Copies every file that an asset row refers to from one store to another, contents in sha256 order.
 * Resumable: a file the destination holds with the source's bytes is skipped, so a run stopped anywhere
 * (killed, or the bucket unreachable) is run again and copies only the rest. Each copy is read back and
 * its SHA-256 compared with the source's. Nothing is ever removed from the source, and the destination
 * only loses a file whose bytes are wrong, just before it is written again: the run is safe while the
 * service serves from either store. A file deleted meanwhile may be copied all the same; the sweep of
 * the destination removes it.
 */
export async function migrateBlobs(
  db: Db,
  stores: { from: BlobStore; to: BlobStore },
  progress: (done: number, total: number) => void = () => undefined,
): Promise<BlobMigrationOutcome> {
  const outcome: BlobMigrationOutcome = { copied: 0, alreadyThere: 0, missing: [] }
  const total = await store.countContents(db)
  let done = 0
  progress(done, total)
  for (let after = ''; ; ) {
    const page = await store.contentFilesAfter(db, after, PAGE)
    if (page.length === 0) break
    for (let i = 0; i < page.length; i += IN_FLIGHT) {
      // Every copy under way settles before a failure ends the run: none goes on writing behind it.
      const copies = await Promise.allSettled(
        page.slice(i, i + IN_FLIGHT).map(async (content) => {
          await copyOne(db, stores, content.blob_key, content.sha256, outcome)
          // A thumbnail the source lacks is not lost: it is made when it is first asked for.
          await copyOne(db, stores, content.thumbnail_key, content.sha256, outcome, { derived: true })
          progress(++done, Math.max(total, done))
        }),
      )
      const failed = copies.find((copy) => copy.status === 'rejected')
      if (failed) throw failed.reason
    }
    after = page.at(-1)!.sha256
  }
  return outcome
}

async function copyOne(
  db: Db,
  { from, to }: { from: BlobStore; to: BlobStore },
  key: string,
  sha256: string,
  outcome: BlobMigrationOutcome,
  { derived = false } = {},
): Promise<void> {
  const bytes = await from.get(key)
  if (bytes === null) {
    // Deleted since the page was read: not missing, only gone.
    if (!derived && (await store.contentsInUse(db, [sha256])).has(sha256)) outcome.missing.push(key)
    return
  }
  const hash = sha256Hex(bytes)
  if (isContentKey(key) && hash !== key) throw new BlobCopyMismatchError(key, 'source')
  const there = await to.get(key)
  if (there !== null && sha256Hex(there) === hash) {
    outcome.alreadyThere++
    return
  }
  // Wrong bytes at the destination (written by something else): `put` would keep them.
  if (there !== null) await to.delete(key)
  if (isContentKey(key)) await to.put(bytes, hash)
  else await to.putAs(key, bytes)
  const copy = await to.get(key)
  if (copy === null || sha256Hex(copy) !== hash) throw new BlobCopyMismatchError(key, 'copied')
  outcome.copied++
}

function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}
