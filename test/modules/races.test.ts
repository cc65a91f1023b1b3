import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES_ON_DISK, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, organizationApi, outboxEvents, pushAndRead, type OrganizationApi } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { waitFor } from '../support/wait.js'

const postgres = Boolean(process.env.TEST_DATABASE_URL)

let t: TestApp
let acme: Seeded
let call: OrganizationApi['call']

beforeAll(async () => {
  // Races need many pushes on one key at once.
  t = await startTestApp({ env: { ...FILES_ON_DISK, RATE_LIMIT_EXPENSIVE: '1000' } })
  acme = await seedOrganization(t.app, 'Acme')
  ;({ call } = organizationApi(t.app, acme))
})
afterAll(() => t.close())

const image = async () => (await uniquePng()).toString('base64')

const pushAsset = async (fields: object = {}) => (await pushAndRead(t.app, acme, { title: 'Race', ...fields })).record

let collections = 0
async function manualCollection(): Promise<string> {
  const res = await call('POST', '/api/v1/collections', { name: `Race ${++collections}` })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().id
}

describe('deleting an asset', () => {
  it('answers 204 once and emits one event when many deletes race', async () => {
    const { id } = await pushAsset()
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('DELETE', `/api/v1/assets/${id}`)))
    const statuses = answers.map((res) => res.statusCode).sort()
    expect(statuses).toEqual([204, ...Array(19).fill(404)])
    for (const res of answers.filter((r) => r.statusCode === 404)) expectProblem(res, 404, 'not_found')
    const events = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.deleted')).filter((event) => event.id === id)
    expect(events).toHaveLength(1)
  })

  it('answers 204 to a purge when the row is gone but its file could not be removed, and leaves the file', async () => {
    const { id, sha256 } = await pushAsset()
    // A directory where the original should be: unlink fails (EISDIR), as a full or read-only disk would.
    const original = join(t.config.blobDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256)
    rmSync(original)
    mkdirSync(original)
    try {
      expect((await call('DELETE', `/api/v1/assets/${id}`)).statusCode).toBe(204)
      expect((await call('DELETE', `/api/v1/trash/${id}`)).statusCode).toBe(204)
      expectProblem(await call('GET', `/api/v1/assets/${id}`), 404, 'not_found')
      expectProblem(await call('POST', `/api/v1/trash/${id}/restore`), 404, 'not_found')
    } finally {
      rmSync(original, { recursive: true, force: true })
    }
  })
})

describe('the kept counts', () => {
  it('stay equal to a count of the library under concurrent pushes, duplicate pushes, tag edits and deletes', async () => {
    const existing = await Promise.all(
      Array.from({ length: 25 }, (_, i) => pushAsset({ tag_names: i % 2 ? ['Counted', 'odd'] : ['counted'], client: i % 2 ? 'Acme' : 'ACME', product: 'Kept' })),
    )
    const images = await Promise.all(Array.from({ length: 25 }, () => image()))
    const answers = await Promise.all([
      ...images.map((image_base64, i) =>
        call('POST', '/api/v1/assets', { image_base64, title: 'Counted', tag_names: i % 3 ? ['counted', 'new'] : ['Third'], client: i % 2 ? 'acme' : 'Hooli', asset_type: 'Logo' }),
      ),
      // The same bytes again: one of each pair creates, the other is its duplicate.
      ...images.slice(0, 10).map((image_base64) => call('POST', '/api/v1/assets', { image_base64, title: 'Counted twice', tag_names: ['counted'], client: 'Initech' })),
      ...existing.slice(0, 15).map(({ id }) => call('DELETE', `/api/v1/assets/${id}`)),
      ...existing.slice(15).map(({ id }, i) => call('PATCH', `/api/v1/assets/${id}`, { tag_names: ['Edited', 'counted'], ...(i % 2 ? { client: 'Hooli' } : { product: null, asset_type: 'Icon' }) })),
    ])
    expect(answers.map((res) => res.statusCode).filter((status) => status >= 300)).toEqual([])
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(25)
    const db = t.database.handle.db
    const { rows } = await sql<{ counted: number; bytes: string; asset_count: number; byte_count: string }>`
      select (select count(*)::int from assets where organization_id = o.id) as counted,
             (select coalesce(sum(byte_size), 0)::text from assets where organization_id = o.id) as bytes,
             o.asset_count, o.byte_count::text
      from organizations o where o.id = ${acme.org.id}
    `.execute(db)
    expect(rows[0]!.asset_count).toBe(rows[0]!.counted)
    expect(rows[0]!.byte_count).toBe(rows[0]!.bytes)
    expect((await call('GET', '/api/v1/assets?limit=1')).json().total).toBe(rows[0]!.counted)

    const tags = await sql<{ name: string; asset_count: number; counted: number }>`
      select name, asset_count, (select count(*)::int from assets a where a.organization_id = tags.organization_id and a.tag_keys @> array[lower(tags.name)]) as counted
      from tags where organization_id = ${acme.org.id} order by name
    `.execute(db)
    expect(tags.rows.map((tag) => tag.name.toLowerCase()).sort()).toEqual(['counted', 'edited', 'new', 'odd', 'third'])
    for (const tag of tags.rows) {
      expect(tag.asset_count, tag.name).toBe(tag.counted)
      expect((await call('GET', `/api/v1/assets?tag=${encodeURIComponent(tag.name.toUpperCase())}&limit=1`)).json().total, tag.name).toBe(tag.counted)
    }

    // Every name the assets use, beside every kept count, each counted again from the assets.
    const names = await sql<{ name: string; kept: number; counted: number }>`
      with kept as (
        select field || '=' || key as name, sum(asset_count)::int as n from asset_name_counts
          where organization_id = ${acme.org.id} and field in ('asset_type', 'client', 'product') group by field, key
      ),
      counted as (
        select named.field || '=' || lower(named.value) as name, count(*)::int as n from assets
          cross join lateral (values ('asset_type', asset_type), ('client', client), ('product', product)) as named(field, value)
          where organization_id = ${acme.org.id} and named.value is not null group by 1
      )
      select name, coalesce(kept.n, 0) as kept, coalesce(counted.n, 0) as counted from kept full join counted using (name) order by name
    `.execute(db)
    expect(names.rows.filter((name) => name.counted > 0).map((name) => name.name)).toEqual(
      expect.arrayContaining(['asset_type=icon', 'asset_type=logo', 'client=acme', 'client=hooli', 'product=kept']),
    )
    for (const { name, kept, counted } of names.rows) {
      expect(kept, name).toBe(counted)
      const [field, key] = name.split('=')
      expect((await call('GET', `/api/v1/assets?${field}=${encodeURIComponent(key!.toUpperCase())}&limit=1`)).json().total, name).toBe(counted)
    }
  })
})

/**
 * Widens a race on PostgreSQL: another session deletes a row and holds its transaction open, the request
 * runs until it waits on that row's lock, then the delete commits under it.
 */
describe.runIf(postgres)('a referenced object deleted while a request uses it (PostgreSQL)', () => {
  async function whileDeleting(table: 'collections' | 'assets', id: string, request: () => Promise<{ statusCode: number; body: string; json(): { code: string } }>) {
    const other = new pg.Client({ connectionString: t.database.url })
    await other.connect()
    try {
      await other.query('begin')
      await other.query(`delete from ${table} where id = $1`, [id])
      const answer = request()
      await waitFor('the request to wait on the deleted row', async () => {
        const { rows } = await other.query("select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")
        return rows[0].waiting > 0
      })
      await other.query('commit')
      return await answer
    } finally {
      await other.end()
    }
  }

  it('adding assets to a collection deleted meanwhile is a 404, not a 500', async () => {
    const collection = await manualCollection()
    const { id } = await pushAsset()
    const res = await whileDeleting('collections', collection, () => call('POST', `/api/v1/collections/${collection}/assets`, { asset_id: id }))
    expect(expectProblem(res as never, 404, 'not_found').detail).toContain('deleted meanwhile')
  })

  it('adding an asset deleted meanwhile to a collection is a 404, not a 500', async () => {
    const collection = await manualCollection()
    const { id } = await pushAsset()
    const res = await whileDeleting('assets', id, () => call('POST', `/api/v1/collections/${collection}/assets`, { asset_id: id }))
    expectProblem(res as never, 404, 'not_found')
  })

  it('a push into a collection deleted meanwhile is a 404 and leaves no asset', async () => {
    const collection = await manualCollection()
    const name = (await call('GET', `/api/v1/collections/${collection}`)).json().name
    const before = (await call('GET', '/api/v1/assets?limit=1')).json().total
    const res = await whileDeleting('collections', collection, async () =>
      call('POST', '/api/v1/assets', { image_base64: await image(), title: 'Into a vanishing collection', collection_name: name }),
    )
    expectProblem(res as never, 404, 'not_found')
    expect((await call('GET', '/api/v1/assets?limit=1')).json().total).toBe(before)
  })
})
