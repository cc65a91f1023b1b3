// Runs PGlite off the main thread (in the main thread its WASM work freezes the event loop for
// seconds) and serves it over a Unix socket so the main thread can use the ordinary `pg` driver.
// Plain JavaScript so that it loads the same under tsx, Vitest and the compiled build.
//
// Run as a program (`node embedded-worker.js initdb <dir>`), it creates a database in an empty
// directory and exits: see initialize() in embedded.ts for why initdb gets a process of its own.
import { unlinkSync } from 'node:fs'
import v8 from 'node:v8'
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'

if (isMainThread) await initdb(process.argv)
else await serve(workerData)

async function initdb([, , job, dataDir]) {
  if (job !== 'initdb' || !dataDir) {
    process.stderr.write('usage: node embedded-worker.js initdb <directory>\n')
    process.exit(2)
  }
  const db = await PGlite.create({ dataDir })
  await db.close()
}

async function serve({ dataDir, socketPath, optimizeWasm = false }) {
  try {
    const db = await createBaselineOnly(() => PGlite.create({ dataDir, extensions: { vector } }), optimizeWasm)
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
}

/**
 * Compiles PostgreSQL's WASM with V8's baseline compiler only (Liftoff), unless `optimizeWasm` (see
 * embeddedTuning in embedded.ts: a small database does without). Otherwise V8 recompiles hot functions
 * with its optimising compiler (TurboFan) in background threads: for PostgreSQL's 9 MB module that keeps
 * ~50 MB more RSS for good (optimised code, and the compiler threads' malloc arenas) and burns seconds of
 * CPU while the first requests come in, for SQL that then runs ~20% faster. V8 decides this when a
 * module is compiled, so the flag is set around PGlite's start and put back afterwards: WASM compiled
 * later in the process (undici's HTTP parser) is optimised as usual. V8 flags are process-wide, and one
 * given on the command line (`node --liftoff-only` or `--no-liftoff-only`) is left alone.
 */
async function createBaselineOnly(create, optimizeWasm) {
  const setByUser = process.execArgv.some((arg) => /^--(no-)?liftoff[-_]only$/.test(arg))
  if (optimizeWasm || setByUser) return create()
  v8.setFlagsFromString('--liftoff-only')
  try {
    return await create()
  } finally {
    v8.setFlagsFromString('--no-liftoff-only')
  }
}

function removeStaleSocket(path) {
  try {
    unlinkSync(path)
  } catch (error) {
    if (error.code !== 'ENOENT') throw error
  }
}
