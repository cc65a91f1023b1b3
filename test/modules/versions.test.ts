import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UrlSigner } from '../../src/platform/signed-urls.js'
import { bearer, FILES_ON_DISK, seedOrganization, startTestApp, TEST_SECRET, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, organizationApi, outboxEvents, type AssetRecord, type OrganizationApi } from '../support/fixtures.js'
import { solidPng, undecodablePng, uniquePng } from '../support/images.js'

/** Versions of an asset (issue 33): POST/GET /api/v1/assets/{id}/versions, restore, and versioned file links. */

let t: TestApp
let acme: Seeded
let api: OrganizationApi

const BASE_URL = 'http://assets.test'
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const db = () => t.database.handle.db

beforeAll(async () => {
  t = await startTestApp({ env: { ...FILES_ON_DISK, RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000', RATE_LIMIT_FILES: '10000' } })
  acme = await seedOrganization(t.app, 'Acme')
  api = organizationApi(t.app, acme)
})
afterAll(() => t.close())

const upload = (id: string, image: Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1/assets/${id}/versions`, headers: { ...bearer(acme.writeKey), ...headers }, payload: { image_base64: image.toString('base64') } })

const record = async (id: string) => {
  const res = await api.get(`/api/v1/assets/${id}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<AssetRecord & { version: number; width: number; height: number; tags: string[]; title: string; collections: unknown[] }>()
}

const fetchFile = (url: string) => t.app.inject({ method: 'GET', url: url.replace(BASE_URL, '') })

/** A new asset with a title, tags and a collection, and its bytes. */
async function pushedAsset() {
  const image = await uniquePng(40, 20)
  const res = await api.call('POST', '/api/v1/assets', { image_base64: image.toString('base64'), title: 'Logo', tag_names: ['brand'] })
  expect(res.statusCode, res.body).toBe(201)
  return { id: res.json<{ asset_id: string }>().asset_id, image }
}

describe('POST /api/v1/assets/{id}/versions', () => {
  it('makes new bytes the newest version: the asset keeps its id and metadata, its file facts, links, thumbnail and event follow', async () => {
    const { id, image: first } = await pushedAsset()
    const before = await record(id)
    expect(before.version).toBe(1)
    const second = await uniquePng(64, 32)

    const res = await upload(id, second)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({ asset_id: id, version: 2, duplicate: false })

    const after = await record(id)
    expect(after).toMatchObject({ id, title: 'Logo', tags: ['brand'], version: 2, sha256: sha256(second), width: 64, height: 32, byte_size: second.length, mime_type: 'image/png' })
    expect(after.original_url).toContain(`/files/assets/${id}/versions/2/original?`)
    expect(after.thumbnail_url).toContain(`/files/assets/${id}/versions/2/thumbnail?`)
    // Each link serves its own version's bytes, for good.
    expect((await fetchFile(after.original_url)).rawPayload.equals(second)).toBe(true)
    expect((await fetchFile(before.original_url)).rawPayload.equals(first)).toBe(true)
    const thumbnails = [await fetchFile(before.thumbnail_url), await fetchFile(after.thumbnail_url)]
    const sizes = await Promise.all(thumbnails.map(async (thumb) => sharp(thumb.rawPayload).metadata()))
    expect(sizes.map(({ width, height }) => width! / height!)).toEqual([2, 2])
    expect(thumbnails[0]!.headers.etag).not.toBe(thumbnails[1]!.headers.etag)

    const events = (await outboxEvents(db(), acme.org.id, 'asset.updated')).filter((event) => event.id === id)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ id, version: 2, sha256: sha256(second), changes: ['file'] })
    // The thumbnail of the new file is queued for the background.
    expect(await db().selectFrom('thumbnail_jobs').select('asset_id').where('asset_id', '=', id).execute()).toHaveLength(1)
  })

  it('gives a new version its own thumbnail: a failed one of the old file does not carry over', async () => {
    const broken = await api.call('POST', '/api/v1/assets', { image_base64: (await undecodablePng()).toString('base64') })
    const id = broken.json<{ asset_id: string }>().asset_id
    const v1 = await record(id)
    expectProblem(await fetchFile(v1.thumbnail_url), 404, 'thumbnail_unavailable')
    expect(await record(id)).toMatchObject({ thumbnail_status: 'failed' })

    expect((await upload(id, await uniquePng(30, 30))).statusCode).toBe(201)
    const v2 = await record(id)
    expect(v2).toMatchObject({ version: 2, thumbnail_status: 'available', thumbnail_failure: null })
    const thumbnail = await fetchFile(v2.thumbnail_url)
    expect(thumbnail.statusCode).toBe(200)
    expect((await sharp(thumbnail.rawPayload).metadata()).width).toBe(30)
    // Version 1's link still names the bytes that cannot be decoded.
    expectProblem(await fetchFile(v1.thumbnail_url), 404, 'thumbnail_unavailable')
  })

  it('answers its current bytes again with 200 duplicate and changes nothing', async () => {
    const { id, image } = await pushedAsset()
    const res = await upload(id, image)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ asset_id: id, version: 1, duplicate: true })
    expect((await record(id)).version).toBe(1)
    expect((await outboxEvents(db(), acme.org.id, 'asset.updated')).filter((event) => event.id === id)).toHaveLength(0)
  })

  it('takes an earlier version\u2019s bytes as the new version', async () => {
    const { id, image: first } = await pushedAsset()
    expect((await upload(id, await uniquePng())).statusCode).toBe(201)
    const res = await upload(id, first)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({ asset_id: id, version: 3, duplicate: false })
    expect((await record(id)).sha256).toBe(sha256(first))
  })

  it('refuses another live asset\u2019s bytes with 409 content_belongs_to_other_asset naming it', async () => {
    const { id } = await pushedAsset()
    const other = await pushedAsset()
    const body = expectProblem(await upload(id, other.image), 409, 'content_belongs_to_other_asset')
    expect(body).toMatchObject({ asset_id: other.id })
    expect((await record(id)).version).toBe(1)
  })

  it('refuses the bytes of an asset in the trash with 409, naming it', async () => {
    const { id } = await pushedAsset()
    const trashed = await uniquePng()
    const trashedId = '01900000-0000-7000-8000-0000000000aa'
    await sql`insert into trashed_assets (id, organization_id, sha256, asset, purge_at, deleted_by_kind, deleted_by_name)
      values (${trashedId}, ${acme.org.id}, ${sha256(trashed)}, '{}'::jsonb, now() + interval '30 days', 'key', 'test')`.execute(db())
    try {
      expect(expectProblem(await upload(id, trashed), 409, 'content_belongs_to_other_asset')).toMatchObject({ asset_id: trashedId })
    } finally {
      await sql`delete from trashed_assets where id = ${trashedId}`.execute(db())
    }
  })

  it('takes a multipart file part, and gives the push\u2019s answers to bad input', async () => {
    const { id } = await pushedAsset()
    const image = await uniquePng()
    const form = new FormData()
    form.append('file', new Blob([image]), 'v2.png')
    const response = new Response(form)
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/assets/${id}/versions`,
      headers: { ...bearer(acme.writeKey), 'content-type': response.headers.get('content-type')! },
      payload: Buffer.from(await response.arrayBuffer()),
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ version: 2 })

    expectProblem(await upload(id, Buffer.from('not an image at all')), 422, 'not_an_image')
    expectInvalid(await api.call('POST', `/api/v1/assets/${id}/versions`, { image_base64: image.toString('base64'), image_url: 'https://example.com/a.png' }), '/image_url')
    expectInvalid(await api.call('POST', `/api/v1/assets/${id}/versions`, { image_base64: image.toString('base64'), title: 'no' }), '/title')
    expectProblem(await api.call('POST', `/api/v1/assets/${id}/versions`, { image_url: 'http://127.0.0.1:1/a.png' }), 502, 'image_fetch_blocked')
    expect((await record(id)).version).toBe(2)
  })

  it('answers 404 for an unknown asset or another organization\u2019s, and refuses a read key', async () => {
    const globex = await seedOrganization(t.app, 'Globex')
    const theirs = await organizationApi(t.app, globex).push()
    expectProblem(await upload(theirs, await uniquePng()), 404, 'not_found')
    expectProblem(await upload('01900000-0000-7000-8000-000000000000', await uniquePng()), 404, 'not_found')
    const { id } = await pushedAsset()
    const asReader = await t.app.inject({ method: 'POST', url: `/api/v1/assets/${id}/versions`, headers: bearer(acme.readKey), payload: { image_base64: (await uniquePng()).toString('base64') } })
    expectProblem(asReader, 403, 'insufficient_scope')
  })

  it('counts the new version\u2019s bytes against the plan', async () => {
    const limited = await startTestApp({ database: t.database, env: { ...FILES_ON_DISK, PLAN_LIMITS: '{"small":{"max_bytes":200000}}' } })
    try {
      const org = await seedOrganization(limited.app, 'Small')
      await sql`update organizations set plan = 'small' where id = ${org.org.id}`.execute(db())
      const small = await solidPng(8, 8, '#112233')
      const pushed = await limited.app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(org.writeKey), payload: { image_base64: small.toString('base64') } })
      const id = pushed.json<{ asset_id: string }>().asset_id
      const large = await sharp(Buffer.alloc(300 * 300 * 3, 7).map((_, i) => (i * 7919) % 251), { raw: { width: 300, height: 300, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer()
      expect(large.length).toBeGreaterThan(200_000)
      const res = await limited.app.inject({ method: 'POST', url: `/api/v1/assets/${id}/versions`, headers: bearer(org.writeKey), payload: { image_base64: large.toString('base64') } })
      expectProblem(res, 403, 'plan_limit_reached')
      const stored = await db().selectFrom('organizations').select('stored_byte_count').where('id', '=', org.org.id).executeTakeFirstOrThrow()
      expect(Number(stored.stored_byte_count)).toBe(small.length)
    } finally {
      await limited.close()
    }
  })

  it('gives two concurrent uploads to one asset two consecutive versions, none lost', async () => {
    const { id } = await pushedAsset()
    const images = [await uniquePng(), await uniquePng(), await uniquePng()]
    const answers = await Promise.all(images.map((image) => upload(id, image)))
    expect(answers.map((res) => res.statusCode)).toEqual([201, 201, 201])
    expect(answers.map((res) => res.json<{ version: number }>().version).sort()).toEqual([2, 3, 4])
    const versions = (await api.get(`/api/v1/assets/${id}/versions`)).json<{ data: Array<{ version: number; sha256: string }> }>().data
    expect(versions.map((v) => v.version)).toEqual([4, 3, 2, 1])
    expect(new Set(versions.slice(0, 3).map((v) => v.sha256))).toEqual(new Set(images.map(sha256)))
    const current = await record(id)
    expect(current.sha256).toBe(versions[0]!.sha256)
  })

  it('racing a delete: either the upload answers 404, or its version lands and is in the trash with the asset', async () => {
    const outcomes = new Set<number>()
    for (let round = 0; round < 6; round++) {
      const { id } = await pushedAsset()
      const image = await uniquePng()
      const [uploaded, deleted] = await Promise.all([upload(id, image), api.call('DELETE', `/api/v1/assets/${id}`)])
      expect(deleted.statusCode).toBe(204)
      expect([201, 404]).toContain(uploaded.statusCode)
      outcomes.add(uploaded.statusCode)
      expect((await api.get(`/api/v1/assets/${id}`)).statusCode).toBe(404)
      const trashed = await db().selectFrom('trashed_assets').select(['sha256', sql<number>`(asset ->> 'version')::int`.as('version')]).where('id', '=', id).executeTakeFirstOrThrow()
      const versions = await db().selectFrom('asset_versions').select(['version', 'sha256']).where('asset_id', '=', id).orderBy('version').execute()
      const landed = uploaded.statusCode === 201
      expect(trashed).toEqual({ version: landed ? 2 : 1, sha256: landed ? sha256(image) : versions[0]!.sha256 })
      expect(versions.map((v) => v.version)).toEqual(landed ? [1, 2] : [1])
    }
  })

  it('replays the first answer to the same Idempotency-Key without adding a second version', async () => {
    const { id } = await pushedAsset()
    const image = await uniquePng()
    const first = await upload(id, image, { 'idempotency-key': `version-${id}` })
    expect(first.statusCode).toBe(201)
    const again = await upload(id, image, { 'idempotency-key': `version-${id}` })
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    expect((await record(id)).version).toBe(2)
  })
})

describe('GET /api/v1/assets/{id}/versions', () => {
  it('lists every version newest first, with who added it and links to its own files', async () => {
    const { id, image: first } = await pushedAsset()
    const second = await uniquePng(30, 10)
    await upload(id, second)
    const res = await api.get(`/api/v1/assets/${id}/versions`)
    expect(res.statusCode, res.body).toBe(200)
    const { data } = res.json<{ data: Array<Record<string, unknown> & { original_url: string; thumbnail_url: string }> }>()
    expect(data).toHaveLength(2)
    expect(data[0]).toMatchObject({ version: 2, sha256: sha256(second), byte_size: second.length, width: 30, height: 10, mime_type: 'image/png', created_by: { kind: 'key', name: 'assets:write' } })
    expect(data[1]).toMatchObject({ version: 1, sha256: sha256(first), created_by: { kind: 'key', name: 'assets:write' } })
    expect(Date.parse(data[0]!.created_at as string)).toBeGreaterThanOrEqual(Date.parse(data[1]!.created_at as string))
    expect((await fetchFile(data[1]!.original_url)).rawPayload.equals(first)).toBe(true)
    expect((await fetchFile(data[0]!.thumbnail_url)).headers['content-type']).toBe('image/webp')
  })

  it('answers 404 for another organization\u2019s asset', async () => {
    const globex = await seedOrganization(t.app, 'Globex')
    const theirs = await organizationApi(t.app, globex).push()
    expectProblem(await api.get(`/api/v1/assets/${theirs}/versions`), 404, 'not_found')
  })
})

describe('POST /api/v1/assets/{id}/versions/{version}/restore', () => {
  it('copies an earlier version as the newest, emitting asset.updated with the file change', async () => {
    const { id, image: first } = await pushedAsset()
    await upload(id, await uniquePng())
    const res = await api.call('POST', `/api/v1/assets/${id}/versions/1/restore`)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({ asset_id: id, version: 3, duplicate: false })
    const after = await record(id)
    expect(after).toMatchObject({ version: 3, sha256: sha256(first) })
    expect((await fetchFile(after.original_url)).rawPayload.equals(first)).toBe(true)
    const versions = (await api.get(`/api/v1/assets/${id}/versions`)).json<{ data: Array<{ version: number; sha256: string }> }>().data
    expect(versions.map((v) => [v.version, v.sha256 === sha256(first)])).toEqual([
      [3, true],
      [2, false],
      [1, true],
    ])
    const events = (await outboxEvents(db(), acme.org.id, 'asset.updated')).filter((event) => event.id === id)
    expect(events.map((event) => [event.version, event.changes])).toEqual([
      [2, ['file']],
      [3, ['file']],
    ])
  })

  it('answers 200 duplicate for the version already current, and 404 for an unknown version or asset', async () => {
    const { id } = await pushedAsset()
    const res = await api.call('POST', `/api/v1/assets/${id}/versions/1/restore`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ asset_id: id, version: 1, duplicate: true })
    expectProblem(await api.call('POST', `/api/v1/assets/${id}/versions/9/restore`), 404, 'not_found')
    expectProblem(await api.call('POST', `/api/v1/assets/01900000-0000-7000-8000-000000000000/versions/1/restore`), 404, 'not_found')
  })

  it('refuses a version whose bytes another asset has now with 409', async () => {
    const { id, image: first } = await pushedAsset()
    await upload(id, await uniquePng())
    const other = await api.call('POST', '/api/v1/assets', { image_base64: first.toString('base64') })
    expect(other.statusCode).toBe(201)
    const body = expectProblem(await api.call('POST', `/api/v1/assets/${id}/versions/1/restore`), 409, 'content_belongs_to_other_asset')
    expect(body).toMatchObject({ asset_id: other.json<{ asset_id: string }>().asset_id })
  })
})

describe('file links', () => {
  it('serve the current version on a link made before versions, signed for the unversioned path', async () => {
    const { id } = await pushedAsset()
    const second = await uniquePng()
    await upload(id, second)
    const old = new UrlSigner(TEST_SECRET, BASE_URL).sign(`/files/assets/${id}/original`).url
    const res = await fetchFile(old)
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(second)).toBe(true)
  })

  it('refuse a versioned link whose version was changed (the signature covers it)', async () => {
    const { id } = await pushedAsset()
    await upload(id, await uniquePng())
    const { original_url } = await record(id)
    expectProblem(await fetchFile(original_url.replace('/versions/2/', '/versions/1/')), 403, 'invalid_signature')
  })
})
