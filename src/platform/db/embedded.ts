import { spawn } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { acquireLock } from './lockfile.js'
import { SSD_RANDOM_PAGE_COST } from './planner.js'

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
 * How the embedded database is tuned at each start, by the size of its data (the largest database under
 * `base/`, read before it starts). PostgreSQL's defaults suit a server with memory of its own; here
 * everything sits in this process, in a WASM heap that never gives memory back.
 */
export interface EmbeddedTuning {
  /** PostgreSQL settings, written to `asset-library.conf` (see applySettings). */
  settings: Record<string, string>
  /** Whether V8 may optimise PostgreSQL's WASM (see `createBaselineOnly` in embedded-worker.js). */
  optimizeWasm: boolean
}

const MiB = 1024 * 1024
const MIN_SHARED_BUFFERS_MB = 16
const MAX_SHARED_BUFFERS_MB = 128
/** Below this size (~18,000 assets without embeddings; 10,000 take 35 MB), PostgreSQL's WASM is not optimised. */
const OPTIMIZE_WASM_FROM_BYTES = 64 * MiB

/**
 * - shared_buffers: the whole database, rounded up to 8MB, between 16MB and PostgreSQL's default 128MB.
 *   The buffers are all touched at start, so each MB is a MB of RSS from the first second; pages not
 *   in them are read from the files (which the OS caches outside this process) at a few µs each. An
 *   empty library takes 16MB instead of 128MB (-115 MB of RSS); a larger one, whose queries need its
 *   pages (an HNSW index above all: hybrid search over 20,000 assets took 1.7x as long with 16MB),
 *   grows back towards the default.
 * - maintenance_work_mem: 16MB instead of 64MB, as what VACUUM or CREATE INDEX takes once stays in the
 *   heap for good. The HNSW build raises it for its own statement.
 * - random_page_cost: SSD_RANDOM_PAGE_COST (see there), as the files are local and mostly cached.
 * - optimizeWasm: only from OPTIMIZE_WASM_FROM_BYTES on. Below, ~50 MB less RSS and a quicker start, for
 *   SQL that runs ~20% slower (hybrid search 25%); the bigger the library, the more its queries cost and
 *   the less those 50 MB weigh beside its buffers.
 */
export function embeddedTuning(databaseBytes: number): EmbeddedTuning {
  const buffers = Math.min(MAX_SHARED_BUFFERS_MB, Math.max(MIN_SHARED_BUFFERS_MB, Math.ceil(databaseBytes / (8 * MiB)) * 8))
  return {
    settings: { shared_buffers: `${buffers}MB`, maintenance_work_mem: '16MB', random_page_cost: SSD_RANDOM_PAGE_COST },
    optimizeWasm: databaseBytes >= OPTIMIZE_WASM_FROM_BYTES,
  }
}

const SETTINGS_FILE = 'asset-library.conf'
const SETTINGS_INCLUDE = `include_if_exists = '${SETTINGS_FILE}'`
/**
 * The serving thread's V8 young generation: the thread only shuttles protocol bytes between the socket
 * and PostgreSQL, and V8's default (16 MB of semi-space) is memory it keeps without needing it.
 */
const WORKER_YOUNG_GENERATION_MB = 4

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
  const pgDir = join(dataDir, 'pg')
  let tuning: EmbeddedTuning
  try {
    if (!existsSync(join(pgDir, 'PG_VERSION'))) await initialize(pgDir)
    const databaseBytes = largestDatabaseBytes(pgDir)
    tuning = embeddedTuning(databaseBytes)
    applySettings(pgDir, tuning, databaseBytes)
  } catch (error) {
    await releaseLock()
    socket.remove()
    throw error
  }
  const worker = new Worker(WORKER_URL, {
    workerData: { dataDir: pgDir, socketPath, optimizeWasm: tuning.optimizeWasm },
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
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

const WORKER_URL = new URL('./embedded-worker.js', import.meta.url)
const INITDB_SUFFIX = '.initdb-'

/**
 * The first start: initdb, in a process of its own, into a fresh sibling directory renamed to `pgDir`
 * when it is complete. PGlite runs initdb in a second instance with its own WASM heap and a copy of it;
 * run in this process, ~180 MB of that stayed for as long as the server ran (even from a thread that
 * ended: glibc keeps the freed memory of its arenas). A process gives it all back when it exits. The
 * rename means a start that is interrupted leaves no half-made database behind, only a
 * `pg.initdb-*` directory, which the next start removes.
 */
async function initialize(pgDir: string): Promise<void> {
  const parent = dirname(pgDir)
  for (const entry of readdirSync(parent)) {
    if (entry.startsWith(`${basename(pgDir)}${INITDB_SUFFIX}`)) rmSync(join(parent, entry), { recursive: true, force: true })
  }
  const scratch = mkdtempSync(`${pgDir}${INITDB_SUFFIX}`)
  try {
    await new Promise<void>((resolve, reject) => {
      // A clean node: none of this process's flags or loaders (tsx, Vitest, --inspect) are needed by plain JS.
      // V8's baseline compiler alone: initdb is over before optimised code would pay off (3.5 s of CPU instead of 5.6).
      const child = spawn(process.execPath, ['--liftoff-only', fileURLToPath(WORKER_URL), 'initdb', scratch], { stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr = (stderr + text).slice(-4000)
      })
      const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS)
      child.once('error', (error) => {
        clearTimeout(timer)
        reject(new Error(`The embedded database failed to start: initdb could not run: ${error.message}`))
      })
      child.once('close', (code, signal) => {
        clearTimeout(timer)
        if (code === 0) resolve()
        else reject(new Error(`The embedded database failed to start: initdb exited with ${signal ?? `code ${code}`}: ${stderr.trim()}`))
      })
    })
    if (existsSync(pgDir)) {
      // No PG_VERSION, so no database PostgreSQL would open: empty, or the remains of an older version's
      // interrupted initdb. Kept aside, never deleted: it is not ours to judge.
      if (readdirSync(pgDir).length === 0) rmSync(pgDir, { recursive: true })
      else renameSync(pgDir, `${pgDir}.incomplete-${Date.now()}`)
    }
    renameSync(scratch, pgDir)
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true })
    throw error
  }
}

/**
 * Writes the tuning's settings to `asset-library.conf` and makes `postgresql.conf` include it (once, at its end).
 * PostgreSQL reads `postgresql.auto.conf` after both, so `ALTER SYSTEM SET shared_buffers = '64MB'` and a
 * restart override any of them.
 */
function applySettings(pgDir: string, tuning: EmbeddedTuning, databaseBytes: number): void {
  writeFileSync(
    join(pgDir, SETTINGS_FILE),
    [
      '# Written by asset-library at every start of the embedded database, by the size of the database',
      `# (${(databaseBytes / MiB).toFixed(1)} MB at this start; PostgreSQL's WASM ${tuning.optimizeWasm ? 'optimised' : 'not optimised'}): edits here are lost.`,
      '# To change a setting, run ALTER SYSTEM SET <name> = <value> (postgresql.auto.conf wins) and restart.',
      ...Object.entries(tuning.settings).map(([name, value]) => `${name} = '${value}'`),
      '',
    ].join('\n'),
  )
  const main = join(pgDir, 'postgresql.conf')
  if (!readFileSync(main, 'utf8').split('\n').includes(SETTINGS_INCLUDE)) {
    appendFileSync(main, `\n# asset-library's settings for the embedded database\n${SETTINGS_INCLUDE}\n`)
  }
}

/** The size of the largest database directory under `base/`: the app's own, once it holds anything. */
function largestDatabaseBytes(pgDir: string): number {
  let largest = 0
  for (const database of readdirSync(join(pgDir, 'base'), { withFileTypes: true })) {
    if (!database.isDirectory()) continue
    let bytes = 0
    for (const file of readdirSync(join(pgDir, 'base', database.name))) {
      try {
        bytes += statSync(join(pgDir, 'base', database.name, file)).size
      } catch {
        // gone meanwhile: nothing else runs on this directory, but a size is not worth failing a start
      }
    }
    largest = Math.max(largest, bytes)
  }
  return largest
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
