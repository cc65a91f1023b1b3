import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cursorScope, encodeCursor } from '../../src/modules/assets/cursor.js'
import { countedScopeKey } from '../../src/modules/assets/list-pages.js'
import { parseSort } from '../../src/modules/assets/sort.js'
import type { Seeded, TestApp } from '../support/app.js'
import { callApi, expectInvalid, expectProblem, pushImage, startTwoOrganizations } from '../support/fixtures.js'
import { noisePng } from '../support/images.js'

const LIMITS = { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' }

interface Page {
  data: Array<{ id: string; title: string }>
  total: number
  offset: number
  next_cursor: string | null
}

let t: TestApp
let acme: Seeded
let globex: Seeded

/**
 * Ties in every key: titles equal without case, solid PNGs of one size, and created_at and updated_at
 * set to shared instants that differ only in their microseconds (which a millisecond cursor would lose).
 */
const TITLES = ['Same', 'same', 'SAME', 'other', '', 'Other', 'same', 'zebra', 'apple', 'Apple', 'same', 'mid']
const INSTANTS = ['2026-01-02 03:04:05.123456+00', '2026-01-02 03:04:05.123457+00', '2026-01-02 03:04:05.123458+00']

async function list(url: string, key = acme.readKey): Promise<Page> {
  const res = await callApi(t.app, key, 'GET', url)
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`

/** Every id of a list in pages of `limit` by offset, the total checked on each. */
async function idsByOffset(url: string, limit: number): Promise<string[]> {
  const ids: string[] = []
  for (let offset = 0; ; offset += limit) {
    const page = await list(withQuery(url, `limit=${limit}&offset=${offset}`))
    ids.push(...page.data.map((asset) => asset.id))
    if (offset + limit >= page.total) return ids
  }
}

/**
 * Every id of a list in pages of `limit` by cursor, from `start` (a cursor) or the first page, until
 * `next_cursor` is null; each page full but the last, each total the first page's.
 */
async function idsByCursor(url: string, limit: number, { read = list, start }: { read?: (url: string) => Promise<Page>; start?: string | null } = {}): Promise<string[]> {
  const ids: string[] = []
  let page = await read(withQuery(url, `limit=${limit}${start ? `&cursor=${start}` : ''}`))
  const { total } = page
  for (;;) {
    ids.push(...page.data.map((asset) => asset.id))
    expect(page.total).toBe(total)
    if (page.next_cursor === null) return ids
    expect(page.data).toHaveLength(limit)
    page = await read(withQuery(url, `limit=${limit}&cursor=${page.next_cursor}`))
  }
}

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: LIMITS }))
  for (const title of TITLES) await pushImage(t.app, acme.writeKey, { title, tag_names: title.toLowerCase() === 'same' ? ['tied'] : [] })
  await pushImage(t.app, acme.writeKey, { title: 'noise one' }, await noisePng(20))
  await pushImage(t.app, acme.writeKey, { title: 'noise two' }, await noisePng(24))
  await pushImage(t.app, globex.writeKey, { title: 'same of globex' })
  const { db } = t.database.handle
  // Before any list, so no kept page predates it.
  await sql`
    update assets set created_at = (${INSTANTS}::timestamptz[])[1 + n % 3], updated_at = (${INSTANTS}::timestamptz[])[1 + (n / 3) % 3]
    from (select id, row_number() over (order by id) as n from assets where organization_id = ${acme.org.id}) as numbered
    where assets.id = numbered.id and numbered.n % 2 = 0`.execute(db)
})
afterAll(async () => {
  await t.close()
})

describe('cursor paging', () => {
  for (const key of ['created_at', 'title', 'byte_size', 'updated_at'] as const) {
    for (const sort of [key, `-${key}`]) {
      it(`gives the rows of offset paging, sorted by ${sort}, with ties in the key`, async () => {
        const url = `/api/v1/assets?sort=${sort}`
        const expected = (await list(withQuery(url, 'limit=100'))).data.map((asset) => asset.id)
        expect(expected).toHaveLength(TITLES.length + 2)
        expect(await idsByOffset(url, 4)).toEqual(expected)
        for (const limit of [1, 3, 7]) expect(await idsByCursor(url, limit)).toEqual(expected)
      })
    }
  }

  it('has ties to the microsecond that a millisecond key would merge', async () => {
    const { rows } = await sql<{ instants: number; millis: number }>`
      select count(distinct created_at)::int as instants, count(distinct date_trunc('milliseconds', created_at))::int as millis
      from assets where organization_id = ${acme.org.id} and created_at = any(${INSTANTS}::timestamptz[])`.execute(t.database.handle.db)
    expect(rows[0]).toEqual({ instants: 3, millis: 1 })
  })

  it('honours the filters: a tag, full text, and the two together', async () => {
    for (const url of ['/api/v1/assets?tag=tied&sort=title', '/api/v1/assets?q=same&sort=-byte_size', '/api/v1/assets?q=same&tag=tied&sort=updated_at']) {
      const expected = (await list(withQuery(url, 'limit=100'))).data.map((asset) => asset.id)
      expect(expected.length).toBeGreaterThan(2)
      expect(await idsByCursor(url, 2)).toEqual(expected)
    }
  })

  it('offers next_cursor on offset pages, and null on the last page even when it is full', async () => {
    const url = '/api/v1/assets?sort=title'
    const expected = (await list(withQuery(url, 'limit=100'))).data.map((asset) => asset.id)
    const middle = await list(withQuery(url, 'limit=3&offset=3'))
    const rest = await idsByCursor(url, 4, { start: middle.next_cursor })
    expect([...middle.data.map((asset) => asset.id), ...rest]).toEqual(expected.slice(3))
    const last = await list(withQuery(url, `limit=2&offset=${expected.length - 2}`))
    expect(last).toMatchObject({ offset: expected.length - 2, next_cursor: null })
    expect(last.data).toHaveLength(2)
  })

  it('answers each cursor\u2019s own page from the kept pages, whose key holds the cursor', async () => {
    const first = await list('/api/v1/assets?limit=2')
    const second = await list(`/api/v1/assets?limit=2&cursor=${first.next_cursor}`)
    const third = await list(`/api/v1/assets?limit=2&cursor=${second.next_cursor}`)
    expect(new Set([...first.data, ...second.data, ...third.data].map((asset) => asset.id)).size).toBe(6)
    expect(await list(`/api/v1/assets?limit=2&cursor=${second.next_cursor}`)).toEqual(third)
  })

  it('pages a manual collection\u2019s members and a smart collection\u2019s matches', async () => {
    const everything = (await list('/api/v1/assets?limit=100')).data.map((asset) => asset.id)
    const manual = (await callApi(t.app, acme.writeKey, 'POST', '/api/v1/collections', { name: 'Picked' })).json<{ id: string }>().id
    expect((await callApi(t.app, acme.writeKey, 'POST', `/api/v1/collections/${manual}/assets`, { asset_ids: everything.slice(0, 9) })).statusCode).toBe(200)
    const smart = (await callApi(t.app, acme.writeKey, 'POST', '/api/v1/collections', { name: 'Tied', query: { tag: 'tied', sort: '-title' } })).json<{ id: string }>().id
    const collectionPage = async (url: string) => (await callApi(t.app, acme.readKey, 'GET', url)).json<{ assets: Page }>().assets
    for (const url of [`/api/v1/collections/${manual}?sort=byte_size`, `/api/v1/collections/${smart}`]) {
      const expected = (await collectionPage(withQuery(url, 'limit=100'))).data.map((asset) => asset.id)
      expect(await idsByCursor(url, 2, { read: collectionPage })).toEqual(expected)
    }
    const first = await collectionPage(`/api/v1/collections/${manual}?limit=2`)
    expectProblem(await callApi(t.app, acme.readKey, 'GET', `/api/v1/collections/${smart}?cursor=${first.next_cursor}`), 400, 'invalid_cursor')
  })
})

describe('cursor paging while the library changes', () => {
  it('neither skips nor repeats a row when assets are added or deleted between pages', async () => {
    const everything = (await list('/api/v1/assets?limit=100')).data.map((asset) => asset.id)
    const first = await list('/api/v1/assets?limit=4')
    const added = await pushImage(t.app, acme.writeKey, { title: 'Newest' })
    const [readBefore, unread] = [everything[1]!, everything[8]!]
    for (const id of [readBefore, unread]) expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${id}`)).statusCode).toBe(204)
    const rest = await idsByCursor('/api/v1/assets', 4, { start: first.next_cursor })
    expect([...first.data.map((asset) => asset.id), ...rest]).toEqual(everything.filter((id) => id !== unread))
    expect(rest).not.toContain(added.id)
  })

  it('continues an ascending order past a row deleted at the cursor itself', async () => {
    const everything = (await list('/api/v1/assets?sort=byte_size&limit=100')).data.map((asset) => asset.id)
    const first = await list('/api/v1/assets?sort=byte_size&limit=3')
    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${everything[2]}`)).statusCode).toBe(204)
    expect([...first.data.map((asset) => asset.id), ...(await idsByCursor('/api/v1/assets?sort=byte_size', 5, { start: first.next_cursor }))]).toEqual(everything)
  })
})

describe('bad cursors', () => {
  let cursor: string
  beforeAll(async () => {
    cursor = (await list('/api/v1/assets?sort=title&limit=2')).next_cursor!
  })
  const invalid = async (url: string, key = acme.readKey) => expectProblem(await callApi(t.app, key, 'GET', url), 400, 'invalid_cursor')

  it('refuses one that does not decode, or is not a cursor', async () => {
    const garbage = ['abc', Buffer.from('not json').toString('base64url'), Buffer.from('{"a":1}').toString('base64url'), Buffer.from('["title","x","y"]').toString('base64url'), cursor.slice(0, -2)]
    for (const bad of garbage) await invalid(`/api/v1/assets?sort=title&cursor=${encodeURIComponent(bad)}`)
  })

  it('refuses one made for another sort or another filter, naming the sort', async () => {
    expect((await invalid(`/api/v1/assets?sort=-title&cursor=${cursor}`)).detail).toMatch(/sorted by title/)
    await invalid(`/api/v1/assets?cursor=${cursor}`)
    await invalid(`/api/v1/assets?sort=title&tag=tied&cursor=${cursor}`)
    await invalid(`/api/v1/assets?sort=title&external_id=x&cursor=${cursor}`)
  })

  it('refuses a cursor with a non-zero offset, and takes one with offset 0', async () => {
    expectInvalid(await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets?sort=title&offset=2&cursor=${cursor}`), '/query/offset')
    expect((await list(`/api/v1/assets?sort=title&offset=0&cursor=${cursor}`)).offset).toBe(0)
  })

  it('refuses a forged key of the wrong form before the database reads it', async () => {
    const sort = parseSort('byte_size')
    const scope = cursorScope(acme.org.id, countedScopeKey({}, undefined), sort)
    for (const key of ['12; select 1', '1e3', '99999999999999999999']) {
      await invalid(`/api/v1/assets?sort=byte_size&cursor=${encodeCursor(scope, sort, { key, id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55' })}`)
    }
    await invalid(`/api/v1/assets?sort=byte_size&cursor=${encodeCursor(scope, sort, { key: '10', id: 'not-a-uuid' })}`)
  })

  it('reveals nothing of another organization: its cursor is refused', async () => {
    const detail = (await invalid(`/api/v1/assets?sort=title&cursor=${cursor}`, globex.readKey)).detail
    expect(detail).not.toMatch(/same|apple/i)
  })
})
