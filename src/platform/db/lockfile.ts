import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'

export class DataDirectoryLockedError extends Error {}

/**
 * Nothing inside PGlite stops two processes from opening one data directory, and when they do
 * rows are silently lost; this lock file makes the second one refuse to start instead.
 */
export function acquireLock(path: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => releaseLock(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number(readFileSync(path, 'utf8').trim())
      if (isAlive(holder)) {
        throw new DataDirectoryLockedError(
          `The data directory is already in use by process ${holder} (lock file ${path}). ` +
            'Stop that process, or point DATA_DIR somewhere else.',
        )
      }
      unlinkSync(path)
    }
  }
  throw new DataDirectoryLockedError(`Could not take the lock file ${path}`)
}

function releaseLock(path: string): void {
  try {
    if (Number(readFileSync(path, 'utf8').trim()) === process.pid) unlinkSync(path)
  } catch {
    // already gone: nothing to release
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
