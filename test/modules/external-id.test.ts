import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILES_ON_DISK, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, organizationApi, outboxEvents, type OrganizationApi } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'

/** external_id (issue 33): a re-import updates instead of duplicating. */

let t: TestApp
let acme: Seeded
let api: OrganizationApi

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const db = () => t.database.handle.db
let counter = 0
const newExternalId = () => `path:brand/logo-${process.pid}-${++counter}.png`

beforeAll(async () => {
  t = await startTestApp({ env: { ...FILES_ON_DISK, RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' } })
  acme = await seedOrganization(t.app, 'Acme')
  api = organizationApi(t.app, acme)
})
afterAll(() => t.close())

const push = async (image: Buffer, fields: object = {}) => api.call('POST', '/api/v1/assets', { image_base64: image.toString('base64'), ...fields })
const record = async (id: string) => (await api.get(`/api/v1/assets/${id}`)).json<Record<string, unknown>>()
const eventsOf = async (event: string, id: string) => (await outboxEvents(db(), acme.org.id, event)).filter((data) => data.id === id)

describe('a push with external_id', () => {
  it('creates an asset for a new id, and answers its version', async () => {
    const externalId = newExternalId()
    const res = await push(await uniquePng(), { external_id: externalId })
    expect(res.statusCode, res.body).toBe(201)
    const { asset_id: id } = res.json<{ asset_id: string }>()
    expect(res.json()).toEqual({ asset_id: id, duplicate: false, version: 1 })
    expect(await record(id)).toMatchObject({ external_id: externalId, version: 1 })
  })

  it('adds a version to the asset with that id when the bytes are new, the fields sent replacing the old ones', async () => {
    const externalId = newExternalId()
    const first = await push(await uniquePng(), { external_id: externalId, title: 'Logo', client: 'Initech', tag_names: ['old'], created_by_ai: false })
    const id = first.json<{ asset_id: string }>().asset_id
    const second = await uniquePng(20, 10)

    const res = await push(second, { external_id: externalId, title: 'Logo, redrawn', tag_names: ['new'] })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({ asset_id: id, duplicate: false, version: 2 })
    expect(await record(id)).toMatchObject({ title: 'Logo, redrawn', client: 'Initech', tags: ['new'], created_by_ai: false, version: 2, sha256: sha256(second), width: 20, height: 10 })

    const updated = await eventsOf('asset.updated', id)
    expect(updated).toHaveLength(1)
    expect(updated[0]).toMatchObject({ version: 2, title: 'Logo, redrawn', tags: ['new'], changes: ['file', 'title', 'tags'] })
    expect(await eventsOf('asset.created', id)).toHaveLength(1)
  })

  it('answers its current bytes with 200 duplicate and changes nothing, the metadata sent included', async () => {
    const externalId = newExternalId()
    const image = await uniquePng()
    const id = (await push(image, { external_id: externalId, title: 'Kept' })).json<{ asset_id: string }>().asset_id
    const res = await push(image, { external_id: externalId, title: 'Ignored' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ asset_id: id, duplicate: true, version: 1 })
    expect(await record(id)).toMatchObject({ title: 'Kept', version: 1 })
    expect(await eventsOf('asset.updated', id)).toHaveLength(0)
  })

  it('refuses bytes that belong to another asset with 409 content_belongs_to_other_asset', async () => {
    const externalId = newExternalId()
    const id = (await push(await uniquePng(), { external_id: externalId })).json<{ asset_id: string }>().asset_id
    const other = await uniquePng()
    const otherId = (await push(other)).json<{ asset_id: string }>().asset_id
    expect(expectProblem(await push(other, { external_id: externalId, title: 'No' }), 409, 'content_belongs_to_other_asset')).toMatchObject({ asset_id: otherId })
    expect(await record(id)).toMatchObject({ version: 1, title: '' })
  })

  it('answers a new id with bytes the library has as a duplicate, and records no id', async () => {
    const image = await uniquePng()
    const id = (await push(image)).json<{ asset_id: string }>().asset_id
    const res = await push(image, { external_id: newExternalId() })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ asset_id: id, duplicate: true })
    expect(await record(id)).toMatchObject({ external_id: null })
  })

  it('gives concurrent pushes of one new id one asset, each of their bytes a version of it', async () => {
    const externalId = newExternalId()
    const images = [await uniquePng(), await uniquePng()]
    const answers = await Promise.all(images.map((image) => push(image, { external_id: externalId })))
    expect(answers.map((res) => res.statusCode)).toEqual([201, 201])
    const ids = new Set(answers.map((res) => res.json<{ asset_id: string }>().asset_id))
    expect(ids.size).toBe(1)
    expect(answers.map((res) => res.json<{ version: number }>().version).sort()).toEqual([1, 2])
    const listed = await api.get(`/api/v1/assets?external_id=${encodeURIComponent(externalId)}`)
    expect(listed.json<{ total: number }>().total).toBe(1)
  })
})

describe('a push with the external_id of an asset in the trash', () => {
  it('restores it, then adds new bytes as its next version', async () => {
    const externalId = newExternalId()
    const id = (await push(await uniquePng(), { external_id: externalId, title: 'Logo' })).json<{ asset_id: string }>().asset_id
    expect((await api.call('DELETE', `/api/v1/assets/${id}`)).statusCode).toBe(204)
    const res = await push(await uniquePng(), { external_id: externalId, title: 'Logo, back' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({ asset_id: id, duplicate: false, version: 2 })
    expect(await record(id)).toMatchObject({ title: 'Logo, back', version: 2, external_id: externalId })
    expect(await eventsOf('asset.restored', id)).toHaveLength(1)
    expect((await api.get('/api/v1/trash')).json<{ data: Array<{ id: string }> }>().data.map((asset) => asset.id)).not.toContain(id)
  })

  it('restores it as it was for its own bytes, and leaves it in the trash for another asset’s', async () => {
    const externalId = newExternalId()
    const image = await uniquePng()
    const id = (await push(image, { external_id: externalId })).json<{ asset_id: string }>().asset_id
    await api.call('DELETE', `/api/v1/assets/${id}`)
    const other = await uniquePng()
    const otherId = (await push(other)).json<{ asset_id: string }>().asset_id
    expect(expectProblem(await push(other, { external_id: externalId }), 409, 'content_belongs_to_other_asset')).toMatchObject({ asset_id: otherId })
    expect((await api.get(`/api/v1/assets/${id}`)).statusCode).toBe(404)

    const res = await push(image, { external_id: externalId })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ asset_id: id, duplicate: true })
    expect(await record(id)).toMatchObject({ version: 1, external_id: externalId })
  })
})

describe('GET /api/v1/assets?external_id=', () => {
  it('lists the asset with exactly that id, with the other filters', async () => {
    const externalId = newExternalId()
    const id = (await push(await uniquePng(), { external_id: externalId, client: 'Initech' })).json<{ asset_id: string }>().asset_id
    await push(await uniquePng(), { external_id: `${externalId}x` })
    const found = await api.get(`/api/v1/assets?external_id=${encodeURIComponent(externalId)}`)
    expect(found.statusCode).toBe(200)
    expect(found.json()).toMatchObject({ total: 1, total_exact: true, data: [{ id, external_id: externalId }] })
    const other = await api.get(`/api/v1/assets?external_id=${encodeURIComponent(externalId)}&client=Globex`)
    expect(other.json()).toMatchObject({ total: 0, data: [] })
    expect((await api.get(`/api/v1/assets?external_id=${encodeURIComponent(externalId.toUpperCase())}`)).json()).toMatchObject({ total: 0, data: [] })
    expect((await api.get(`/api/v1/assets?external_id=${encodeURIComponent(externalId)}&offset=1`)).json()).toMatchObject({ total: 1, data: [] })
  })

  it('is not a filter a smart collection stores', async () => {
    expectInvalid(await api.call('POST', '/api/v1/collections', { name: 'By id', query: { external_id: 'path:a.png' } }), '/query/external_id')
  })
})

describe('PATCH external_id', () => {
  it('sets it, refuses another live asset\u2019s with 409 external_id_taken, and clears it with null', async () => {
    const taken = newExternalId()
    await push(await uniquePng(), { external_id: taken })
    const id = (await push(await uniquePng())).json<{ asset_id: string }>().asset_id
    const externalId = newExternalId()

    const set = await api.call('PATCH', `/api/v1/assets/${id}`, { external_id: externalId })
    expect(set.statusCode, set.body).toBe(200)
    expect(set.json()).toMatchObject({ external_id: externalId })
    expect((await eventsOf('asset.updated', id)).at(-1)).toMatchObject({ external_id: externalId, changes: ['external_id'] })

    expectProblem(await api.call('PATCH', `/api/v1/assets/${id}`, { external_id: taken, title: 'Not applied' }), 409, 'external_id_taken')
    expect(await record(id)).toMatchObject({ external_id: externalId, title: '' })

    const cleared = await api.call('PATCH', `/api/v1/assets/${id}`, { external_id: null })
    expect(cleared.json()).toMatchObject({ external_id: null })
    expectInvalid(await api.call('PATCH', `/api/v1/assets/${id}`, { external_id: 'x'.repeat(201) }), '/external_id')
  })
})
