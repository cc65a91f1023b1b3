import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { acquireLock } from './lockfile.js'

export interface EmbeddedServer {
  /** Directory holding the `.s.PGSQL.<port>` socket, which is what `pg` takes as `host`. */
  socketDir: string
  socketPort: number
  close(): Promise<void>
}

const SOCKET_PORT = 5432
const MAX_SOCKET_PATH = 100
const START_TIMEOUT_MS = 120_000
const CLOSE_TIMEOUT_MS = 10_000
/** In `DATA_DIR/run`: where the socket is when the data directory's path is too long for it. */
const SOCKET_NOTE = 'socket-dir'
/** Beside the database's socket: the lock holder's proof of life (see lockfile.ts). */
const ALIVE_SOCKET = 'asset-library.alive'

type WorkerMessage = { type: 'ready' | 'closed' } | { type: 'failed'; message: string }

/**
 * Starts PGlite on `dataDir` in a worker thread and serves it on a Unix socket. `onCrash` hears of a
 * worker that dies after it was ready: every query fails from then on, so the caller should stop.
 */
export async function startEmbeddedServer(dataDir: string, onCrash: (error: Error) => void): Promise<EmbeddedServer> {
  mkdirSync(dataDir, { recursive: true })
  const socket = socketDirectory(dataDir)
  const socketPath = join(socket.dir, `.s.PGSQL.${SOCKET_PORT}`)
  let releaseLock: () => Promise<void>
  try {
    releaseLock = await acquireLock(join(dataDir, 'asset-library.lock'), { own: join(socket.dir, ALIVE_SOCKET), candidates: aliveSocketsOf(dataDir) })
  } catch (error) {
    socket.remove()
    throw error
  }
  socket.announce()
  const worker = new Worker(new URL('./embedded-worker.js', import.meta.url), {
    workerData: { dataDir: join(dataDir, 'pg'), socketPath },
  })
  let exited = false
  let closing = false
  worker.on('exit', (code) => {
    exited = true
    if (!closing) onCrash(new Error(`the embedded database worker exited with code ${code}`))
  })
  worker.on('error', (error) => {
    if (!closing) onCrash(error)
  })
  const cleanup = async () => {
    closing = true
    await worker.terminate()
    await releaseLock()
    socket.remove()
  }
  try {
    await waitFor(worker, 'ready', START_TIMEOUT_MS)
  } catch (error) {
    await cleanup()
    throw error
  }
  return {
    socketDir: socket.dir,
    socketPort: SOCKET_PORT,
    async close() {
      closing = true
      if (!exited) {
        worker.postMessage('close')
        await waitFor(worker, 'closed', CLOSE_TIMEOUT_MS).catch(() => undefined)
      }
      await cleanup()
    },
  }
}

/**
 * Unix socket paths are limited to ~107 bytes; a deep data directory gets a fresh private directory
 * under the temp dir instead (random name, mode 0700, so no other local user can sit on it), and once
 * the lock is held, a note in the data directory says where it is, so another process can look there.
 */
function socketDirectory(dataDir: string): { dir: string; announce(): void; remove(): void } {
  const dir = join(dataDir, 'run')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (join(dir, ALIVE_SOCKET).length <= MAX_SOCKET_PATH) {
    return { dir, announce: () => undefined, remove: () => undefined }
  }
  const temporary = mkdtempSync(join(tmpdir(), 'asset-library-'))
  return {
    dir: temporary,
    announce: () => writeFileSync(join(dir, SOCKET_NOTE), temporary),
    remove: () => rmSync(temporary, { recursive: true, force: true }),
  }
}

/** Where a process holding `dataDir` answers probes: the usual place, and the one its note names. */
function aliveSocketsOf(dataDir: string): string[] {
  const sockets = [join(dataDir, 'run', ALIVE_SOCKET)]
  try {
    sockets.push(join(readFileSync(join(dataDir, 'run', SOCKET_NOTE), 'utf8').trim(), ALIVE_SOCKET))
  } catch {
    // no note: the socket is in the usual place
  }
  return sockets
}

function waitFor(worker: Worker, type: 'ready' | 'closed', timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      clearTimeout(timer)
      worker.off('message', onMessage)
      worker.off('error', finish)
      worker.off('exit', onExit)
      if (error) reject(error)
      else resolve()
    }
    const onMessage = (message: WorkerMessage) => {
      if (message.type === type) finish()
      else if (message.type === 'failed') finish(new Error(`The embedded database failed to start: ${message.message}`))
    }
    const onExit = (code: number) => finish(new Error(`The embedded database worker exited with code ${code}`))
    const timer = setTimeout(() => finish(new Error(`The embedded database did not answer within ${timeoutMs / 1000} s`)), timeoutMs)
    worker.on('message', onMessage)
    worker.on('error', finish)
    worker.on('exit', onExit)
  })
}
