import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { sql } from 'kysely'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_IMAGE_BYTES } from '../../src/modules/assets/push.js'
import { FileBlobStore } from '../../src/platform/blobs/blob-store.js'
import { uuidv7 } from '../../src/platform/ids.js'
import { UrlSigner } from '../../src/platform/signed-urls.js'
import { bearer, FILES_ON_DISK, seedOrganization, startTestApp, TEST_SECRET, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, organizationApi, outboxEvents, startTwoOrganizations, type OrganizationApi } from '../support/fixtures.js'
import { startServer, type TestServer } from '../support/http-server.js'
import { animatedGif, pngDeclaring, solidPng, truncatedPng, uniquePng } from '../support/images.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let images: TestServer
let call: OrganizationApi['call']
let get: OrganizationApi['get']

const push = (body: object, key = acme.writeKey) => call('POST', '/api/v1/assets', body, key)
const pushPng = async (fields: object = {}, key = acme.writeKey) =>
  push({ image_base64: (await uniquePng()).toString('base64'), ...fields }, key)
const db = () => t.database.handle.db
const assetCount = async (organizationId = acme.org.id) =>
  (await db().selectFrom('assets').select(sql<number>`count(*)::int`.as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow()).n

/**
 * Bytes from `make` whose files cannot be written: a plain file stands where their fan-out directory
 * (`<blobDir>/ab/cd`) would be made, so every write of them fails. `unblock` removes it again.
 */
async function unwritable(blobDir: string, make: () => Promise<Buffer>) {
  const fanOutOf = (bytes: Buffer) => {
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    return { sha256, fanOut: join(blobDir, sha256.slice(0, 2), sha256.slice(2, 4)) }
  }
  let bytes = await make()
  // Bytes whose directory another test's file already made could still be written: draw again.
  while (existsSync(fanOutOf(bytes).fanOut)) bytes = await make()
  const { sha256, fanOut } = fanOutOf(bytes)
  mkdirSync(dirname(fanOut), { recursive: true })
  writeFileSync(fanOut, 'not a directory')
  return { bytes, sha256, unblock: () => rmSync(fanOut), stored: () => existsSync(join(fanOut, sha256)) }
}

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({
    env: { ...FILES_ON_DISK, OUTBOUND_ALLOWLIST: '127.0.0.1/32', IMAGE_FETCH_TIMEOUT_MS: '1500', RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' },
  }))
  ;({ call, get } = organizationApi(t.app, acme))
  const photo = await solidPng(1200, 600)
  images = await startServer((req, res) => {
    if (req.url === '/photo.png') res.writeHead(200, { 'content-type': 'text/plain' }).end(photo)
    else if (req.url === '/redirect-to-private') res.writeHead(302, { location: 'http://127.0.0.2:9/x.png' }).end()
    else if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'image/png' })
      const chunk = Buffer.alloc(1024 * 1024)
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump)
      }
      pump()
      res.on('close', () => res.removeAllListeners('drain'))
    } else if (req.url === '/huge') res.writeHead(200, { 'content-length': String(MAX_IMAGE_BYTES + 1) }).end()
    else if (req.url === '/silent') return
    else res.writeHead(404).end()
  })
})
afterAll(async () => {
  await images.close()
  await t.close()
})

describe('POST /api/v1/assets', () => {
  it('stores an inline image with its metadata, thumbnail and asset.created event', async () => {
    const res = await push({
      image_base64: `data:image/png;base64,${(await solidPng(2000, 1000, '#112233')).toString('base64')}`,
      title: ' Hero banner ',
      asset_type: 'banner',
      client: 'Initech',
      product: 'Stapler',
      tag_names: ['Summer', 'red', 'summer'],
      source_url: 'https://figma.com/file/abc',
      created_by_ai: false,
    })
    expect(res.statusCode).toBe(201)
    const { asset_id: id, duplicate } = res.json()
    expect(duplicate).toBe(false)
    const record = (await get(`/api/v1/assets/${id}`)).json()
    expect(record).toMatchObject({
      id,
      title: 'Hero banner',
      asset_type: 'Banner',
      client: 'Initech',
      product: 'Stapler',
      tags: ['red', 'Summer'],
      source_url: 'https://figma.com/file/abc',
      created_by_ai: false,
      mime_type: 'image/png',
      width: 2000,
      height: 1000,
      collections: [],
    })
    const hours = (new Date(record.thumbnail_expires_at).getTime() - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(23.9)
    expect(hours).toBeLessThanOrEqual(25)
    expect(new Date(record.thumbnail_expires_at).getUTCMinutes()).toBe(0)
    expect(record.thumbnail_url).toMatch(/^http:\/\/assets\.test\/files\/assets\/[0-9a-f-]+\/versions\/1\/thumbnail\?expires=\d+&sig=[0-9a-f]{64}$/)

    const thumbnail = await t.app.inject({ method: 'GET', url: record.thumbnail_url.replace('http://assets.test', '') })
    expect(thumbnail.statusCode).toBe(200)
    expect(thumbnail.headers['content-type']).toBe('image/webp')
    expect(await sharp(thumbnail.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 512, height: 256 })
    expect(thumbnail.headers['cache-control']).toMatch(/^private, max-age=\d+, immutable$/)

    const events = await outboxEvents(db(), acme.org.id, 'asset.created')
    expect(events.find((e) => e.id === id)).toMatchObject({ id, title: 'Hero banner', tags: ['red', 'Summer'] })
  })

  it('accepts base64 wrapped in lines, as MIME encoders write it', async () => {
    const wrapped = (await uniquePng()).toString('base64').replace(/.{76}/g, '$&\r\n')
    expect(wrapped).toContain('\r\n')
    expect((await push({ image_base64: wrapped })).statusCode).toBe(201)
  })

  it('defaults created_by_ai to true and fetches image_url through the guarded client', async () => {
    const res = await push({ image_url: `${images.url}/photo.png` })
    expect(res.statusCode).toBe(201)
    const record = (await get(`/api/v1/assets/${res.json().asset_id}`)).json()
    expect(record).toMatchObject({ created_by_ai: true, mime_type: 'image/png', width: 1200, height: 600, title: '' })
  })

  it('answers the same bytes with the existing id, changing nothing and firing no event', async () => {
    const bytes = (await uniquePng()).toString('base64')
    const first = await push({ image_base64: bytes, title: 'first' })
    const before = (await outboxEvents(db(), acme.org.id, 'asset.created')).length
    const again = await push({ image_base64: bytes, title: 'second' })
    expect(again.statusCode).toBe(200)
    expect(again.json()).toEqual({ asset_id: first.json().asset_id, duplicate: true })
    expect((await get(`/api/v1/assets/${first.json().asset_id}`)).json().title).toBe('first')
    expect(await outboxEvents(db(), acme.org.id, 'asset.created')).toHaveLength(before)
    const elsewhere = await push({ image_base64: bytes }, globex.writeKey)
    expect(elsewhere.statusCode).toBe(201)
  })

  it('makes one asset of two concurrent pushes of the same bytes', async () => {
    const bytes = (await uniquePng(300, 300)).toString('base64')
    const results = await Promise.all([push({ image_base64: bytes }), push({ image_base64: bytes })])
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 201])
    expect(new Set(results.map((r) => r.json().asset_id)).size).toBe(1)
  })

  it.each([
    ['both sources', async () => ({ image_base64: (await uniquePng()).toString('base64'), image_url: `${images.url}/photo.png` })],
    ['no source', async () => ({ title: 'nothing' })],
    ['invalid base64', async () => ({ image_base64: 'abc' })],
    ['base64 with junk characters', async () => ({ image_base64: `${(await uniquePng()).toString('base64').slice(0, 40)}*&^%` })],
    ['an unknown field', async () => ({ image_base64: (await uniquePng()).toString('base64'), colour: 'red' })],
    ['a wrong type', async () => ({ image_base64: (await uniquePng()).toString('base64'), created_by_ai: 'no' })],
    ['an empty title-like name', async () => ({ image_base64: (await uniquePng()).toString('base64'), client: ' ' })],
  ])('refuses %s with 400 and stores nothing', async (_label, body) => {
    const before = await assetCount()
    expectProblem(await push(await body()), 400, 'validation_failed')
    expect(await assetCount()).toBe(before)
  })

  it('refuses __proto__ and constructor keys as unknown fields, without the parser\u2019s scan', async () => {
    const before = await assetCount()
    const image = (await uniquePng()).toString('base64')
    for (const poisoned of [`{"image_base64":"${image}","__proto__":{"admin":true}}`, `{"image_base64":"${image}","constructor":{"prototype":{"admin":true}}}`]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/assets', headers: { ...bearer(acme.writeKey), 'content-type': 'application/json' }, payload: poisoned })
      expectProblem(res, 400, 'validation_failed')
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
    expect(await assetCount()).toBe(before)
  })

  it('refuses an image cut short with 422 image_truncated, pushed, uploaded or as a new version, writing nothing', async () => {
    const before = await assetCount()
    const cut = await truncatedPng()
    const stored = () => new FileBlobStore(t.config.blobDir).exists(createHash('sha256').update(cut).digest('hex'))
    const refused = await push({ image_base64: cut.toString('base64') })
    expectProblem(refused, 422, 'image_truncated')
    expect(refused.json().detail).toMatch(/PNG is truncated or damaged/)
    const target = (await push({ image_base64: (await uniquePng()).toString('base64') })).json().asset_id as string
    const asVersion = await t.app.inject({
      method: 'POST',
      url: `/api/v1/assets/${target}/versions`,
      headers: { ...bearer(acme.writeKey), 'content-type': 'application/json' },
      payload: { image_base64: cut.toString('base64') },
    })
    expectProblem(asVersion, 422, 'image_truncated')
    expect(await assetCount()).toBe(before + 1)
    expect(await stored()).toBe(false)
  })

  // An image whose structure is whole and whose pixels cannot be decoded is accepted: see thumbnails.test.ts.
  it('refuses bytes that are not an image with 422, writing nothing', async () => {
    const text = Buffer.from('hello, I am a text file named logo.png')
    expectProblem(await push({ image_base64: text.toString('base64') }), 422, 'not_an_image')
    expect(await new FileBlobStore(t.config.blobDir).exists(createHash('sha256').update(text).digest('hex'))).toBe(false)
  })

  it('answers 500 and keeps no asset when the original cannot be written', async () => {
    const before = await assetCount()
    const image = await unwritable(t.config.blobDir, () => uniquePng())
    try {
      expectProblem(await push({ image_base64: image.bytes.toString('base64') }), 500, 'internal_error')
    } finally {
      image.unblock()
    }
    expect(await assetCount()).toBe(before)
    expect(image.stored()).toBe(false)
    // Nothing was left half done: the same bytes push now that the disk takes them.
    expect((await push({ image_base64: image.bytes.toString('base64') })).json()).toMatchObject({ duplicate: false })
  })

  it('refuses decompression bombs, also inside an SVG, with 422, without decoding them', async () => {
    const bomb = pngDeclaring(50_000, 50_000)
    expect(bomb.length).toBeLessThan(2_000)
    expectProblem(await push({ image_base64: bomb.toString('base64') }), 422, 'image_too_many_pixels')
    expectProblem(await push({ image_base64: (await animatedGif(60, 1000)).toString('base64') }), 422, 'image_too_many_pixels')
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="data:image/png;base64,${bomb.toString('base64')}"/></svg>`
    expectProblem(await push({ image_base64: Buffer.from(svg).toString('base64') }), 422, 'svg_too_complex')
  })

  it('accepts exactly 25 MiB and refuses one byte more with 413', async () => {
    const image = await uniquePng(16, 16)
    const padded = (size: number) => Buffer.concat([image, Buffer.alloc(size - image.length)]).toString('base64')
    expect((await push({ image_base64: padded(MAX_IMAGE_BYTES) })).statusCode).toBe(201)
    expectProblem(await push({ image_base64: padded(MAX_IMAGE_BYTES + 1) }), 413, 'image_too_large')
  })

  it('checks asset_type against the catalogue and lists the allowed values', async () => {
    const body = expectProblem(await pushPng({ asset_type: 'Hologram' }), 422, 'unknown_asset_type')
    expect(body.detail).toContain('Banner')
    expect(body.errors?.[0]?.pointer).toBe('/asset_type')
  })

  it('refuses an unknown collection with 404 and a smart one with 409, storing nothing', async () => {
    await db()
      .insertInto('collections')
      .values({ id: uuidv7(), organization_id: acme.org.id, name: 'Reds', kind: 'smart', query: JSON.stringify({ tag: 'red' }), updated_at: new Date() })
      .execute()
    const before = await assetCount()
    expectProblem(await pushPng({ collection_name: 'Nope' }), 404, 'not_found')
    expectProblem(await pushPng({ collection_name: 'reds' }), 409, 'smart_collection_immutable')
    expect(await assetCount()).toBe(before)
    expect(await db().selectFrom('collections').select('id').where('name', '=', 'Nope').execute()).toEqual([])
  })

  it('adds to a manual collection, also when the push is a duplicate', async () => {
    const id = uuidv7()
    await db().insertInto('collections').values({ id, organization_id: acme.org.id, name: 'Picks', kind: 'manual', query: null, updated_at: new Date() }).execute()
    const bytes = (await uniquePng()).toString('base64')
    const first = (await push({ image_base64: bytes })).json().asset_id
    const again = await push({ image_base64: bytes, collection_name: 'PICKS' })
    expect(again.json()).toEqual({ asset_id: first, duplicate: true })
    expect((await get(`/api/v1/assets/${first}`)).json().collections).toEqual([{ id, name: 'Picks' }])
  })

  it('refuses a read key with 403', async () => {
    expectProblem(await pushPng({}, acme.readKey), 403, 'insufficient_scope')
  })
})

describe('image_url', () => {
  it.each([
    ['a loopback address outside the allowlist', 'http://127.0.0.2:9/x.png'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', 'http://10.0.0.1/x.png'],
    ['IPv6 loopback', 'http://[::1]/x.png'],
    ['a decimal spelling of a loopback address outside the allowlist', 'http://2130706434/x.png'],
    ['an allowed host redirecting to a private one', '/redirect-to-private'],
    ['a non-http scheme', 'file:///etc/passwd'],
  ])('blocks %s with 502 image_fetch_blocked', async (_label, url) => {
    const res = await push({ image_url: url.startsWith('/') ? `${images.url}${url}` : url })
    if (url.startsWith('file:')) {
      expectProblem(res, 400, 'validation_failed')
      return
    }
    const body = expectProblem(res, 502, 'image_fetch_blocked')
    expect(body.detail).not.toMatch(/127\.0\.0\.2|169\.254|10\.0\.0\.1/)
  })

  it('reports a missing image, a silent server and a refused connection as 502 image_fetch_failed', async () => {
    expectProblem(await push({ image_url: `${images.url}/missing.png` }), 502, 'image_fetch_failed')
    expectProblem(await push({ image_url: `${images.url}/silent` }), 502, 'image_fetch_failed')
    expectProblem(await push({ image_url: 'http://127.0.0.1:9/x.png' }), 502, 'image_fetch_failed')
  })

  it('cuts off an endless body and refuses a huge Content-Length with 413', async () => {
    const started = Date.now()
    expectProblem(await push({ image_url: `${images.url}/endless` }), 413, 'image_too_large')
    expectProblem(await push({ image_url: `${images.url}/huge` }), 413, 'image_too_large')
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})

describe('plan limits', () => {
  it('refuse a push past the plan with 403 plan_limit_reached and store nothing', async () => {
    const limited = await startTestApp({ database: t.database, env: { ...FILES_ON_DISK, PLAN_LIMITS: '{"tiny":{"max_assets":1}}' } })
    try {
      const org = await seedOrganization(limited.app, 'Tiny')
      await sql`update organizations set plan = 'tiny' where id = ${org.org.id}`.execute(db())
      const send = async (image: Buffer) =>
        limited.app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(org.writeKey), payload: { image_base64: image.toString('base64') } })
      expect((await send(await uniquePng())).statusCode).toBe(201)
      // Any write of these bytes fails, so the refusal must come before the push writes anything.
      const refused = await unwritable(limited.config.blobDir, () => uniquePng())
      expectProblem(await send(refused.bytes), 403, 'plan_limit_reached')
      refused.unblock()
      expect(await assetCount(org.org.id)).toBe(1)
      expect(refused.stored()).toBe(false)
    } finally {
      await limited.close()
    }
  })
})

describe('GET /api/v1/assets', () => {
  let ids: Record<string, string>
  let initrode: Seeded
  beforeAll(async () => {
    initrode = await seedOrganization(t.app, 'Initrode')
    const make = async (name: string, fields: object) => [name, (await push({ image_base64: (await uniquePng()).toString('base64'), ...fields }, initrode.writeKey)).json().asset_id]
    ids = Object.fromEntries([
      await make('a', { title: 'Autumn leaves', asset_type: 'Photo', client: 'Hooli', tag_names: ['autumn'] }),
      await make('b', { title: 'Winter logo', asset_type: 'Logo', client: 'hooli', product: 'Nucleus', tag_names: ['winter', 'blue'] }),
      await make('c', { title: 'Spring banner', asset_type: 'Banner', client: 'Pied Piper', tag_names: ['Blue'] }),
    ])
  })
  const list = async (query: string) => (await get(`/api/v1/assets?${query}`, initrode.readKey)).json()
  const listed = async (query: string) => (await list(query)).data.map((a: { id: string }) => a.id)

  it('lists newest first with the envelope and full records', async () => {
    const page = await list('')
    expect(page).toMatchObject({ total: 3, limit: 50, offset: 0 })
    expect(page.data.map((a: { id: string }) => a.id)).toEqual([ids.c, ids.b, ids.a])
    expect(page.data[1]).toMatchObject({ tags: ['blue', 'winter'], product: 'Nucleus', thumbnail_url: expect.stringContaining('/thumbnail?') })
  })

  it('filters by each field, case-insensitively, and combines filters', async () => {
    expect(await listed('asset_type=logo')).toEqual([ids.b])
    expect(await listed('client=HOOLI')).toEqual([ids.b, ids.a])
    expect(await listed('product=nucleus')).toEqual([ids.b])
    expect(await listed('tag=blue')).toEqual([ids.c, ids.b])
    expect(await listed('tag=blue&client=hooli')).toEqual([ids.b])
    expect(await listed('q=autumn')).toEqual([ids.a])
    expect(await listed('q=pied')).toEqual([ids.c])
    expect(await listed('q=winter blue')).toEqual([ids.b])
    expect(await listed('client=nobody')).toEqual([])
  })

  it('pages with limit and offset', async () => {
    expect(await list('limit=1&offset=1')).toMatchObject({ total: 3, limit: 1, offset: 1, data: [{ id: ids.b }] })
    expect((await list('limit=101')).limit).toBe(100)
  })

  it('keeps the total on a page past the end: the kept counts (whole library, one tag, type, client or product) and a counted filter', async () => {
    expect(await list('offset=10')).toMatchObject({ total: 3, data: [] })
    expect(await list('tag=BLUE&offset=10')).toMatchObject({ total: 2, data: [] })
    expect(await list('client=hooli&offset=10')).toMatchObject({ total: 2, data: [] })
    expect(await list('asset_type=LOGO&offset=10')).toMatchObject({ total: 1, data: [] })
    expect(await list('product=Nucleus&offset=10')).toMatchObject({ total: 1, data: [] })
    expect(await list('client=nobody&offset=10')).toMatchObject({ total: 0, data: [] })
    expect(await list('tag=blue&client=hooli&offset=10')).toMatchObject({ total: 1, data: [] })
    expect(await list('tag=never-used&offset=10')).toMatchObject({ total: 0, data: [] })
  })

  it.each(['limit=0', 'offset=-1', 'colour=red', 'limit=1.5', 'offset=99999999999999999999', 'q=%00', 'client=a%00b'])('refuses %s with 400', async (query) => {
    expectProblem(await get(`/api/v1/assets?${query}`, initrode.readKey), 400, 'validation_failed')
  })

  it('shows only the caller\u2019s organization', async () => {
    expect((await get(`/api/v1/assets/${ids.a}`, acme.readKey)).statusCode).toBe(404)
    expect(JSON.stringify((await get('/api/v1/assets?limit=100', acme.readKey)).json())).not.toContain(ids.a)
  })
})

describe('PATCH /api/v1/assets/{id}', () => {
  it('changes the fields sent, replaces tags, and emits asset.updated', async () => {
    const id = (await pushPng({ title: 'Old', client: 'Initech', tag_names: ['one', 'two'] })).json().asset_id
    const res = await t.app.inject({ method: 'PATCH', url: `/api/v1/assets/${id}`, headers: bearer(acme.writeKey), payload: { title: 'New', tag_names: ['three'], client: null, asset_type: 'icon' } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id, title: 'New', tags: ['three'], client: null, asset_type: 'Icon' })
    const events = await outboxEvents(db(), acme.org.id, 'asset.updated')
    expect(events.at(-1)).toMatchObject({ id, title: 'New', tags: ['three'] })
    const cleared = await t.app.inject({ method: 'PATCH', url: `/api/v1/assets/${id}`, headers: bearer(acme.writeKey), payload: { tag_names: [] } })
    expect(cleared.json().tags).toEqual([])
    expect((await get(`/api/v1/assets?q=three`)).json().data.map((a: { id: string }) => a.id)).not.toContain(id)
  })

  it('refuses an id in another spelling and a NUL character with 400, not a database error', async () => {
    const id = (await pushPng()).json().asset_id
    expectProblem(await get(`/api/v1/assets/urn:uuid:${id}`), 400, 'validation_failed')
    const res = await t.app.inject({ method: 'PATCH', url: `/api/v1/assets/${id}`, headers: bearer(acme.writeKey), payload: { tag_names: ['ok', 'bad\u0000tag'] } })
    expect(expectProblem(res, 400, 'validation_failed').errors).toEqual([{ pointer: '/tag_names/1', detail: 'must not contain NUL characters' }])
  })

  it('refuses unknown fields, an empty body and another organization\u2019s asset', async () => {
    const id = (await pushPng()).json().asset_id
    const patch = (payload: object, key = acme.writeKey) => t.app.inject({ method: 'PATCH', url: `/api/v1/assets/${id}`, headers: bearer(key), payload })
    expectProblem(await patch({ titel: 'typo' }), 400, 'validation_failed')
    expectProblem(await patch({}), 400, 'validation_failed')
    expectProblem(await patch({ title: 'mine now' }, globex.writeKey), 404, 'not_found')
    expectProblem(await patch({ asset_type: 'Hologram' }), 422, 'unknown_asset_type')
    expect((await get(`/api/v1/assets/${id}`)).json().title).toBe('')
  })
})

describe('DELETE /api/v1/assets/{id}', () => {
  it('moves the asset to the trash with its files, emits asset.deleted; the purge removes files no other organization uses', async () => {
    const bytes = (await uniquePng()).toString('base64')
    const mine = (await push({ image_base64: bytes })).json().asset_id
    const theirs = (await push({ image_base64: bytes }, globex.writeKey)).json().asset_id
    const record = (await get(`/api/v1/assets/${mine}`)).json()
    const blobPath = join(t.config.blobDir, record.sha256.slice(0, 2), record.sha256.slice(2, 4), record.sha256)
    expect(existsSync(blobPath)).toBe(true)

    expectProblem(await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${mine}`, headers: bearer(globex.writeKey) }), 404, 'not_found')
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${mine}`, headers: bearer(acme.writeKey) })).statusCode).toBe(204)
    expect((await get(`/api/v1/assets/${mine}`)).statusCode).toBe(404)
    expect((await outboxEvents(db(), acme.org.id, 'asset.deleted')).at(-1)).toEqual({ id: mine })
    expect(existsSync(blobPath)).toBe(true)
    expect((await call('DELETE', `/api/v1/trash/${mine}`)).statusCode).toBe(204)
    expect((await get(`/api/v1/assets/${theirs}`, globex.readKey)).statusCode).toBe(200)
    const theirThumbnail = (await get(`/api/v1/assets/${theirs}`, globex.readKey)).json().thumbnail_url.replace('http://assets.test', '')
    expect((await t.app.inject({ method: 'GET', url: theirThumbnail })).statusCode).toBe(200)

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${theirs}`, headers: bearer(globex.writeKey) })).statusCode).toBe(204)
    expect(existsSync(blobPath)).toBe(true)
    // In the trash its versioned link still serves (the trash list shows it); the purge ends it.
    expect((await t.app.inject({ method: 'GET', url: theirThumbnail })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/trash/${theirs}`, headers: bearer(globex.writeKey) })).statusCode).toBe(204)
    expect(existsSync(blobPath)).toBe(false)
    expectProblem(await t.app.inject({ method: 'GET', url: theirThumbnail }), 404, 'not_found')
    expect((await push({ image_base64: bytes })).statusCode).toBe(201)
  })
})

describe('signed file URLs', () => {
  it('refuse a tampered, expired or cross-asset signature with 403', async () => {
    const [a, b] = [(await pushPng()).json().asset_id, (await pushPng()).json().asset_id]
    const url = (await get(`/api/v1/assets/${a}`)).json().original_url.replace('http://assets.test', '') as string
    const original = await t.app.inject({ method: 'GET', url })
    expect(original.statusCode).toBe(200)
    expect(original.headers['content-type']).toBe('image/png')
    expect(original.headers['x-content-type-options']).toBe('nosniff')

    const tampered = url.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`)
    expectProblem(await t.app.inject({ method: 'GET', url: tampered }), 403, 'invalid_signature')
    expectProblem(await t.app.inject({ method: 'GET', url: url.replace(a, b) }), 403, 'invalid_signature')
    const expired = new UrlSigner(TEST_SECRET, 'http://assets.test').sign(`/files/assets/${a}/original`, Date.now() - 48 * 3_600_000)
    expectProblem(await t.app.inject({ method: 'GET', url: expired.url.replace('http://assets.test', '') }), 403, 'invalid_signature')
  })
})
