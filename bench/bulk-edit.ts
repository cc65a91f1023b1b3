/**
 * Bulk edit (issue 37): what one `POST /api/v1/assets/bulk` of `BENCH_BATCH` (500) assets costs against
 * the same edit sent as one `PATCH /api/v1/assets/{id}` per asset, the only way before it.
 *
 * One organization of `BENCH_ASSETS` (5,000) assets written straight into the tables. Each round sets
 * `client` to a new name on the same `BENCH_BATCH` assets, once by bulk edit and once by PATCHes (one at a
 * time, as a script or the web app's paced loop sends them), the two alternating which goes first, over
 * real HTTP with the rate limits lifted. Every answer is checked: each bulk result is `updated`, each
 * PATCH a 200. After each way, the `asset.updated` events written to the outbox are counted: both must
 * write exactly one per asset. Reports each way's wall time per round (p50, max) and the ratio.
 *
 *   npx tsx bench/bulk-edit.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/bulk-edit.ts
 */
import { sql } from 'kysely'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import type { Db } from '../src/platform/db/index.js'
import { percentile } from './support/child.js'
import { redactedUrl, startBenchAppOn } from './support/database.js'
import { envNumber } from './support/env.js'
import { seedAssetRows } from './support/synthetic.js'

const SERVER_URL = process.env.BENCH_DATABASE_URL
const ASSETS = envNumber('BENCH_ASSETS', 5_000)
const BATCH = envNumber('BENCH_BATCH', 500)
const ROUNDS = envNumber('BENCH_ROUNDS', 6)

interface Way {
  name: string
  times: number[]
  edit(client: string): Promise<void>
}

async function send(baseUrl: string, key: string, method: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answer = await response.json()
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`)
  return answer
}

async function updatedEvents(db: Db, organizationId: string): Promise<number> {
  const row = await sql<{ n: number }>`select count(*)::int as n from outbox_events where organization_id = ${organizationId} and event = 'asset.updated'`.execute(db)
  return row.rows[0]!.n
}

async function main(): Promise<void> {
  const where = SERVER_URL ? `PostgreSQL (${redactedUrl(SERVER_URL)})` : 'embedded (PGlite)'
  const bench = await startBenchAppOn('bulk_edit', SERVER_URL, { RATE_LIMIT_STANDARD: '1000000', RATE_LIMIT_CHEAP: '1000000' })
  try {
    const { app, baseUrl } = bench
    const db = bench.database.db
    const organization = await app.services.orgs.createOrganization({ name: 'bulk', slug: 'bench-bulk' })
    await seedAssetRows(db, organization.id, ASSETS)
    await sql`analyze`.execute(db)
    const { token: key } = await app.services.keys.create({ organizationId: organization.id, name: 'bench', scope: 'assets:write', expiresAt: null, createdBy: null })
    const ids = (await db.selectFrom('assets').select('id').where('organization_id', '=', organization.id).orderBy('id').limit(BATCH).execute()).map((row) => row.id)

    const ways: Way[] = [
      {
        name: `one POST /assets/bulk of ${BATCH}`,
        times: [],
        async edit(client) {
          const answer = (await send(baseUrl, key, 'POST', '/api/v1/assets/bulk', { ids, set: { client } })) as { results: Array<{ result: string }> }
          if (answer.results.some((result) => result.result !== 'updated')) throw new Error('a bulk result was not "updated"')
        },
      },
      {
        name: `${BATCH} PATCH /assets/{id}`,
        times: [],
        async edit(client) {
          for (const id of ids) await send(baseUrl, key, 'PATCH', `/api/v1/assets/${id}`, { client })
        },
      },
    ]
    console.log(`${where}: ${ASSETS.toLocaleString()} assets; ${ROUNDS} rounds, each setting client on the same ${BATCH} both ways`)
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ways : [...ways].reverse()
      for (const [index, way] of order.entries()) {
        const before = await updatedEvents(db, organization.id)
        const started = performance.now()
        await way.edit(`Client ${round}-${index}`)
        way.times.push(performance.now() - started)
        const written = (await updatedEvents(db, organization.id)) - before
        if (written !== BATCH) throw new Error(`${way.name} wrote ${written} asset.updated events for ${BATCH} assets`)
      }
    }
    console.log(`\n| way | p50 per ${BATCH} assets | max | per asset (p50) |\n|---|---|---|---|`)
    for (const way of ways) {
      const p50 = percentile(way.times, 50)
      console.log(`| ${way.name} | ${p50.toFixed(0)} ms | ${Math.max(...way.times).toFixed(0)} ms | ${((p50 / BATCH) * 1000).toFixed(0)} µs |`)
    }
    const [bulk, patches] = ways.map((way) => percentile(way.times, 50))
    console.log(`\nbulk ÷ PATCHes (p50): ${(bulk! / patches!).toFixed(3)}; one asset.updated per asset both ways`)
    console.log(`load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}`)
  } finally {
    await bench.close()
  }
}

await main()
