import { createHash, randomUUID } from 'node:crypto'
import { constants } from 'node:fs'
import * as nodeFs from 'node:fs/promises'
import { readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'

/**
 * Where image bytes live. Originals are content-addressed: the key is the SHA-256 of the bytes, so
 * the same bytes pushed twice (or by two organizations) are stored once. Derived files such as
 * thumbnails use `<sha256>.<variant>` keys (see `variantKey`), so they share the original's lifetime.
 * Renditions live apart, under `renditions/<sha256>.<spec segment>` (see `renditionKey`): they are many,
 * made on demand and evicted by last use, so `list` (which the sweep of unreferenced files walks) leaves
 * them out; the renditions module keeps a row per file and removes them with their original.
 *
 * Avoiding orphans and dangling rows (for callers). A file may be shared by several asset rows, so
 * it may only be deleted when no row references its sha256, and that check must not race a push of
 * the same bytes. Serialise both on the sha256 with a transaction-scoped advisory lock:
 * - push: put original, putAs thumbnail (outside any transaction); then the statement that inserts the
 *   row takes the lock; after its commit, put both again (a no-op when they are there), since a delete
 *   that checked before the commit may have removed them. If the insert fails, delete both unless a row
 *   references the sha256, under the lock.
 * - delete: DELETE the row and commit; then BEGIN; lock(sha256); if no row references sha256 any more,
 *   delete the original and its variants; COMMIT. Files left behind by a failure are the sweep's.
 * A crash between put and COMMIT can still leave an unreferenced file: the blob sweep
 * (modules/assets/blob-sweep.ts) removes those once older than BLOB_SWEEP_GRACE_MS, and with them the
 * temporary files of writes that a crash interrupted.
 */
export interface BlobStore {
  /** Which implementation: `/ready` and the logs name it. */
  readonly kind: 'file' | 's3'
  /**
   * Throws `BlobStoreUnavailableError` when the store cannot be used (a bucket missing or refusing the
   * credentials, a directory that cannot be made): checked at start-up and by `/ready`.
   */
  checkReachable(): Promise<void>
  /**
   * Stores bytes under their SHA-256 (`sha256` when the caller has hashed them already: it must be
   * theirs). `created` is false when the same bytes were already there.
   */
  put(bytes: Buffer, sha256?: string): Promise<PutResult>
  /** Stores a derived blob under a `<sha256>.<variant>` or rendition key, unless that key already exists. */
  putAs(key: string, bytes: Buffer): Promise<{ key: string; created: boolean }>
  /** The whole blob in memory; files are served with `stream`. */
  get(key: string): Promise<Buffer | null>
  /**
   * Opens a blob for serving without buffering it: all of its bytes, or only `range` (resolved against
   * the blob's size, as `resolveRange` does; an S3 store can pass it on as a `Range` header). Null when
   * the blob does not exist; throws `RangeNotSatisfiableError` when `range` lies past its end. The
   * caller must consume or destroy `body`: that releases the file (or connection) behind it.
   */
  stream(key: string, range?: ByteRange): Promise<BlobStream | null>
  exists(key: string): Promise<boolean>
  /** Succeeds when the blob is already gone. */
  delete(key: string): Promise<void>
  /**
   * Every stored blob with when it was written, in no particular order (for the sweep of unreferenced
   * ones); renditions are not listed: their rows say what is stored.
   */
  list(): AsyncIterable<StoredBlob>
  /**
   * Removes what writes that never finished left behind (a process killed mid-write), when last
   * modified before `cutoff`: a write under way keeps its temporary file recent. Returns how many.
   */
  removeUnfinishedWrites(cutoff: Date): Promise<number>
  /**
   * Only stores that can hand out a short-lived URL of their own for a blob (S3, presigned): the client
   * then downloads it from the store itself (`FILES_REDIRECT=presigned`).
   */
  directLink?(key: string, options: DirectLinkOptions): Promise<string>
  /** Releases connections; the store is not used afterwards. */
  close?(): void
}

export interface DirectLinkOptions {
  expiresInSeconds: number
  /** The headers the store answers with, as ours would. */
  contentType: string
  contentDisposition?: string
}

/**
 * The store could not be reached or refused us (network, credentials, a missing bucket): not the
 * request's fault and not our bug, so HTTP answers 503 `storage_unavailable`. The message names what
 * failed and never a secret.
 */
export class BlobStoreUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'BlobStoreUnavailableError'
  }
}

export interface StoredBlob {
  key: string
  modifiedAt: Date
}

/**
 * A byte range as HTTP asks for one (RFC 9110 14.1.2): from `start` to `end`, both included (to the
 * last byte without `end`), or the last `suffix` bytes.
 */
export type ByteRange = { start: number; end?: number } | { suffix: number }

export interface BlobStream {
  /** The blob's bytes, or those of the range asked for. */
  body: Readable
  /** The whole blob's size in bytes, whatever range `body` holds. */
  size: number
  /** When the blob was written. */
  modifiedAt: Date
  /** Only when a range was asked for: the offsets `body` holds, both included, within `size`. */
  range?: { start: number; end: number }
}

/** The range asked for starts past the blob's last byte (or is empty): HTTP's 416. */
export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super(`The range lies outside the blob's ${size} bytes`)
    this.name = 'RangeNotSatisfiableError'
  }
}

/**
 * The offsets (both included) a range selects from a blob of `size` bytes: an `end` past the last byte
 * is cut to it, a suffix longer than the blob takes all of it. Throws `RangeNotSatisfiableError` when
 * no byte is selected: a `start` at or past the end, a zero-length suffix, an empty blob.
 */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } {
  if ('suffix' in range) {
    if (range.suffix <= 0 || size === 0) throw new RangeNotSatisfiableError(size)
    return { start: Math.max(0, size - range.suffix), end: size - 1 }
  }
  const end = Math.min(range.end ?? size - 1, size - 1)
  if (range.start >= size || end < range.start) throw new RangeNotSatisfiableError(size)
  return { start: range.start, end }
}

export interface PutResult {
  key: string
  sha256: string
  created: boolean
}

export class InvalidBlobKeyError extends Error {
  constructor(key: string) {
    super(`Invalid blob key: ${JSON.stringify(key.slice(0, 100))}`)
    this.name = 'InvalidBlobKeyError'
  }
}

const SHA256 = /^[0-9a-f]{64}$/
const READ_CHUNK_BYTES = 256 * 1024
/** No separators and no leading dot: a key can only name a file inside its fan-out directory. */
const KEY = /^[0-9a-f]{64}(?:\.[a-z0-9]{1,16}){0,3}$/
/** A rendition: the SHA-256 of the file it was made from, then the canonical text of its spec (`w1200-contain-q80.webp`). */
const RENDITION_KEY = /^renditions\/([0-9a-f]{64})\.[a-z0-9][a-z0-9-]{0,63}\.[a-z]{3,4}$/
const RENDITIONS_DIR = 'renditions'
/** A write's bytes go to `<fan-out directory>/.tmp-<uuid>` first (see `write`). */
const TEMPORARY_PREFIX = '.tmp-'

/** Whether `key` names a blob: `<sha256>` or `<sha256>.<variant>`. */
export function isBlobKey(key: string): boolean {
  return KEY.test(key)
}

/** Whether `key` is a bare SHA-256: an original's key, which only `put` may write. */
export function isContentKey(key: string): boolean {
  return SHA256.test(key)
}

/** Whether `key` names a rendition (`renditions/<sha256>.<segment>`). */
export function isRenditionKey(key: string): boolean {
  return RENDITION_KEY.test(key)
}

export function assertBlobKey(key: string): void {
  if (!KEY.test(key) && !RENDITION_KEY.test(key)) throw new InvalidBlobKeyError(key)
}

/** `renditionKey(sha256, 'w1200-contain-q80.webp')` -> `renditions/<sha256>.w1200-contain-q80.webp` */
export function renditionKey(sha256: string, segment: string): string {
  const key = `${RENDITIONS_DIR}/${sha256}.${segment}`
  if (!RENDITION_KEY.test(key)) throw new InvalidBlobKeyError(key)
  return key
}

/** `variantKey(sha256, 'thumb.webp')` -> `<sha256>.thumb.webp` */
export function variantKey(sha256: string, variant: string): string {
  const key = `${sha256}.${variant}`
  if (!SHA256.test(sha256) || !KEY.test(key)) throw new InvalidBlobKeyError(key)
  return key
}

/** The subset of node:fs/promises the store uses; tests pass a wrapper to inject failures. */
export type BlobFs = Pick<typeof nodeFs, 'mkdir' | 'writeFile' | 'link' | 'rename' | 'unlink' | 'readFile' | 'stat' | 'open'>

/** Blobs as files under `rootDir/ab/cd/<key>`; the fan-out keeps directories small. */
export class FileBlobStore implements BlobStore {
  readonly kind = 'file'

  constructor(
    readonly rootDir: string,
    private readonly fs: BlobFs = nodeFs,
  ) {}

  async checkReachable(): Promise<void> {
    try {
      await nodeFs.mkdir(this.rootDir, { recursive: true })
      await nodeFs.access(this.rootDir, constants.W_OK)
    } catch (error) {
      throw new BlobStoreUnavailableError(`cannot write to BLOB_DIR ${this.rootDir} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`, { cause: error })
    }
  }

  async put(bytes: Buffer, sha256 = createHash('sha256').update(bytes).digest('hex')): Promise<PutResult> {
    const { created } = await this.write(sha256, bytes)
    return { key: sha256, sha256, created }
  }

  async putAs(key: string, bytes: Buffer): Promise<{ key: string; created: boolean }> {
    // A bare sha256 key must hold exactly those bytes: only `put` computes it.
    if (SHA256.test(key)) throw new InvalidBlobKeyError(key)
    return { key, ...(await this.write(key, bytes)) }
  }

  async get(key: string): Promise<Buffer | null> {
    return ifExists(this.fs.readFile(this.path(key)))
  }

  async stream(key: string, range?: ByteRange): Promise<BlobStream | null> {
    const handle = await ifExists(this.fs.open(this.path(key), 'r'))
    if (handle === null) return null
    try {
      // Size and range come from the open file: a delete meanwhile cannot change what is read.
      const { size, mtime } = await handle.stat()
      const bounds = range === undefined ? undefined : resolveRange(range, size)
      // The stream closes the handle when it ends or is destroyed. It reads ahead one chunk at most:
      // 256 KiB chunks cost ~20% less CPU per download than the default 64 KiB (bench/downloads.ts).
      const body = handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES, ...(bounds && { start: bounds.start, end: bounds.end }) })
      return { body, size, modifiedAt: mtime, ...(bounds && { range: bounds }) }
    } catch (error) {
      await handle.close()
      throw error
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await ifExists(this.fs.stat(this.path(key)))) !== null
  }

  async delete(key: string): Promise<void> {
    await ifExists(this.fs.unlink(this.path(key)))
  }

  /** Walks `ab/cd/<key>`; anything else (temporary files of writes, the renditions' directory) is not listed. */
  async *list(): AsyncIterable<StoredBlob> {
    for await (const { fanOut, name, path } of this.fanOutEntries(this.rootDir)) {
      if (!KEY.test(name) || name.slice(0, 4) !== fanOut) continue
      const stat = await ifExists(this.fs.stat(path))
      if (stat) yield { key: name, modifiedAt: stat.mtime }
    }
  }

  /**
   * A kill between writing a temporary file and removing it leaves it behind, sometimes as a second
   * hard link of the blob it became: unlinking it removes only that name, never the blob's bytes.
   */
  async removeUnfinishedWrites(cutoff: Date): Promise<number> {
    let removed = 0
    const everywhere = async function* (store: FileBlobStore) {
      yield* store.fanOutEntries(store.rootDir)
      yield* store.fanOutEntries(join(store.rootDir, RENDITIONS_DIR))
    }
    for await (const { name, path } of everywhere(this)) {
      if (!name.startsWith(TEMPORARY_PREFIX)) continue
      const stat = await ifExists(this.fs.stat(path))
      if (stat === null || stat.mtimeMs >= cutoff.getTime()) continue
      // Its write may have finished meanwhile and removed it: then it is not counted.
      if (await ifExists(this.fs.unlink(path).then(() => true))) removed++
    }
    return removed
  }

  /** Every name in the fan-out directories `root/ab/cd`, with `abcd` as `fanOut`. */
  private async *fanOutEntries(root: string): AsyncIterable<{ fanOut: string; name: string; path: string }> {
    for (const first of await entries(root)) {
      if (first === RENDITIONS_DIR) continue
      for (const second of await entries(join(root, first))) {
        const dir = join(root, first, second)
        for (const name of await entries(dir)) yield { fanOut: `${first}${second}`, name, path: join(dir, name) }
      }
    }
  }

  /**
   * Writes a temporary file in the target directory, flushes it to disk, then hard-links it into
   * place: the final name only ever holds complete bytes, and the link fails if the name exists, so
   * of several concurrent writers of one key exactly one reports `created`.
   */
  private async write(key: string, bytes: Buffer): Promise<{ created: boolean }> {
    const target = this.path(key)
    if (await this.exists(key)) return { created: false }
    const dir = dirname(target)
    const firstNewDir = await this.fs.mkdir(dir, { recursive: true })
    const temp = join(dir, `${TEMPORARY_PREFIX}${randomUUID()}`)
    let created = true
    try {
      await this.fs.writeFile(temp, bytes, { flag: 'wx', flush: true })
      try {
        await this.fs.link(temp, target)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code === 'EEXIST') created = false
        // Some filesystems (FAT, some network mounts) have no hard links: rename is atomic too,
        // only `created` may then be true for two racing writers of the same bytes.
        else if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') await this.fs.rename(temp, target)
        else throw error
      }
    } finally {
      // Best effort: a failed cleanup must not hide the write's own error or undo a stored blob.
      await this.fs.unlink(temp).catch(() => undefined)
    }
    // A rendition's entry may be lost in a crash: its row then makes it again when asked for, so it spares
    // the directory syncs (a third of a first render's cost beyond sharp's). Its bytes are flushed like
    // any blob's, so a name that survives never holds a partial file.
    if (created && !RENDITION_KEY.test(key)) {
      // The new entry, and any directory mkdir just made, must survive a crash: a committed row
      // must never point at nothing. Each is durable once its parent directory is synced.
      const last = firstNewDir === undefined ? dir : dirname(firstNewDir)
      for (let d = dir; ; d = dirname(d)) {
        await this.syncDir(d)
        if (d === last || d === dirname(d)) break
      }
    }
    return { created }
  }

  private async syncDir(dir: string): Promise<void> {
    if (process.platform === 'win32') return
    const handle = await this.fs.open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }

  /** `ab/cd/<key>`, and `renditions/ab/cd/<sha256>.<segment>` for a rendition, `abcd` from the SHA-256 either way. */
  private path(key: string): string {
    const rendition = RENDITION_KEY.exec(key)
    if (rendition) {
      const sha256 = rendition[1]!
      return join(this.rootDir, RENDITIONS_DIR, sha256.slice(0, 2), sha256.slice(2, 4), key.slice(RENDITIONS_DIR.length + 1))
    }
    assertBlobKey(key)
    return join(this.rootDir, key.slice(0, 2), key.slice(2, 4), key)
  }
}

/** The names in a directory, none when it does not exist. */
async function entries(dir: string): Promise<string[]> {
  return (await ifExists(readdir(dir))) ?? []
}

/** Resolves to null instead of failing when the file does not exist. */
async function ifExists<T>(operation: Promise<T>): Promise<T | null> {
  try {
    return await operation
  } catch (error) {
    // ENOTDIR: a part of the path is a file, so no blob can be there either (a delete has nothing to do).
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}
