import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UrlSigner } from '../../src/platform/signed-urls.js'
import { sweepBlobs } from '../../src/modules/assets/blob-sweep.js'
import { bearer, seedOrganization, startTestApp, TEST_SECRET, type Seeded } from '../support/app.js'
import { expectInvalid, expectProblem, pushAndRead, startTwoOrganizations, type AssetRecord } from '../support/fixtures.js'
import { noisePng, patternNoise } from '../support/images.js'
import { waitFor } from '../support/wait.js'
import type { TestApp } from '../support/app.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let asset: AssetRecord

const BASE_URL = 'http://assets.test'
const LIMITS = { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '9000', RATE_LIMIT_STANDARD: '10000', RATE_LIMIT_FILES: '10000' }

const render = (query: string, key = acme.readKey, headers: Record<string, string> = {}, id = asset.id) =>
  t.app.inject({ method: 'GET', url: `/api/v1/assets/${id}/render?${query}`, headers: { ...bearer(key), ...headers } })

const fetchFile = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: url.replace(BASE_URL, ''), headers })

const renditionRows = (sha256: string) => t.database.handle.db.selectFrom('renditions').selectAll().where('sha256', '=', sha256).execute()

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: LIMITS }))
  ;({ record: asset } = await pushAndRead(t.app, acme, { title: 'Noise' }, await patternNoise(600, 400).png().toBuffer()))
})
afterAll(() => t.close())

describe('GET /api/v1/assets/{id}/render', () => {
  it('redirects (302) to a signed rendition URL that serves the image at that size and format', async () => {
    const res = await render('width=300&format=webp')
    expect(res.statusCode).toBe(302)
    const location = String(res.headers.location)
    expect(location).toMatch(new RegExp(`^${BASE_URL}/files/assets/${asset.id}/versions/1/renditions/w300-contain-q80\\.webp\\?expires=\\d+&sig=[0-9a-f]{64}$`))
    const file = await fetchFile(location)
    expect(file.statusCode).toBe(200)
    expect(file.headers).toMatchObject({
      'content-type': 'image/webp',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    })
    expect(file.headers.etag).toMatch(/^".+w300-contain-q80\.webp"$/)
    const meta = await sharp(file.rawPayload).metadata()
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: 300, height: 200 })
  })

  it('with redirect=false answers the link, the size and the format as JSON without rendering', async () => {
    const res = await render('width=150&height=150&fit=inside&format=png&redirect=false')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({ width: 150, height: 100, format: 'png' })
    expect(body.url).toContain(`/renditions/w150-h150-inside.png?`)
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000)
    const key = `renditions/${asset.sha256}.w150-h150-inside.png`
    expect((await renditionRows(asset.sha256)).map((row) => row.key)).not.toContain(key)
    expect(await t.app.blobs.exists(key)).toBe(false)
    // The size announced is the size made.
    const meta = await sharp((await fetchFile(body.url)).rawPayload).metadata()
    expect({ width: meta.width, height: meta.height, format: meta.format }).toEqual({ width: 150, height: 100, format: 'png' })
  })

  it('serves a rendition made once from storage afterwards: one row, one file, the same bytes and date, and 304 on its ETag', async () => {
    const first = await render('width=120&format=jpeg&redirect=false')
    const url = first.json().url as string
    const made = await fetchFile(url)
    expect(made.statusCode).toBe(200)
    const key = `renditions/${asset.sha256}.w120-contain-q80.jpeg`
    expect(await t.app.blobs.exists(key)).toBe(true)
    const again = await fetchFile(url)
    expect(again.rawPayload.equals(made.rawPayload)).toBe(true)
    expect(again.headers['last-modified']).toBe(made.headers['last-modified'])
    expect((await renditionRows(asset.sha256)).filter((row) => row.key === key)).toHaveLength(1)
    const notModified = await fetchFile(url, { 'if-none-match': String(made.headers.etag) })
    expect(notModified.statusCode).toBe(304)
    expect(notModified.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const ranged = await fetchFile(url, { range: 'bytes=0-9' })
    expect(ranged.statusCode).toBe(206)
    expect(ranged.rawPayload.equals(made.rawPayload.subarray(0, 10))).toBe(true)
  })

  it('format=auto picks from Accept (AVIF, WebP, else PNG for a PNG original) and says Vary: Accept', async () => {
    const cases: Array<[string, string]> = [
      ['image/avif,image/webp,*/*', 'avif'],
      ['image/webp,*/*', 'webp'],
      ['*/*', 'png'],
    ]
    for (const [accept, format] of cases) {
      const res = await render('width=64&redirect=false', acme.readKey, { accept })
      expect(res.statusCode).toBe(200)
      expect(res.json().format, accept).toBe(format)
      expect(res.headers.vary).toContain('Accept')
    }
    expect((await render('width=64&format=png&redirect=false')).headers.vary ?? '').not.toContain('Accept')
  })

  it('clamps out-of-range values and reports them in Rendition-Clamped: width=0, width=-1, width=1e9, quality=0', async () => {
    const cases: Array<[string, string, number]> = [
      ['width=0', 'width=1 (asked 0)', 1],
      ['width=-1', 'width=1 (asked -1)', 1],
      ['width=1e9', 'width=4096 (asked 1000000000)', 4096],
    ]
    for (const [query, header, width] of cases) {
      const res = await render(`${query}&format=png&redirect=false`)
      expect(res.statusCode, query).toBe(200)
      expect(res.headers['rendition-clamped'], query).toBe(header)
      expect(res.json().width, query).toBe(width)
    }
    const quality = await render('width=10&format=webp&quality=0&redirect=false')
    expect(quality.headers['rendition-clamped']).toBe('quality=20 (asked 0)')
    expect(quality.json().url).toContain('w10-contain-q20.webp')
  })

  it('refuses nonsense with 400 validation_failed pointing at the field: width=abc, an unknown format or fit, a bad colour', async () => {
    expectInvalid(await render('width=abc'), '/query/width')
    expectInvalid(await render('format=gif'), '/query/format')
    expectInvalid(await render('fit=stretch'), '/query/fit')
    expectInvalid(await render('background=red'), '/query/background')
  })

  it('answers 404 for another organization\u2019s asset and for an unknown one, 400 for an unknown preset', async () => {
    expectProblem(await render('width=100', globex.readKey), 404, 'not_found')
    expectProblem(await render('width=100', acme.readKey, {}, '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55'), 404, 'not_found')
    expectInvalid(await render('preset=no-such-preset'), '/query/preset')
    expectInvalid(await render('preset=thumbnail&width=10'), '/query/width')
  })

  it('renders the current version by default, an earlier one with version=N, and 404 for a version the asset lacks', async () => {
    const { record } = await pushAndRead(t.app, acme, {}, await patternNoise(80, 40).png().toBuffer())
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/v1/assets/${record.id}/versions`,
      headers: { ...bearer(acme.writeKey), 'content-type': 'application/json' },
      payload: { image_base64: (await patternNoise(40, 80).png().toBuffer()).toString('base64') },
    })
    expect(upload.statusCode).toBe(201)
    const current = (await render('width=20&format=png&redirect=false', acme.readKey, {}, record.id)).json()
    expect(current).toMatchObject({ width: 20, height: 40 })
    expect(current.url).toContain(`/versions/2/renditions/`)
    const first = (await render('width=20&format=png&redirect=false&version=1', acme.readKey, {}, record.id)).json()
    expect(first).toMatchObject({ width: 20, height: 10 })
    expect(await sharp((await fetchFile(first.url)).rawPayload).metadata()).toMatchObject({ width: 20, height: 10 })
    expectProblem(await render('width=20&version=3', acme.readKey, {}, record.id), 404, 'not_found')
  })

  it('preset=thumbnail and preset=original redirect to those files\u2019 links', async () => {
    const thumbnail = await render('preset=thumbnail')
    expect(thumbnail.statusCode).toBe(302)
    expect(thumbnail.headers.location).toBe(asset.thumbnail_url)
    const original = await render('preset=original&redirect=false')
    expect(original.json()).toMatchObject({ url: asset.original_url, width: 600, height: 400, format: 'png' })
    expect((await render('preset=thumbnail&redirect=false')).json()).toMatchObject({ width: 512, height: 341, format: 'webp' })
  })

  it('uses an organization\u2019s preset', async () => {
    await t.app.services.presets.create(acme.org.id, 'og-image', { width: 120, height: 63, fit: 'cover', format: 'jpeg', quality: 82 })
    const res = await render('preset=og-image&redirect=false')
    expect(res.json()).toMatchObject({ width: 120, height: 63, format: 'jpeg' })
    expect(res.json().url).toContain('/renditions/w120-h63-cover-q82.jpeg?')
    expectInvalid(await render('preset=og-image', globex.readKey, {}, (await pushAndRead(t.app, globex, {}, await patternNoise(40, 40).png().toBuffer())).record.id), '/query/preset')
  })
})

describe('GET /files/assets/{id}/versions/{v}/renditions/{segment}', () => {
  it('answers 403 to a tampered signature or segment, and 404 to a segment that is not a spec\u2019s canonical text', async () => {
    const { url } = (await render('width=100&format=png&redirect=false')).json() as { url: string }
    expectProblem(await fetchFile(url.replace(/sig=[0-9a-f]/, (m) => (m.endsWith('0') ? 'sig=1' : 'sig=0'))), 403, 'invalid_signature')
    expectProblem(await fetchFile(url.replace('w100-contain.png', 'w4000-contain.png')), 403, 'invalid_signature')
    const { url: signed } = new UrlSigner(TEST_SECRET, BASE_URL).sign(`/files/assets/${asset.id}/versions/1/renditions/w0100-contain.png`)
    expectProblem(await fetchFile(signed), 404, 'not_found')
  })
})

describe('rendition links of a public share', () => {
  it('serve while the share shows the asset, with the private caching of the link\u2019s lifetime, and 404 once unshared', async () => {
    const call = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(acme.writeKey), ...(payload && { payload }) })
    const collection = (await call('POST', '/api/v1/collections', { name: 'Renditions kit' })).json().id as string
    expect((await call('POST', `/api/v1/collections/${collection}/assets`, { asset_id: asset.id })).statusCode).toBe(200)
    const page = String((await call('POST', `/api/v1/collections/${collection}/share`)).json().share_url).replace(BASE_URL, '')
    const shared = (await fetchFile(`${page}.json`)).json().assets.data[0] as { thumbnail_url: string }
    const ref = decodeURIComponent(/[?&]share=([^&]+)/.exec(shared.thumbnail_url)![1]!)
    const link = new UrlSigner(TEST_SECRET, BASE_URL).signForShare(`/files/assets/${asset.id}/versions/1/renditions/w48-contain.png`, ref).url
    const served = await fetchFile(link)
    expect(served.statusCode).toBe(200)
    expect(served.headers['cache-control']).toMatch(/^private, max-age=\d+, immutable$/)
    expect((await call('DELETE', `/api/v1/collections/${collection}/share`)).statusCode).toBe(204)
    expectProblem(await fetchFile(link), 404, 'not_found')
  })
})

describe('rate buckets', () => {
  it('counts a rendition that must be made in the expensive bucket, and one that is stored, or only asked for its link, in the cheap bucket', async () => {
    const limit = (res: { headers: Record<string, unknown> }) => Number(res.headers['x-ratelimit-limit'])
    const linkOnly = await render('width=77&format=png&redirect=false')
    expect(linkOnly.statusCode).toBe(200)
    expect(limit(linkOnly)).toBe(t.config.rateLimits.cheap)
    const first = await render('width=77&format=png')
    expect(first.statusCode).toBe(302)
    expect(limit(first)).toBe(t.config.rateLimits.expensive)
    const again = await render('width=77&format=png')
    expect(again.statusCode).toBe(302)
    expect(limit(again)).toBe(t.config.rateLimits.cheap)
    expect(limit(await render('preset=thumbnail'))).toBe(t.config.rateLimits.cheap)
  })
})

describe('storage', () => {
  it('removes an asset\u2019s renditions, rows and files, when it is purged from the trash; the orphan sweep leaves renditions alone', async () => {
    const { record } = await pushAndRead(t.app, acme, {}, await patternNoise(90, 60).png().toBuffer())
    const made = await render('width=30&format=png', acme.readKey, {}, record.id)
    expect((await fetchFile(String(made.headers.location))).statusCode).toBe(200)
    const key = `renditions/${record.sha256}.w30-contain.png`
    expect(await t.app.blobs.exists(key)).toBe(true)
    // The sweep of files no asset refers to walks the originals only.
    await sweepBlobs(t.database.handle.db, t.app.blobs, 0)
    expect(await t.app.blobs.exists(key)).toBe(true)

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${record.id}`, headers: bearer(acme.writeKey) })).statusCode).toBe(204)
    expect(await t.app.blobs.exists(key)).toBe(true)
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/trash/${record.id}`, headers: bearer(acme.writeKey) })).statusCode).toBe(204)
    expect(await renditionRows(record.sha256)).toEqual([])
    expect(await t.app.blobs.exists(key)).toBe(false)
  })
})

describe('last use', () => {
  it('is recorded at most once an hour per rendition, and written by the maintenance pass, not by the request', async () => {
    const made = await render('width=33&format=png')
    const key = `renditions/${asset.sha256}.w33-contain.png`
    const lastUsed = async () => (await t.database.handle.db.selectFrom('renditions').select('last_used_at').where('key', '=', key).executeTakeFirstOrThrow()).last_used_at
    const longAgo = new Date(Date.now() - 2 * 86_400_000)
    await t.database.handle.db.updateTable('renditions').set({ last_used_at: longAgo }).where('key', '=', key).execute()
    expect((await fetchFile(String(made.headers.location))).statusCode).toBe(200)
    expect(await lastUsed()).toEqual(longAgo)
    await t.app.services.renditions.maintain()
    expect((await lastUsed()).getTime()).toBeGreaterThan(Date.now() - 60_000)

    // Used again within the hour: nothing more to write.
    await t.database.handle.db.updateTable('renditions').set({ last_used_at: longAgo }).where('key', '=', key).execute()
    expect((await fetchFile(String(made.headers.location))).statusCode).toBe(200)
    await t.app.services.renditions.maintain()
    expect(await lastUsed()).toEqual(longAgo)
  })
})

describe('eviction past RENDITIONS_MAX_BYTES', () => {
  let small: TestApp
  let owner: Seeded

  beforeAll(async () => {
    small = await startTestApp({ env: { ...LIMITS, RENDITIONS_MAX_BYTES: String(1024 ** 2) } })
    owner = await seedOrganization(small.app)
  })
  afterAll(() => small.close())

  it('removes the least recently used renditions, rows and files, once the prefix holds more', async () => {
    const { record } = await pushAndRead(small.app, owner, {}, await noisePng(600))
    const db = small.database.handle.db
    const make = async (width: number) => {
      const res = await small.app.inject({ method: 'GET', url: `/api/v1/assets/${record.id}/render?width=${width}&format=png`, headers: bearer(owner.readKey) })
      expect(res.statusCode).toBe(302)
      return `renditions/${record.sha256}.w${width}-contain.png`
    }
    const [a, b] = [await make(360), await make(361)]
    const rows = await db.selectFrom('renditions').select(['key', 'byte_size']).execute()
    expect(rows.reduce((sum, row) => sum + Number(row.byte_size), 0)).toBeLessThan(1024 ** 2)
    // b was last used long ago, a just now: b goes first.
    await db.updateTable('renditions').set({ last_used_at: new Date(Date.now() - 86_400_000) }).where('key', '=', b).execute()
    const c = await make(362)
    await waitFor('the least recently used rendition evicted', async () => !(await small.app.blobs.exists(b)))
    expect((await db.selectFrom('renditions').select('key').execute()).map((row) => row.key).sort()).toEqual([a, c].sort())
    expect(await small.app.blobs.exists(a)).toBe(true)
    expect(await small.app.blobs.exists(c)).toBe(true)
    // Its link still works: the file is made again.
    const again = await small.app.inject({ method: 'GET', url: `/api/v1/assets/${record.id}/render?width=361&format=png`, headers: bearer(owner.readKey) })
    expect((await small.app.inject({ method: 'GET', url: String(again.headers.location).replace(BASE_URL, '') })).statusCode).toBe(200)
  })
})
