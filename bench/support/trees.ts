/**
 * Other trees of this repository as running servers, for benches that compare them (peer-table.ts,
 * tree-history.ts): a git ref exported once with its packages, its `serve` started the same way for
 * every tree, and the waits that let a measurement start on a server with nothing left to do.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { adminQuery } from './database.js'
import { HALF_TAG } from './library.js'
import { cpuTicks, startServer, transpiledServer, type Server } from './serve-process.js'

export const REPO = fileURLToPath(new URL('../..', import.meta.url))

/** The lists the regression table measures, at 10 connections: the uncached list, a tag on half the assets, a word in a tenth of the titles. */
export const COMPARED_LISTS = [
  { name: 'list, uncached', path: '/api/v1/assets?limit=50' },
  { name: `tag filter (${HALF_TAG})`, path: `/api/v1/assets?limit=50&tag=${HALF_TAG}` },
  { name: 'q=retina', path: '/api/v1/assets?limit=50&q=retina' },
]

/** The servers stopped, then their databases (those named, on the PostgreSQL server at `serverUrl`) dropped and `workDir` removed. */
export async function tearDown(servers: Array<Server | undefined>, serverUrl: string | undefined, databaseNames: Array<string | undefined>, workDir: string): Promise<void> {
  for (const server of servers) await server?.stop()
  try {
    for (const name of databaseNames) if (name) await adminQuery(serverUrl!, `drop database if exists ${name} with (force)`)
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** A new database named `name` on the PostgreSQL server at `serverUrl`, and its URL. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  await adminQuery(serverUrl, `create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * The ref's tree, exported once into a directory named after its commit, with node_modules: this tree's
 * when the lock files are the same, else its own from `npm ci`.
 */
export function treeAt(ref: string): { dir: string; label: string } {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]).trim()
  const label = `${ref} (${commit.slice(0, 7)})`
  const dir = join(tmpdir(), `al-peer-baseline-${commit.slice(0, 12)}`)
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true })
    execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${dir}"`], { cwd: REPO, stdio: 'inherit' })
  }
  const modules = join(dir, 'node_modules')
  if (!existsSync(modules)) {
    // A link into a checkout that has since moved or gone dangles: existsSync says no, symlinkSync says EEXIST.
    rmSync(modules, { force: true })
    if (readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(REPO, 'package-lock.json'), 'utf8')) {
      symlinkSync(join(REPO, 'node_modules'), modules, 'dir')
    } else {
      console.log(`Installing the packages of ${label} in ${dir} (npm ci)…`)
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' })
    }
  }
  return { dir, label }
}

/** The commit, and whether the tree has changes not committed yet. */
export function describeTree(tree: string): string {
  const commit = git(['rev-parse', '--short', 'HEAD'], tree).trim()
  return git(['status', '--porcelain', '--untracked-files=no'], tree).trim() ? `${commit} with uncommitted changes` : commit
}

function git(args: string[], cwd = REPO): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' })
}

/**
 * `tree`'s server, transpiled into `dir`, on a fresh database: the embedded one in `dir`, or
 * `databaseUrl`. Every tree gets the same settings: rate limits lifted, a plan without limits, and the
 * page cache off (LIST_CACHE_RECORDS=0), so every list runs its statement. `nodeFlags` go to `node`
 * before the script (V8's, say), to measure a setting against the same tree without it.
 */
export function startTreeServer(name: string, tree: string, dir: string, databaseUrl?: string, nodeFlags: string[] = []): Promise<Server> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: join(dir, 'data'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    APP_SECRET: randomBytes(32).toString('hex'),
    LIST_CACHE_RECORDS: '0',
    RATE_LIMIT_CHEAP: '1000000',
    RATE_LIMIT_STANDARD: '1000000',
    RATE_LIMIT_EXPENSIVE: '1000000',
    PLAN_LIMITS: JSON.stringify({ free: { max_assets: 10_000_000, max_bytes: 1e15 } }),
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  }
  return startServer(name, [process.execPath, ...nodeFlags, transpiledServer(tree, join(dir, 'app')), 'serve'], env, tree)
}

/**
 * Until none of the processes has used more than a tenth of a CPU for a second: what a push left to do
 * (thumbnails, statistics) is done before the next measurement starts. Gives up after five minutes.
 */
export async function untilIdle(pids: number[]): Promise<void> {
  const windowMs = 500
  /** A tenth of a CPU for half a second, in 10 ms ticks. */
  const busyTicks = 5
  for (let waited = 0, quietWindows = 0; quietWindows < 2 && waited < 300_000; waited += windowMs) {
    const before = pids.map(cpuTicks)
    await sleep(windowMs)
    const busy = pids.some((pid, i) => cpuTicks(pid) - before[i]! > busyTicks)
    quietWindows = busy ? 0 : quietWindows + 1
  }
}

/**
 * Until no record has an analysis pending, so lists are measured without the catch-up beside them: the
 * CPU of untilIdle() does not see PostgreSQL's share of it. A tree without the analyses (before issue 36)
 * counts as done. Gives up after `timeoutMs`.
 */
export async function untilAnalysed(name: string, baseUrl: string, apiKey: string, timeoutMs = 300_000): Promise<void> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if (!(await anyPending(baseUrl, apiKey))) return
    await sleep(1000)
  }
  throw new Error(`${name}: analyses still pending after ${timeoutMs / 1000} s`)
}

/** Whether a record has one of the fields the analyses fill after the push (issue 36) still null. */
async function anyPending(baseUrl: string, apiKey: string): Promise<boolean> {
  const analysedFields = ['near_duplicates', 'colors', 'metadata', 'provenance']
  for (let offset = 0; ; offset += 100) {
    const response = await fetch(`${baseUrl}/api/v1/assets?limit=100&offset=${offset}`, { headers: { authorization: `Bearer ${apiKey}` } })
    const { data } = (await response.json()) as { data: Array<Record<string, unknown>> }
    if (data.some((record) => analysedFields.some((field) => record[field] === null))) return true
    if (data.length < 100) return false
  }
}

/** How many assets the server's library holds, by the list's total. */
export async function libraryTotal(baseUrl: string, apiKey: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/assets?limit=1`, { headers: { authorization: `Bearer ${apiKey}` } })
  return ((await response.json()) as { total: number }).total
}
