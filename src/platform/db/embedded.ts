import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
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

/** Starts PGlite on `dataDir` in a worker thread and serves it on a Unix socket. */
export async function startEmbeddedServer(dataDir: string): Promise<EmbeddedServer> {
  mkdirSync(dataDir, { recursive: true })
  const releaseLock = acquireLock(join(dataDir, 'asset-library.lock'))
  try {
    const socketDir = socketDirectory(dataDir)
    const worker = new Worker(new URL('./embedded-worker.js', import.meta.url), {
      workerData: { dataDir: join(dataDir, 'pg'), socketPath: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`) },
    })
    await waitFor(worker, 'ready')
    return {
      socketDir,
      socketPort: SOCKET_PORT,
      async close() {
        worker.postMessage('close')
        await waitFor(worker, 'closed')
        await worker.terminate()
        releaseLock()
      },
    }
  } catch (error) {
    releaseLock()
    throw error
  }
}

/** Unix socket paths are limited to ~107 bytes; a deep data directory gets its socket under the temp dir. */
function socketDirectory(dataDir: string): string {
  let dir = join(dataDir, 'run')
  if (join(dir, `.s.PGSQL.${SOCKET_PORT}`).length > MAX_SOCKET_PATH) {
    const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 16)
    dir = join(tmpdir(), `asset-library-${digest}`)
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return dir
}

function waitFor(worker: Worker, type: 'ready' | 'closed'): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string; message?: string }) => {
      if (message.type === type) {
        cleanup()
        resolve()
      } else if (message.type === 'failed') {
        cleanup()
        reject(new Error(`Embedded database failed to start: ${message.message}`))
      }
    }
    const onError = (error: Error) => {
      cleanup()
      reject(error)
    }
    const onExit = (code: number) => {
      cleanup()
      reject(new Error(`Embedded database worker exited with code ${code}`))
    }
    const cleanup = () => {
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
    }
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
  })
}
