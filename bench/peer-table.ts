/**
 * The regression table: for our side alone, the figures we hold against Directus 12.4 (see
 * ../shared/peers): ingest of ~1 MiB PNGs at 1 and 4 in flight (files/s, p50, p95); the uncached list,
 * a tag filter and `q=` at 10,000 assets (req/s, p50, p95); RSS idle and under load. Each figure is
 * measured for this tree and for a baseline (ISSUE_BASELINE unless --baseline names another git ref) in
 * one window on one machine, so their ratio holds while the machine's speed drifts:
 *
 * - both trees run as `serve` processes side by side (transpiled to JavaScript, as bench/memory.ts
 *   runs them), each over a fresh database of its own, with the rate limits lifted and the page cache
 *   off (LIST_CACHE_RECORDS=0: Directus ships with its cache off);
 * - RSS idle is read BENCH_IDLE seconds after the first start on an empty library; ingest pushes the
 *   same files to both sides (multipart, from the forked client of bench/push.ts); the library is then
 *   filled up to BENCH_ASSETS through the API with the list benches' planned library
 *   (support/library.ts: "approved" on half the assets, "retina" in a tenth of the titles);
 * - every figure is measured BENCH_ROUNDS times per side, A then B, then B then A, and so on, each
 *   measurement starting once both servers are idle (thumbnails made, statistics kept) and, before the
 *   lists, once every record's analyses are made (a side without them counts as done);
 * - RSS under load is the highest RSS sampled during the list loads (10 connections, a forked
 *   autocannon).
 *
 * It prints each side's figure, the ratio this tree ÷ baseline, and WORSE where this tree is worse by
 * more than 10% (a rate below 0.9×, a time or RSS above 1.1×). It is a report: it exits 0 either way.
 *
 *   npx tsx bench/peer-table.ts                          # against ISSUE_BASELINE, embedded database
 *   npx tsx bench/peer-table.ts --baseline main          # one branch's change alone
 *   npx tsx bench/peer-table.ts --quick                  # smaller counts, to try it out
 *   npx tsx bench/peer-table.ts --baseline 15b6366       # against any git ref
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/peer-table.ts
 *
 * The baseline is the ref's tree as `git archive` exports it, in $TMPDIR/al-peer-baseline-<commit>, kept
 * for the next run. It uses this tree's node_modules when the two package-lock.json are the same, and
 * runs `npm ci` there otherwise. --baseline-dir <path> uses a checkout of your own instead (with its
 * node_modules). BENCH_ROUNDS, BENCH_ASSETS, BENCH_INGEST (files per side, round and level),
 * BENCH_DURATION (seconds of each list run) and BENCH_IDLE override the mode's counts. Linux only (/proc).
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { percentile } from './support/child.js'
import { redactedUrl } from './support/database.js'
import { envNumber } from './support/env.js'
import { plannedLibrary, pushLibrary } from './support/library.js'
import { startLoadGenerator, type LoadGenerator } from './support/load-generator.js'
import { imagesIn } from './support/noise-images.js'
import { startPushClient, type PushClient, type Run } from './support/push-client.js'
import { mib, sampleRss, status, type Server } from './support/serve-process.js'
import { COMPARED_LISTS, describeTree, freshDatabase, libraryTotal, REPO, startTreeServer, tearDown, treeAt, untilAnalysed, untilIdle } from './support/trees.js'

/**
 * The last landed commit of the previous issue (issue 38's, for issue 39), so every run of an issue is
 * measured against the same tree and its closing note gives the whole issue's effect. Moved forward when
 * an issue lands: bench/README.md, "Keeping the baseline current".
 */
const ISSUE_BASELINE = '2c8e2ee'
const { values: options } = parseArgs({
  options: { baseline: { type: 'string', default: ISSUE_BASELINE }, 'baseline-dir': { type: 'string' }, quick: { type: 'boolean', default: false } },
})
const QUICK = options.quick
const ROUNDS = envNumber('BENCH_ROUNDS', 2)
const ASSETS = envNumber('BENCH_ASSETS', QUICK ? 1_000 : 10_000)
const INGEST_FILES = envNumber('BENCH_INGEST', QUICK ? 8 : 40)
const DURATION_S = envNumber('BENCH_DURATION', QUICK ? 3 : 10)
const IDLE_S = envNumber('BENCH_IDLE', QUICK ? 3 : 10)
const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const IN_FLIGHT_LEVELS = [1, 4]
const WARMUP_FILES = 4
const CONNECTIONS = 10
const SEED_IN_FLIGHT = 8
/** A figure this much worse than the baseline's is marked. */
const TOLERANCE = 0.1
const LISTS = COMPARED_LISTS

/** One tree measured: its server and what it gave, figure by figure. */
interface Side {
  name: string
  tree: string
  databaseName: string | undefined
  server?: Server
  apiKey?: string
  figures: Map<string, number[]>
  ingest: Map<number, Run[]>
  rssUnderLoad: number
}

/** A row of the table: how to read it off a side, and which way is better. */
interface Figure {
  name: string
  unit: string
  higherIsBetter: boolean
  of(side: Side): number
}

await main()

async function main(): Promise<void> {
  if (!existsSync('/proc/self/status')) {
    console.log('This bench reads /proc/<pid>/status: Linux only. Nothing measured.')
    return
  }
  const workDir = mkdtempSync(join(tmpdir(), 'al-bench-peer-'))
  const baseline = options['baseline-dir'] ? { dir: options['baseline-dir'], label: options['baseline-dir'] } : treeAt(options.baseline)
  const sides: Side[] = [
    { name: `this tree (${describeTree(REPO)})`, tree: REPO },
    { name: `baseline ${baseline.label}`, tree: baseline.dir },
  ].map((side, i) => ({ ...side, databaseName: SERVER_URL && `al_bench_peer_${'ab'[i]}_${randomBytes(4).toString('hex')}`, figures: new Map(), ingest: new Map(), rssUnderLoad: 0 }))
  let pushClient: PushClient | undefined
  let loadGenerator: LoadGenerator | undefined
  const started = performance.now()
  try {
    console.log(
      `${QUICK ? 'Quick mode: ' : ''}${ASSETS} assets, ${ROUNDS} rounds, ${INGEST_FILES} files per ingest run, ${DURATION_S} s per list run; ` +
        `${SERVER_URL ? `PostgreSQL at ${redactedUrl(SERVER_URL)}` : 'embedded database'}; Node ${process.version}, ${cpus().length} CPUs, load average ${loadAverage()}`,
    )
    const images = await imagesIn(join(workDir, 'images'), 'png', WARMUP_FILES + ROUNDS * IN_FLIGHT_LEVELS.length * INGEST_FILES)
    for (const [i, side] of sides.entries()) {
      side.server = await startSide(side, join(workDir, `side-${i}`))
      side.apiKey = side.server.apiKey
      if (!side.apiKey) throw new Error(`${side.name}: the first start printed no API key`)
    }
    await sleep(IDLE_S * 1000)
    for (const side of sides) side.figures.set('rss idle', [status(side.server!.pid).rss])

    pushClient = await startPushClient()
    for (const side of sides) await pushFiles(pushClient, side, images.files.slice(0, WARMUP_FILES), 2)
    for (let round = 0; round < ROUNDS; round++) {
      for (const [level, inFlight] of IN_FLIGHT_LEVELS.entries()) {
        const first = WARMUP_FILES + (round * IN_FLIGHT_LEVELS.length + level) * INGEST_FILES
        const files = images.files.slice(first, first + INGEST_FILES)
        for (const side of inTurn(sides, round + level)) {
          await untilIdle(sides.map((side) => side.server!.pid))
          const run = await pushFiles(pushClient, side, files, inFlight)
          side.ingest.set(inFlight, [...(side.ingest.get(inFlight) ?? []), run])
        }
      }
    }
    pushClient.stop()
    pushClient = undefined

    const pushed = WARMUP_FILES + ROUNDS * IN_FLIGHT_LEVELS.length * INGEST_FILES
    const library = plannedLibrary(Math.max(0, ASSETS - pushed))
    for (const side of sides) await pushLibrary(side.server!.baseUrl, side.apiKey!, library, SEED_IN_FLIGHT)
    for (const side of sides) await expectLibrary(side)
    for (const side of sides) await untilAnalysed(side.name, side.server!.baseUrl, side.apiKey!)
    console.log(`Library of ${ASSETS} assets on both sides after ${((performance.now() - started) / 1000).toFixed(0)} s`)

    loadGenerator = await startLoadGenerator()
    for (const list of LISTS) for (const side of sides) await loadGenerator.run({ url: side.server!.baseUrl + list.path, headers: bearer(side), connections: CONNECTIONS, duration: 1 })
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, list] of LISTS.entries()) {
        for (const side of inTurn(sides, round + index)) {
          await untilIdle(sides.map((side) => side.server!.pid))
          const peak = sampleRss(side.server!.pid)
          const result = await loadGenerator.run({ url: side.server!.baseUrl + list.path, headers: bearer(side), connections: CONNECTIONS, duration: DURATION_S })
          side.rssUnderLoad = Math.max(side.rssUnderLoad, peak.stop())
          if (result.failures) throw new Error(`${side.name}, ${list.name}: ${result.failures}`)
          record(side, `${list.name} req/s`, result.reqPerSec)
          record(side, `${list.name} p50`, result.p50Ms)
          record(side, `${list.name} p95`, result.p95Ms)
        }
      }
    }
    report(sides, (performance.now() - started) / 1000)
  } finally {
    pushClient?.stop()
    loadGenerator?.stop()
    await tearDown(sides.map((side) => side.server), SERVER_URL, sides.map((side) => side.databaseName), workDir)
  }
}

/** The side's server on a fresh database: its tree transpiled into `dir`, the same settings for both sides. */
async function startSide(side: Side, dir: string): Promise<Server> {
  const databaseUrl = side.databaseName ? await freshDatabase(SERVER_URL!, side.databaseName) : undefined
  return startTreeServer(side.name, side.tree, dir, databaseUrl)
}

/** Pushes `files` to the side, `inFlight` at a time; every one must create an asset. */
async function pushFiles(client: PushClient, side: Side, files: string[], inFlight: number): Promise<Run> {
  await client.prepare(files, 'png', 'multipart')
  const run = await client.run(`${side.server!.baseUrl}/api/v1/assets`, side.apiKey!, inFlight)
  const failed = run.outcomes.filter((outcome) => !outcome.ok)
  if (failed.length > 0) throw new Error(`${side.name}: ${failed.length} pushes failed, the first: ${failed[0]!.detail}`)
  return run
}

async function expectLibrary(side: Side): Promise<void> {
  const total = await libraryTotal(side.server!.baseUrl, side.apiKey!)
  if (total !== ASSETS) throw new Error(`${side.name} holds ${total} assets, not ${ASSETS}`)
}

/** Both sides, the first one first on even turns, the other first on odd ones. */
function inTurn(sides: Side[], turn: number): Side[] {
  return turn % 2 === 0 ? sides : [...sides].reverse()
}

function bearer(side: Side): Record<string, string> {
  return { authorization: `Bearer ${side.apiKey}` }
}

function record(side: Side, figure: string, value: number): void {
  side.figures.set(figure, [...(side.figures.get(figure) ?? []), value])
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

/** Files per second over all the level's runs, and the percentiles of every push's time. */
function ingestFigures(inFlight: number): Figure[] {
  const runs = (side: Side) => side.ingest.get(inFlight)!
  const times = (side: Side) => runs(side).flatMap((run) => run.outcomes.map((outcome) => outcome.ms))
  const name = `ingest, ${inFlight} in flight`
  return [
    { name: `${name}`, unit: 'files/s', higherIsBetter: true, of: (side) => (times(side).length / runs(side).reduce((sum, run) => sum + run.windowMs, 0)) * 1000 },
    { name: `${name} p50`, unit: 'ms', higherIsBetter: false, of: (side) => percentile(times(side), 50) },
    { name: `${name} p95`, unit: 'ms', higherIsBetter: false, of: (side) => percentile(times(side), 95) },
  ]
}

function listFigures(list: string): Figure[] {
  return [
    { name: list, unit: 'req/s', higherIsBetter: true, of: (side) => mean(side.figures.get(`${list} req/s`)!) },
    { name: `${list} p50`, unit: 'ms', higherIsBetter: false, of: (side) => mean(side.figures.get(`${list} p50`)!) },
    { name: `${list} p95`, unit: 'ms', higherIsBetter: false, of: (side) => mean(side.figures.get(`${list} p95`)!) },
  ]
}

function report(sides: Side[], seconds: number): void {
  const [ours, baseline] = sides as [Side, Side]
  const figures: Figure[] = [
    ...IN_FLIGHT_LEVELS.flatMap(ingestFigures),
    ...LISTS.flatMap((list) => listFigures(list.name)),
    { name: 'RSS idle, empty library', unit: 'MiB', higherIsBetter: false, of: (side) => Number(mib(side.figures.get('rss idle')![0]!)) },
    { name: 'RSS under list load', unit: 'MiB', higherIsBetter: false, of: (side) => Number(mib(side.rssUnderLoad)) },
  ]
  const format = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1))
  console.log(`\nA: ${ours.name}\nB: ${baseline.name}`)
  console.log(`${ASSETS} assets, ${ROUNDS} rounds alternating A and B, ${SERVER_URL ? 'PostgreSQL' : 'embedded database'}, page cache off; ${seconds.toFixed(0)} s in all, load average ${loadAverage()}\n`)
  console.log(`| ${'figure'.padEnd(34)} | ${'unit'.padEnd(7)} | ${'A'.padStart(8)} | ${'B'.padStart(8)} | ${'A/B'.padEnd(10)} |`)
  console.log(`|${'-'.repeat(36)}|${'-'.repeat(9)}|${'-'.repeat(10)}|${'-'.repeat(10)}|${'-'.repeat(12)}|`)
  let worse = 0
  for (const figure of figures) {
    const [a, b] = [figure.of(ours), figure.of(baseline)]
    const ratio = a / b
    const isWorse = figure.higherIsBetter ? ratio < 1 - TOLERANCE : ratio > 1 + TOLERANCE
    if (isWorse) worse++
    console.log(`| ${figure.name.padEnd(34)} | ${figure.unit.padEnd(7)} | ${format(a).padStart(8)} | ${format(b).padStart(8)} | ${`${ratio.toFixed(2)}${isWorse ? ' WORSE' : ''}`.padEnd(10)} |`)
  }
  console.log(
    worse === 0
      ? `\nNo figure of A is worse than B's by more than ${TOLERANCE * 100}%.`
      : `\n${worse} figure${worse === 1 ? '' : 's'} of A worse than B's by more than ${TOLERANCE * 100}% (WORSE): run again to tell a change from noise.`,
  )
}

function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')
}
