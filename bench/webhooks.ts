/**
 * Webhooks: how fast one runner (the app's own `webhookDelivery.start()`: outbox fan-out, then signed
 * POSTs through the SSRF-guarded undici client, each attempt recorded) delivers events to a local HTTPS
 * receiver, beside a baseline loop that POSTs the same kind of signed bodies with undici `request`
 * directly at the runner's per-endpoint concurrency; and the latency from an event's commit to the
 * receiver having the request.
 *
 * Phases, on one app and one subscription (one endpoint), BENCH_EVENTS each:
 * - baseline: signed envelopes (signed at send time, the runner's headers) POSTed with undici `request`
 *   by min(WEBHOOK_CONCURRENCY, WEBHOOK_CONCURRENCY_PER_ENDPOINT) workers; before and after the burst.
 * - guarded: the same through the app's guarded client (createSafeFetcher, called as the sender calls
 *   it) without the database: what the client itself costs.
 * - burst: `asset.updated` events emitted in transactions of 100 while the runner runs
 *   (`eventsCommitted()` after each commit, as the services do), timed until the receiver has them all.
 * - backlog: the same number emitted with the runner stopped, then `start()`: the runner alone.
 * - paced: BENCH_RATE events per second for BENCH_PACED_SECONDS, one per transaction, as real changes
 *   come: the event-to-receipt latency.
 *
 * The receiver (support/webhook-receiver.ts) runs in a forked child and timestamps each request; every
 * event must arrive exactly once with a signature that verifyWebhook accepts, and the database must end
 * with every delivery succeeded at its first attempt, or the script throws. Every SQL statement the pg
 * driver sends is counted by kind (support for the analysis; see countStatements).
 *
 *   npx tsx bench/webhooks.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/webhooks.ts
 *   BENCH_RECEIVER_DELAY_MS=20 BENCH_EVENTS=2000 npx tsx bench/webhooks.ts
 */
import { sql } from 'kysely'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { performance, type EventLoopUtilization } from 'node:perf_hooks'
import pg from 'pg'
import { Agent, request } from 'undici'
import { percentile } from './support/child.js'
import { startBenchAppOn, type BenchAppOn, redactedUrl } from './support/database.js'
import { envNumber } from './support/env.js'
import { RECEIVER_CERT_FILE, startBenchReceiver, type BenchReceiver, type Receipt } from './support/webhook-receiver.js'
import { SERVICE_VERSION } from '../src/platform/version.js'
import { RESPONSE_BODY_BYTES } from '../src/modules/webhooks/delivery.js'
import { envelope } from '../src/modules/webhooks/envelope.js'
import { signatureHeader } from '../src/modules/webhooks/signature.js'
import { inTransaction, type Db } from '../src/platform/db/index.js'
import { emit } from '../src/platform/events/outbox.js'
import { uuidv7 } from '../src/platform/ids.js'
import { createSafeFetcher, type SafeFetcher } from '../src/platform/net/safe-fetch.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL || undefined
const EVENTS = envNumber('BENCH_EVENTS', 5000)
const PACED_RATE = envNumber('BENCH_RATE', 200)
const PACED_SECONDS = envNumber('BENCH_PACED_SECONDS', 5)
const WARMUP = envNumber('BENCH_WARMUP', 500)
/** How long the receiver waits before answering; 0 (the default) answers at once. */
const RECEIVER_DELAY_MS = Number(process.env.BENCH_RECEIVER_DELAY_MS ?? 0)
const EVENTS_PER_TRANSACTION = 100
const TARGET_SHARE = 0.5
const TARGET_P50_MS = 100
const RUNNER_PATH = '/hooks'
const BASELINE_PATH = '/baseline'
/** Stands in for the asset an `asset.updated` event names; nothing reads it. */
const ASSET_ID = uuidv7()

/** Epoch ms with sub-millisecond resolution, comparable with the receiver's (after its clock offset). */
const now = () => performance.timeOrigin + performance.now()

interface Phase {
  name: string
  /** baseline: undici request(); client: the app's guarded client alone; runner: the app's WebhookDelivery. */
  kind: 'baseline' | 'client' | 'runner'
  events: number
  /** Wall time from the phase's start (first emit, first POST, or start()) to the last receipt. */
  wallMs: number
  /** Receipt minus commit (runner) or minus the POST's start (baseline), ms. */
  latencies: number[]
  /** Receipt minus the envelope's emitted_at (the transaction's now(), ms resolution); runner only. */
  fromEmittedAt: number[]
  /** What the phase spent committing its events (runner phases), ms. */
  emitMs?: number
  /** Mean webhook_attempts.duration_ms (the runner's own timing of each POST, whole ms) of the phase's deliveries. */
  sendMs?: number
  statements: StatementTally
  note?: string
}

async function main(): Promise<void> {
  const statements = countStatements()
  let receiver: BenchReceiver | undefined
  let bench: BenchAppOn | undefined
  let agent: Agent | undefined
  let fetcher: SafeFetcher | undefined
  try {
    if (!Number.isInteger(RECEIVER_DELAY_MS) || RECEIVER_DELAY_MS < 0) throw new Error('BENCH_RECEIVER_DELAY_MS must be a whole number of ms, 0 or more')
    receiver = await startBenchReceiver(RECEIVER_DELAY_MS)
    const passThrough = Object.fromEntries(
      ['WEBHOOK_CONCURRENCY', 'WEBHOOK_CONCURRENCY_PER_ENDPOINT', 'WEBHOOK_TIMEOUT_MS'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
    )
    bench = await startBenchAppOn('webhooks', SERVER_URL, {
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      OUTBOUND_CA_FILE: RECEIVER_CERT_FILE,
      SERVE_BACKGROUND_WORK: 'false',
      ...passThrough,
    })
    const { app, config, database } = bench
    const db = database.db
    const delivery = app.services.webhookDelivery
    const concurrency = Math.min(config.webhooks.concurrency, config.webhooks.perEndpointConcurrency)

    const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)).rows[0]!.v
    console.log(
      `Database: ${database.kind === 'embedded' ? `embedded (PGlite, PostgreSQL ${version})` : `PostgreSQL ${version} at ${redactedUrl(SERVER_URL!)}, throwaway database ${bench.databaseName}`}`,
    )
    console.log(`Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
    console.log(
      `Runner: WEBHOOK_CONCURRENCY ${config.webhooks.concurrency}, WEBHOOK_CONCURRENCY_PER_ENDPOINT ${config.webhooks.perEndpointConcurrency}, ` +
        `WEBHOOK_TIMEOUT_MS ${config.webhooks.timeoutMs}; one subscription, so ${concurrency} sends in flight at most; baseline at ${concurrency}`,
    )
    console.log(
      `Receiver: ${receiver.origin} (forked child, answers 200 ${RECEIVER_DELAY_MS > 0 ? `after ${RECEIVER_DELAY_MS} ms` : 'at once'}), clock offset ${receiver.clockOffsetMs.toFixed(3)} ms`,
    )

    const org = await app.services.orgs.createOrganization({ name: 'Bench', slug: 'bench' })
    const { subscription, secret } = await app.services.webhooks.create(org.id, { url: `${receiver.origin}${RUNNER_PATH}`, events: ['asset.updated'], createdBy: null })
    agent = new Agent({ connect: { ca: readFileSync(RECEIVER_CERT_FILE, 'utf8') } })
    // A second guarded client as app.ts's createWebhookDelivery makes it (the app's own is not exposed).
    fetcher = createSafeFetcher({ allowlist: config.outboundAllowlist, ca: config.outboundCa, userAgent: `AssetLibrary-Webhooks/${SERVICE_VERSION}` })
    const baselineUrl = `${receiver.origin}${BASELINE_PATH}`
    const receiverClock = receiver.clockOffsetMs
    let seq = 0
    const commitAt = new Map<number, number>()

    /** Emits `count` events in transactions of `perTransaction`, waking the runner after each commit. */
    const emitEvents = async (count: number, perTransaction: number): Promise<number[]> => {
      const seqs: number[] = []
      for (let done = 0; done < count; done += perTransaction) {
        const batch = Array.from({ length: Math.min(perTransaction, count - done) }, () => seq++)
        await inTransaction(db, async (tx) => {
          for (const n of batch) await emit(tx, org.id, 'asset.updated', { seq: n, asset_id: ASSET_ID })
        })
        const at = now()
        for (const n of batch) commitAt.set(n, at)
        delivery.eventsCommitted()
        seqs.push(...batch)
      }
      return seqs
    }

    const waitForAll = async (path: string, count: number, what: string) => {
      const got = await receiver!.waitFor(path, count, 120_000 + count * 20)
      if (got < count) throw new Error(`${what}: the receiver got ${got} of ${count} requests within the time allowed`)
    }

    /** Every event of `seqs` exactly once, each signature valid: the phase's receipts, else it throws. */
    const checkedReceipts = async (path: string, seqs: number[], what: string): Promise<Receipt[]> => {
      const receipts = await receiver!.collect(path, secret)
      const problems = checkReceipts(receipts, seqs, org.id)
      if (problems.length > 0) throw new Error(`${what}: ${problems.join('; ')}`)
      await receiver!.reset()
      return receipts
    }

    const runnerPhase = async (name: string, seqs: number[], startedAt: number, emitMs: number | undefined, tally: StatementTally): Promise<Phase> => {
      const receipts = await checkedReceipts(RUNNER_PATH, seqs, name)
      const last = Math.max(...receipts.map((r) => r.at - receiverClock))
      const send = await sql<{ mean: number }>`
        select avg(a.duration_ms)::float8 as mean from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
        where d.subscription_id = ${subscription.id} and ((d.body::json) -> 'data' ->> 'seq')::int between ${Math.min(...seqs)} and ${Math.max(...seqs)}
      `.execute(db)
      return {
        sendMs: send.rows[0]!.mean,
        name,
        kind: 'runner',
        events: seqs.length,
        wallMs: last - startedAt,
        latencies: receipts.map((r) => r.at - receiverClock - commitAt.get(r.seq!)!),
        fromEmittedAt: receipts.map((r) => r.at - receiverClock - Date.parse(r.emittedAt!)),
        ...(emitMs !== undefined && { emitMs }),
        statements: tally,
      }
    }

    type Post = (url: string, headers: Record<string, string>, body: string) => Promise<number>
    /** undici's request() on a plain Agent that trusts the receiver: what sending alone costs. */
    const undiciPost: Post = async (url, headers, body) => {
      const response = await request(url, { dispatcher: agent, method: 'POST', headers, body })
      await response.body.text()
      return response.statusCode
    }
    /** The app's guarded client, configured and called as WebhookDelivery's SendQueue does, without the database. */
    const guardedPost: Post = async (url, headers, body) => {
      const response = await fetcher!.fetch(url, {
        method: 'POST',
        headers,
        body,
        totalTimeoutMs: config.webhooks.timeoutMs,
        followRedirects: false,
        anyStatus: true,
        maxBytes: RESPONSE_BODY_BYTES,
        truncateBody: true,
      })
      response.body.toString('utf8')
      return response.status
    }

    /** `count` signed envelopes POSTed by `concurrency` workers, each signed at send time with the runner's headers. */
    const sendingPhase = async (name: string, kind: 'baseline' | 'client', count: number, post: Post): Promise<Phase> => {
      const bodies = Array.from({ length: count }, (_, i) => {
        const id = uuidv7()
        return { id, body: envelope(id, 'asset.updated', org.id, new Date(), JSON.stringify({ seq: i, asset_id: ASSET_ID })) }
      })
      const sentAt: number[] = []
      const mark = statements.mark()
      const startedAt = now()
      let next = 0
      let failures = 0
      const worker = async () => {
        while (next < count) {
          const i = next++
          const timestamp = Math.floor(Date.now() / 1000)
          sentAt[i] = now()
          const headers = {
            'user-agent': `AssetLibrary-Webhooks/${SERVICE_VERSION}`,
            'content-type': 'application/json',
            'x-service-event': 'asset.updated',
            'x-service-delivery-id': bodies[i]!.id,
            'x-service-timestamp': String(timestamp),
            'x-service-signature': signatureHeader([secret], timestamp, bodies[i]!.body),
          }
          if ((await post(baselineUrl, headers, bodies[i]!.body)) !== 200) failures++
        }
      }
      await Promise.all(Array.from({ length: concurrency }, worker))
      if (failures > 0) throw new Error(`${name}: ${failures} POSTs were not answered 200`)
      const tally = statements.since(mark)
      const receipts = await checkedReceipts(
        BASELINE_PATH,
        Array.from({ length: count }, (_, i) => i),
        name,
      )
      const last = Math.max(...receipts.map((r) => r.at - receiverClock))
      return {
        name,
        kind,
        events: count,
        wallMs: last - startedAt,
        latencies: receipts.map((r) => r.at - receiverClock - sentAt[r.seq!]!),
        fromEmittedAt: [],
        statements: tally,
      }
    }

    // Warm-up: connections, TLS sessions, JIT, on both paths.
    await delivery.start()
    const warm = await emitEvents(WARMUP, EVENTS_PER_TRANSACTION)
    await waitForAll(RUNNER_PATH, warm.length, 'warm-up')
    await checkedReceipts(RUNNER_PATH, warm, 'warm-up')
    // The sending loops need more than a few hundred requests before their rate settles (JIT, GC).
    await sendingPhase('warm-up', 'baseline', EVENTS, undiciPost)
    await sendingPhase('warm-up', 'client', EVENTS, guardedPost)
    console.log(`\nWarm-up: ${WARMUP} events through the runner, ${EVENTS} POSTs each through undici and the guarded client`)

    const phases: Phase[] = []
    const report = (phase: Phase) => {
      phases.push(phase)
      const latency = phase.latencies.length > 0 ? `, latency p50 ${fmt(percentile(phase.latencies, 50))} ms` : ''
      console.log(`  ${phase.name}: ${phase.events} in ${secs(phase.wallMs)}, ${Math.round(rate(phase))}/s${latency}${phase.note ? ` (${phase.note})` : ''}`)
    }

    console.log(`\nMeasuring (${EVENTS} events per phase)`)
    report(await sendingPhase('baseline, before', 'baseline', EVENTS, undiciPost))
    report(await sendingPhase('guarded, before', 'client', EVENTS, guardedPost))

    {
      const mark = statements.mark()
      const startedAt = now()
      const seqs = await emitEvents(EVENTS, EVENTS_PER_TRANSACTION)
      const emitMs = now() - startedAt
      await waitForAll(RUNNER_PATH, EVENTS, 'burst')
      const phase = await runnerPhase('burst', seqs, startedAt, emitMs, statements.since(mark))
      phase.note = `emitting took ${secs(emitMs)}, the last receipt came ${secs(phase.wallMs - emitMs)} after the last commit`
      report(phase)
    }

    report(await sendingPhase('baseline, after', 'baseline', EVENTS, undiciPost))
    report(await sendingPhase('guarded, after', 'client', EVENTS, guardedPost))

    {
      await delivery.stop(10_000)
      const emitStarted = now()
      const seqs = await emitEvents(EVENTS, EVENTS_PER_TRANSACTION)
      const emitMs = now() - emitStarted
      const mark = statements.mark()
      const startedAt = now()
      await delivery.start()
      await waitForAll(RUNNER_PATH, EVENTS, 'backlog')
      const phase = await runnerPhase('backlog', seqs, startedAt, undefined, statements.since(mark))
      phase.note = `emitted beforehand with the runner stopped, in ${secs(emitMs)}; timed from start()`
      // Latency from commit would count the wait before start(): not meaningful here.
      phase.latencies = []
      phase.fromEmittedAt = []
      report(phase)
    }

    {
      const count = PACED_RATE * PACED_SECONDS
      const intervalMs = 1000 / PACED_RATE
      const mark = statements.mark()
      const startedAt = now()
      const pending: Array<Promise<number[]>> = []
      for (let i = 0; i < count; i++) {
        const due = startedAt + i * intervalMs
        const wait = due - now()
        if (wait > 1) await sleep(wait)
        // Open loop: each change commits on its own schedule, whether or not the previous one has.
        pending.push(emitEvents(1, 1))
      }
      const seqs = (await Promise.all(pending)).flat()
      const emitMs = now() - startedAt
      await waitForAll(RUNNER_PATH, count, 'paced')
      const phase = await runnerPhase(`paced, ${PACED_RATE}/s`, seqs, startedAt, emitMs, statements.since(mark))
      phase.note = `${count} events, one per transaction, committed over ${secs(emitMs)}`
      report(phase)
    }

    await checkDatabase(db, subscription.id, WARMUP + 2 * EVENTS + PACED_RATE * PACED_SECONDS)
    printReport(phases, database.kind, concurrency)
  } finally {
    statements.restore()
    await agent?.close()
    await fetcher?.close()
    await bench?.close()
    receiver?.stop()
  }
}

function checkReceipts(receipts: Receipt[], seqs: number[], organizationId: string): string[] {
  const problems: string[] = []
  const expected = new Set(seqs)
  const seen = new Set<number>()
  const ids = new Set<string>()
  let duplicates = 0
  let unexpected = 0
  let badSignatures = 0
  let badEnvelopes = 0
  for (const receipt of receipts) {
    if (receipt.verifyError !== null) badSignatures++
    if (receipt.event !== 'asset.updated' || receipt.organizationId !== organizationId || receipt.deliveryId !== receipt.deliveryHeader || !receipt.emittedAt) badEnvelopes++
    if (receipt.deliveryId !== undefined) ids.add(receipt.deliveryId)
    if (receipt.seq === undefined || !expected.has(receipt.seq)) unexpected++
    else if (seen.has(receipt.seq)) duplicates++
    else seen.add(receipt.seq)
  }
  if (seen.size !== expected.size) problems.push(`${expected.size - seen.size} of ${expected.size} events never arrived`)
  if (duplicates > 0) problems.push(`${duplicates} events arrived more than once`)
  if (unexpected > 0) problems.push(`${unexpected} requests carried no expected event`)
  if (badSignatures > 0) problems.push(`${badSignatures} signatures did not verify`)
  if (badEnvelopes > 0) problems.push(`${badEnvelopes} envelopes had the wrong event, organization or delivery id`)
  if (ids.size !== receipts.length) problems.push(`${receipts.length - ids.size} delivery ids were repeated`)
  return problems
}

/**
 * Every delivery succeeded at its first attempt, and the outbox is empty. The receiver has a request
 * before the runner has its answer and has written the attempt, so this waits a little for the last writes.
 */
async function checkDatabase(db: Db, subscriptionId: string, expected: number): Promise<void> {
  const counts = async () =>
    (
      await sql<{ deliveries: number; succeeded: number; attempts: number; outbox: number }>`
        select
          (select count(*)::int from webhook_deliveries where subscription_id = ${subscriptionId}) as deliveries,
          (select count(*)::int from webhook_deliveries where subscription_id = ${subscriptionId} and status = 'succeeded' and attempt_count = 1) as succeeded,
          (select count(*)::int from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.subscription_id = ${subscriptionId}) as attempts,
          (select count(*)::int from outbox_events) as outbox
      `.execute(db)
    ).rows[0]!
  const settled = (row: Awaited<ReturnType<typeof counts>>) => row.deliveries === expected && row.succeeded === expected && row.attempts === expected && row.outbox === 0
  let row = await counts()
  for (const deadline = Date.now() + 15_000; !settled(row) && Date.now() < deadline; row = await counts()) await sleep(100)
  console.log(`\nDatabase: ${row.deliveries} deliveries, ${row.succeeded} succeeded at the first attempt, ${row.attempts} attempts recorded, ${row.outbox} events left in the outbox`)
  if (!settled(row)) throw new Error(`the database does not show ${expected} deliveries each succeeded at one attempt with an empty outbox`)
}

function printReport(phases: Phase[], kind: 'embedded' | 'postgres', concurrency: number): void {
  const baselines = phases.filter((p) => p.kind === 'baseline')
  const baselineRate = Math.max(...baselines.map(rate))
  const clients = phases.filter((p) => p.kind === 'client')
  const headings = ['events', 'wall s', 'per s', 'vs baseline', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'stmts/ev.', 'CPU ms/ev.', 'loop busy']
  console.log(
    `\nSummary (${kind === 'embedded' ? 'embedded database' : 'PostgreSQL'}, ${concurrency} in flight; latency: commit to receipt, for baseline and guarded POST start to receipt; ` +
      `CPU: this process${kind === 'embedded' ? ' with the database worker' : ', PostgreSQL not included'}, emitting included; stmts/ev.: the runner's SQL statements per event, ` +
      `the emitting transactions not counted; loop busy: the main thread's event-loop utilisation)`,
  )
  console.log(`  ${'phase'.padEnd(18)}${headings.map((h) => h.padStart(12)).join('')}`)
  for (const phase of phases) {
    const lat = (p: number) => (phase.latencies.length ? fmt(percentile(phase.latencies, p)) : '-')
    const cells = [
      phase.events,
      (phase.wallMs / 1000).toFixed(2),
      Math.round(rate(phase)),
      // A paced phase's rate is the rate it was offered, not a capacity.
      phase.kind === 'baseline' || phase.name.startsWith('paced') ? '' : `${((100 * rate(phase)) / baselineRate).toFixed(0)}%`,
      lat(50),
      lat(95),
      lat(99),
      phase.latencies.length ? fmt(Math.max(...phase.latencies)) : '-',
      phase.kind === 'runner' ? (runnerStatements(phase.statements) / phase.events).toFixed(2) : '',
      (phase.statements.cpuMs / phase.events).toFixed(2),
      `${(100 * phase.statements.loop.utilization).toFixed(0)}%`,
    ]
    console.log(`  ${phase.name.padEnd(18)}${cells.map((c) => String(c).padStart(12)).join('')}`)
  }

  console.log('\nSQL statements per phase (count, rows returned or changed, ms inside client.query: the round trip, without waiting for a pool connection)')
  for (const phase of phases.filter((p) => p.kind === 'runner')) {
    const tally = phase.statements
    const busy = (100 * tally.ms) / phase.wallMs
    console.log(
      `  ${phase.name}: ${tally.total} statements (the runner's ${runnerStatements(tally)}, ${(runnerStatements(tally) / phase.events).toFixed(2)} per event), ` +
        `${fmt(tally.ms)} ms in statements (${busy.toFixed(0)}% of the wall time)`,
    )
    for (const [name, kindTally] of [...tally.byKind].sort((a, b) => b[1].ms - a[1].ms)) {
      console.log(
        `    ${name.padEnd(20)}${String(kindTally.count).padStart(7)} x ${fmt(kindTally.ms / kindTally.count, 2).padStart(6)} ms = ${fmt(kindTally.ms).padStart(8)} ms, ` +
          `${String(kindTally.rows).padStart(6)} rows (${(kindTally.rows / kindTally.count).toFixed(1)} per statement)`,
      )
    }
  }
  console.log(`\nWhere a send slot's time goes (${concurrency} slots kept busy for the whole phase, an upper bound):`)
  for (const phase of phases.filter((p) => p.kind === 'runner' && p.sendMs !== undefined && !p.name.startsWith('paced'))) {
    const slotMs = (concurrency * phase.wallMs) / phase.events
    console.log(`  ${phase.name}: ${fmt(slotMs, 2)} ms of slot time per delivery, of which the POST itself (mean webhook_attempts.duration_ms) ${fmt(phase.sendMs!, 2)} ms`)
  }
  for (const phase of phases.filter((p) => p.fromEmittedAt.length > 0)) {
    console.log(`  ${phase.name}: from the envelope's emitted_at (the transaction's start), p50 ${fmt(percentile(phase.fromEmittedAt, 50))} ms, p95 ${fmt(percentile(phase.fromEmittedAt, 95))} ms`)
  }

  console.log('')
  for (const phase of phases.filter((p) => p.kind === 'runner' && p.name !== 'backlog' && !p.name.startsWith('paced'))) {
    const share = rate(phase) / baselineRate
    console.log(
      `${share >= TARGET_SHARE ? 'PASS' : 'MISS'}: ${phase.name}, one runner at ${Math.round(rate(phase))} deliveries/s is ${(share * 100).toFixed(0)}% of the baseline's ` +
        `${Math.round(baselineRate)}/s (target >= ${TARGET_SHARE * 100}%)`,
    )
  }
  if (clients.length > 0) {
    const best = Math.max(...clients.map(rate))
    console.log(`(the guarded client alone, no database: ${Math.round(best)}/s at best, ${((100 * best) / baselineRate).toFixed(0)}% of the baseline)`)
  }
  const backlog = phases.find((p) => p.name === 'backlog')
  if (backlog) console.log(`(backlog, the runner alone without concurrent emits: ${Math.round(rate(backlog))}/s, ${((100 * rate(backlog)) / baselineRate).toFixed(0)}% of the baseline)`)
  const paced = phases.find((p) => p.name.startsWith('paced'))
  if (paced) {
    const p50 = percentile(paced.latencies, 50)
    console.log(`${p50 < TARGET_P50_MS ? 'PASS' : 'MISS'}: ${paced.name} event-to-receipt latency p50 ${fmt(p50)} ms, p95 ${fmt(percentile(paced.latencies, 95))} ms (target p50 < ${TARGET_P50_MS})`)
  }
}

/** The statements of the runner, without the bench's own emitting transactions (the runner opens none). */
function runnerStatements(tally: StatementTally): number {
  return tally.total - (tally.byKind.get('emit (bench)')?.count ?? 0) - (tally.byKind.get('begin/commit')?.count ?? 0)
}

function rate(phase: Phase): number {
  return (phase.events * 1000) / phase.wallMs
}

interface KindTally {
  count: number
  rows: number
  ms: number
}

interface StatementTally {
  total: number
  ms: number
  byKind: Map<string, KindTally>
  /** CPU time of this process (user + system, every thread: the embedded database's worker too), ms. */
  cpuMs: number
  /** The main thread's event-loop utilisation (a snapshot in a mark; the share of the time busy in a difference). */
  loop: EventLoopUtilization
}

/** What the webhook pipeline's statements are, told apart by their SQL. */
const STATEMENT_KINDS: Array<[string, RegExp]> = [
  ['begin/commit', /^\s*(begin|commit|rollback)\b/i],
  ['emit (bench)', /^\s*insert into "outbox_events"/i],
  ['release events', /^\s*update "outbox_events"\s+set locked_by = null/i],
  ['claim events', /^\s*with picked as materialized \(\s*select "id" as picked_id from "outbox_events"/i],
  ['fan-out', /^\s*with done as \(\s*delete from outbox_events/i],
  ['subscribers', /^\s*select "id", "organization_id", "events", "created_at" from "webhook_subscriptions"/i],
  ['release deliveries', /^\s*update "webhook_deliveries"\s+set locked_by = null/i],
  ['extend leases', /^\s*update "webhook_deliveries"\s+set locked_until = now\(\)/i],
  ['claim deliveries', /^\s*with held as \(/i],
  ['record attempts', /^\s*with outcome as/i],
]

/**
 * Counts every statement sent through the pg driver (the app's pool on either database) by wrapping
 * pg.Client's query(): per kind, how many, the rows each returned or changed, and the time from the
 * call to its answer. Kysely takes a pool connection before it calls query(), so on the embedded
 * database (one connection) the time excludes waiting for the connection.
 */
function countStatements() {
  const byKind = new Map<string, KindTally>()
  let total = 0
  let ms = 0
  type Query = (this: pg.Client, ...args: unknown[]) => unknown
  const prototype = pg.Client.prototype as unknown as { query: Query }
  const original = prototype.query
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0]
    const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '')
    const name = STATEMENT_KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other'
    const started = performance.now()
    const result = original.apply(this, args)
    if (result instanceof Promise) {
      void result.then(
        (answer: { rowCount?: number | null }) => {
          const tally = byKind.get(name) ?? { count: 0, rows: 0, ms: 0 }
          tally.count++
          tally.rows += answer?.rowCount ?? 0
          tally.ms += performance.now() - started
          byKind.set(name, tally)
          total++
          ms += performance.now() - started
        },
        () => undefined,
      )
    }
    return result
  }
  const cpuMs = () => {
    const usage = process.cpuUsage()
    return (usage.user + usage.system) / 1000
  }
  const snapshot = (): StatementTally => ({
    total,
    ms,
    byKind: new Map([...byKind].map(([k, v]) => [k, { ...v }])),
    cpuMs: cpuMs(),
    loop: performance.eventLoopUtilization(),
  })
  return {
    mark: snapshot,
    since(mark: StatementTally): StatementTally {
      const now = snapshot()
      const kinds = new Map<string, KindTally>()
      for (const [name, tally] of now.byKind) {
        const before = mark.byKind.get(name) ?? { count: 0, rows: 0, ms: 0 }
        if (tally.count > before.count) kinds.set(name, { count: tally.count - before.count, rows: tally.rows - before.rows, ms: tally.ms - before.ms })
      }
      return { total: now.total - mark.total, ms: now.ms - mark.ms, byKind: kinds, cpuMs: now.cpuMs - mark.cpuMs, loop: performance.eventLoopUtilization(now.loop, mark.loop) }
    },
    restore() {
      prototype.query = original
    },
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`
}

function fmt(value: number, digits = 1): string {
  return value.toFixed(digits)
}

// Last, so that every constant above is initialised before main() runs.
await main()
