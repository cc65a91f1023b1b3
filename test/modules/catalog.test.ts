import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uuidv7 } from '../../src/platform/ids.js'
import { bearer, seedOrganization, type Seeded, type TestApp } from '../support/app.js'
import { startTwoOrganizations } from '../support/fixtures.js'
import { loginOwner, signedInMember, type Client } from '../support/sessions.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let owner: Client

/** Until POST /api/v1/assets exists, assets are written straight into the table. */
async function insertAsset(organizationId: string, fields: { client?: string; product?: string; asset_type?: string; tags?: string[] }) {
  const db = t.database.handle.db
  const id = uuidv7()
  // The catalogue first, as a push does: the tag counts follow the assets by trigger.
  for (const name of fields.tags ?? []) {
    await db.insertInto('tags').values({ id: uuidv7(), organization_id: organizationId, name }).onConflict((oc) => oc.doNothing()).execute()
  }
  await db
    .insertInto('assets')
    .values({
      id,
      organization_id: organizationId,
      client: fields.client ?? null,
      product: fields.product ?? null,
      asset_type: fields.asset_type ?? null,
      mime_type: 'image/png',
      width: 1,
      height: 1,
      byte_size: 1,
      sha256: randomBytes(32).toString('hex'),
      blob_key: 'x',
      thumbnail_key: 'y',
      tags: fields.tags ?? [],
      tag_keys: (fields.tags ?? []).map((name) => name.toLowerCase()),
      updated_at: new Date(),
    })
    .execute()
  return id
}

const list = (path: string, key = acme.readKey) => t.app.inject({ method: 'GET', url: `/api/v1/${path}`, headers: bearer(key) })

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations())
  owner = await loginOwner(t.app, acme)
  await owner.post(`/app/api/orgs/${acme.org.slug}/clients`, { name: 'Initech' })
  await owner.post(`/app/api/orgs/${acme.org.slug}/clients`, { name: 'Umbrella' })
  await insertAsset(acme.org.id, { client: 'initech', product: 'Stapler', tags: ['red', 'office'] })
  await insertAsset(acme.org.id, { client: 'INITECH', tags: ['red'] })
  await insertAsset(acme.org.id, { client: 'Hooli', asset_type: 'Logo', tags: ['green'] })
  await insertAsset(globex.org.id, { client: 'Secret Client', tags: ['secret-tag'] })
})
afterAll(() => t.close())

describe('GET /api/v1/asset-types', () => {
  it('starts every organization with the default catalogue, with usage counts', async () => {
    const res = await list('asset-types')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.total).toBe(9)
    expect(body.data[0]).toEqual({ name: 'Logo', registered: true, asset_count: 1 })
    expect(body.data.map((e: { name: string }) => e.name)).toContain('Social post')
  })

  it('follows what owners and admins register and remove, refusing members', async () => {
    const member = await signedInMember(t.app, acme.org.id, 'member')
    const refused = await member.post(`/app/api/orgs/${acme.org.slug}/asset-types`, { name: 'Poster' })
    expect(refused.statusCode).toBe(403)
    expect((await owner.post(`/app/api/orgs/${acme.org.slug}/asset-types`, { name: 'Poster' })).statusCode).toBe(204)
    expect((await owner.post(`/app/api/orgs/${acme.org.slug}/asset-types`, { name: 'poster' })).statusCode).toBe(204)
    expect((await list('asset-types?q=pos')).json().data).toEqual([{ name: 'Poster', registered: true, asset_count: 0 }])
    expect((await owner.delete(`/app/api/orgs/${acme.org.slug}/asset-types/POSTER`)).statusCode).toBe(204)
    expect((await list('asset-types?q=pos')).json().total).toBe(0)
    expect((await owner.delete(`/app/api/orgs/${acme.org.slug}/asset-types/Poster`)).statusCode).toBe(404)
  })
})

describe('GET /api/v1/clients and /products', () => {
  it('merge registered names with names assets use, case-insensitively, most used first', async () => {
    const res = await list('clients')
    expect(res.json()).toEqual({
      data: [
        { name: 'Initech', registered: true, asset_count: 2 },
        { name: 'Hooli', registered: false, asset_count: 1 },
        { name: 'Umbrella', registered: true, asset_count: 0 },
      ],
      total: 3,
      limit: 50,
      offset: 0,
    })
    expect((await list('products')).json().data).toEqual([{ name: 'Stapler', registered: false, asset_count: 1 }])
  })

  it('never shows another organization\u2019s names', async () => {
    expect(JSON.stringify((await list('clients')).json())).not.toContain('Secret')
    expect((await list('clients', globex.readKey)).json().data).toEqual([{ name: 'Secret Client', registered: false, asset_count: 1 }])
  })

  it('page with limit and offset, and filter by prefix without wildcards', async () => {
    const page = (await list('clients?limit=1&offset=1')).json()
    expect(page).toMatchObject({ data: [{ name: 'Hooli' }], total: 3, limit: 1, offset: 1 })
    expect((await list('clients?offset=10')).json()).toMatchObject({ data: [], total: 3 })
    expect((await list('clients?q=%25')).json().total).toBe(0)
    expect((await list('clients?q=UMB')).json().data).toEqual([{ name: 'Umbrella', registered: true, asset_count: 0 }])
  })
})

describe('the counts of names kept by triggers', () => {
  const clients = async (key: string) => (await list('clients', key)).json().data
  const total = async (query: string, key: string) => (await list(`assets?${query}&limit=1`, key)).json().total

  it('show a name while an asset uses it, in a spelling still used', async () => {
    const wayne = await seedOrganization(t.app, 'Wayne')
    const upper = await insertAsset(wayne.org.id, { client: 'ZED' })
    const lower = await insertAsset(wayne.org.id, { client: 'zed' })
    const [shown] = await clients(wayne.readKey)
    expect(shown).toEqual({ name: expect.stringMatching(/^(ZED|zed)$/), registered: false, asset_count: 2 })
    await t.database.handle.db.deleteFrom('assets').where('id', '=', shown.name === 'ZED' ? upper : lower).execute()
    expect(await clients(wayne.readKey)).toEqual([{ name: shown.name === 'ZED' ? 'zed' : 'ZED', registered: false, asset_count: 1 }])
    await t.database.handle.db.deleteFrom('assets').where('organization_id', '=', wayne.org.id).execute()
    expect(await clients(wayne.readKey)).toEqual([])
    expect(await total('client=zed', wayne.readKey)).toBe(0)
    // A count that falls to zero goes with its last asset, deleted or renamed.
    const names = () => t.database.handle.db.selectFrom('asset_name_counts').select(['field', 'name', 'asset_count']).where('organization_id', '=', wayne.org.id).orderBy('field').execute()
    expect(await names()).toEqual([])
    const renamed = await insertAsset(wayne.org.id, { client: 'Zed', product: 'Kit' })
    await t.database.handle.db.updateTable('assets').set({ client: 'Yan' }).where('id', '=', renamed).execute()
    expect(await names()).toEqual([
      { field: 'client', name: 'Yan', asset_count: 1 },
      { field: 'product', name: 'Kit', asset_count: 1 },
    ])
  })

  it('are where a one-name filter’s total and the catalogue’s counts come from, not a count of the assets', async () => {
    const stark = await seedOrganization(t.app, 'Stark')
    await insertAsset(stark.org.id, { client: 'Pepper', product: 'Suit', asset_type: 'Logo' })
    const { db } = t.database.handle
    await sql`alter table assets disable trigger assets_named_counted_in`.execute(db)
    try {
      await insertAsset(stark.org.id, { client: 'pepper', product: 'suit', asset_type: 'logo' })
    } finally {
      await sql`alter table assets enable trigger assets_named_counted_in`.execute(db)
    }
    expect((await list('assets?client=pepper', stark.readKey)).json()).toMatchObject({ total: 1, data: [{}, {}] })
    expect(await total('product=SUIT', stark.readKey)).toBe(1)
    expect(await total('asset_type=Logo', stark.readKey)).toBe(1)
    expect(await clients(stark.readKey)).toEqual([{ name: 'Pepper', registered: false, asset_count: 1 }])
    // Two filters at once are counted.
    expect(await total('client=pepper&product=suit', stark.readKey)).toBe(2)
  })
})

describe('GET /api/v1/tags', () => {
  it('lists tags with usage counts and a prefix filter', async () => {
    expect((await list('tags')).json().data).toEqual([
      { name: 'red', asset_count: 2 },
      { name: 'green', asset_count: 1 },
      { name: 'office', asset_count: 1 },
    ])
    expect((await list('tags?q=Gr')).json().data).toEqual([{ name: 'green', asset_count: 1 }])
  })
})

describe('list parameters', () => {
  it.each([
    ['limit=0', '/query/limit'],
    ['offset=-1', '/query/offset'],
    ['limit=abc', '/query/limit'],
    ['colour=red', '/query/colour'],
  ])('refuses %s with a pointer', async (query, pointer) => {
    const res = await list(`tags?${query}`)
    expect(res.statusCode).toBe(400)
    expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer)
  })

  it('caps limit at 100', async () => {
    expect((await list('tags?limit=101')).json().limit).toBe(100)
  })

  it('needs a key', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/tags' })).statusCode).toBe(401)
  })
})
