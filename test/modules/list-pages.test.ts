import { sql, type RawBuilder } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ListPages } from '../../src/modules/assets/list-pages.js'
import { startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { callApi, organizationApi, startTwoOrganizations, type Method, type OrganizationApi } from '../support/fixtures.js'

const LIMITS = { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' }

let t: TestApp
/** A second process on the same database, with pages of its own. */
let other: TestApp
let acme: Seeded
let globex: Seeded
let push: OrganizationApi['push']

const call = (app: TestApp, method: Method, url: string, payload?: object, key = acme.writeKey) => callApi(app.app, key, method, url, payload)

async function list(url = '/api/v1/assets?limit=5', key = acme.readKey, app = t) {
  const res = await call(app, 'GET', url, undefined, key)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { data: Array<{ id: string; title: string; tags: string[]; collections: Array<{ name: string }>; thumbnail_expires_at: string }>; total: number }
}

async function collection(name: string): Promise<string> {
  const res = await call(t, 'POST', '/api/v1/collections', { name })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().id
}

/** Runs `change` with the trigger that moves the library version (and logs the change) off: only a page kept from before misses it. */
async function behindTheTriggers(table: 'assets' | 'collection_assets', trigger: string, change: RawBuilder<unknown>) {
  const { db } = t.database.handle
  await sql`alter table ${sql.table(table)} disable trigger ${sql.ref(trigger)}`.execute(db)
  try {
    await change.execute(db)
  } finally {
    await sql`alter table ${sql.table(table)} enable trigger ${sql.ref(trigger)}`.execute(db)
  }
}

const retitleBehindTheTriggers = (id: string, title: string) =>
  behindTheTriggers('assets', 'assets_library_versioned', sql`update assets set title = ${title} where id = ${id}`)

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: LIMITS }))
  other = await startTestApp({ env: LIMITS, database: t.database })
  ;({ push } = organizationApi(t.app, acme))
})
afterAll(async () => {
  await other.close()
  await t.close()
})
afterEach(() => vi.useRealTimers())

describe('a list page listed again', () => {
  it('is the kept page while the library version is unchanged, and a fresh one once it moves', async () => {
    const id = await push({ title: 'Before' })
    expect((await list()).data[0]).toMatchObject({ id, title: 'Before' })
    await retitleBehindTheTriggers(id, 'Behind the triggers')
    expect((await list()).data[0]!.title).toBe('Before')
    await sql`update organizations set library_version = library_version + 1 where id = ${acme.org.id}`.execute(t.database.handle.db)
    expect((await list()).data[0]!.title).toBe('Behind the triggers')
  })

  it('is never kept with LIST_CACHE_RECORDS=0', async () => {
    const uncached = await startTestApp({ env: { ...LIMITS, LIST_CACHE_RECORDS: '0' }, database: t.database })
    try {
      const id = await push({ title: 'Uncached' })
      expect((await list(undefined, undefined, uncached)).data[0]!.title).toBe('Uncached')
      await retitleBehindTheTriggers(id, 'Seen at once')
      expect((await list(undefined, undefined, uncached)).data[0]!.title).toBe('Seen at once')
    } finally {
      await uncached.close()
    }
  })

  it('is signed again once its links would expire an hour later', async () => {
    const first = await list()
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000 })
    const later = await list()
    expect(Date.parse(later.data[0]!.thumbnail_expires_at) - Date.parse(first.data[0]!.thumbnail_expires_at)).toBe(3_600_000)
  })

  it('is never another organization\u2019s, for the same query', async () => {
    await push({ title: 'Acme only' })
    const acmePage = await list()
    const globexPage = await list(undefined, globex.readKey)
    expect(globexPage.total).toBe(0)
    expect(acmePage.total).toBeGreaterThan(0)
  })
})

describe('a total counted for a filter', () => {
  it('is the total of its other pages while nothing since changed its matches, and counted again once something does', async () => {
    const first = await push({ title: 'Quokka one' })
    await push({ title: 'Quokka two' })
    const third = await push({ title: 'Quokka three' })
    expect((await list('/api/v1/assets?q=quokka&limit=1')).total).toBe(3)
    await retitleBehindTheTriggers(first, 'Wombat')
    // Pages not listed before, each read by its own statement: only the total is the one counted.
    const second = await list('/api/v1/assets?q=quokka&limit=1&offset=1')
    expect(second.total).toBe(3)
    expect((await list('/api/v1/assets?q=quokka&limit=2&offset=0')).data.map((asset) => asset.title)).toEqual(['Quokka three', 'Quokka two'])
    // The library version moves, but by nothing a full-text list of "quokka" selects.
    await push({ title: 'Anything' })
    expect((await list('/api/v1/assets?q=quokka&limit=1&offset=2')).total).toBe(3)
    expect((await call(t, 'DELETE', `/api/v1/assets/${third}`)).statusCode).toBe(204)
    expect((await list('/api/v1/assets?q=quokka&limit=1&offset=3')).total).toBe(1)
  })

  it('is never another organization’s or another collection’s, for the same filter', async () => {
    await push({ title: 'Axolotl one' })
    await push({ title: 'Axolotl two' })
    await push({ title: 'Axolotl' }, globex.writeKey)
    expect((await list('/api/v1/assets?q=axolotl&limit=1')).total).toBe(2)
    expect((await list('/api/v1/assets?q=axolotl&limit=1&offset=1', globex.readKey)).total).toBe(1)

    const members = async (id: string, offset: number) => {
      const res = await call(t, 'GET', `/api/v1/collections/${id}?limit=1&offset=${offset}`)
      expect(res.statusCode, res.body).toBe(200)
      return res.json().assets.total as number
    }
    const [big, small] = [await collection('Two members'), await collection('One member')]
    const [a, b] = (await list('/api/v1/assets?q=axolotl&limit=2')).data.map((asset) => asset.id)
    expect((await call(t, 'POST', `/api/v1/collections/${big}/assets`, { asset_ids: [a, b] })).statusCode).toBe(200)
    expect((await call(t, 'POST', `/api/v1/collections/${small}/assets`, { asset_id: a })).statusCode).toBe(200)
    expect(await members(big, 0)).toBe(2)
    expect(await members(small, 1)).toBe(1)
  })

  it('is kept by each process for itself, and not with LIST_CACHE_RECORDS=0', async () => {
    const uncached = await startTestApp({ env: { ...LIMITS, LIST_CACHE_RECORDS: '0' }, database: t.database })
    try {
      const id = await push({ title: 'Numbat' })
      for (const app of [t, other, uncached]) expect((await list('/api/v1/assets?q=numbat&limit=1', undefined, app)).total).toBe(1)
      await retitleBehindTheTriggers(id, 'Gone')
      expect((await list('/api/v1/assets?q=numbat&limit=1&offset=1', undefined, uncached)).total).toBe(0)
      expect((await list('/api/v1/assets?q=numbat&limit=1&offset=1', undefined, other)).total).toBe(1)
    } finally {
      await uncached.close()
    }
  })
})

describe('every change a page shows is on the next read', () => {
  const url = '/api/v1/assets?limit=5'

  it('a push, in the page and the total', async () => {
    const before = await list(url)
    const id = await push({ title: 'Newest' })
    const after = await list(url)
    expect(after.data[0]!.id).toBe(id)
    expect(after.total).toBe(before.total + 1)
  })

  it('a push seen from another process', async () => {
    await list(url, undefined, other)
    const id = await push({ title: 'From the first process' })
    expect((await list(url, undefined, other)).data[0]!.id).toBe(id)
  })

  it('an edit of the title and the tags, in the list and in the tag filter', async () => {
    const id = await push({ title: 'To edit' })
    await list(url)
    await list('/api/v1/assets?tag=fresh&limit=5')
    expect((await call(t, 'PATCH', `/api/v1/assets/${id}`, { title: 'Edited', tag_names: ['Fresh'] })).statusCode).toBe(200)
    expect((await list(url)).data[0]).toMatchObject({ id, title: 'Edited', tags: ['Fresh'] })
    const tagged = await list('/api/v1/assets?tag=fresh&limit=5')
    expect(tagged.data.map((asset) => asset.id)).toEqual([id])
    expect(tagged.total).toBe(1)
  })

  it('a delete', async () => {
    const id = await push({ title: 'To delete' })
    expect((await list(url)).data[0]!.id).toBe(id)
    expect((await call(t, 'DELETE', `/api/v1/assets/${id}`)).statusCode).toBe(204)
    expect((await list(url)).data.map((asset) => asset.id)).not.toContain(id)
  })

  it('collection membership, a rename and a delete, on the asset and in the collection\u2019s list', async () => {
    const id = await push({ title: 'Collected' })
    const collectionId = await collection('Picks')
    const members = async () => {
      const res = await call(t, 'GET', `/api/v1/collections/${collectionId}?limit=5`)
      expect(res.statusCode, res.body).toBe(200)
      return res.json().assets as { data: Array<{ id: string }>; total: number }
    }
    expect((await members()).total).toBe(0)
    await list(url)

    expect((await call(t, 'POST', `/api/v1/collections/${collectionId}/assets`, { asset_id: id })).statusCode).toBe(200)
    expect((await list(url)).data[0]!.collections.map((c) => c.name)).toEqual(['Picks'])
    expect((await members()).data.map((asset) => asset.id)).toEqual([id])

    expect((await call(t, 'PATCH', `/api/v1/collections/${collectionId}`, { name: 'Best picks' })).statusCode).toBe(200)
    expect((await list(url)).data[0]!.collections.map((c) => c.name)).toEqual(['Best picks'])

    expect((await call(t, 'DELETE', `/api/v1/collections/${collectionId}/assets`, { asset_id: id })).statusCode).toBe(200)
    expect((await list(url)).data[0]!.collections).toEqual([])
    expect((await members()).total).toBe(0)

    expect((await call(t, 'POST', `/api/v1/collections/${collectionId}/assets`, { asset_id: id })).statusCode).toBe(200)
    expect((await list(url)).data[0]!.collections).toHaveLength(1)
    expect((await call(t, 'DELETE', `/api/v1/collections/${collectionId}`)).statusCode).toBe(204)
    expect((await list(url)).data[0]!.collections).toEqual([])
  })
})

describe('a kept page whose library version moved', () => {
  /** Reads a page without keeping any: what the list statement answers now. */
  let uncached: TestApp
  let marks = 0
  beforeAll(async () => {
    uncached = await startTestApp({ env: { ...LIMITS, LIST_CACHE_RECORDS: '0' }, database: t.database })
  })
  afterAll(() => uncached.close())

  /** The assets' fields and collections a page shows, and its total; an asset list's page or a collection's. */
  async function shown(url: string, app: TestApp) {
    const res = await call(app, 'GET', url, undefined, acme.readKey)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    const page = (body.assets ?? body) as Awaited<ReturnType<typeof list>>
    return { total: page.total, data: page.data.map(({ id, title, tags, collections }) => ({ id, title, tags, collections })) }
  }

  /**
   * Lists `url`, retitles its first asset behind the triggers (nothing moves the version or logs it),
   * makes `write`, and lists again: whether the page read then was the one kept (it misses the new title
   * that an uncached read shows). A page not kept must be exactly what the uncached read answers.
   */
  async function keptAcross(url: string, write: () => Promise<unknown>, app = t): Promise<boolean> {
    const before = await shown(url, app)
    expect(before.data.length, url).toBeGreaterThan(0)
    await retitleBehindTheTriggers(before.data[0]!.id, `${before.data[0]!.title} mark${++marks}`)
    await write()
    const after = await shown(url, app)
    const now = await shown(url, uncached)
    if (JSON.stringify(after) === JSON.stringify(now)) return false
    expect(after).toEqual(before)
    return true
  }

  const ids = async (url: string) => (await shown(url, t)).data.map((asset) => asset.id)
  const patch = async (id: string, changes: object) => expect((await call(t, 'PATCH', `/api/v1/assets/${id}`, changes)).statusCode).toBe(200)
  const remove = async (id: string) => expect((await call(t, 'DELETE', `/api/v1/assets/${id}`)).statusCode).toBe(204)
  const member = async (method: 'POST' | 'DELETE', collectionId: string, id: string) =>
    expect((await call(t, method, `/api/v1/collections/${collectionId}/assets`, { asset_id: id })).statusCode).toBe(200)

  it('unfiltered: kept across changes to assets it does not show; rebuilt by a push, a delete, and a change to a shown asset or its collections', async () => {
    const url = '/api/v1/assets?limit=2'
    const older = await push({ title: 'Older' })
    await push({ title: 'Newer' })
    await push({ title: 'Newest' })
    const elsewhere = await collection('Elsewhere')
    expect(await keptAcross(url, () => patch(older, { title: 'Older, edited', tag_names: ['edited'] }))).toBe(true)
    expect(await keptAcross(url, () => member('POST', elsewhere, older))).toBe(true)
    expect(await keptAcross(url, () => push({ title: 'Pushed' }))).toBe(false)
    const [first, second] = await ids(url)
    expect(await keptAcross(url, () => patch(second!, { client: 'Edited' }))).toBe(false)
    expect(await keptAcross(url, () => member('POST', elsewhere, first!))).toBe(false)
    expect(await keptAcross(url, () => member('DELETE', elsewhere, first!))).toBe(false)
    expect(await keptAcross(url, () => remove(older))).toBe(false)
  })

  it('a tag: kept across changes to assets it does not select or show; rebuilt by each change into, out of or on it', async () => {
    const url = '/api/v1/assets?tag=kiwi&limit=2'
    const unshown = await push({ title: 'Kiwi one', tag_names: ['Kiwi'] })
    await push({ title: 'Kiwi two', tag_names: ['Kiwi'] })
    await push({ title: 'Kiwi three', tag_names: ['Kiwi', 'Fruit'] })
    const plain = await push({ title: 'Plain', tag_names: ['Fruit'] })
    expect(await keptAcross(url, () => push({ title: 'Kiwi in the title only', tag_names: ['Fruit'] }))).toBe(true)
    expect(await keptAcross(url, () => patch(plain, { title: 'Plain, edited', tag_names: ['Fruit', 'Apple'] }))).toBe(true)
    expect(await keptAcross(url, () => patch(unshown, { title: 'Kiwi one, edited' }))).toBe(true)
    expect(await keptAcross(url, () => push({ title: 'Kiwi four', tag_names: ['KIWI'] }))).toBe(false)
    expect(await keptAcross(url, () => patch(plain, { tag_names: ['Kiwi'] }))).toBe(false)
    expect(await keptAcross(url, () => patch(unshown, { tag_names: [] }))).toBe(false)
    const [shownFirst] = await ids(url)
    expect(await keptAcross(url, () => patch(shownFirst!, { product: 'Juice' }))).toBe(false)
    expect(await keptAcross(url, () => remove(plain))).toBe(false)
  })

  it('a client and a product: kept across changes to other clients\u2019 assets; rebuilt by changes into and out of it', async () => {
    for (const field of ['client', 'product'] as const) {
      const url = `/api/v1/assets?${field}=initech&limit=2`
      await push({ title: `Initech ${field}`, [field]: 'Initech' })
      const other = await push({ title: `Other ${field}`, [field]: 'Umbrella' })
      expect(await keptAcross(url, () => push({ title: 'Initech in the title only', [field]: 'Umbrella' }))).toBe(true)
      expect(await keptAcross(url, () => patch(other, { [field]: 'Hooli' }))).toBe(true)
      expect(await keptAcross(url, () => patch(other, { [field]: 'INITECH' }))).toBe(false)
      expect(await keptAcross(url, () => patch(other, { [field]: null }))).toBe(false)
      expect(await keptAcross(url, () => push({ title: `Initech ${field} two`, [field]: 'initech' }))).toBe(false)
    }
  })

  it('full text: kept across changes to assets without its words; rebuilt by changes that gain or lose them', async () => {
    const url = '/api/v1/assets?q=zebu&limit=2'
    await push({ title: 'Zebu one' })
    await push({ title: 'Zebu two' })
    const other = await push({ title: 'Yak' })
    expect(await keptAcross(url, () => push({ title: 'Bison', tag_names: ['hoofed'] }))).toBe(true)
    expect(await keptAcross(url, () => patch(other, { title: 'Yak, edited', tag_names: ['bovine'] }))).toBe(true)
    expect(await keptAcross(url, () => push({ title: 'Grazing', tag_names: ['Zebu'] }))).toBe(false)
    expect(await keptAcross(url, () => patch(other, { title: 'Zebus' }))).toBe(false)
    expect(await keptAcross(url, () => patch(other, { title: 'Yak again' }))).toBe(false)
  })

  it('a collection: kept across changes outside it and to members it does not show; rebuilt by its members coming, going and changing', async () => {
    const picks = await collection('Kept picks')
    const others = await collection('Other picks')
    const url = `/api/v1/collections/${picks}?limit=2`
    const unshown = await push({ title: 'Pick one', collection_name: 'Kept picks' })
    await push({ title: 'Pick two', collection_name: 'Kept picks' })
    await push({ title: 'Pick three', collection_name: 'Kept picks' })
    const outsider = await push({ title: 'Not a pick' })
    expect(await keptAcross(url, () => push({ title: 'Pushed elsewhere', collection_name: 'Other picks' }))).toBe(true)
    expect(await keptAcross(url, () => member('POST', others, unshown))).toBe(true)
    expect(await keptAcross(url, () => patch(unshown, { title: 'Pick one, edited' }))).toBe(true)
    expect(await keptAcross(url, () => patch(outsider, { title: 'Still not a pick' }))).toBe(true)
    expect(await keptAcross(url, () => member('POST', picks, outsider))).toBe(false)
    expect(await keptAcross(url, () => member('DELETE', picks, outsider))).toBe(false)
    expect(await keptAcross(url, () => push({ title: 'Pick four', collection_name: 'Kept picks' }))).toBe(false)
    const [shownFirst] = await ids(url)
    expect(await keptAcross(url, () => member('POST', others, shownFirst!))).toBe(false)
    expect(await keptAcross(url, () => remove(unshown))).toBe(false)
    expect(await keptAcross(url, () => call(t, 'PATCH', `/api/v1/collections/${others}`, { description: 'Not what a list shows' }))).toBe(true)
    expect(await keptAcross(url, () => call(t, 'PATCH', `/api/v1/collections/${others}`, { name: 'Renamed picks' }))).toBe(false)
  })

  it('a collection\u2019s counted total: kept across changes outside it, counted again once its members change', async () => {
    const picks = await collection('Counted picks')
    const gone = await push({ title: 'Counted one', collection_name: 'Counted picks' })
    const stays = await push({ title: 'Counted two', collection_name: 'Counted picks' })
    const totalAt = async (offset: number) => (await shown(`/api/v1/collections/${picks}?limit=1&offset=${offset}`, t)).total
    expect(await totalAt(0)).toBe(2)
    await behindTheTriggers('collection_assets', 'collection_assets_versioned_delete', sql`delete from collection_assets where asset_id = ${gone}`)
    await push({ title: 'Not a member' })
    // A page not listed before: its statement counts nothing while the kept total holds.
    expect(await totalAt(1)).toBe(2)
    await member('DELETE', picks, stays)
    expect(await totalAt(2)).toBe(0)
  })

  it('is kept by another process across a change it cannot show, and rebuilt there after one it can', async () => {
    const url = '/api/v1/assets?tag=feijoa&limit=2'
    await push({ title: 'Feijoa', tag_names: ['feijoa'] })
    expect(await keptAcross(url, () => push({ title: 'No feijoa' }), other)).toBe(true)
    expect(await keptAcross(url, () => push({ title: 'Feijoa two', tag_names: ['feijoa'] }), other)).toBe(false)
  })

  it('is rebuilt once the log no longer reaches back to it, and the log stays bounded', async () => {
    const url = '/api/v1/assets?limit=1'
    const older = await push({ title: 'Edited a thousand times' })
    await push({ title: 'Shown' })
    const { db } = t.database.handle
    expect(await keptAcross(url, () => sql`update assets set title = 'Once' where id = ${older}`.execute(db))).toBe(true)
    const manyTimes = sql`do $$ begin for i in 1..1001 loop update assets set title = 'Edited ' || i where id = ${sql.lit(older)}; end loop; end $$`
    expect(await keptAcross(url, () => manyTimes.execute(db))).toBe(false)
    const logged = await sql<{ rows: number }>`select count(*)::int as rows from library_changes where organization_id = ${acme.org.id}`.execute(db)
    expect(logged.rows[0]!.rows).toBeLessThanOrEqual(1000)
  })

  it('is rebuilt after a statement that changes more assets than the log keeps one by one', async () => {
    const url = '/api/v1/assets?tag=guava&limit=2'
    const template = await push({ title: 'Guava', tag_names: ['guava'] })
    const { db } = t.database.handle
    // No endpoint changes many assets at once: a statement like a bulk import's, beside the application.
    const bulk = sql`
      insert into assets (id, organization_id, title, tags, tag_keys, tag_text, created_by_ai, mime_type, width, height, byte_size, sha256, blob_key, thumbnail_key)
      select gen_random_uuid(), organization_id, 'Bulk ' || i, '{}', '{}', '', created_by_ai, mime_type, width, height, byte_size, sha256 || i, blob_key, thumbnail_key
      from assets cross join generate_series(1, 101) as i where id = ${template}`
    expect(await keptAcross(url, () => bulk.execute(db))).toBe(false)
    expect(await keptAcross(url, () => sql`update assets set title = 'Bulk, one by one' where title = 'Bulk 1'`.execute(db))).toBe(true)
  })
})

describe('ListPages', () => {
  const page = (n: number) => ({ version: '1', linksExpire: 1, presets: [], page: { data: Array.from({ length: n }, (_, i) => i), total: n, total_exact: true, limit: n, offset: 0, next_cursor: null } })

  it('keeps at most its budget of records (a page counts one more), dropping the least recently used', () => {
    const pages = new ListPages<number>(8)
    pages.keep('org', 'a', page(3))
    pages.keep('org', 'b', page(3))
    pages.get('org', 'a')
    pages.keep('org', 'c', page(3))
    expect(pages.get('org', 'b')).toBeUndefined()
    expect(pages.get('org', 'a')?.page.total).toBe(3)
    expect(pages.get('org', 'c')?.page.total).toBe(3)
  })

  it('keeps nothing larger than its budget, and replaces a query\u2019s page', () => {
    const pages = new ListPages<number>(5)
    pages.keep('org', 'a', page(5))
    expect(pages.get('org', 'a')).toBeUndefined()
    pages.keep('org', 'a', page(1))
    pages.keep('org', 'a', page(2))
    pages.keep('org', 'b', page(1))
    expect(pages.get('org', 'a')?.page.total).toBe(2)
    expect(pages.get('other org', 'a')).toBeUndefined()
  })
})
