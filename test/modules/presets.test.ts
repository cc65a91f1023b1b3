import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renditionPath, type RenditionSpec } from '../../src/modules/renditions/spec.js'
import { MAX_PRESETS } from '../../src/modules/presets/service.js'
import { UrlSigner } from '../../src/platform/signed-urls.js'
import { bearer, seedOrganization, startTestApp, TEST_SECRET, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, organizationApi, outboxEvents, startTwoOrganizations, type OrganizationApi } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { loginOwner, signedInMember, type Client } from '../support/sessions.js'
import { statementsDuring } from '../support/statements.js'
import { waitFor } from '../support/wait.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let owner: Client
let api: OrganizationApi

const BASE_URL = 'http://assets.test'
const signer = new UrlSigner(TEST_SECRET, BASE_URL)
const presetsUrl = (seeded: Seeded) => `/app/api/orgs/${seeded.org.slug}/presets`

interface Preset extends RenditionSpec {
  name: string
  built_in: boolean
}

const BUILT_INS = [
  { name: 'thumbnail', built_in: true, width: 512, height: 512, fit: 'inside', format: 'webp', quality: 80, background: null },
  { name: 'original', built_in: true, width: null, height: null, fit: 'inside', format: null, quality: null, background: null },
]

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations())
  owner = await loginOwner(t.app, acme)
  api = organizationApi(t.app, acme)
})
afterAll(() => t.close())

/** Checks that `url` is the signed link of the rendition `spec` of the asset's version, as renditionPath names it. */
function expectRenditionLink(url: string, asset: { id: string; version: number }, spec: RenditionSpec): void {
  const parsed = new URL(url)
  expect(parsed.origin).toBe(BASE_URL)
  expect(parsed.pathname).toBe(renditionPath(asset.id, asset.version, spec))
  const query = { expires: Number(parsed.searchParams.get('expires')), sig: parsed.searchParams.get('sig')! }
  expect(signer.verify(parsed.pathname, query), 'the link is signed for its path').not.toBeNull()
}

describe('presets in the app API', () => {
  it('are created, listed, replaced and deleted by an owner, the built-ins listed first', async () => {
    const created = await owner.post(presetsUrl(acme), { name: 'web-1200', width: 1200, format: 'webp' })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json()).toEqual({ name: 'web-1200', built_in: false, width: 1200, height: null, fit: 'contain', format: 'webp', quality: 80, background: null })
    const og = await owner.post(presetsUrl(acme), { name: 'og-image', width: 1200, height: 630, fit: 'cover', format: 'jpeg', quality: 82, background: '#FFFFFF' })
    expect(og.json()).toMatchObject({ name: 'og-image', fit: 'cover', format: 'jpeg', quality: 82, background: 'ffffff' })

    const listed = await owner.get(presetsUrl(acme))
    expect(listed.statusCode).toBe(200)
    expect(listed.json().data.map((preset: Preset) => preset.name)).toEqual(['thumbnail', 'original', 'og-image', 'web-1200'])
    expect(listed.json().data.slice(0, 2)).toEqual(BUILT_INS)

    const replaced = await owner.put(`${presetsUrl(acme)}/og-image`, { width: 1200, height: 630, format: 'png' })
    expect(replaced.statusCode, replaced.body).toBe(200)
    expect(replaced.json()).toEqual({ name: 'og-image', built_in: false, width: 1200, height: 630, fit: 'contain', format: 'png', quality: null, background: null })

    expect((await owner.delete(`${presetsUrl(acme)}/og-image`)).statusCode).toBe(204)
    expect((await owner.get(presetsUrl(acme))).json().data.map((preset: Preset) => preset.name)).toEqual(['thumbnail', 'original', 'web-1200'])
    expectProblem(await owner.delete(`${presetsUrl(acme)}/og-image`), 404, 'not_found')
    expectProblem(await owner.put(`${presetsUrl(acme)}/og-image`, { format: 'png' }), 404, 'not_found')
  })

  it('are read by members and written only by owners and admins, with the CSRF token', async () => {
    const member = await signedInMember(t.app, acme.org.id, 'member')
    expect((await member.get(presetsUrl(acme))).json().data.map((preset: Preset) => preset.name)).toContain('web-1200')
    expectProblem(await member.post(presetsUrl(acme), { name: 'mine', format: 'png' }), 403, 'role_required')
    expectProblem(await member.put(`${presetsUrl(acme)}/web-1200`, { format: 'png' }), 403, 'role_required')
    expectProblem(await member.delete(`${presetsUrl(acme)}/web-1200`), 403, 'role_required')
    expectProblem(await owner.post(presetsUrl(acme), { name: 'no-csrf', format: 'png' }, { csrf: null }), 403, 'csrf_token_invalid')

    const admin = await signedInMember(t.app, acme.org.id, 'admin')
    expect((await admin.post(presetsUrl(acme), { name: 'icon-512', width: 512, height: 512, format: 'png' })).statusCode).toBe(201)
    expect((await admin.delete(`${presetsUrl(acme)}/icon-512`)).statusCode).toBe(204)
    const names = (await owner.get(presetsUrl(acme))).json().data.map((preset: Preset) => preset.name)
    expect(names).not.toContain('mine')
    expect(names).not.toContain('no-csrf')
  })

  it('are each organization\u2019s own', async () => {
    const globexOwner = await loginOwner(t.app, globex)
    expect((await globexOwner.get(presetsUrl(globex))).json().data).toEqual(BUILT_INS)
    expectProblem(await globexOwner.delete(`${presetsUrl(globex)}/web-1200`), 404, 'not_found')
    expectProblem(await globexOwner.get(presetsUrl(acme)), 404, 'not_found')
    // Another organization may use the same name.
    expect((await globexOwner.post(presetsUrl(globex), { name: 'web-1200', width: 600, format: 'avif' })).statusCode).toBe(201)
    expect((await owner.get(presetsUrl(acme))).json().data.find((preset: Preset) => preset.name === 'web-1200').width).toBe(1200)
  })

  it('refuse bad names, built-in names and a name taken, changing nothing', async () => {
    for (const name of ['Web', 'web_1200', '-web', '', 'a'.repeat(41), 'web 1200', 'wéb']) {
      expectInvalid(await owner.post(presetsUrl(acme), { name, format: 'png' }), '/name')
    }
    for (const name of ['thumbnail', 'original']) {
      expectProblem(await owner.post(presetsUrl(acme), { name, format: 'png' }), 422, 'preset_name_reserved')
      expectProblem(await owner.put(`${presetsUrl(acme)}/${name}`, { format: 'png' }), 422, 'preset_name_reserved')
      expectProblem(await owner.delete(`${presetsUrl(acme)}/${name}`), 422, 'preset_name_reserved')
    }
    const taken = expectProblem(await owner.post(presetsUrl(acme), { name: 'web-1200', width: 10, format: 'png' }), 422, 'preset_name_taken')
    expect(taken.errors).toEqual([{ pointer: '/name', detail: 'is taken' }])
    const presets = (await owner.get(presetsUrl(acme))).json().data
    expect(presets.map((preset: Preset) => preset.name)).toEqual(['thumbnail', 'original', 'web-1200'])
    expect(presets[2].width).toBe(1200)
  })

  it('clamp out-of-range numbers as a render does, and refuse nonsense and `auto` as 400', async () => {
    const clamped = await owner.post(presetsUrl(acme), { name: 'huge', width: 100_000, height: 0, format: 'jpeg', quality: 5 })
    expect(clamped.statusCode, clamped.body).toBe(201)
    expect(clamped.json()).toMatchObject({ width: t.config.renditions.maxSide, height: 1, quality: 20 })
    const lossless = await owner.put(`${presetsUrl(acme)}/huge`, { width: -1, format: 'png', quality: 500 })
    expect(lossless.json()).toMatchObject({ width: 1, height: null, quality: null })
    expect((await owner.delete(`${presetsUrl(acme)}/huge`)).statusCode).toBe(204)

    expectInvalid(await owner.post(presetsUrl(acme), { name: 'auto', format: 'auto' }), '/format')
    expectInvalid(await owner.post(presetsUrl(acme), { name: 'gif', format: 'gif' }), '/format')
    expectInvalid(await owner.post(presetsUrl(acme), { name: 'nothing' }), '/format')
    expectInvalid(await owner.post(presetsUrl(acme), { name: 'abc', width: 'abc', format: 'png' }), '/width')
    expectInvalid(await owner.post(presetsUrl(acme), { name: 'fill', fit: 'fill', format: 'png' }), '/fit')
    expectInvalid(await owner.post(presetsUrl(acme), { name: 'red', background: 'red', format: 'png' }), '/background')
    expectInvalid(await owner.post(presetsUrl(acme), { name: 'extra', format: 'png', sharpen: true }), '/sharpen')
    expectInvalid(await owner.put(`${presetsUrl(acme)}/web-1200`, { format: 'auto' }), '/format')
    expect((await owner.get(presetsUrl(acme))).json().data.map((preset: Preset) => preset.name)).toEqual(['thumbnail', 'original', 'web-1200'])
  })

  it(`keep at most ${MAX_PRESETS} per organization`, async () => {
    const org = await seedOrganization(t.app, 'Capped')
    const capped = await loginOwner(t.app, org)
    for (let i = 0; i < MAX_PRESETS; i++) expect((await capped.post(presetsUrl(org), { name: `p-${i}`, format: 'png' })).statusCode).toBe(201)
    expectProblem(await capped.post(presetsUrl(org), { name: 'one-more', format: 'png' }), 422, 'preset_limit_reached')
    expect((await capped.get(presetsUrl(org))).json().data).toHaveLength(MAX_PRESETS + BUILT_INS.length)
    expect((await capped.delete(`${presetsUrl(org)}/p-0`)).statusCode).toBe(204)
    expect((await capped.post(presetsUrl(org), { name: 'one-more', format: 'png' })).statusCode).toBe(201)
  })
})

describe('presetNamed, for render?preset=', () => {
  it('answers the organization\u2019s own preset as its normalised spec, and null for a built-in or another organization\u2019s', async () => {
    const { presets } = t.app.services
    expect(await presets.presetNamed(acme.org.id, 'web-1200')).toEqual({
      name: 'web-1200',
      spec: { width: 1200, height: null, fit: 'contain', format: 'webp', quality: 80, background: null },
    })
    expect(await presets.presetNamed(globex.org.id, 'web-1200')).toMatchObject({ spec: { width: 600, format: 'avif' } })
    expect(await presets.presetNamed(acme.org.id, 'thumbnail')).toBeNull()
    expect(await presets.presetNamed(acme.org.id, 'og-image')).toBeNull()
  })
})

describe('GET /api/v1/presets', () => {
  it('lists the built-ins then the organization\u2019s presets to a read key', async () => {
    const res = await api.get('/api/v1/presets')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      data: [...BUILT_INS, { name: 'web-1200', built_in: false, width: 1200, height: null, fit: 'contain', format: 'webp', quality: 80, background: null }],
    })
    expect(res.headers['x-ratelimit-limit']).toBe(String(t.config.rateLimits.cheap))
    const theirs = await api.get('/api/v1/presets', globex.readKey)
    expect(theirs.json().data.find((preset: Preset) => preset.name === 'web-1200')).toMatchObject({ width: 600, format: 'avif' })
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/v1/presets' }), 401, 'invalid_api_key')
  })
})

describe('the asset record\u2019s renditions', () => {
  it('link every preset, signed for the current version, on push, get, list, search, a collection and a new version', async () => {
    const collection = (await api.call('POST', '/api/v1/collections', { name: 'Renditions' })).json()
    const id = await api.push({ title: 'Renditions hero', collection_name: 'Renditions' })
    const record = (await api.get(`/api/v1/assets/${id}`)).json()
    expect(Object.keys(record.renditions)).toEqual(['thumbnail', 'original', 'web-1200'])
    expect(record.renditions.thumbnail).toBe(record.thumbnail_url)
    expect(record.renditions.original).toBe(record.original_url)
    const web1200: RenditionSpec = { width: 1200, height: null, fit: 'contain', format: 'webp', quality: 80, background: null }
    expectRenditionLink(record.renditions['web-1200'], { id, version: 1 }, web1200)
    expect(record.renditions['web-1200']).toMatch(/\/renditions\/w1200-contain-q80\.webp\?expires=\d+&sig=[0-9a-f]{64}$/)

    const listed = (await api.get('/api/v1/assets')).json().data.find((asset: { id: string }) => asset.id === id)
    expect(listed.renditions).toEqual(record.renditions)
    const searched = (await api.call('POST', '/api/v1/search', { q: 'Renditions hero' }, acme.readKey)).json().data.find((asset: { id: string }) => asset.id === id)
    expect(searched.renditions).toEqual(record.renditions)
    const inCollection = (await api.get(`/api/v1/collections/${collection.id}`)).json().assets.data[0]
    expect(inCollection.renditions).toEqual(record.renditions)

    const [created] = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.created')).filter((payload) => payload.id === id)
    expect(created!.renditions).toEqual(record.renditions)

    const png = await api.call('POST', `/api/v1/assets/${id}/versions`, { image_base64: (await uniquePng()).toString('base64') })
    expect(png.statusCode, png.body).toBe(201)
    const second = (await api.get(`/api/v1/assets/${id}`)).json()
    expectRenditionLink(second.renditions['web-1200'], { id, version: 2 }, web1200)
    const updated = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.updated')).filter((payload) => payload.id === id).at(-1)
    expect(updated!.renditions).toEqual(second.renditions)
  })

  it('follow a preset\u2019s change at once in this process, on a list already kept too', async () => {
    const id = await api.push()
    const renditionsNow = async () => (await api.get('/api/v1/assets?limit=100')).json().data.find((asset: { id: string }) => asset.id === id).renditions
    expect(Object.keys(await renditionsNow())).toEqual(['thumbnail', 'original', 'web-1200'])
    expect((await owner.post(presetsUrl(acme), { name: 'icon-64', width: 64, height: 64, format: 'png' })).statusCode).toBe(201)
    const added = await renditionsNow()
    expect(Object.keys(added)).toEqual(['thumbnail', 'original', 'icon-64', 'web-1200'])
    expectRenditionLink(added['icon-64'], { id, version: 1 }, { width: 64, height: 64, fit: 'contain', format: 'png', quality: null, background: null })
    expect((await owner.put(`${presetsUrl(acme)}/icon-64`, { width: 32, height: 32, format: 'png' })).statusCode).toBe(200)
    expectRenditionLink((await renditionsNow())['icon-64'], { id, version: 1 }, { width: 32, height: 32, fit: 'contain', format: 'png', quality: null, background: null })
    expect((await owner.delete(`${presetsUrl(acme)}/icon-64`)).statusCode).toBe(204)
    expect(Object.keys(await renditionsNow())).toEqual(['thumbnail', 'original', 'web-1200'])
  })

  it('are in an edit\u2019s answer and its event right after a preset changed (the cache refilled outside the edit\u2019s transaction)', async () => {
    const id = await api.push()
    expect((await owner.post(presetsUrl(acme), { name: 'edit-time', width: 300, format: 'avif' })).statusCode).toBe(201)
    const edited = await api.call('PATCH', `/api/v1/assets/${id}`, { title: 'Edited after a preset' })
    expect(edited.statusCode, edited.body).toBe(200)
    expect(Object.keys(edited.json().renditions)).toEqual(['thumbnail', 'original', 'edit-time', 'web-1200'])
    const [event] = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.updated')).filter((payload) => payload.id === id)
    expect(event!.renditions).toEqual(edited.json().renditions)
    expect((await owner.delete(`${presetsUrl(acme)}/edit-time`)).statusCode).toBe(204)
  })

  it('are the built-ins alone in the trash, and every preset again once restored', async () => {
    const id = await api.push()
    expect((await api.call('DELETE', `/api/v1/assets/${id}`)).statusCode).toBe(204)
    const trashed = (await api.get('/api/v1/trash')).json().data.find((asset: { id: string }) => asset.id === id)
    expect(trashed.renditions).toEqual({ thumbnail: trashed.thumbnail_url, original: trashed.original_url })
    const restored = await api.call('POST', `/api/v1/trash/${id}/restore`)
    expect(restored.statusCode, restored.body).toBe(200)
    expect(Object.keys(restored.json().renditions)).toEqual(['thumbnail', 'original', 'web-1200'])
    const [event] = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.restored')).filter((payload) => payload.id === id)
    expect(event!.renditions).toEqual(restored.json().renditions)
  })

  it('cost the list no statement while the presets are cached', async () => {
    const list = () => t.app.inject({ method: 'GET', url: '/api/v1/assets?limit=5&tag=none-such', headers: bearer(acme.readKey) })
    const listStatements = () => statementsDuring(list)
    await list()
    const before = await listStatements()
    // A write drops the cache: the next read loads the presets once, the one after costs nothing again.
    expect((await owner.put(`${presetsUrl(acme)}/web-1200`, { width: 1200, format: 'webp' })).statusCode).toBe(200)
    const afterWrite = await listStatements()
    expect(afterWrite).toBeGreaterThan(before)
    expect(await listStatements()).toBe(before)
  })
})

describe('the presets of another process', () => {
  it('are listed at once, and linked in its records within PRESETS_CACHE_TTL_MS', async () => {
    const other = await startTestApp({ database: t.database, env: { PRESETS_CACHE_TTL_MS: '300' } })
    try {
      const id = await api.push()
      const read = (url: string) => other.app.inject({ method: 'GET', url, headers: bearer(acme.readKey) })
      const renditionNames = async () => Object.keys((await read(`/api/v1/assets/${id}`)).json().renditions)
      expect(await renditionNames()).toEqual(['thumbnail', 'original', 'web-1200'])
      expect((await owner.post(presetsUrl(acme), { name: 'late', format: 'png' })).statusCode).toBe(201)
      expect((await read('/api/v1/presets')).json().data.map((preset: Preset) => preset.name)).toEqual(['thumbnail', 'original', 'late', 'web-1200'])
      await waitFor('the other process to link the new preset', async () => (await renditionNames()).includes('late'))
      expect(await renditionNames()).toEqual(['thumbnail', 'original', 'late', 'web-1200'])
      expect((await owner.delete(`${presetsUrl(acme)}/late`)).statusCode).toBe(204)
    } finally {
      await other.close()
    }
  })
})
