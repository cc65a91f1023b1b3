import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, startTestApp, type TestApp, type Seeded } from '../support/app.js'
import { callApi, pushImage, startTwoOrganizations } from '../support/fixtures.js'

/** The cap lowered from 1,000 to 3 (LIST_EXACT_TOTAL_UP_TO), so five matches are past it. */
const EXACT_UP_TO = 3
const LIMITS = { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' }

let t: TestApp
let acme: Seeded
let globex: Seeded
/** Newest first, as every list answers. */
const zeppelins: string[] = []

interface Listed {
  data: Array<{ id: string }>
  total: number
  total_exact: boolean
}

async function list(url: string, app = t, key = acme.readKey): Promise<Listed> {
  const res = await callApi(app.app, key, 'GET', url)
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: { ...LIMITS, LIST_EXACT_TOTAL_UP_TO: String(EXACT_UP_TO) } }))
  for (let i = 0; i < 5; i++) zeppelins.unshift((await pushImage(t.app, acme.writeKey, { title: `Zeppelin ${i}`, client: 'Acme', tag_names: ['sky'] })).id)
  for (let i = 0; i < EXACT_UP_TO; i++) await pushImage(t.app, acme.writeKey, { title: `Lighthouse ${i}`, client: 'Acme', tag_names: ['sky'] })
  await pushImage(t.app, globex.writeKey, { title: 'Zeppelin of Globex' })
})
afterAll(async () => {
  await t.close()
})

describe('the total of a full-text list', () => {
  it('is exact up to the cap', async () => {
    expect(await list('/api/v1/assets?q=lighthouse')).toMatchObject({ total: EXACT_UP_TO, total_exact: true })
  })

  it('is the planner\u2019s estimate past the cap, never below what the count found, and the pages are whole', async () => {
    const first = await list('/api/v1/assets?q=zeppelin&limit=2')
    expect(first.total_exact).toBe(false)
    expect(first.total).toBeGreaterThan(EXACT_UP_TO)
    expect(first.data.map((asset) => asset.id)).toEqual(zeppelins.slice(0, 2))
    const next = await list('/api/v1/assets?q=zeppelin&limit=2&offset=4')
    expect(next).toMatchObject({ total: first.total, total_exact: false })
    expect(next.data.map((asset) => asset.id)).toEqual(zeppelins.slice(4))
  })

  it('is estimated in a collection whose query is full text too', async () => {
    const res = await callApi(t.app, acme.writeKey, 'POST', '/api/v1/collections', { name: 'Airships', kind: 'smart', query: { q: 'zeppelin' } })
    expect(res.statusCode, res.body).toBe(201)
    const view = await callApi(t.app, acme.readKey, 'GET', `/api/v1/collections/${res.json<{ id: string }>().id}`)
    expect(view.json<{ asset_count: number; assets: Listed }>()).toMatchObject({ asset_count: 5, assets: { total_exact: false } })
  })

  it('is exact again once a write brings the matches under the cap', async () => {
    for (const id of zeppelins.slice(0, 2)) expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${id}`)).statusCode).toBe(204)
    zeppelins.splice(0, 2)
    expect(await list('/api/v1/assets?q=zeppelin')).toMatchObject({ total: EXACT_UP_TO, total_exact: true })
  })
})

describe('every other list', () => {
  it('counts its total exactly past the cap', async () => {
    expect(await list('/api/v1/assets')).toMatchObject({ total: 6, total_exact: true })
    expect(await list('/api/v1/assets?tag=sky')).toMatchObject({ total: 6, total_exact: true })
    expect(await list('/api/v1/assets?client=acme&tag=sky')).toMatchObject({ total: 6, total_exact: true })
  })
})

describe('the estimate past the cap', () => {
  const MERIDIANS = 15
  let alone: TestApp
  let org: Seeded

  beforeAll(async () => {
    // One organization, so the planner's share of the table is the organization's library.
    alone = await startTestApp({ env: { ...LIMITS, LIST_EXACT_TOTAL_UP_TO: String(EXACT_UP_TO) } })
    org = await seedOrganization(alone.app)
    for (let i = 0; i < 60; i++) await pushImage(alone.app, org.writeKey, { title: i < MERIDIANS ? `Meridian poster ${i}` : `Harbor sign ${i}` })
    await sql`analyze assets`.execute(alone.database.handle.db)
  })
  afterAll(async () => {
    await alone?.close()
  })

  it.each([
    ['a whole word, matched stemmed and exact', 'meridian%20'],
    ['a word typed on, matched stemmed and as a prefix', 'meridian'],
  ])('is near the true count of %s', async (_, q) => {
    const listed = await list(`/api/v1/assets?q=${q}&limit=1`, alone, org.readKey)
    expect(listed.total_exact).toBe(false)
    // Asked for both forms at once, the planner added them: the whole word came out at 28 here (1.9x).
    expect(listed.total).toBeGreaterThanOrEqual(MERIDIANS * 0.7)
    expect(listed.total).toBeLessThanOrEqual(MERIDIANS * 1.3)
  })
})
