/**
 * The list figures of several trees of this repository, measured in one window (issue 39's bisect):
 * peer-table.ts compares two trees; this compares any number, so a run over the commits that close each
 * issue shows which issue moved the uncached list, the tag filter and `q=`, and by how much, without
 * chaining ratios from runs on different days.
 *
 * - Each ref is exported and started as peer-table.ts does (support/trees.ts): built JavaScript, its own
 *   fresh database, rate limits lifted, the page cache off. All servers run side by side.
 * - Each library is filled to BENCH_ASSETS through the API with the list benches' planned library
 *   (support/library.ts), then every server is left to finish its thumbnails and analyses.
 * - Every list is measured BENCH_ROUNDS times per tree, 10 connections for BENCH_DURATION seconds, the
 *   trees' order turned by one place from run to run so no tree always goes first. Each run starts once
 *   every server is idle.
 * - Beside req/s and the percentiles, it reports the server's CPU per request (the process, every thread:
 *   the embedded database's too). On a machine whose hypervisor takes a share of the CPU under load, the
 *   rate moves with that share; CPU per request moves much less.
 *
 * It prints one table per list, each tree against the first ref. A report: it exits 0.
 *
 *   npx tsx bench/tree-history.ts 15b6366 0f050ff a07b7c5 c781a22 HEAD
 *   BENCH_ASSETS=2000 BENCH_ROUNDS=2 npx tsx bench/tree-history.ts 2c8e2ee HEAD
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/tree-history.ts …
 *
 * A ref is any git ref; the current checkout's uncommitted changes count only under the name `.`. Node
 * flags may follow a ref, each after an `@`, to measure a setting against the same tree without it:
 *
 *   npx tsx bench/tree-history.ts . .@--max-semi-space-size=4
 *
 * Linux only (/proc).
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { redactedUrl } from './support/database.js'
import { envNumber } from './support/env.js'
import { plannedLibrary, pushLibrary } from './support/library.js'
import { startLoadGenerator, type LoadGenerator } from './support/load-generator.js'
import { cpuTicks, mib, sampleRss, type Server } from './support/serve-process.js'
import { COMPARED_LISTS, describeTree, freshDatabase, libraryTotal, REPO, startTreeServer, tearDown, treeAt, untilAnalysed, untilIdle } from './support/trees.js'

const ASSETS = envNumber('BENCH_ASSETS', 10_000)
const ROUNDS = envNumber('BENCH_ROUNDS', 3)
const DURATION_S = envNumber('BENCH_DURATION', 5)
const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const CONNECTIONS = 10
const SEED_IN_FLIGHT = 8
/** Linux's clock ticks per second, in which /proc counts CPU time. */
const TICKS_PER_S = 100
const LISTS = COMPARED_LISTS

interface Tree {
  label: string
  dir: string
  /** Given to `node` before the server's script. */
  nodeFlags: string[]
  databaseName: string | undefined
  server?: Server
  apiKey?: string
  /** Per list: each run's req/s, p50, p95 and CPU ms per request. */
  runs: Map<string, Array<{ reqPerSec: number; p50Ms: number; p95Ms: number; cpuMsPerRequest: number }>>
  rssUnderLoad: number
}

await main()

async function main(): Promise<void> {
  const refs = process.argv.slice(2)
  if (refs.length < 2) throw new Error('name two refs or more, the first the one the others are compared with')
  if (!existsSync('/proc/self/status')) {
    console.log('This bench reads /proc: Linux only. Nothing measured.')
    return
  }
  const workDir = mkdtempSync(join(tmpdir(), 'al-bench-history-'))
  const trees: Tree[] = refs.map((spec, i) => ({
    ...treeWithFlags(spec, i, refs),
    databaseName: SERVER_URL && `al_bench_history_${i}_${randomBytes(4).toString('hex')}`,
    runs: new Map(),
    rssUnderLoad: 0,
  }))
  let loadGenerator: LoadGenerator | undefined
  const started = performance.now()
  try {
    console.log(
      `${trees.length} trees, ${ASSETS} assets each, ${ROUNDS} rounds, ${DURATION_S} s a run; ${SERVER_URL ? `PostgreSQL at ${redactedUrl(SERVER_URL)}` : 'embedded database'}; ` +
        `Node ${process.version}, ${cpus().length} CPUs, load average ${loadAverage()}`,
    )
    for (const [i, tree] of trees.entries()) {
      tree.server = await startTreeServer(tree.label, tree.dir, join(workDir, `tree-${i}`), tree.databaseName && (await freshDatabase(SERVER_URL!, tree.databaseName)), tree.nodeFlags)
      tree.apiKey = tree.server.apiKey
      if (!tree.apiKey) throw new Error(`${tree.label}: the first start printed no API key`)
      await pushLibrary(tree.server.baseUrl, tree.apiKey, plannedLibrary(ASSETS), SEED_IN_FLIGHT)
      const total = await libraryTotal(tree.server.baseUrl, tree.apiKey)
      if (total !== ASSETS) throw new Error(`${tree.label} holds ${total} assets, not ${ASSETS}`)
      console.log(`${tree.label}: ${ASSETS} assets pushed after ${seconds(started)} s`)
    }
    for (const tree of trees) await untilAnalysed(tree.label, tree.server!.baseUrl, tree.apiKey!, 900_000)
    const pids = trees.map((tree) => tree.server!.pid)
    await untilIdle(pids)
    console.log(`Every library analysed and idle after ${seconds(started)} s`)

    loadGenerator = await startLoadGenerator()
    for (const list of LISTS) for (const tree of trees) await loadGenerator.run({ url: tree.server!.baseUrl + list.path, headers: bearer(tree), connections: CONNECTIONS, duration: 1 })
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, list] of LISTS.entries()) {
        for (const tree of turned(trees, round * LISTS.length + index)) {
          await untilIdle(pids)
          await measure(loadGenerator, tree, list)
        }
      }
    }
    report(trees, seconds(started))
  } finally {
    loadGenerator?.stop()
    await tearDown(trees.map((tree) => tree.server), SERVER_URL, trees.map((tree) => tree.databaseName), workDir)
  }
}

async function measure(loadGenerator: LoadGenerator, tree: Tree, list: (typeof LISTS)[number]): Promise<void> {
  const { pid } = tree.server!
  const peak = sampleRss(pid)
  const ticksBefore = cpuTicks(pid)
  const result = await loadGenerator.run({ url: tree.server!.baseUrl + list.path, headers: bearer(tree), connections: CONNECTIONS, duration: DURATION_S })
  const cpuMs = ((cpuTicks(pid) - ticksBefore) * 1000) / TICKS_PER_S
  tree.rssUnderLoad = Math.max(tree.rssUnderLoad, peak.stop())
  if (result.failures) throw new Error(`${tree.label}, ${list.name}: ${result.failures}`)
  const run = { reqPerSec: result.reqPerSec, p50Ms: result.p50Ms, p95Ms: result.p95Ms, cpuMsPerRequest: cpuMs / result.completed }
  tree.runs.set(list.name, [...(tree.runs.get(list.name) ?? []), run])
}

/**
 * `ref` or `ref@--flag@--flag`: the tree, and the flags its `node` starts with, both in its label. A spec
 * named again (the same tree started twice, to see how far two identical servers differ in one window)
 * gets its position in the label, so the report's rows tell them apart.
 */
function treeWithFlags(spec: string, index: number, specs: string[]): { dir: string; label: string; nodeFlags: string[] } {
  const [ref, ...nodeFlags] = spec.split('@--')
  const tree = ref === '.' ? { dir: REPO, label: `this checkout (${describeTree(REPO)})` } : treeAt(ref!)
  const flags = nodeFlags.map((flag) => `--${flag}`)
  const repeated = specs.indexOf(spec) !== index ? [`(#${index + 1})`] : []
  return { ...tree, label: [tree.label, ...flags, ...repeated].join(' '), nodeFlags: flags }
}

/** The trees starting at position `turn` (modulo their number), so each goes first in turn. */
function turned(trees: Tree[], turn: number): Tree[] {
  const start = turn % trees.length
  return [...trees.slice(start), ...trees.slice(0, start)]
}

function bearer(tree: Tree): Record<string, string> {
  return { authorization: `Bearer ${tree.apiKey}` }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Per list, each tree's medians over its runs, and its rate and CPU per request against the first tree's. */
function report(trees: Tree[], elapsedS: string): void {
  console.log(`\n${ASSETS} assets, ${ROUNDS} rounds, ${SERVER_URL ? 'PostgreSQL' : 'embedded database'}, page cache off; ${elapsedS} s in all, load average ${loadAverage()}`)
  console.log('Medians over the rounds; "÷ first" is the tree against the first one named (req/s: below 1 is slower; CPU: above 1 costs more).')
  const [first] = trees as [Tree]
  for (const list of LISTS) {
    const figure = (tree: Tree, key: 'reqPerSec' | 'p50Ms' | 'p95Ms' | 'cpuMsPerRequest') => median(tree.runs.get(list.name)!.map((run) => run[key]))
    console.log(`\n${list.name} (\`${list.path}\`)\n`)
    console.log('| tree | req/s | ÷ first | p50 ms | p95 ms | CPU ms/request | ÷ first |')
    console.log('|---|---|---|---|---|---|---|')
    for (const tree of trees) {
      const rate = figure(tree, 'reqPerSec')
      const cpu = figure(tree, 'cpuMsPerRequest')
      console.log(
        `| ${tree.label} | ${rate.toFixed(0)} | ${(rate / figure(first, 'reqPerSec')).toFixed(2)} | ${figure(tree, 'p50Ms').toFixed(1)} | ${figure(tree, 'p95Ms').toFixed(1)} | ` +
          `${cpu.toFixed(2)} | ${(cpu / figure(first, 'cpuMsPerRequest')).toFixed(2)} |`,
      )
    }
  }
  console.log('\n| tree | RSS under the list loads, MiB | ÷ first |\n|---|---|---|')
  for (const tree of trees) console.log(`| ${tree.label} | ${mib(tree.rssUnderLoad)} | ${(tree.rssUnderLoad / first.rssUnderLoad).toFixed(2)} |`)
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(0)
}

function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')
}
