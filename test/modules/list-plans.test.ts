import { CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listQuery, type AssetFilter } from '../../src/modules/assets/store.js'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { callApi } from '../support/fixtures.js'

/**
 * A library seeded by SQL (the planner's choices only show at a size no test pushes): 20,000 assets, a
 * minute apart. "zeppelin" is in the titles of the 8 oldest, "banner" in one in 40 (500), "poster" in the rest.
 */
const LIBRARY = 20_000
const RARE = 8
const BANNERS = LIBRARY / 40

let t: TestApp
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_STANDARD: '10000' } })
  acme = await seedOrganization(t.app, 'Acme')
  await sql`
    insert into assets (id, organization_id, title, mime_type, width, height, byte_size, sha256, blob_key, thumbnail_key, created_at, updated_at)
    select gen_random_uuid(), ${acme.org.id}::uuid,
      case when g <= ${RARE} then 'Zeppelin ' || g when g % 40 = 0 then 'Banner ' || g else 'Poster ' || g end,
      'image/png', 64, 48, 100, md5(g::text) || md5((-g)::text), 'blob-' || g, 'thumb-' || g,
      timestamptz '2026-01-01' + g * interval '1 minute', timestamptz '2026-01-01' + g * interval '1 minute'
    from generate_series(1, ${LIBRARY}) as g
  `.execute(t.database.handle.db)
  await sql`analyze assets`.execute(t.database.handle.db)
  // A first list teaches the service the library's size, so the lists below are planned as a large library's.
  await titles('limit=1')
})
afterAll(async () => {
  await t.close()
})

/** The list statement of a large library (LARGE_LIBRARY) as it ran: which scans of `relation` read rows, and how many in all. */
async function scansRun(filter: AssetFilter, relation = 'assets'): Promise<Array<{ scan: string; rows: number }>> {
  const compiled = listQuery(t.database.handle.db, acme.org.id, filter, { limit: 50, offset: 0 }, { countCap: 1_000, largeLibrary: true }).compile()
  const { rows } = await t.database.handle.db.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (analyze, format json) ${compiled.sql}`, [...compiled.parameters]))
  const explained = rows[0]!['QUERY PLAN']
  const [{ Plan }] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as [{ Plan: PlanNode }]
  const scans: Array<{ scan: string; rows: number }> = []
  const visit = (node: PlanNode) => {
    const loops = node['Actual Loops'] ?? 0
    // Actual Rows is per loop.
    if (node['Relation Name'] === relation && loops > 0) scans.push({ scan: node['Index Name'] ?? node['Node Type'], rows: (node['Actual Rows'] ?? 0) * loops })
    for (const child of node.Plans ?? []) visit(child)
  }
  visit(Plan)
  return scans
}

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Actual Loops'?: number
  'Actual Rows'?: number
  Plans?: PlanNode[]
}

async function titles(query: string): Promise<string[]> {
  const res = await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets?${query}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ data: Array<{ title: string }> }>().data.map((asset) => asset.title)
}

describe('the page of a full-text list', () => {
  it('is read from the matches the count found, not by walking the newest-first index past the rest', async () => {
    // The planner alone takes "zeppelin" (or its prefix) for far more than 8 titles and walks the
    // created-at index through the 19,992 newer assets that do not match.
    const scans = await scansRun({ q: 'zeppelin' })
    expect(scans.map(({ scan }) => scan)).not.toContain('assets_org_created_idx')
    for (const { rows } of scans) expect(rows).toBeLessThanOrEqual(RARE)
    expect(await titles('q=zeppelin')).toEqual(Array.from({ length: RARE }, (_, i) => `Zeppelin ${RARE - i}`))
    expect(await titles('q=zeppelin&sort=title&limit=3&offset=2')).toEqual(['Zeppelin 3', 'Zeppelin 4', 'Zeppelin 5'])
  })

  it('reads the matches once when they are all counted: the count, then only the page\u2019s rows by their ids', async () => {
    const scans = await scansRun({ q: 'banner' })
    expect(scans.map(({ scan }) => scan)).not.toContain('assets_org_created_idx')
    // The match set (500 rows, from the full-text index), then the 51 rows of the page (the page and one past it).
    expect(scans.map(({ rows }) => rows).sort((a, b) => a - b)).toEqual([51, BANNERS])
    const newest = Array.from({ length: 3 }, (_, i) => `Banner ${LIBRARY - 40 * i}`)
    expect(await titles('q=banner&limit=3')).toEqual(newest)
    expect(await titles('q=banner&limit=2&offset=1')).toEqual(newest.slice(1))
    const first = (await callApi(t.app, acme.readKey, 'GET', '/api/v1/assets?q=banner&limit=2')).json<{ next_cursor: string }>()
    expect(await titles(`q=banner&limit=2&cursor=${first.next_cursor}`)).toEqual([`Banner ${LIBRARY - 80}`, `Banner ${LIBRARY - 120}`])
  })

  it('walks the index when the matches are more than the count reads, reading about one page of them', async () => {
    const scans = await scansRun({ q: 'poster' })
    const walk = scans.find(({ scan }) => scan === 'assets_org_created_idx')
    expect(walk?.rows).toBeLessThanOrEqual(4 * 51)
    expect(await titles('q=poster&limit=2')).toEqual([`Poster ${LIBRARY - 1}`, `Poster ${LIBRARY - 2}`])
  })
})

describe('a record\u2019s collections and near-duplicates', () => {
  it('are read by the page\u2019s ids, never by reading every membership or pair of the database', async () => {
    const db = t.database.handle.db
    // A collection of every 13th asset (1,539 members), 1,500 pairs among the older assets, and the
    // newest 60 assets hashed, each the near-duplicate of the one before it. The planner took the
    // `exists` of either for a hashed subplan, which reads the whole table to answer the page's probes.
    const [collection] = (
      await sql<{ id: string }>`insert into collections (id, organization_id, name, kind) values (gen_random_uuid(), ${acme.org.id}::uuid, 'Campaign', 'manual') returning id`.execute(db)
    ).rows
    const ordered = sql`(select id, row_number() over (order by created_at desc, id desc) as place from assets where organization_id = ${acme.org.id}::uuid)`
    await sql`insert into collection_assets (collection_id, asset_id) select ${collection!.id}::uuid, id from ${ordered} as ordered where place % 13 = 1`.execute(db)
    await sql`
      insert into near_duplicate_pairs (asset_id, other_id, organization_id, distance)
      select newer.id, older.id, ${acme.org.id}::uuid, 3 from ${ordered} as newer join ${ordered} as older on older.place = newer.place + 1
      where newer.place <= 60 or newer.place between 10000 and 11499
    `.execute(db)
    await sql`update assets set perceptual_hash_algorithm = 'dhash' where id in (select id from ${ordered} as ordered where place <= 60)`.execute(db)
    await sql`analyze collection_assets, near_duplicate_pairs`.execute(db)

    for (const relation of ['collection_assets', 'near_duplicate_pairs']) {
      const scans = await scansRun({}, relation)
      expect(scans.map(({ scan }) => scan)).not.toContain('Seq Scan')
      // A probe per row of the page (51), and a member's or a pair's rows read again for its aggregate.
      expect(scans.reduce((sum, { rows }) => sum + rows, 0)).toBeLessThanOrEqual(2 * 51)
    }
    const res = await callApi(t.app, acme.readKey, 'GET', '/api/v1/assets?limit=14')
    const page = res.json<{ data: Array<{ id: string; collections: unknown[]; near_duplicates: Array<{ asset_id: string }> }> }>().data
    expect(page.map((asset) => asset.collections.length)).toEqual([1, ...Array<number>(12).fill(0), 1])
    expect(page[0]!.collections).toEqual([{ id: collection!.id, name: 'Campaign' }])
    expect(page.slice(0, 13).map((asset) => asset.near_duplicates[0]?.asset_id)).toEqual(page.slice(1).map((asset) => asset.id))
  })
})
