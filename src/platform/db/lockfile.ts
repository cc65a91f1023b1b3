import { randomBytes } from 'node:crypto'
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { connect, createServer, type Server } from 'node:net'

export class DataDirectoryLockedError extends Error {}

/** What a lock file says: who holds it, the token only the holder knows, and where its database listens. */
interface Holder {
  pid: number
  token?: string
  socket?: string
}

type ReadHolder = Holder | 'unreadable' | null

/** Lock files this process holds, by path, with their tokens. */
const heldHere = new Map<string, string>()
const PROBE_TIMEOUT_MS = 1_000

/**
 * Nothing inside PGlite stops two processes from opening one data directory, and when they do rows are
 * silently lost; this lock makes the second one refuse to start instead. The file alone is not trusted:
 * someone may empty, garble or delete it while its holder runs. So the holder also listens on a Unix
 * socket of its own (`sockets.own`), and one that answers among `sockets.candidates` (where holders of
 * this directory listen) means "in use" too. It is not the database's socket: the embedded server takes
 * one connection, and a probe would cut off the holder's. The file is written whole before it appears
 * (a temporary file linked into place), and is removed only by the process whose token it holds.
 */
export async function acquireLock(path: string, sockets: { own: string; candidates: string[] }): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomBytes(16).toString('hex')
    if (createLock(path, { pid: process.pid, token, socket: sockets.own })) {
      heldHere.set(path, token)
      let alive: Server
      try {
        if ((await firstAnswering([sockets.own, ...sockets.candidates])) !== undefined) throw lockedBy(undefined, path)
        alive = await listenForProbes(sockets.own)
      } catch (error) {
        releaseLock(path, token)
        throw error
      }
      return async () => {
        await new Promise((resolve) => alive.close(resolve))
        releaseLock(path, token)
      }
    }
    const holder = readHolder(path)
    if (holder === null) continue
    if (holder === 'unreadable') {
      if ((await firstAnswering(sockets.candidates)) !== undefined) throw lockedBy(undefined, path)
      throw new DataDirectoryLockedError(
        `The lock file ${path} names no process, so the data directory may be in use. ` +
          'If no asset-library process uses it, delete that file and start again.',
      )
    }
    if (isAlive(holder, path)) throw lockedBy(holder.pid, path)
    if ((await firstAnswering([...(holder.socket ? [holder.socket] : []), ...sockets.candidates])) !== undefined) throw lockedBy(holder.pid, path)
    removeStaleLock(path, holder)
  }
  throw new DataDirectoryLockedError(`Could not take the lock file ${path}; another process keeps taking it.`)
}

/** Writes the whole file under a temporary name, then links it into place: false if a lock exists. */
function createLock(path: string, holder: Holder): boolean {
  const temporary = `${path}.${holder.token}.tmp`
  // Flushed before it is linked, so a power cut cannot leave an empty lock behind.
  writeFileSync(temporary, `${JSON.stringify(holder)}\n`, { mode: 0o600, flush: true })
  try {
    linkSync(temporary, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    unlinkSync(temporary)
  }
}

/**
 * Moves the stale lock aside atomically and checks it is the one judged stale: if another process
 * replaced it in between, that live lock is put back and this process refuses.
 */
function removeStaleLock(path: string, stale: Holder): void {
  const aside = `${path}.${randomBytes(4).toString('hex')}.stale`
  try {
    renameSync(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  const moved = readHolder(aside)
  if (moved !== null && (moved === 'unreadable' || moved.pid !== stale.pid || moved.token !== stale.token)) {
    try {
      linkSync(aside, path)
    } finally {
      unlinkSync(aside)
    }
    throw lockedBy(moved === 'unreadable' ? undefined : moved.pid, path)
  }
  unlinkSync(aside)
}

/** Removes the lock only if it still holds this acquisition's token. */
function releaseLock(path: string, token: string): void {
  if (heldHere.get(path) === token) heldHere.delete(path)
  try {
    const holder = readHolder(path)
    if (holder !== null && holder !== 'unreadable' && holder.token === token) unlinkSync(path)
  } catch {
    // already gone: nothing to release
  }
}

/** The holder, null when there is no lock file, 'unreadable' when its content names no process. */
function readHolder(path: string): ReadHolder {
  let text: string
  try {
    text = readFileSync(path, 'utf8').trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  // Earlier builds wrote the bare pid.
  if (/^\d+$/.test(text)) return validPid(Number(text)) ? { pid: Number(text) } : 'unreadable'
  try {
    const parsed = JSON.parse(text) as Partial<Holder>
    if (validPid(parsed.pid) && typeof parsed.token === 'string') {
      return { pid: parsed.pid, token: parsed.token, ...(typeof parsed.socket === 'string' && { socket: parsed.socket }) }
    }
  } catch {
    // falls through: not ours to interpret
  }
  return 'unreadable'
}

function validPid(pid: unknown): pid is number {
  return Number.isSafeInteger(pid) && (pid as number) > 0
}

/** A process restarted in a container often gets the same pid (1) its crashed predecessor had. */
function isAlive(holder: Holder, path: string): boolean {
  if (holder.pid === process.pid) return heldHere.has(path) && (holder.token === undefined || heldHere.get(path) === holder.token)
  try {
    process.kill(holder.pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The first of these Unix sockets that accepts a connection, if any. */
async function firstAnswering(sockets: string[]): Promise<string | undefined> {
  for (const socket of new Set(sockets)) if (await answers(socket)) return socket
  return undefined
}

/** Accepts and closes connections: its answering is the proof that this process holds the directory. */
async function listenForProbes(socket: string): Promise<Server> {
  rmSync(socket, { force: true })
  const server = createServer((connection) => connection.destroy())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socket, resolve)
  })
  server.unref()
  return server
}

function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socket)
    const done = (alive: boolean) => {
      probe.destroy()
      resolve(alive)
    }
    probe.setTimeout(PROBE_TIMEOUT_MS, () => done(true))
    probe.once('connect', () => done(true))
    probe.once('error', () => done(false))
  })
}

function lockedBy(pid: number | undefined, path: string): DataDirectoryLockedError {
  return new DataDirectoryLockedError(
    `The data directory is already in use by ${pid === undefined ? 'another process' : `process ${pid}`} (lock file ${path}). ` +
      'Stop that process, or point DATA_DIR somewhere else.',
  )
}
