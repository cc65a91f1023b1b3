import { randomBytes } from 'node:crypto'
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs'

export class DataDirectoryLockedError extends Error {}

/** Lock files this process holds: its own pid in a lock file is only "alive" if it is one of these. */
const heldHere = new Set<string>()

/**
 * Nothing inside PGlite stops two processes from opening one data directory, and when they do
 * rows are silently lost; this lock file makes the second one refuse to start instead.
 */
export function acquireLock(path: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      heldHere.add(path)
      return () => releaseLock(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = readHolder(path)
      if (holder !== null && isAlive(holder, path)) throw lockedBy(holder, path)
      if (holder !== null) removeStaleLock(path, holder)
    }
  }
  throw new DataDirectoryLockedError(`Could not take the lock file ${path}; another process keeps taking it.`)
}

/**
 * Moves the stale lock aside atomically and checks it is the one we judged stale: if another process
 * replaced it in between, that live lock is put back and this process refuses.
 */
function removeStaleLock(path: string, stalePid: number): void {
  const aside = `${path}.${randomBytes(4).toString('hex')}.stale`
  try {
    renameSync(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  const moved = readHolder(aside)
  if (moved !== stalePid && moved !== null) {
    try {
      linkSync(aside, path)
    } finally {
      unlinkSync(aside)
    }
    throw lockedBy(moved, path)
  }
  unlinkSync(aside)
}

function releaseLock(path: string): void {
  heldHere.delete(path)
  try {
    if (readHolder(path) === process.pid) unlinkSync(path)
  } catch {
    // already gone: nothing to release
  }
}

function readHolder(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 ? pid : 0
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** A process restarted in a container often gets the same pid (1) its crashed predecessor had. */
function isAlive(pid: number, path: string): boolean {
  if (pid === 0) return false
  if (pid === process.pid) return heldHere.has(path)
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function lockedBy(pid: number, path: string): DataDirectoryLockedError {
  return new DataDirectoryLockedError(
    `The data directory is already in use by process ${pid} (lock file ${path}). ` +
      'Stop that process, or point DATA_DIR somewhere else.',
  )
}
