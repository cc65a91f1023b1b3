import { type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as assetCreators from '../../src/platform/db/migrations/0025_asset_creators.js'
import { type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, organizationApi, outboxEvents, pushImage, startTwoOrganizations, type OrganizationApi } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { loginOwner, signedInMember, type Client } from '../support/sessions.js'
import { fewestStatements } from '../support/statements.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let api: OrganizationApi
let owner: Client
let member: Client

const db = () => t.database.handle.db
const KEY_NAME = 'assets:write'

interface Actor {
  kind: 'key' | 'user'
  name: string
}

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' } }))
  api = organizationApi(t.app, acme)
  owner = await loginOwner(t.app, acme)
  member = await signedInMember(t.app, acme.org.id, 'member')
  await db().updateTable('users').set({ name: 'Dana Reyes' }).where('id', '=', member.userId).execute()
})
afterAll(() => t.close())

const createdBy = async (id: string) => (await api.get(`/api/v1/assets/${id}`)).json<{ created_by: Actor | null }>().created_by
const sessionPush = async (client: Client) => {
  const res = await client.post('/api/v1/assets', { image_base64: (await uniquePng()).toString('base64') })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ asset_id: string }>().asset_id
}

describe('created_by on the asset record', () => {
  it('names the API key that pushed it, never its secret or prefix', async () => {
    const { id } = await pushImage(t.app, acme.writeKey)
    expect(await createdBy(id)).toEqual({ kind: 'key', name: KEY_NAME })
    const body = (await api.get(`/api/v1/assets/${id}`)).body
    // al_<prefix>_<secret>: the secret is base64url, so it may hold underscores of its own.
    const prefix = acme.writeKey.split('_')[1]!
    const secret = acme.writeKey.slice(`al_${prefix}_`.length)
    expect(body).not.toContain(secret)
    expect(body).not.toContain(prefix)
  })

  it('names the user whose session pushed it, by display name, as it was at the push', async () => {
    const id = await sessionPush(member)
    expect(await createdBy(id)).toEqual({ kind: 'user', name: 'Dana Reyes' })
    await db().updateTable('users').set({ name: 'Dana R.' }).where('id', '=', member.userId).execute()
    expect(await createdBy(id)).toEqual({ kind: 'user', name: 'Dana Reyes' })
    await db().updateTable('users').set({ name: 'Dana Reyes' }).where('id', '=', member.userId).execute()
  })

  it('is the same for a multipart push', async () => {
    const form = new FormData()
    form.set('file', new Blob([await uniquePng()], { type: 'image/png' }), 'a.png')
    const request = new Request('http://x/', { method: 'POST', body: form })
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/assets',
      headers: { authorization: `Bearer ${acme.writeKey}`, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(await createdBy(res.json<{ asset_id: string }>().asset_id)).toEqual({ kind: 'key', name: KEY_NAME })
  })

  it('is in the list, at no extra statement per row', async () => {
    const ids = [await sessionPush(owner), (await pushImage(t.app, acme.writeKey)).id]
    const listed = (await api.get('/api/v1/assets?limit=100')).json<{ data: Array<{ id: string; created_by: Actor | null }> }>().data
    const owners = await db().selectFrom('users').select('name').where('id', '=', owner.userId).executeTakeFirstOrThrow()
    expect(listed.find((asset) => asset.id === ids[0])?.created_by).toEqual({ kind: 'user', name: owners.name || acme.owner.email })
    expect(listed.find((asset) => asset.id === ids[1])?.created_by).toEqual({ kind: 'key', name: KEY_NAME })

    const one = await fewestStatements(() => api.get('/api/v1/assets?limit=1&offset=1'))
    const many = await fewestStatements(() => api.get('/api/v1/assets?limit=5&offset=1'))
    expect(many).toBe(one)
  })

  it('is in asset.created\u2019s record', async () => {
    const id = await sessionPush(member)
    const event = (await outboxEvents(db(), acme.org.id, 'asset.created')).find((record) => record.id === id)
    expect(event).toMatchObject({ id, created_by: { kind: 'user', name: 'Dana Reyes' } })
  })

  it('takes the same shape as the trash\u2019s deleted_by and the versions\u2019 created_by, and survives a restore', async () => {
    const { id } = await pushImage(t.app, acme.writeKey)
    const version = await member.post(`/api/v1/assets/${id}/versions`, { image_base64: (await uniquePng()).toString('base64') })
    expect(version.statusCode, version.body).toBe(201)
    const versions = (await api.get(`/api/v1/assets/${id}/versions`)).json<{ data: Array<{ version: number; created_by: Actor | null }> }>().data
    expect(versions.map((v) => v.created_by)).toEqual([
      { kind: 'user', name: 'Dana Reyes' },
      { kind: 'key', name: KEY_NAME },
    ])

    expect((await owner.delete(`/api/v1/assets/${id}`)).statusCode).toBe(204)
    const trashed = (await api.get('/api/v1/trash')).json<{ data: Array<{ id: string; created_by: Actor; deleted_by: Actor }> }>().data.find((row) => row.id === id)
    expect(trashed?.created_by).toEqual({ kind: 'key', name: KEY_NAME })
    expect(trashed?.deleted_by).toEqual({ kind: 'user', name: expect.any(String) })
    expect(Object.keys(trashed!.deleted_by).sort()).toEqual(['kind', 'name'])

    expect((await api.call('POST', `/api/v1/trash/${id}/restore`)).statusCode).toBe(200)
    expect(await createdBy(id)).toEqual({ kind: 'key', name: KEY_NAME })
  })

  it('migration 0025 fills it from the first version, and leaves it null where that is unknown', async () => {
    const known = (await pushImage(t.app, acme.writeKey)).id
    const unknown = (await pushImage(t.app, acme.writeKey)).id
    await db().updateTable('asset_versions').set({ created_by_kind: null, created_by_name: null }).where('asset_id', '=', unknown).execute()
    const untyped = db() as unknown as Kysely<unknown>
    await assetCreators.down(untyped)
    await assetCreators.up(untyped)
    expect(await createdBy(known)).toEqual({ kind: 'key', name: KEY_NAME })
    expect(await createdBy(unknown)).toBeNull()
  })
})

describe('GET /app/api/orgs/:org/assets/:id/permissions', () => {
  const permissions = (client: Client, id: string, org = acme.org.slug) => client.get(`/app/api/orgs/${org}/assets/${id}/permissions`)

  it('lets a member delete only what they pushed, saying why not, as the refusal does', async () => {
    const theirs = (await pushImage(t.app, acme.writeKey)).id
    const own = await sessionPush(member)
    const refused = (await permissions(member, theirs)).json()
    expect(refused).toEqual({ delete: { allowed: false, reason: 'Only owners and admins can delete an asset someone else created.' } })
    const deleting = await member.delete(`/api/v1/assets/${theirs}`)
    expect(deleting.statusCode).toBe(403)
    expect(deleting.json<{ detail: string }>().detail).toBe(refused.delete.reason)

    expect((await permissions(member, own)).json()).toEqual({ delete: { allowed: true, reason: null } })
    expect((await permissions(owner, theirs)).json()).toEqual({ delete: { allowed: true, reason: null } })
  })

  it('answers 404 for another organization\u2019s asset', async () => {
    const { id } = await pushImage(t.app, globex.writeKey)
    expectProblem(await permissions(member, id), 404, 'not_found')
  })
})

describe('GET /app/api/orgs/:org/collections/:id/permissions', () => {
  it('lets a member delete only their own collections and share none; owners both', async () => {
    const ownersCollection = (await owner.post('/api/v1/collections', { name: `Owner\u2019s ${Date.now()}` })).json<{ id: string }>().id
    const membersCollection = (await member.post('/api/v1/collections', { name: `Member\u2019s ${Date.now()}` })).json<{ id: string }>().id
    const ask = (client: Client, id: string) => client.get(`/app/api/orgs/${acme.org.slug}/collections/${id}/permissions`)
    expect((await ask(member, ownersCollection)).json()).toEqual({
      delete: { allowed: false, reason: 'Only owners and admins can delete a collection someone else created.' },
      share: { allowed: false, reason: 'Only owners and admins can share a collection publicly.' },
    })
    expect((await ask(member, membersCollection)).json()).toMatchObject({ delete: { allowed: true } })
    expect((await ask(owner, membersCollection)).json()).toEqual({ delete: { allowed: true, reason: null }, share: { allowed: true, reason: null } })
  })
})

describe('GET /api/v1/collections/{id}/share: the live link, again', () => {
  const newCollection = async () => (await api.call('POST', '/api/v1/collections', { name: `Shared ${Date.now()}-${Math.random()}` })).json<{ id: string }>().id
  const share = async (client: Client, id: string) => {
    const res = await client.post(`/api/v1/collections/${id}/share`)
    expect(res.statusCode, res.body).toBe(201)
    return res.json<{ share_url: string }>().share_url
  }
  const gallery = (url: string) => t.app.inject({ method: 'GET', url: `${new URL(url).pathname}.json` })

  it('shows owners and admins the link as made, stored sealed, never in plain text', async () => {
    const id = await newCollection()
    const url = await share(owner, id)
    const admin = await signedInMember(t.app, acme.org.id, 'admin')
    for (const client of [owner, admin]) {
      const res = await client.get(`/api/v1/collections/${id}/share`)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({ shared: true, shared_at: expect.any(String), share_url: url })
    }
    expect((await api.get(`/api/v1/collections/${id}/share`)).json()).toMatchObject({ share_url: url })

    const token = new URL(url).pathname.split('/').pop()!
    const row = await db().selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain(token)
    expect(row.share_token_sealed).toMatch(/^v1\./)
  })

  it('is refused to a member', async () => {
    const id = await newCollection()
    await share(owner, id)
    const res = await member.get(`/api/v1/collections/${id}/share`)
    expectProblem(res, 403, 'role_required')
    expect(res.body).not.toContain('/s/')
  })

  it('says a new link replaces the old, which stops working', async () => {
    const id = await newCollection()
    const first = await share(owner, id)
    const second = await share(owner, id)
    expect(second).not.toBe(first)
    expect((await gallery(first)).statusCode).toBe(404)
    expect((await gallery(second)).statusCode).toBe(200)
    expect((await owner.get(`/api/v1/collections/${id}/share`)).json()).toMatchObject({ share_url: second })
  })

  it('answers no link for a link made before links were kept, and none for a collection not shared', async () => {
    const id = await newCollection()
    expect((await owner.get(`/api/v1/collections/${id}/share`)).json()).toEqual({ shared: false, shared_at: null, share_url: null })
    const url = await share(owner, id)
    await db().updateTable('collections').set({ share_token_sealed: null }).where('id', '=', id).execute()
    expect((await owner.get(`/api/v1/collections/${id}/share`)).json()).toEqual({ shared: true, shared_at: expect.any(String), share_url: null })
    expect((await gallery(url)).statusCode).toBe(200)
    expect((await owner.delete(`/api/v1/collections/${id}/share`)).statusCode).toBe(204)
    expect((await owner.get(`/api/v1/collections/${id}/share`)).json()).toMatchObject({ shared: false, share_url: null })
  })

  it('answers 404 for another organization\u2019s collection', async () => {
    const theirs = (await t.app.inject({ method: 'POST', url: '/api/v1/collections', headers: { authorization: `Bearer ${globex.writeKey}` }, payload: { name: 'Theirs' } })).json<{ id: string }>().id
    expectProblem(await owner.get(`/api/v1/collections/${theirs}/share`), 404, 'not_found')
  })
})
