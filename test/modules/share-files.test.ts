import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UrlSigner } from '../../src/platform/signed-urls.js'
import { seedOrganization, startTestApp, TEST_SECRET, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, organizationApi, type OrganizationApi } from '../support/fixtures.js'

/** File links a public share hands out are bound to that share: unsharing or sharing again ends them at once. */

const BASE_URL = 'http://assets.test'

let t: TestApp
let acme: Seeded
let call: OrganizationApi['call']
let pushAsset: OrganizationApi['push']

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers })
const local = (url: string) => url.replace(BASE_URL, '')

async function createCollection(body: object): Promise<string> {
  const res = await call('POST', '/api/v1/collections', body)
  expect(res.statusCode, res.body).toBe(201)
  return res.json().id
}

interface SharedFiles {
  /** The share page's path, `/s/<token>`. */
  page: string
  /** Per asset id, its thumbnail and original URLs from the share's JSON view, without the base URL. */
  files: Map<string, { thumbnail: string; original: string }>
}

async function share(collectionId: string): Promise<SharedFiles> {
  const res = await call('POST', `/api/v1/collections/${collectionId}/share`)
  expect(res.statusCode, res.body).toBe(201)
  const page = local(res.json().share_url)
  const view = await get(`${page}.json`)
  expect(view.statusCode, view.body).toBe(200)
  const data: Array<{ id: string; thumbnail_url: string; original_url: string }> = view.json().assets.data
  return { page, files: new Map(data.map((asset) => [asset.id, { thumbnail: local(asset.thumbnail_url), original: local(asset.original_url) }])) }
}

const unshare = async (collectionId: string) => expect((await call('DELETE', `/api/v1/collections/${collectionId}/share`)).statusCode).toBe(204)
const filesOf = (shared: SharedFiles, assetId: string) => shared.files.get(assetId) ?? expect.unreachable(`asset ${assetId} is not in the share`)

async function expectServed(url: string) {
  const res = await get(url)
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200)
  expect(res.headers['content-type']).toMatch(/^image\//)
  return res
}

async function expectGone(url: string) {
  expectProblem(await get(url), 404, 'not_found')
}

/** The asset's own API URLs, as GET /api/v1/assets/{id} gives them to a key holder. */
async function apiFiles(assetId: string) {
  const record = (await call('GET', `/api/v1/assets/${assetId}`, undefined, acme.readKey)).json()
  return { thumbnail: local(record.thumbnail_url), original: local(record.original_url) }
}

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000', RATE_LIMIT_FILES: '10000' } })
  acme = await seedOrganization(t.app, 'Acme')
  ;({ call, push: pushAsset } = organizationApi(t.app, acme))
})
afterAll(() => t.close())

describe('file links of a public share', () => {
  let collection: string
  let assets: string[]
  beforeAll(async () => {
    collection = await createCollection({ name: 'Press kit' })
    assets = [await pushAsset({ title: 'one', collection_name: 'Press kit' }), await pushAsset({ title: 'two', collection_name: 'Press kit' })]
  })

  it('are signed for the share, name it without its token, and serve the files while it is live', async () => {
    const shared = await share(collection)
    const token = shared.page.slice('/s/'.length)
    expect([...shared.files.keys()].sort()).toEqual([...assets].sort())
    for (const id of assets) {
      const { thumbnail, original } = filesOf(shared, id)
      expect(thumbnail).toMatch(new RegExp(`^/files/assets/${id}/versions/1/thumbnail\\?expires=\\d+&share=${collection}\\.[0-9a-f]{16}&sig=[0-9a-f]{64}$`))
      expect(original).toMatch(new RegExp(`^/files/assets/${id}/versions/1/original\\?expires=\\d+&share=${collection}\\.[0-9a-f]{16}&sig=[0-9a-f]{64}$`))
      expect(thumbnail + original).not.toContain(token)
      expect((await expectServed(thumbnail)).headers['content-type']).toBe('image/webp')
      expect((await expectServed(original)).headers['content-type']).toBe('image/png')
    }
    // The HTML gallery hands out the same links (HTML-escaped), and the view the same ones again within the hour.
    const html = (await get(shared.page)).body
    expect(html).toContain(filesOf(shared, assets[0]!).thumbnail.replaceAll('&', '&#38;'))
    const again = (await get(`${shared.page}.json`)).json().assets.data.find((asset: { id: string }) => asset.id === assets[0])
    expect(local(again.thumbnail_url)).toBe(filesOf(shared, assets[0]!).thumbnail)
  })

  it('answer 404 as soon as the collection is unshared, for GET, HEAD, conditional and range requests', async () => {
    const shared = await share(collection)
    const { thumbnail, original } = filesOf(shared, assets[0]!)
    const etag = String((await expectServed(original)).headers.etag)
    await unshare(collection)
    await expectGone(thumbnail)
    await expectGone(original)
    expectProblem(await get(original, { 'if-none-match': etag }), 404, 'not_found')
    expectProblem(await get(original, { range: 'bytes=0-9' }), 404, 'not_found')
    expect((await get(original, {}, 'HEAD')).statusCode).toBe(404)
  })

  it('stay dead when the collection is shared again, while the new share\u2019s links work', async () => {
    const first = await share(collection)
    await unshare(collection)
    const second = await share(collection)
    const third = await share(collection)
    for (const id of assets) {
      for (const url of [...Object.values(filesOf(first, id)), ...Object.values(filesOf(second, id))]) await expectGone(url)
      for (const url of Object.values(filesOf(third, id))) await expectServed(url)
    }
  })

  it('end for an asset taken out of the collection, and with the collection', async () => {
    const id = await createCollection({ name: 'Short lived' })
    const [kept, removed] = [await pushAsset({ collection_name: 'Short lived' }), await pushAsset({ collection_name: 'Short lived' })]
    const shared = await share(id)
    expect((await call('DELETE', `/api/v1/collections/${id}/assets`, { asset_id: removed })).statusCode).toBe(200)
    await expectGone(filesOf(shared, removed!).thumbnail)
    await expectServed(filesOf(shared, kept!).thumbnail)
    expect((await call('DELETE', `/api/v1/collections/${id}`)).statusCode).toBe(204)
    await expectGone(filesOf(shared, kept!).thumbnail)
  })

  it('of a smart collection serve what its query matches now', async () => {
    const matching = await pushAsset({ client: 'Initech', tag_names: ['autumn'] })
    const id = await createCollection({ name: 'Initech autumn', query: { client: 'initech', tag: 'Autumn' } })
    const shared = await share(id)
    const { thumbnail } = filesOf(shared, matching)
    await expectServed(thumbnail)
    expect((await call('PATCH', `/api/v1/assets/${matching}`, { tag_names: ['winter'] })).statusCode).toBe(200)
    await expectGone(thumbnail)
    expect((await call('PATCH', `/api/v1/assets/${matching}`, { tag_names: ['autumn'] })).statusCode).toBe(200)
    await expectServed(thumbnail)
    await unshare(id)
    await expectGone(thumbnail)
  })

  it('are 403 invalid_signature with their share removed or changed', async () => {
    const other = await createCollection({ name: 'Other share' })
    await pushAsset({ collection_name: 'Other share' })
    const otherFile = [...(await share(other)).files.values()][0]!
    const otherShare = new URL(otherFile.original, BASE_URL).searchParams.get('share')!
    const shared = await share(collection)
    const url = new URL(filesOf(shared, assets[0]!).original, BASE_URL)
    const ref = url.searchParams.get('share')!
    const variants = [
      ['without share', (q: URLSearchParams) => q.delete('share')],
      ['another tag', (q: URLSearchParams) => q.set('share', `${ref.slice(0, -1)}${ref.endsWith('0') ? '1' : '0'}`)],
      ['another live share', (q: URLSearchParams) => q.set('share', otherShare)],
      ['garbage', (q: URLSearchParams) => q.set('share', 'nonsense')],
      ['empty', (q: URLSearchParams) => q.set('share', '')],
    ] as const
    for (const [label, change] of variants) {
      const query = new URLSearchParams(url.search)
      change(query)
      const res = await get(`${url.pathname}?${query}`)
      expect(res.statusCode, label).toBe(403)
      expectProblem(res, 403, 'invalid_signature')
    }
    // An API link with a share added is no share link either.
    const api = (await apiFiles(assets[0]!)).original
    expectProblem(await get(`${api}&share=${encodeURIComponent(ref)}`), 403, 'invalid_signature')
    await expectServed(url.pathname + url.search)
  })

  it('are 403 once expired, like any signed link', async () => {
    const shared = await share(collection)
    const url = new URL(filesOf(shared, assets[0]!).thumbnail, BASE_URL)
    const expired = new UrlSigner(TEST_SECRET, BASE_URL).signForShare(url.pathname, url.searchParams.get('share')!, Date.now() - 48 * 3_600_000)
    expectProblem(await get(local(expired.url)), 403, 'invalid_signature')
  })
})

describe('the API\u2019s own file links', () => {
  it('keep their format and keep working after the collection is unshared or shared again', async () => {
    const collection = await createCollection({ name: 'Unshared later' })
    const asset = await pushAsset({ collection_name: 'Unshared later' })
    const before = await apiFiles(asset)
    expect(before.thumbnail).toMatch(new RegExp(`^/files/assets/${asset}/versions/1/thumbnail\\?expires=\\d+&sig=[0-9a-f]{64}$`))
    expect(before.original).toMatch(new RegExp(`^/files/assets/${asset}/versions/1/original\\?expires=\\d+&sig=[0-9a-f]{64}$`))
    const shared = await share(collection)
    expect(filesOf(shared, asset).original).not.toBe(before.original)
    await unshare(collection)
    await expectGone(filesOf(shared, asset).original)
    await expectServed(before.thumbnail)
    await expectServed(before.original)
    await share(collection)
    await unshare(collection)
    const after = await apiFiles(asset)
    await expectServed(after.thumbnail)
    await expectServed(after.original)
  })
})
