// Runs PGlite off the main thread (in the main thread its WASM work freezes the event loop for
// seconds) and serves it over a Unix socket so the main thread can use the ordinary `pg` driver.
// Plain JavaScript so that it loads the same under tsx, Vitest and the compiled build.
import { unlinkSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'

const { dataDir, socketPath } = workerData

try {
  const db = await PGlite.create({ dataDir, extensions: { vector } })
  removeStaleSocket(socketPath)
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 })
  await server.start()
  parentPort.on('message', async (message) => {
    if (message !== 'close') return
    await server.stop()
    await db.close()
    removeStaleSocket(socketPath)
    parentPort.postMessage({ type: 'closed' })
  })
  parentPort.postMessage({ type: 'ready' })
} catch (error) {
  parentPort.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
}

function removeStaleSocket(path) {
  try {
    unlinkSync(path)
  } catch (error) {
    if (error.code !== 'ENOENT') throw error
  }
}
