/**
 * The trash (issue 33): (a) the asset list costs the same whether 10% of a library is in the trash or
 * none is (target: p50 and p95 within 10%), and (b) how many trashed assets a second the purge removes.
 *
 * Two organizations of `BENCH_ASSETS` (100,000) assets each, written straight into the tables with
 * `insert … select generate_series` (the counters and logs follow by trigger) with one version row each:
 * in "trashed", `BENCH_TRASHED_PERCENT` (10%) of them are then moved to the trash by the statement
 * `DELETE /api/v1/assets/{id}` runs, applied to all of them at once. `GET /api/v1/assets` pages (offsets
 * 0, 50, 1,000 and 10,000; `LIST_CACHE_RECORDS=0`, so every request runs the statement) go one at a time
 * over real HTTP, alternating between the two organizations so that both see the same machine; every
 * answer's status and page size is checked. Then every trashed asset is made due and `purgeDueTrash`
 * (the background purge: 500 a statement, then each content's files through `removeIfUnreferenced`) is
 * timed until the trash is empty. The rows name no real files, so the file removals find nothing: the
 * figure is the database's side and the per-content lock, which is what limits it.
 *
 *   npx tsx bench/trash.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/trash.ts
 */
import { sql } from 'kysely'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { purgeDueTrash } from '../src/modules/trash/purge.js'
import type { Db } from '../src/platform/db/index.js'
import { silent } from './support/app.js'
import { percentile } from './support/child.js'
import { redactedUrl, startBenchAppOn } from './support/database.js'
import { envNumber } from './support/env.js'
import { seedAssetRows } from './support/synthetic.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL
const ASSETS = envNumber('BENCH_ASSETS', 100_000)
const TRASHED_PERCENT = envNumber('BENCH_TRASHED_PERCENT', 10)
const REQUESTS = envNumber('BENCH_REQUESTS', 400)
const WARMUP = envNumber('BENCH_WARMUP', 40)
const PAGE = 50
/** Pages the list reads, those that the smaller library still fills. */
const OFFSETS = [0, 50, 1000, 10_000].filter((offset) => offset + PAGE <= ASSETS * (1 - TRASHED_PERCENT / 100))
const TOLERANCE = 0.1

/** Moves `count` assets spread over the whole library (every nth) to the trash, as a delete does, in one statement. */
async function trashSpread(db: Db, organizationId: string, count: number): Promise<void> {
  const every = Math.max(1, Math.floor(ASSETS / count))
  await sql`
    with chosen as (
      select id from (select id, row_number() over (order by created_at desc, id desc) as n from assets where organization_id = ${organizationId}) as numbered
      where n % ${every} = 0 limit ${count}
    ),
    moved as (delete from assets where id in (select id from chosen) returning *)
    insert into trashed_assets (id, organization_id, sha256, external_id, asset, collection_ids, purge_at, deleted_by_kind, deleted_by_name)
    select moved.id, moved.organization_id, moved.sha256, moved.external_id, to_jsonb(moved) - 'search', '{}', now() + interval '30 days', 'key', 'bench'
    from moved
  `.execute(db)
}

interface Org {
  name: string
  key: string
  times: number[]
}

async function listPage(baseUrl: string, org: Org, offset: number): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${baseUrl}/api/v1/assets?limit=${PAGE}&offset=${offset}`, { headers: { authorization: `Bearer ${org.key}` } })
  const body = (await response.json()) as { data: unknown[] }
  const elapsed = performance.now() - started
  if (response.status !== 200 || body.data.length !== PAGE) throw new Error(`${org.name} offset ${offset}: ${response.status}, ${body.data?.length} assets`)
  return elapsed
}

const ms = (value: number) => `${value.toFixed(2)} ms`

async function main(): Promise<void> {
  const where = SERVER_URL ? `PostgreSQL (${redactedUrl(SERVER_URL)})` : 'embedded (PGlite)'
  const bench = await startBenchAppOn('trash', SERVER_URL, { LIST_CACHE_RECORDS: '0', RATE_LIMIT_CHEAP: '1000000' })
  try {
    const { app, baseUrl } = bench
    const db = bench.database.db
    const trashedCount = Math.round((ASSETS * TRASHED_PERCENT) / 100)
    const orgs: Org[] = []
    const seeding = performance.now()
    for (const [name, label] of [
      ['none', `${ASSETS.toLocaleString()} live, none trashed`],
      ['trashed', `${(ASSETS - trashedCount).toLocaleString()} live + ${trashedCount.toLocaleString()} trashed`],
      ['purged', `${(ASSETS - trashedCount).toLocaleString()} live, ${trashedCount.toLocaleString()} deleted and purged`],
    ] as const) {
      const organization = await app.services.orgs.createOrganization({ name, slug: `bench-${name}` })
      await seedAssetRows(db, organization.id, ASSETS)
      if (name !== 'none') await trashSpread(db, organization.id, trashedCount)
      if (name === 'purged') {
        await sql`update trashed_assets set purge_at = now() where organization_id = ${organization.id}`.execute(db)
        await purgeDueTrash(db, app.blobs, silent)
      }
      const { token } = await app.services.keys.create({ organizationId: organization.id, name: 'bench', scope: 'assets:read', expiresAt: null, createdBy: null })
      orgs.push({ name: label, key: token, times: [] })
    }
    await sql`analyze`.execute(db)
    console.log(`${where}: three organizations of ${ASSETS.toLocaleString()} assets; seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`)

    // Right after the moves, the rows that left are dead tuples that the list's index scans step over; a
    // vacuum (autovacuum's work, on its own schedule) removes them, but leaves their room in the table
    // and the index, which a deep page still crosses, whether the rows went to the trash or for good.
    let within = true
    for (const phase of ['right after the deletes', 'after `vacuum assets`']) {
      if (phase.startsWith('after')) await sql`vacuum analyze assets`.execute(db)
      for (const org of orgs) org.times = []
      const byOffset = new Map(orgs.map((org) => [org, new Map<number, number[]>(OFFSETS.map((offset) => [offset, []]))]))
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const offset = OFFSETS[i % OFFSETS.length]!
        // Rotate which goes first, so none always follows another.
        const order = [...orgs.slice(i % orgs.length), ...orgs.slice(0, i % orgs.length)]
        for (const org of order) {
          const elapsed = await listPage(baseUrl, org, offset)
          if (i < WARMUP) continue
          org.times.push(elapsed)
          byOffset.get(org)!.get(offset)!.push(elapsed)
        }
      }
      console.log(`\n${phase} (${REQUESTS} requests each):\n| library | list p50 | list p95 | p50 at offset ${OFFSETS.join(' / ')} |\n|---|---|---|---|`)
      for (const org of orgs) {
        const offsets = OFFSETS.map((offset) => percentile(byOffset.get(org)!.get(offset)!, 50).toFixed(2)).join(' / ')
        console.log(`| ${org.name} | ${ms(percentile(org.times, 50))} | ${ms(percentile(org.times, 95))} | ${offsets} ms |`)
      }
      const [none, trashed, purged] = orgs.map((org) => ({ p50: percentile(org.times, 50), p95: percentile(org.times, 95) }))
      const ratio = (a: { p50: number; p95: number }, b: { p50: number; p95: number }) => ({ p50: a.p50 / b.p50, p95: a.p95 / b.p95 })
      const [againstNone, againstPurged] = [ratio(trashed!, none!), ratio(trashed!, purged!)]
      console.log(`ratio trashed / none: p50 ${againstNone.p50.toFixed(3)}, p95 ${againstNone.p95.toFixed(3)}; trashed / purged: p50 ${againstPurged.p50.toFixed(3)}, p95 ${againstPurged.p95.toFixed(3)}`)
      within &&= Math.max(againstNone.p50, againstNone.p95) <= 1 + TOLERANCE
    }
    console.log(`${within ? 'PASS' : 'MISS'}: the list with ${TRASHED_PERCENT}% in the trash within ${TOLERANCE * 100}% of the list with none`)

    await sql`update trashed_assets set purge_at = now() - interval '1 second'`.execute(db)
    const purging = performance.now()
    const purged = await purgeDueTrash(db, app.blobs, silent)
    const seconds = (performance.now() - purging) / 1000
    const left = await db.selectFrom('trashed_assets').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
    if (purged !== trashedCount || left.n !== 0) throw new Error(`purged ${purged} of ${trashedCount}, ${left.n} left`)
    console.log(`\npurge: ${purged.toLocaleString()} trashed assets (and their version rows and files) in ${seconds.toFixed(2)} s = ${Math.round(purged / seconds).toLocaleString()} assets/s`)
    console.log(`load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}`)
  } finally {
    await bench.close()
  }
}

await main()
