import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Seeded, TestApp } from '../support/app.js'
import { callApi, expectInvalid, pushImage, startTwoOrganizations } from '../support/fixtures.js'
import { noisePng } from '../support/images.js'

const LIMITS = { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' }

interface Listed {
  id: string
  title: string
  byte_size: number
  tags: string[]
  client: string | null
  created_at: string
  updated_at: string
}
interface Page {
  data: Listed[]
  total: number
}

let t: TestApp
let acme: Seeded
let globex: Seeded
/** Every asset of Acme, as the default list answers them (newest first). */
let everything: Listed[]

/** Titles in mixed case, one empty; solid 16 px PNGs of one size, so most sizes tie. */
const PUSHED = [
  { title: 'banana', tag_names: ['wallpaper'] },
  { title: 'Apple', tag_names: ['Wall-art'] },
  { title: 'cherry', tag_names: ['50%_off'] },
  { title: '', tag_names: ['50x-off'] },
  { title: 'apple pie', tag_names: ['sun_1'] },
  { title: 'Banana split', tag_names: ['sunx1'] },
  { title: 'date', tag_names: ['mall'] },
  { title: 'Elderberry', tag_names: [] },
  { title: 'fig', tag_names: ['wallpaper', 'blue'] },
  { title: 'grape', tag_names: [] },
  { title: 'Cherry', tag_names: [] },
]

async function list(url: string, key = acme.readKey): Promise<Page> {
  const res = await callApi(t.app, key, 'GET', url)
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

/** Every asset of a list, read in pages of `limit`. */
async function readAll(url: string, limit: number): Promise<Listed[]> {
  const read: Listed[] = []
  for (let offset = 0; ; offset += limit) {
    const page = await list(`${url}${url.includes('?') ? '&' : '?'}limit=${limit}&offset=${offset}`)
    read.push(...page.data)
    if (offset + limit >= page.total) return read
  }
}

const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0)
const KEYS = {
  created_at: (asset: Listed) => asset.created_at,
  title: (asset: Listed) => asset.title.toLowerCase(),
  byte_size: (asset: Listed) => asset.byte_size,
  updated_at: (asset: Listed) => asset.updated_at,
}

/** The order the API promises: the key, then the id, both in the sort's direction. */
function sortedBy(key: keyof typeof KEYS, descending: boolean): string[] {
  const sign = descending ? -1 : 1
  return [...everything].sort((a, b) => sign * (compare(KEYS[key](a), KEYS[key](b)) || compare(a.id, b.id))).map((asset) => asset.id)
}

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: LIMITS }))
  for (const fields of PUSHED) await pushImage(t.app, acme.writeKey, fields)
  // Two larger files, so the sizes do not all tie.
  await pushImage(t.app, acme.writeKey, { title: 'noise one' }, await noisePng(20))
  await pushImage(t.app, acme.writeKey, { title: 'noise two' }, await noisePng(24))
  await pushImage(t.app, globex.writeKey, { title: 'aaa of globex', tag_names: ['wallpaper'] })
  const first = (await list('/api/v1/assets?limit=100')).data
  // Updated in an order of their own: the oldest first, so updated_at differs from created_at's order.
  for (const asset of [...first].reverse().filter((_, i) => i % 3 === 0)) {
    expect((await callApi(t.app, acme.writeKey, 'PATCH', `/api/v1/assets/${asset.id}`, { client: 'Initech' })).statusCode).toBe(200)
  }
  everything = (await list('/api/v1/assets?limit=100')).data
})
afterAll(async () => {
  await t.close()
})

describe('sort', () => {
  it('defaults to newest first, the same as -created_at', async () => {
    expect(everything.map((asset) => asset.id)).toEqual(sortedBy('created_at', true))
    expect((await list('/api/v1/assets?sort=-created_at&limit=100')).data).toEqual(everything)
  })

  it('has sizes that tie, so the id decides among them', () => {
    const sizes = everything.map((asset) => asset.byte_size)
    expect(new Set(sizes).size).toBeLessThan(sizes.length - 5)
  })

  for (const key of ['created_at', 'title', 'byte_size', 'updated_at'] as const) {
    for (const descending of [false, true]) {
      const sort = `${descending ? '-' : ''}${key}`
      it(`sorts by ${sort}, the same across pages of 4 and 5 as in one page, with the total unchanged`, async () => {
        const expected = sortedBy(key, descending)
        const whole = await list(`/api/v1/assets?sort=${sort}&limit=100`)
        expect(whole.total).toBe(everything.length)
        expect(whole.data.map((asset) => asset.id)).toEqual(expected)
        expect((await readAll(`/api/v1/assets?sort=${sort}`, 4)).map((asset) => asset.id)).toEqual(expected)
        expect((await readAll(`/api/v1/assets?sort=${sort}`, 5)).map((asset) => asset.id)).toEqual(expected)
      })
    }
  }

  it('sorts titles without case, the empty title first', async () => {
    const titles = (await list('/api/v1/assets?sort=title&limit=100')).data.map((asset) => asset.title)
    expect(titles.slice(0, 4)).toEqual(['', 'Apple', 'apple pie', 'banana'])
    expect(titles.indexOf('cherry')).toBe(titles.indexOf('Cherry') + (titles.indexOf('cherry') > titles.indexOf('Cherry') ? 1 : -1))
  })

  it('moves an asset whose key changes, even on a page read before (kept pages are not stale)', async () => {
    const before = await list('/api/v1/assets?sort=title&limit=3')
    const last = everything.find((asset) => asset.title === 'noise two')!
    expect(before.data.map((asset) => asset.id)).not.toContain(last.id)
    expect((await callApi(t.app, acme.writeKey, 'PATCH', `/api/v1/assets/${last.id}`, { title: 'Aardvark' })).statusCode).toBe(200)
    const after = await list('/api/v1/assets?sort=title&limit=3')
    expect(after.data[1]!.id).toBe(last.id)
    expect((await callApi(t.app, acme.writeKey, 'PATCH', `/api/v1/assets/${last.id}`, { title: 'noise two' })).statusCode).toBe(200)
    expect((await list('/api/v1/assets?sort=title&limit=3')).data).toEqual(before.data.map((asset) => expect.objectContaining({ id: asset.id })))
  })

  it('refuses an unknown key with 400 validation_failed at /query/sort', async () => {
    for (const sort of ['size', '+title', '--title', 'title,id', '']) {
      expectInvalid(await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets?sort=${encodeURIComponent(sort)}`), '/query/sort')
    }
  })

  it('orders a smart collection by its query\u2019s sort, which a sort on the read overrides', async () => {
    const created = await callApi(t.app, acme.writeKey, 'POST', '/api/v1/collections', { name: 'By size', query: { sort: '-byte_size' } })
    expect(created.statusCode, created.body).toBe(201)
    const collection = created.json<{ id: string; query: object; asset_count: number }>()
    expect(collection).toMatchObject({ query: { sort: '-byte_size' }, asset_count: everything.length })
    const read = async (query = '') => (await callApi(t.app, acme.readKey, 'GET', `/api/v1/collections/${collection.id}?limit=100${query}`)).json<{ assets: Page }>().assets
    expect((await read()).data.map((asset) => asset.id)).toEqual(sortedBy('byte_size', true))
    expect((await read('&sort=title')).data.map((asset) => asset.id)).toEqual(sortedBy('title', false))
    expectInvalid(await callApi(t.app, acme.readKey, 'GET', `/api/v1/collections/${collection.id}?sort=size`), '/query/sort')
    expectInvalid(await callApi(t.app, acme.writeKey, 'PATCH', `/api/v1/collections/${collection.id}`, { query: { sort: 'size' } }), '/query/sort')
    const patched = await callApi(t.app, acme.writeKey, 'PATCH', `/api/v1/collections/${collection.id}`, { query: { sort: 'updated_at', tag_prefix: 'wall' } })
    expect(patched.statusCode, patched.body).toBe(200)
    expect((await read()).data.map((asset) => asset.title).sort()).toEqual(['Apple', 'banana', 'fig'])
  })

  it('orders a manual collection\u2019s assets by the sort of the read', async () => {
    const created = await callApi(t.app, acme.writeKey, 'POST', '/api/v1/collections', { name: 'Picked' })
    const id = created.json<{ id: string }>().id
    const picked = everything.slice(0, 6).map((asset) => asset.id)
    expect((await callApi(t.app, acme.writeKey, 'POST', `/api/v1/collections/${id}/assets`, { asset_ids: picked })).statusCode).toBe(200)
    const read = await callApi(t.app, acme.readKey, 'GET', `/api/v1/collections/${id}?sort=created_at`)
    expect(read.json<{ assets: Page }>().assets.data.map((asset) => asset.id)).toEqual([...picked].reverse())
  })
})

describe('tag_prefix', () => {
  const titlesOf = async (url: string, key?: string) => (await list(url, key)).data.map((asset) => asset.title).sort()

  it('matches any tag starting with the text, without case, only in the organization', async () => {
    expect(await titlesOf('/api/v1/assets?tag_prefix=wall')).toEqual(['Apple', 'banana', 'fig'])
    expect(await titlesOf('/api/v1/assets?tag_prefix=WALLP')).toEqual(['banana', 'fig'])
    expect((await list('/api/v1/assets?tag_prefix=wall')).total).toBe(3)
    expect(await titlesOf('/api/v1/assets?tag_prefix=wall', globex.readKey)).toEqual(['aaa of globex'])
  })

  it('takes % and _ as plain characters', async () => {
    expect(await titlesOf('/api/v1/assets?tag_prefix=50%25')).toEqual(['cherry'])
    expect(await titlesOf('/api/v1/assets?tag_prefix=sun_')).toEqual(['apple pie'])
    expect(await titlesOf('/api/v1/assets?tag_prefix=%25')).toEqual([])
    expect(await titlesOf('/api/v1/assets?tag_prefix=_')).toEqual([])
    expect(await titlesOf('/api/v1/assets?tag_prefix=%5C')).toEqual([])
  })

  it('combines with the other filters and the sort; the exact tag filter is unchanged', async () => {
    expect((await list('/api/v1/assets?tag_prefix=wall&sort=title')).data.map((asset) => asset.title)).toEqual(['Apple', 'banana', 'fig'])
    expect(await titlesOf('/api/v1/assets?tag_prefix=wall&tag=blue')).toEqual(['fig'])
    expect(await titlesOf('/api/v1/assets?tag=wall')).toEqual([])
  })

  it('narrows search too', async () => {
    const res = await callApi(t.app, acme.readKey, 'POST', '/api/v1/search', { q: 'banana', tag_prefix: 'wall' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<{ data: Listed[] }>().data.map((hit) => hit.title)).toEqual(['banana'])
  })
})

describe('tag filter', () => {
  /**
   * A tag on most assets and a rare one, read in pages of several sizes in several orders: whether the
   * statement walks the order's index and keeps what matches, or reads the tag's GIN index and sorts, every
   * page must be the same slice of the filtered order, and the kept total its length.
   */
  it('answers the same pages for a common and a rare tag, in every order and page size', async () => {
    const ids = everything.map((asset) => asset.id)
    const bulk = async (body: object) => expect((await callApi(t.app, acme.writeKey, 'POST', '/api/v1/assets/bulk', body)).statusCode).toBe(200)
    await bulk({ ids: ids.slice(1), add_tags: ['Most'] })
    await bulk({ ids: [ids[0]!, ids[5]!, ids.at(-1)!], add_tags: ['few'] })
    everything = (await list('/api/v1/assets?limit=100')).data
    for (const [tag, count] of [['most', 12], ['FEW', 3]] as const) {
      const tagged = new Set(everything.filter((asset) => asset.tags.some((name) => name.toLowerCase() === tag.toLowerCase())).map((asset) => asset.id))
      expect(tagged.size).toBe(count)
      for (const [key, descending] of [['created_at', true], ['title', false], ['byte_size', true]] as const) {
        const expected = sortedBy(key, descending).filter((id) => tagged.has(id))
        for (const limit of [1, 2, 5, 50]) {
          const read = await readAll(`/api/v1/assets?tag=${tag}&sort=${descending ? '-' : ''}${key}`, limit)
          expect(read.map((asset) => asset.id), `tag=${tag}, sort ${key}, limit ${limit}`).toEqual(expected)
        }
      }
      const withClient = everything.filter((asset) => tagged.has(asset.id) && asset.client === 'Initech').map((asset) => asset.id)
      expect(withClient.length).toBeGreaterThan(0)
      expect((await readAll(`/api/v1/assets?tag=${tag}&client=Initech`, 1)).map((asset) => asset.id)).toEqual(withClient)
    }
  })
})
