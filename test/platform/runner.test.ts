import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { backoffMs, claimDue, extendClaims, releaseClaims } from '../../src/platform/background/claims.js'
import { listen, notify } from '../../src/platform/background/listener.js'
import { Runner, type ClaimRequest, type RunnerOptions, type WorkQueue } from '../../src/platform/background/runner.js'
import { inTransaction, openDatabase, type DatabaseHandle, type Db } from '../../src/platform/db/index.js'
import { createTestDatabase, silentLogger, type TestDatabase } from '../support/database.js'
import { deferred, staysTrue, waitFor } from '../support/wait.js'

const onPostgres = Boolean(process.env.TEST_DATABASE_URL)
const TABLE = 'runner_test_jobs'

interface Job {
  id: string
  key: string | null
  attempts: number
  locked_by: string
}

interface JobRow {
  id: string
  key: string | null
  next_attempt_at: Date | null
  attempts: number
  locked_by: string | null
  locked_until: Date | null
  last_error: string | null
}

let database: TestDatabase
/** A second pool on PostgreSQL, so two runners are truly concurrent; the embedded database has one connection. */
let otherHandle: DatabaseHandle | undefined
let db: Db
let otherDb: Db
const runners: Runner<Job>[] = []

beforeAll(async () => {
  database = await createTestDatabase(inject('templateDir'))
  db = database.handle.db
  otherHandle = database.url ? await openDatabase({ databaseUrl: database.url, dataDir: '', logger: silentLogger, poolSize: 4 }) : undefined
  otherDb = otherHandle?.db ?? db
  await sql`
    create table ${sql.table(TABLE)} (
      id uuid primary key,
      key text,
      payload jsonb not null default '{}',
      next_attempt_at timestamptz,
      attempts integer not null default 0,
      locked_by text,
      locked_until timestamptz,
      last_error text
    );
    create index ${sql.id(`${TABLE}_due_idx`)} on ${sql.table(TABLE)} (next_attempt_at) where next_attempt_at is not null;
  `.execute(db)
})
afterAll(async () => {
  await otherHandle?.close()
  await database.dispose()
})
beforeEach(async () => {
  await sql`delete from ${sql.table(TABLE)}`.execute(db)
})
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop(1_000)))
})

/** Inserts due jobs with these keys, due in this order. */
async function insertJobs(keys: (string | null)[]): Promise<string[]> {
  const ids = keys.map(() => randomUUID())
  await sql`
    insert into ${sql.table(TABLE)} (id, key, next_attempt_at)
    select id, key, now() - make_interval(secs => (${keys.length} - n) / 1000.0)
    from unnest(${ids}::uuid[], ${keys}::text[]) with ordinality as job(id, key, n)
  `.execute(db)
  return ids
}

const jobRows = async () => (await sql<JobRow>`select * from ${sql.table(TABLE)} order by id`.execute(db)).rows
const allDone = async () => (await jobRows()).every((row) => row.next_attempt_at === null)
/** Read on the database's clock, which the claims use. */
const leasesRanOut = async () =>
  (await sql<{ ran_out: boolean }>`select coalesce(bool_and(locked_until < now()), true) as ran_out from ${sql.table(TABLE)}`.execute(db)).rows[0]!.ran_out

/** The keys of a claim that have no room left in their window: the test queue skips them. */
function busyKeys({ keysHeld, perKeyLimit, keyWindows, keyStartWindow }: ClaimRequest): string[] {
  if (perKeyLimit === undefined) return []
  return [...keysHeld].filter(([key, count]) => count >= (keyWindows.get(key) ?? keyStartWindow ?? perKeyLimit)).map(([key]) => key)
}

function jobQueue(queueDb: Db, work: WorkQueue<Job>['work']): WorkQueue<Job> {
  return {
    name: 'test-jobs',
    claim: (request) => {
      const { owner, limit, leaseMs } = request
      const busy = busyKeys(request)
      return claimDue<Job>(queueDb, {
        table: TABLE,
        idColumn: 'id',
        owner,
        limit,
        leaseMs,
        where: busy.length > 0 ? sql<boolean>`key is null or key <> all(${busy}::text[])` : undefined,
        returning: ['id', 'key', 'attempts', 'locked_by'],
      })
    },
    work,
    release: (owner, ids) => releaseClaims(queueDb, { table: TABLE, idColumn: 'id', owner, ids }),
    extend: (owner, ids, leaseMs) => extendClaims(queueDb, { table: TABLE, idColumn: 'id', owner, ids, leaseMs }),
    keyOf: (job) => job.key ?? job.id,
  }
}

/** Marks jobs done where `locked_by` still names the runner that claimed them; returns how many it marked. */
async function complete(queueDb: Db, jobs: Job[]): Promise<number> {
  const result = await sql`
    update ${sql.table(TABLE)}
    set next_attempt_at = null, attempts = attempts + 1, last_error = null, locked_by = null, locked_until = null
    where id = any(${jobs.map((job) => job.id)}::uuid[]) and locked_by = ${jobs[0]!.locked_by}
  `.execute(queueDb)
  return Number(result.numAffectedRows)
}

async function fail(queueDb: Db, job: Job, retryInMs: number): Promise<void> {
  await sql`
    update ${sql.table(TABLE)}
    set next_attempt_at = now() + make_interval(secs => ${retryInMs / 1000}), attempts = attempts + 1,
        last_error = 'boom', locked_by = null, locked_until = null
    where id = ${job.id} and locked_by = ${job.locked_by}
  `.execute(queueDb)
}

function runner(queue: WorkQueue<Job>, options: Partial<RunnerOptions> = {}): Runner<Job> {
  const created = new Runner(queue, {
    logger: silentLogger,
    batchSize: 1,
    concurrency: 1,
    leaseMs: 30_000,
    pollIntervalMs: 50,
    ...options,
  })
  runners.push(created)
  return created
}

/** A logger that keeps what it writes, to check warnings. */
function recordingLogger() {
  const lines: { level: number; msg: string; queue?: string }[] = []
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  return { logger, lines }
}

describe('claims', () => {
  it('back off exponentially with jitter, up to the maximum', () => {
    const backoff = { baseMs: 1_000, factor: 2, maxMs: 10_000 }
    for (let i = 0; i < 50; i++) {
      expect(backoffMs(1, backoff)).toBeGreaterThanOrEqual(800)
      expect(backoffMs(1, backoff)).toBeLessThanOrEqual(1_200)
      expect(backoffMs(3, backoff)).toBeGreaterThanOrEqual(3_200)
      expect(backoffMs(3, backoff)).toBeLessThanOrEqual(4_800)
      expect(backoffMs(20, backoff)).toBeLessThanOrEqual(12_000)
    }
  })

  it('take no more than the limit, whatever plan the database picks', async () => {
    await insertJobs(Array(20).fill(null))
    // The plan that took every due row: the picking subquery run again for each row (a nested loop).
    const claimed = await inTransaction(db, async (tx) => {
      for (const setting of ['enable_hashjoin', 'enable_mergejoin', 'enable_material', 'enable_hashagg', 'enable_sort']) await sql`select set_config(${setting}, 'off', true)`.execute(tx)
      return claimDue<Job>(tx, { table: TABLE, idColumn: 'id', owner: 'me', limit: 5, leaseMs: 30_000, returning: ['id'] })
    })
    expect(claimed).toHaveLength(5)
    expect((await jobRows()).filter((row) => row.locked_by === 'me')).toHaveLength(5)
  })

  it('release only what the owner still holds', async () => {
    const [mine, theirs] = await insertJobs(['a', 'b'])
    await claimDue<Job>(db, { table: TABLE, idColumn: 'id', owner: 'me', limit: 1, leaseMs: 30_000, returning: ['id'] })
    await claimDue<Job>(db, { table: TABLE, idColumn: 'id', owner: 'them', limit: 1, leaseMs: 30_000, returning: ['id'] })
    await releaseClaims(db, { table: TABLE, idColumn: 'id', owner: 'me', ids: [mine!, theirs!] })
    const rows = new Map((await jobRows()).map((row) => [row.id, row]))
    expect(rows.get(mine!)).toMatchObject({ locked_by: null, locked_until: null })
    expect(rows.get(theirs!)).toMatchObject({ locked_by: 'them' })
  })
})

describe('Runner', () => {
  it('works each item exactly once with two runners, never in both at once', async () => {
    await insertJobs(Array.from({ length: 500 }, () => null))
    const calls = new Map<string, number>()
    const inFlight = new Set<string>()
    const workedBy = new Map<string, number>()
    let overlaps = 0
    let marked = 0
    const queueFor = (name: string, queueDb: Db) =>
      jobQueue(queueDb, async (jobs) => {
        for (const job of jobs) {
          if (inFlight.has(job.id)) overlaps++
          inFlight.add(job.id)
          calls.set(job.id, (calls.get(job.id) ?? 0) + 1)
        }
        workedBy.set(name, (workedBy.get(name) ?? 0) + jobs.length)
        await sleep(1)
        const newlyMarked = await complete(queueDb, jobs)
        marked += newlyMarked
        for (const job of jobs) inFlight.delete(job.id)
      })
    const a = runner(queueFor('a', db), { batchSize: 10, concurrency: 3 })
    const b = runner(queueFor('b', otherDb), { batchSize: 10, concurrency: 3 })

    await Promise.all([a.drain(), b.drain()])

    expect(overlaps).toBe(0)
    expect(calls.size).toBe(500)
    expect([...calls.values()].every((count) => count === 1)).toBe(true)
    expect(marked).toBe(500)
    expect(workedBy.get('a')).toBeGreaterThan(0)
    expect(workedBy.get('b')).toBeGreaterThan(0)
    expect((await jobRows()).filter((row) => row.next_attempt_at !== null || row.locked_by !== null)).toEqual([])
  })

  it('gives an item to another runner when the lease runs out, and ignores the first runner’s late write', async () => {
    await insertJobs(['a', 'b', 'c'])
    const hung = deferred()
    let claimedAt = 0
    let lateMarked: number | undefined
    const a = runner(
      jobQueue(db, async (jobs) => {
        claimedAt = Date.now()
        await hung.promise
        lateMarked = await complete(db, jobs)
      }),
      { owner: 'runner-a', batchSize: 10, leaseMs: 300 },
    )
    a.start()
    await waitFor('runner a to claim', () => claimedAt > 0)

    let takenOverAt = 0
    const b = runner(
      jobQueue(otherDb, async (jobs) => {
        takenOverAt ||= Date.now()
        await complete(otherDb, jobs)
      }),
      { owner: 'runner-b', batchSize: 10, pollIntervalMs: 20 },
    )
    b.start()
    await waitFor('every job done', allDone)
    expect(takenOverAt - claimedAt).toBeGreaterThanOrEqual(250)

    hung.resolve()
    await waitFor('the late write of runner a', () => lateMarked !== undefined)
    expect(lateMarked).toBe(0)
    expect((await jobRows()).map(({ attempts, locked_by }) => ({ attempts, locked_by }))).toEqual(
      Array(3).fill({ attempts: 1, locked_by: null }),
    )
  })

  it('claims at once on wake()', async () => {
    let claims = 0
    const queue = jobQueue(db, async (jobs) => void (await complete(db, jobs)))
    const claim = queue.claim
    queue.claim = async (request) => {
      const jobs = await claim(request)
      claims++
      return jobs
    }
    const r = runner(queue, { pollIntervalMs: 60_000 })
    r.start()
    await waitFor('the first claim', () => claims === 1)

    await insertJobs(['a'])
    const wokenAt = Date.now()
    r.wake()
    await waitFor('every job done', allDone)
    expect(Date.now() - wokenAt).toBeLessThan(1_000)
  })

  it('retries a failure recorded by work() after its backoff', async () => {
    const backoff = { baseMs: 100, factor: 2, maxMs: 1_000 }
    const attempts: { at: number; attempts: number }[] = []
    const delays: number[] = []
    const r = runner(
      jobQueue(db, async ([job]) => {
        attempts.push({ at: Date.now(), attempts: job!.attempts })
        if (job!.attempts < 2) {
          delays.push(backoffMs(job!.attempts + 1, backoff))
          await fail(db, job!, delays.at(-1)!)
        } else {
          await complete(db, [job!])
        }
      }),
      { pollIntervalMs: 10 },
    )
    await insertJobs(['a'])
    r.start()

    await waitFor('every job done', allDone)
    expect(attempts.map((attempt) => attempt.attempts)).toEqual([0, 1, 2])
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(delays[0]!)
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(delays[1]!)
    expect(delays[1]!).toBeGreaterThan(delays[0]!)
    expect(await jobRows()).toEqual([expect.objectContaining({ attempts: 3, next_attempt_at: null, last_error: null })])
  })

  it('leaves the items of a work() that throws claimed until the lease runs out, and logs it', async () => {
    const { logger, lines } = recordingLogger()
    let calls = 0
    const r = runner(
      jobQueue(db, async (jobs) => {
        if (++calls === 1) throw new Error('the embedding service is down')
        await complete(db, jobs)
      }),
      { logger, leaseMs: 200, owner: 'thrower' },
    )
    await insertJobs(['a'])

    await r.drain()
    expect(await jobRows()).toEqual([expect.objectContaining({ locked_by: 'thrower', next_attempt_at: expect.any(Date) })])
    expect(lines).toEqual([expect.objectContaining({ level: 40, queue: 'test-jobs' })])

    await waitFor('the lease to run out', leasesRanOut)
    await r.drain()
    expect(calls).toBe(2)
    expect(await allDone()).toBe(true)
  })

  it('logs a failed claim and claims again at the next poll; drain() rejects', async () => {
    const { logger, lines } = recordingLogger()
    const queue = jobQueue(db, async (jobs) => void (await complete(db, jobs)))
    const claim = queue.claim
    let failures = 1
    queue.claim = (request) => (failures-- > 0 ? Promise.reject(new Error('connection refused')) : claim(request))
    const drained = runner(queue)
    await expect(drained.drain()).rejects.toThrow('connection refused')

    failures = 1
    await insertJobs(['a'])
    runner(queue, { logger, pollIntervalMs: 20 }).start()
    await waitFor('every job done', allDone)
    expect(lines).toEqual([expect.objectContaining({ level: 40, queue: 'test-jobs', err: expect.objectContaining({ message: 'connection refused' }) })])
  })

  it('holds at most perKeyConcurrency items of one key while other keys proceed', async () => {
    // The busy key's items are due first, so the other keys get slots only if the runner claims past them.
    await insertJobs([...Array(8).fill('busy'), ...Array(4).fill('b'), ...Array(4).fill('c')])
    const busyMayFinish = deferred()
    const inFlight = new Map<string, number>()
    let maxPerKey = 0
    const r = runner(
      jobQueue(db, async (jobs) => {
        const key = jobs[0]!.key!
        inFlight.set(key, (inFlight.get(key) ?? 0) + 1)
        maxPerKey = Math.max(maxPerKey, ...inFlight.values())
        await (key === 'busy' ? busyMayFinish.promise : sleep(5))
        await complete(db, jobs)
        inFlight.set(key, inFlight.get(key)! - 1)
      }),
      { concurrency: 6, perKeyConcurrency: 2, pollIntervalMs: 60_000 },
    )
    r.start()

    await waitFor('only the busy key to be left', async () => (await jobRows()).filter((row) => row.next_attempt_at !== null).every((row) => row.key === 'busy'))
    expect(inFlight.get('busy')).toBe(2)
    busyMayFinish.resolve()
    await waitFor('every job done', allDone)
    expect(maxPerKey).toBe(2)
    expect((await jobRows()).every((row) => row.attempts === 1)).toBe(true)
  })
})

describe('Runner, claiming ahead', () => {
  /** The ids each owner holds now. */
  const heldBy = async (owner: string) => (await jobRows()).filter((row) => row.locked_by === owner).map((row) => row.id)

  it('keeps the lease of items waiting beyond one lease: another runner does not take them', async () => {
    const LEASE_MS = 3_000
    const ids = await insertJobs([null, null, null, null])
    const workedBy = new Map<string, { id: string; at: number }[]>()
    // Each job takes half a lease, well within its own; the last waits one and a half leases to start.
    const queueFor = (name: string, queueDb: Db) =>
      jobQueue(queueDb, async (jobs) => {
        workedBy.set(name, [...(workedBy.get(name) ?? []), ...jobs.map((job) => ({ id: job.id, at: Date.now() }))])
        await sleep(LEASE_MS / 2)
        await complete(queueDb, jobs)
      })
    let otherClaims = 0
    const otherQueue = queueFor('b', otherDb)
    const claim = otherQueue.claim
    otherQueue.claim = async (request) => {
      const jobs = await claim(request)
      otherClaims++
      return jobs
    }
    const a = runner(queueFor('a', db), { owner: 'ahead', concurrency: 1, claimAhead: 4, leaseMs: LEASE_MS })
    a.start()
    await waitFor('runner a to hold every job', async () => (await heldBy('ahead')).length === 4)
    const claimedAt = Date.now()
    runner(otherQueue, { owner: 'other', pollIntervalMs: 20 }).start()

    await waitFor('every job done', allDone, 30_000)
    expect(workedBy.get('b')).toBeUndefined()
    expect(otherClaims).toBeGreaterThan(10)
    const worked = workedBy.get('a')!
    expect(worked.map((job) => job.id).sort()).toEqual([...ids].sort())
    expect(worked.at(-1)!.at - claimedAt).toBeGreaterThan(LEASE_MS)
  })

  it('gives the items waiting to start back at once on stop, and another runner takes them', async () => {
    const ids = await insertJobs([null, null, null, null])
    const hung = deferred()
    const workedBy = new Map<string, string[]>()
    const queueFor = (name: string, queueDb: Db) =>
      jobQueue(queueDb, async (jobs) => {
        workedBy.set(name, [...(workedBy.get(name) ?? []), ...jobs.map((job) => job.id)])
        if (name === 'a') await hung.promise
        await complete(queueDb, jobs)
      })
    const a = runner(queueFor('a', db), { owner: 'stopping-ahead', concurrency: 1, claimAhead: 4 })
    a.start()
    await waitFor('runner a to hold every job, one of them in work', async () => (await heldBy('stopping-ahead')).length === 4 && workedBy.get('a')?.length === 1)

    const stopping = a.stop(30_000)
    await waitFor('the waiting jobs to be given back', async () => (await heldBy('stopping-ahead')).length === 1)
    runner(queueFor('b', otherDb), { owner: 'taker', concurrency: 4, pollIntervalMs: 20 }).start()
    await waitFor('runner b to work the given-back jobs', () => workedBy.get('b')?.length === 3)
    expect(await heldBy('stopping-ahead')).toEqual(workedBy.get('a'))

    hung.resolve()
    await stopping
    await waitFor('every job done', allDone)
    expect([...workedBy.get('a')!, ...workedBy.get('b')!].sort()).toEqual([...ids].sort())
  })

  it("gives a key's waiting items back when one of its items fails, and works them once it succeeds again", async () => {
    const ids = await insertJobs(Array(8).fill('k'))
    const secondMayFinish = deferred()
    const worked: string[] = []
    let failed: Job | undefined
    const r = runner(
      jobQueue(db, async ([job]) => {
        worked.push(job!.id)
        if (worked.length === 1) {
          failed = job
          await fail(db, job!, 60_000)
          return [false]
        }
        if (worked.length === 2) await secondMayFinish.promise
        await complete(db, [job!])
        return [true]
      }),
      { owner: 'failing-ahead', concurrency: 2, perKeyConcurrency: 2, claimAhead: 4 },
    )
    r.start()
    // Two in work, six waiting; the failure gives the six back while the second is still in work.
    await waitFor('the failure to give the waiting jobs back', async () => failed !== undefined && (await heldBy('failing-ahead')).length === 1)
    expect(worked).toHaveLength(2)

    secondMayFinish.resolve()
    await waitFor('every job but the failed one done', async () => (await jobRows()).filter((row) => row.next_attempt_at !== null).length === 1)
    expect(worked.sort()).toEqual([...ids].sort())
    expect((await jobRows()).find((row) => row.next_attempt_at !== null)).toMatchObject({ id: failed!.id, last_error: 'boom' })
  })
})

describe('Runner.stop', () => {
  it('gives back items claimed but not started', async () => {
    const claimed = deferred()
    const returnClaim = deferred()
    let worked = false
    const queue = jobQueue(db, async () => void (worked = true))
    const claim = queue.claim
    queue.claim = async (request) => {
      const jobs = await claim(request)
      if (jobs.length > 0) {
        claimed.resolve()
        await returnClaim.promise
      }
      return jobs
    }
    const r = runner(queue, { owner: 'stopper', batchSize: 10 })
    await insertJobs(['a', 'b', 'c'])
    r.start()
    await claimed.promise
    expect((await jobRows()).map((row) => row.locked_by)).toEqual(['stopper', 'stopper', 'stopper'])

    const stopping = r.stop(1_000)
    returnClaim.resolve()
    await stopping
    expect(worked).toBe(false)
    expect((await jobRows()).map(({ locked_by, locked_until }) => ({ locked_by, locked_until }))).toEqual(
      Array(3).fill({ locked_by: null, locked_until: null }),
    )
  })

  it('lets work in flight finish within the timeout', async () => {
    const started = deferred()
    let signal: AbortSignal | undefined
    const r = runner(
      jobQueue(db, async (jobs, workSignal) => {
        signal = workSignal
        started.resolve()
        await sleep(100)
        await complete(db, jobs)
      }),
    )
    await insertJobs(['a'])
    r.start()
    await started.promise

    await r.stop(2_000)
    expect(await allDone()).toBe(true)
    expect(signal!.aborted).toBe(false)
  })

  it('aborts work still running after the timeout, leaving its items to their lease', async () => {
    const started = deferred()
    let signal: AbortSignal | undefined
    const r = runner(
      jobQueue(db, async (_jobs, workSignal) => {
        signal = workSignal
        started.resolve()
        await new Promise((resolve) => workSignal.addEventListener('abort', resolve))
      }),
      { owner: 'slow' },
    )
    await insertJobs(['a'])
    r.start()
    await started.promise

    const stoppedAt = Date.now()
    await r.stop(100)
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(90)
    expect(signal!.aborted).toBe(true)
    expect(await jobRows()).toEqual([expect.objectContaining({ locked_by: 'slow' })])
  })
})

describe('listen', () => {
  it.runIf(onPostgres)('hears a NOTIFY committed on another connection, and again after its connection drops', async () => {
    const channel = `runner_test_${randomUUID().slice(0, 8)}`
    const heard: string[] = []
    const { logger, lines } = recordingLogger()
    const listener = await listen(database.url!, [channel], (name) => heard.push(name), logger)
    try {
      await otherDb.transaction().execute(async (tx) => {
        await sql`select ${notify(channel)}`.execute(tx)
        // PostgreSQL sends nothing for a NOTIFY before its commit, so there is no moment to wait for: this
        // watches for one the listener would hear from an idle local server within milliseconds.
        await staysTrue('nothing heard before the commit', () => heard.length === 0, 50)
      })
      await waitFor('the NOTIFY', () => heard.length === 1)

      await sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'asset-library-listener'
      `.execute(db)
      // The reconnect reports the channel once, for what it may have missed.
      await waitFor('the report after the reconnect', () => heard.length === 2)
      expect(lines).toEqual([expect.objectContaining({ level: 40, channels: [channel] })])

      await sql`select ${notify(channel)}`.execute(otherDb)
      await waitFor('a NOTIFY after the reconnect', () => heard.length === 3)
      expect(heard).toEqual([channel, channel, channel])
    } finally {
      await listener.close()
    }
  })
})
