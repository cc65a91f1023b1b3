/**
 * The command line's cost, against the real app on the embedded database (or PostgreSQL):
 *
 * 1. Client overhead: `asset-library-client push <folder>` of N distinct ~1 MiB PNGs (hashing each
 *    file, asking assets/check, then pushing what is missing, as a user runs it: a fresh process, a
 *    fresh hash cache) against bench/push.ts's own multipart client (request bodies built before the
 *    timed window, raw node:http) at the same number of pushes in flight, alternated in one run. Target:
 *    the command line reaches >= 90% of the multipart rate.
 * 2. Re-runs: the same command on an unchanged folder of 1,000 files it has pushed before: 0 pushes,
 *    no file read (the summary's bytes_read), under 2 s from start to exit. Once more with --no-cache
 *    for comparison (every file read and hashed again, still nothing pushed).
 *
 * The command line runs from its build: `npm run build:client` first.
 *
 *   npm run build:client && npx tsx bench/cli-push.ts
 *   BENCH_IMAGES=200 BENCH_ROUNDS=2 BENCH_CONCURRENCY=4 BENCH_RERUN_FILES=1000 npx tsx bench/cli-push.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/cli-push.ts
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { benchKey } from './support/app.js'
import { forkChild, type Child } from './support/child.js'
import { redactedUrl, startBenchAppOn, type BenchAppOn } from './support/database.js'
import { generateImages, mapLimit } from './support/noise-images.js'

const IMAGES_PER_RUN = whole('BENCH_IMAGES', 200)
const ROUNDS = whole('BENCH_ROUNDS', 2)
const IN_FLIGHT = whole('BENCH_CONCURRENCY', 4)
const RERUN_FILES = whole('BENCH_RERUN_FILES', 1000)
const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const CLI = fileURLToPath(new URL('../packages/client/dist/cli/main.js', import.meta.url))
const TARGET_RATIO = 0.9
const RERUN_TARGET_SECONDS = 2
const TIME = '/usr/bin/time'

interface Summary {
  files: number
  pushed: number
  duplicate: number
  failed: number
  bytes_read: number
  /** From the command's start of work to its summary, inside the process (no Node start-up). */
  seconds: number
}

interface Timed {
  images: number
  seconds: number
  serverCpuMs: number
  failed: number
}

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build:client first`)

let bench: BenchAppOn | undefined
let baseline: Child | undefined
try {
  const pushRequests = { count: 0 }
  bench = await startBenchAppOn(
    'cli_push',
    SERVER_URL,
    {
      RATE_LIMIT_EXPENSIVE: '1000000',
      RATE_LIMIT_CHEAP: '1000000',
      RATE_LIMIT_STANDARD: '1000000',
      PLAN_LIMITS: JSON.stringify({ free: { max_assets: 1_000_000_000, max_bytes: 1e15 } }),
    },
    (app) => {
      app.addHook('onRequest', (request, _reply, done) => {
        if (request.method === 'POST' && request.url === '/api/v1/assets') pushRequests.count += 1
        done()
      })
    },
  )
  const { token } = await benchKey(bench.app, 'assets:write')
  const work = join(bench.dataDir, 'cli-bench')

  const generated = performance.now()
  const folders: string[] = []
  for (let run = 0; run < 2 * ROUNDS; run++) {
    const folder = join(work, `run-${run}`)
    mkdirSync(folder, { recursive: true })
    await generateImages(folder, 'png', IMAGES_PER_RUN)
    folders.push(folder)
  }
  console.log(`Generated ${2 * ROUNDS} folders of ${IMAGES_PER_RUN} distinct ~1 MiB PNGs in ${((performance.now() - generated) / 1000).toFixed(1)} s`)
  const database = SERVER_URL ? `PostgreSQL at ${redactedUrl(SERVER_URL)}` : 'embedded (PGlite)'
  console.log(`Database: ${database}; ${IN_FLIGHT} pushes in flight; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  const bare = performance.now()
  await new Promise((resolve) => spawn(process.execPath, ['-e', '0']).once('exit', resolve))
  console.log(`A bare \`node -e 0\` takes ${((performance.now() - bare) / 1000).toFixed(2)} s from start to exit on this machine now\n`)

  baseline = await forkChild(new URL('./push.ts', import.meta.url), ['--push-client'])
  const runBaseline = async (folder: string): Promise<Timed> => {
    const files = Array.from({ length: IMAGES_PER_RUN }, (_, i) => join(folder, `png-${i}.png`))
    await baseline!.ask({ kind: 'prepare', files, format: 'png', variant: 'multipart' })
    const cpu = process.cpuUsage()
    const run = await baseline!.ask<{ outcomes: Array<{ ok: boolean }>; windowMs: number }>({ kind: 'run', url: `${bench!.baseUrl}/api/v1/assets`, token, inFlight: IN_FLIGHT })
    return { images: run.outcomes.length, seconds: run.windowMs / 1000, serverCpuMs: cpuMs(process.cpuUsage(cpu)), failed: run.outcomes.filter((o) => !o.ok).length }
  }
  const runCli = async (folder: string, cacheHome: string, extra: string[] = []): Promise<Timed & { summary: Summary; clientCpuMs: number }> => {
    const cpu = process.cpuUsage()
    const started = performance.now()
    const { code, stdout, stderr } = await cli(['push', folder, '--json', '--concurrency', String(IN_FLIGHT), ...extra], { ASSET_LIBRARY_URL: bench!.baseUrl, ASSET_LIBRARY_KEY: token, XDG_CACHE_HOME: cacheHome })
    const seconds = (performance.now() - started) / 1000
    const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as Summary
    if (code !== 0) throw new Error(`the command line exited ${code}: ${stderr}`)
    const times = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(stderr)
    const clientCpuMs = times ? (Number(times[1]) + Number(times[2])) * 1000 : NaN
    return { images: summary.files, seconds, serverCpuMs: cpuMs(process.cpuUsage(cpu)), clientCpuMs, failed: summary.failed, summary }
  }

  console.log('1. Client overhead (alternated: multipart, CLI; then CLI, multipart; ...)')
  const pairs: Array<{ api: Timed; cli: Timed }> = []
  for (let round = 0; round < ROUNDS; round++) {
    const [apiFolder, cliFolder] = [folders[2 * round]!, folders[2 * round + 1]!]
    const cacheHome = join(work, `cache-${round}`)
    let api: Timed
    let viaCli: Timed & { summary: Summary; clientCpuMs: number }
    if (round % 2 === 0) {
      api = await runBaseline(apiFolder)
      viaCli = await runCli(cliFolder, cacheHome)
    } else {
      viaCli = await runCli(cliFolder, cacheHome)
      api = await runBaseline(apiFolder)
    }
    if (viaCli.summary.pushed !== IMAGES_PER_RUN) throw new Error(`the command line pushed ${viaCli.summary.pushed} of ${IMAGES_PER_RUN}`)
    pairs.push({ api, cli: viaCli })
    console.log(
      `  round ${round + 1}: multipart ${rate(api).toFixed(1)}/s (server CPU ${(api.serverCpuMs / api.images).toFixed(0)} ms/img), ` +
        `CLI ${rate(viaCli).toFixed(1)}/s (server CPU ${(viaCli.serverCpuMs / viaCli.images).toFixed(0)} ms/img, the command's own ${(viaCli.clientCpuMs / viaCli.images).toFixed(1)} ms/img; ` +
        `${viaCli.seconds.toFixed(1)} s from start to exit, ${viaCli.summary.seconds.toFixed(1)} s of work): ${percent(rate(viaCli) / rate(api))}`,
    )
  }

  console.log(`\n2. Re-runs of an unchanged folder of ${RERUN_FILES} files`)
  const rerunFolder = join(work, 'rerun')
  mkdirSync(rerunFolder)
  await mapLimit(
    Array.from({ length: RERUN_FILES }, (_, i) => i),
    4,
    async (i) => writeFileSync(join(rerunFolder, `tile-${i}.png`), await sharp({ create: { width: 8, height: 8, channels: 3, background: `#${(i + 1).toString(16).padStart(6, '0')}` } }).png().toBuffer()),
  )
  const rerunCache = join(work, 'cache-rerun')
  const first = await runCli(rerunFolder, rerunCache)
  console.log(`  first push: ${first.summary.pushed} pushed in ${first.seconds.toFixed(2)} s`)
  const reruns: Array<Timed & { summary: Summary; pushes: number }> = []
  for (const extra of [[], [], [], ['--no-cache']]) {
    const before = pushRequests.count
    const run = await runCli(rerunFolder, rerunCache, extra)
    reruns.push({ ...run, pushes: pushRequests.count - before })
    console.log(
      `  re-run${extra.length ? ` ${extra.join(' ')}` : ''}: ${run.seconds.toFixed(2)} s from start to exit (${run.summary.seconds.toFixed(2)} s of work), ${pushRequests.count - before} push requests, ` +
        `${run.summary.duplicate} already in the library, ${run.summary.bytes_read} bytes read`,
    )
  }

  console.log('')
  const failures = pairs.reduce((sum, pair) => sum + pair.api.failed + pair.cli.failed, 0)
  const ratios = pairs.map((pair) => rate(pair.cli) / rate(pair.api))
  const overall = pairs.reduce((sum, pair) => sum + pair.cli.images, 0) / pairs.reduce((sum, pair) => sum + pair.cli.seconds, 0) / (pairs.reduce((sum, pair) => sum + pair.api.images, 0) / pairs.reduce((sum, pair) => sum + pair.api.seconds, 0))
  console.log(
    `${overall >= TARGET_RATIO && failures === 0 ? 'PASS' : 'MISS'}: the command line pushes at ${percent(overall)} of the multipart rate over ${ROUNDS} alternated rounds ` +
      `(rounds ${ratios.map(percent).join(', ')}; ${IMAGES_PER_RUN} images each, ${IN_FLIGHT} in flight; target >= ${percent(TARGET_RATIO)})`,
  )
  const cached = reruns.slice(0, 3)
  const slowest = Math.max(...cached.map((run) => run.seconds))
  const clean = cached.every((run) => run.pushes === 0 && run.summary.bytes_read === 0 && run.summary.duplicate === RERUN_FILES)
  console.log(
    `${clean && slowest < RERUN_TARGET_SECONDS ? 'PASS' : 'MISS'}: a re-run of ${RERUN_FILES} unchanged files: 0 pushes and 0 bytes read: ${clean ? 'yes' : 'NO'}; ` +
      `slowest of 3 ${slowest.toFixed(2)} s (target < ${RERUN_TARGET_SECONDS} s)`,
  )
} finally {
  baseline?.stop()
  await bench?.close()
}

/** Runs the command line; with /usr/bin/time (Linux), its CPU time too, from the last line of stderr. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const command = existsSync(TIME) ? [TIME, '-f', 'cpu %U %S', process.execPath] : [process.execPath]
    const child = spawn(command[0]!, [...command.slice(1), CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

function rate(run: Timed): number {
  return run.images / run.seconds
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`
}

function whole(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`)
  return value
}
