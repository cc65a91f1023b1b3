import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { purgeDueTrash } from '../../src/modules/trash/purge.js'
import { RESTORED_COLUMNS } from '../../src/modules/trash/store.js'
import { variantKey } from '../../src/platform/blobs/blob-store.js'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, organizationApi, outboxEvents, pushImage, startTwoOrganizations, type OrganizationApi } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { loginOwner, signedInMember } from '../support/sessions.js'
import { waitFor } from '../support/wait.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let api: OrganizationApi

const db = () => t.database.handle.db
const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' } }))
  api = organizationApi(t.app, acme)
})
afterAll(() => t.close())

interface Trashed {
  id: string
  tags: string[]
  deleted_at: string
  purge_at: string
  deleted_by: { kind: string; name: string }
  collections: Array<{ id: string; name: string }>
}

const trashIds = async (query = '') => (await api.get(`/api/v1/trash${query}`)).json<{ data: Trashed[] }>().data.map((asset) => asset.id)
const deleteAsset = (id: string, key?: string) => api.call('DELETE', `/api/v1/assets/${id}`, undefined, key)
const restore = (id: string, key?: string) => api.call('POST', `/api/v1/trash/${id}/restore`, undefined, key)
const purge = (id: string, key?: string) => api.call('DELETE', `/api/v1/trash/${id}`, undefined, key)
const stored = (key: string) => t.app.blobs.exists(key)

async function manualCollection(name = unique('Launch')): Promise<string> {
  const res = await api.call('POST', '/api/v1/collections', { name })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string }>().id
}

describe('DELETE /api/v1/assets/{id} moves the asset to the trash', () => {
  it('takes it out of every read and count, keeps its files, and emits asset.deleted', async () => {
    const tag = unique('gone')
    const collection = await manualCollection()
    const { id } = await pushImage(t.app, acme.writeKey, { title: `Vanishing ${tag}`, tag_names: [tag] })
    expect((await api.call('POST', `/api/v1/collections/${collection}/assets`, { asset_id: id })).statusCode).toBe(200)
    const record = (await api.get(`/api/v1/assets/${id}`)).json<{ sha256: string; original_url: string }>()
    const shared = await api.call('POST', `/api/v1/collections/${collection}/share`)
    const sharePage = new URL(shared.json<{ share_url: string }>().share_url).pathname
    const tagCount = async () => (await api.get(`/api/v1/tags?q=${tag}`)).json<{ data: Array<{ asset_count: number }> }>().data[0]?.asset_count ?? 0
    const totalBefore = (await api.get('/api/v1/assets')).json<{ total: number }>().total
    expect(await tagCount()).toBe(1)

    expect((await deleteAsset(id)).statusCode).toBe(204)

    expectProblem(await api.get(`/api/v1/assets/${id}`), 404, 'not_found')
    const listed = (await api.get('/api/v1/assets')).json<{ total: number; data: Array<{ id: string }> }>()
    expect(listed.data.map((asset) => asset.id)).not.toContain(id)
    expect(listed.total).toBe(totalBefore - 1)
    expect((await api.get(`/api/v1/assets?q=${tag}`)).json<{ total: number }>().total).toBe(0)
    const searched = await api.call('POST', '/api/v1/search', { q: tag }, acme.readKey)
    expect(searched.json<{ data: Array<{ id: string }> }>().data.map((hit) => hit.id)).not.toContain(id)
    expect((await api.get(`/api/v1/collections/${collection}`)).json()).toMatchObject({ asset_count: 0, assets: { data: [], total: 0 } })
    expect((await api.call('POST', '/api/v1/assets/check', { sha256: [record.sha256] }, acme.readKey)).json()).toEqual({ found: [], missing: [record.sha256] })
    expect((await t.app.inject({ method: 'GET', url: `${sharePage}.json` })).body).not.toContain(id)
    // A versioned file link names bytes the trash keeps: it serves them until it expires (the trash list shows them too).
    expect((await t.app.inject({ method: 'GET', url: record.original_url.replace('http://assets.test', '') })).statusCode).toBe(200)
    expect(await tagCount()).toBe(0)

    expect(await stored(record.sha256)).toBe(true)
    expect((await outboxEvents(db(), acme.org.id, 'asset.deleted')).at(-1)).toEqual({ id })
  })

  it('answers 404 for another organization\u2019s asset, and to the second of two deletes', async () => {
    const id = await api.push()
    expectProblem(await deleteAsset(id, globex.writeKey), 404, 'not_found')
    const answers = await Promise.all([deleteAsset(id), deleteAsset(id)])
    expect(answers.map((res) => res.statusCode).sort()).toEqual([204, 404])
    expect((await trashIds()).filter((trashed) => trashed === id)).toHaveLength(1)
  })
})

describe('GET /api/v1/trash', () => {
  it('lists deleted assets, last deleted first, as records with who deleted them and until when', async () => {
    const first = await api.push({ title: 'First', tag_names: ['kept-tag'] })
    const second = await api.push({ title: 'Second' })
    expect((await deleteAsset(first)).statusCode).toBe(204)
    expect((await deleteAsset(second)).statusCode).toBe(204)

    const res = await api.get('/api/v1/trash?limit=2')
    expect(res.statusCode).toBe(200)
    const page = res.json<{ data: Trashed[]; total: number; total_exact: boolean; limit: number; offset: number }>()
    expect(page.data.map((asset) => asset.id)).toEqual([second, first])
    expect(page).toMatchObject({ total_exact: true, limit: 2, offset: 0 })
    const [, firstRecord] = page.data
    expect(firstRecord).toMatchObject({ id: first, title: 'First', tags: ['kept-tag'], version: 1, deleted_by: { kind: 'key', name: 'assets:write' } })
    const days = (Date.parse(firstRecord!.purge_at) - Date.parse(firstRecord!.deleted_at)) / 86_400_000
    expect(days).toBe(30)
    const { total } = page
    expect(total).toBe((await db().selectFrom('trashed_assets').select(sql<number>`count(*)::int`.as('n')).where('organization_id', '=', acme.org.id).executeTakeFirstOrThrow()).n)

    const next = (await api.get(`/api/v1/trash?limit=2&offset=1`)).json<{ data: Trashed[] }>()
    expect(next.data[0]!.id).toBe(first)
    expect((await api.get('/api/v1/trash?limit=0')).statusCode).toBe(400)
    expect((await api.get('/api/v1/trash', globex.readKey)).json<{ data: Trashed[] }>().data.map((asset) => asset.id)).not.toContain(first)
  })

  it('records a session\u2019s deletes under the user\u2019s name, or email when the user has none', async () => {
    const owner = await loginOwner(t.app, acme)
    const id = await api.push()
    expect((await owner.delete(`/api/v1/assets/${id}`)).statusCode).toBe(204)
    const listed = (await owner.get('/api/v1/trash')).json<{ data: Trashed[] }>().data.find((asset) => asset.id === id)
    expect(listed?.deleted_by).toEqual({ kind: 'user', name: acme.owner.email })
  })
})

describe('POST /api/v1/trash/{id}/restore', () => {
  it('brings the asset back as it was, in its collections that still exist, and emits asset.restored', async () => {
    const kept = await manualCollection()
    const removed = await manualCollection()
    const externalId = unique('path:brand/logo.png')
    const { id } = await pushImage(t.app, acme.writeKey, { title: 'Logo', tag_names: ['brand', 'Logo'], external_id: externalId })
    for (const collection of [kept, removed]) expect((await api.call('POST', `/api/v1/collections/${collection}/assets`, { asset_id: id })).statusCode).toBe(200)
    const newVersion = await api.call('POST', `/api/v1/assets/${id}/versions`, { image_base64: (await uniquePng()).toString('base64') })
    expect(newVersion.statusCode, newVersion.body).toBe(201)
    const before = (await api.get(`/api/v1/assets/${id}`)).json<Record<string, unknown>>()
    expect((await deleteAsset(id)).statusCode).toBe(204)
    expect((await api.call('DELETE', `/api/v1/collections/${removed}`)).statusCode).toBe(204)

    const res = await restore(id)
    expect(res.statusCode, res.body).toBe(200)
    const { thumbnail_url: _t, thumbnail_expires_at: _e, original_url: _o, ...unsigned } = before
    const keptName = (before.collections as Array<{ id: string; name: string }>).find((collection) => collection.id === kept)!
    expect(res.json()).toMatchObject({ ...unsigned, collections: [keptName], version: 2, external_id: externalId })
    expect((await api.get(`/api/v1/assets/${id}`)).json()).toMatchObject({ ...unsigned, collections: [keptName] })
    expect((await api.get(`/api/v1/collections/${kept}`)).json<{ assets: { data: Array<{ id: string }> } }>().assets.data.map((asset) => asset.id)).toEqual([id])
    expect(await trashIds()).not.toContain(id)
    expect(await db().selectFrom('asset_versions').select('version').where('asset_id', '=', id).orderBy('version').execute()).toEqual([{ version: 1 }, { version: 2 }])
    const event = (await outboxEvents(db(), acme.org.id, 'asset.restored')).at(-1)
    expect(event).toEqual(res.json())
    const original = await t.app.inject({ method: 'GET', url: res.json<{ original_url: string }>().original_url.replace('http://assets.test', '') })
    expect(original.statusCode).toBe(200)
    expect((await api.get(`/api/v1/assets?external_id=${encodeURIComponent(externalId)}`)).statusCode).not.toBe(500)
  })

  it('answers 404 for an id not in the trash and for another organization\u2019s, and 409 when a live asset took its external_id', async () => {
    const id = await api.push()
    expectProblem(await restore(id), 404, 'not_found')
    expect((await deleteAsset(id)).statusCode).toBe(204)
    expectProblem(await restore(id, globex.writeKey), 404, 'not_found')
    expectProblem(await purge(id, globex.writeKey), 404, 'not_found')
    expectProblem(await restore(id, acme.readKey), 403, 'insufficient_scope')

    const externalId = unique('figma:KEY')
    const { id: first } = await pushImage(t.app, acme.writeKey, { external_id: externalId })
    expect((await deleteAsset(first)).statusCode).toBe(204)
    // A push of this external_id would restore `first`: another asset takes it by PATCH.
    expect((await api.call('PATCH', `/api/v1/assets/${await api.push()}`, { external_id: externalId })).statusCode).toBe(200)
    expectProblem(await restore(first), 409, 'restore_conflict')
    expect(await trashIds()).toContain(first)
  })

  it('restores an asset whose creator\u2019s account was deleted meanwhile, with no creator', async () => {
    const member = await signedInMember(t.app, acme.org.id, 'member')
    const pushed = await member.post('/api/v1/assets', { image_base64: (await uniquePng()).toString('base64') })
    const id = pushed.json<{ asset_id: string }>().asset_id
    expect((await member.delete(`/api/v1/assets/${id}`)).statusCode).toBe(204)
    await db().deleteFrom('users').where('id', '=', member.userId).execute()

    expect((await restore(id)).statusCode).toBe(200)
    expect(await db().selectFrom('assets').select('created_by').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ created_by: null })
  })
})

describe('the columns a restore puts back', () => {
  it('are every column of assets but the generated one, so a column added later is not lost in the trash', async () => {
    const { rows } = await sql<{ column_name: string }>`
      select column_name from information_schema.columns where table_name = 'assets' and is_generated = 'NEVER' order by column_name`.execute(db())
    expect([...RESTORED_COLUMNS].sort()).toEqual(rows.map((row) => row.column_name).sort())
  })
})

describe('a push of a trashed asset\u2019s bytes', () => {
  it('restores that asset and answers as a duplicate, with its id', async () => {
    const { id, image } = await pushImage(t.app, acme.writeKey, { title: 'Came back', tag_names: ['again'] })
    expect((await deleteAsset(id)).statusCode).toBe(204)

    const res = await api.call('POST', '/api/v1/assets', { image_base64: image.toString('base64'), title: 'Ignored' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ asset_id: id, duplicate: true })
    expect((await api.get(`/api/v1/assets/${id}`)).json()).toMatchObject({ title: 'Came back', tags: ['again'] })
    expect(await trashIds()).not.toContain(id)
    expect((await outboxEvents(db(), acme.org.id, 'asset.restored')).at(-1)).toMatchObject({ id, title: 'Came back' })
  })

  it('does not restore another organization\u2019s trashed asset', async () => {
    const { id, image } = await pushImage(t.app, globex.writeKey)
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${id}`, headers: { authorization: `Bearer ${globex.writeKey}` } })).statusCode).toBe(204)
    const res = await api.call('POST', '/api/v1/assets', { image_base64: image.toString('base64') })
    expect(res.statusCode).toBe(201)
    expect(res.json<{ asset_id: string }>().asset_id).not.toBe(id)
  })
})

describe('DELETE /api/v1/trash/{id}', () => {
  it('purges the asset and its files now: keys may, a member\u2019s session may not, an owner\u2019s may', async () => {
    const member = await signedInMember(t.app, acme.org.id, 'member')
    const owner = await loginOwner(t.app, acme)
    const [byKey, byOwner] = [await pushImage(t.app, acme.writeKey), await pushImage(t.app, acme.writeKey)]
    for (const { id } of [byKey, byOwner]) expect((await deleteAsset(id)).statusCode).toBe(204)
    const versions = await db().selectFrom('asset_versions').select(['asset_id', 'sha256']).where('asset_id', 'in', [byKey.id, byOwner.id]).execute()
    expect(versions).toHaveLength(2)

    expectProblem(await member.delete(`/api/v1/trash/${byOwner.id}`), 403, 'role_required')
    expect((await purge(byKey.id)).statusCode).toBe(204)
    expect((await owner.delete(`/api/v1/trash/${byOwner.id}`)).statusCode).toBe(204)

    for (const { sha256 } of versions) expect(await stored(sha256)).toBe(false)
    expect(await db().selectFrom('asset_versions').select('asset_id').where('asset_id', 'in', [byKey.id, byOwner.id]).execute()).toEqual([])
    expect(await trashIds()).not.toContain(byKey.id)
    expectProblem(await purge(byKey.id), 404, 'not_found')
    expectProblem(await restore(byKey.id), 404, 'not_found')
  })

  it('keeps files another asset still stores, live or in the trash', async () => {
    const image = await uniquePng()
    const { id } = await pushImage(t.app, acme.writeKey, {}, image)
    const theirs = await pushImage(t.app, globex.writeKey, {}, image)
    const { sha256 } = (await api.get(`/api/v1/assets/${id}`)).json<{ sha256: string }>()
    expect((await deleteAsset(id)).statusCode).toBe(204)
    expect((await purge(id)).statusCode).toBe(204)
    expect(await stored(sha256)).toBe(true)

    const { id: again } = await pushImage(t.app, acme.writeKey, {}, image)
    expect((await deleteAsset(again)).statusCode).toBe(204)
    expect((await deleteAsset(theirs.id, globex.writeKey)).statusCode).toBe(204)
    expect((await purge(again)).statusCode).toBe(204)
    expect(await stored(sha256)).toBe(true)
    expect((await purge(theirs.id, globex.writeKey)).statusCode).toBe(204)
    expect(await stored(sha256)).toBe(false)
  })
})

describe('the purge', () => {
  it('runs in the background once an asset\u2019s time in the trash is over', async () => {
    const { id } = await pushImage(t.app, acme.writeKey)
    const waiting = await pushImage(t.app, acme.writeKey)
    const { sha256 } = (await api.get(`/api/v1/assets/${id}`)).json<{ sha256: string }>()
    for (const asset of [id, waiting.id]) expect((await deleteAsset(asset)).statusCode).toBe(204)
    await db().updateTable('trashed_assets').set({ purge_at: sql<Date>`now() - interval '1 second'` }).where('id', '=', id).execute()

    const background = await startTestApp({ database: t.database, env: { TRASH_PURGE_INTERVAL_MS: '100' } })
    try {
      background.app.services.trashPurge.start()
      await waitFor('the purge of the asset past its time', async () => !(await trashIds()).includes(id))
      await waitFor('its files to go', async () => !(await stored(sha256)))
      expect(await trashIds()).toContain(waiting.id)
      expect(await db().selectFrom('asset_versions').select('asset_id').where('asset_id', '=', id).execute()).toEqual([])
    } finally {
      await background.close()
    }
  })

  it('and a restore of the same asset: one wins, the other answers 404, and no row is left without its file', async () => {
    for (let round = 0; round < 6; round++) {
      const { id } = await pushImage(t.app, acme.writeKey)
      const { sha256 } = (await api.get(`/api/v1/assets/${id}`)).json<{ sha256: string }>()
      expect((await deleteAsset(id)).statusCode).toBe(204)
      await db().updateTable('trashed_assets').set({ purge_at: sql<Date>`now()` }).where('id', '=', id).execute()
      const [restored, purged, background] = await Promise.all([restore(id), purge(id), purgeDueTrash(db(), t.app.blobs, t.app.log)])
      const live = (await api.get(`/api/v1/assets/${id}`)).statusCode === 200
      if (restored.statusCode === 200) {
        expect(purged.statusCode).toBe(404)
        expect(live).toBe(true)
        expect(await stored(sha256)).toBe(true)
        expect(await db().selectFrom('asset_versions').select('asset_id').where('asset_id', '=', id).execute()).toHaveLength(1)
      } else {
        expectProblem(restored, 404, 'not_found')
        expect(live).toBe(false)
        expect(purged.statusCode === 204 || background === 1).toBe(true)
        expect(await stored(sha256)).toBe(false)
      }
      expect(await trashIds()).not.toContain(id)
    }
  })
})

describe('TRASH_RETENTION_DAYS=0', () => {
  it('purges at the delete, files included, as before the trash', async () => {
    const now = await startTestApp({ env: { TRASH_RETENTION_DAYS: '0' } })
    try {
      const org = await seedOrganization(now.app, 'Instant')
      const { id } = await pushImage(now.app, org.writeKey)
      const res = await now.app.inject({ method: 'GET', url: `/api/v1/assets/${id}`, headers: { authorization: `Bearer ${org.readKey}` } })
      const { sha256 } = res.json<{ sha256: string }>()
      const deleted = await now.app.inject({ method: 'DELETE', url: `/api/v1/assets/${id}`, headers: { authorization: `Bearer ${org.writeKey}` } })
      expect(deleted.statusCode).toBe(204)
      expect(await now.app.blobs.exists(sha256)).toBe(false)
      expect(await now.app.blobs.exists(variantKey(sha256, 'thumb.webp'))).toBe(false)
      const trash = await now.app.inject({ method: 'GET', url: '/api/v1/trash', headers: { authorization: `Bearer ${org.readKey}` } })
      expect(trash.json()).toMatchObject({ data: [], total: 0 })
      expect((await outboxEvents(now.database.handle.db, org.org.id, 'asset.deleted')).at(-1)).toEqual({ id })
    } finally {
      await now.close()
    }
  })
})
