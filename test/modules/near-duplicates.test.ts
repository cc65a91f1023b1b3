import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drainDerivations, seedOrganization, type Seeded, type TestApp } from '../support/app.js'
import { callApi, expectInvalid, expectProblem, outboxEvents, pushImage, startTwoOrganizations } from '../support/fixtures.js'
import { solid, undecodablePng } from '../support/images.js'
import { scene, scenePng } from '../support/scenes.js'

/** Near-duplicates (issue 36 part 1): the `perceptual_hash` derivation, its bands and pairs, the record's `near_duplicates`. */

let t: TestApp
let acme: Seeded
let globex: Seeded

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000' } }))
})
afterAll(() => t.close())

/** A picture no other test of this file uses, as PNG; `variant` re-encodes the same picture. */
let seeds = 1000
const picture = () => ++seeds
const png = (seed: number) => scenePng(seed)
const jpeg = (seed: number) => scene(seed).jpeg({ quality: 70 }).toBuffer()

const push = async (image: Buffer, fields: object = {}, seeded = acme) => (await pushImage(t.app, seeded.writeKey, fields, image)).id
const hashAll = () => drainDerivations(t.app, 'perceptual_hash')

async function nearDuplicatesOf(id: string, seeded = acme): Promise<Array<{ asset_id: string; distance: number }> | null> {
  const res = await callApi(t.app, seeded.readKey, 'GET', `/api/v1/assets/${id}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().near_duplicates
}

describe('the perceptual_hash derivation', () => {
  it('is null until the hash is made, then lists the near-duplicates both ways, and none for a different picture', async () => {
    const seed = picture()
    const original = await push(await png(seed))
    expect(await nearDuplicatesOf(original)).toBeNull()
    await hashAll()
    expect(await nearDuplicatesOf(original)).toEqual([])

    const reencoded = await push(await jpeg(seed))
    const other = await push(await png(picture()))
    await hashAll()
    const [found] = (await nearDuplicatesOf(reencoded))!
    expect(found).toMatchObject({ asset_id: original })
    expect(found!.distance).toBeLessThanOrEqual(6)
    expect(await nearDuplicatesOf(original)).toEqual([{ asset_id: reencoded, distance: found!.distance }])
    expect(await nearDuplicatesOf(other)).toEqual([])

    const row = await t.database.handle.db.selectFrom('assets').select(['perceptual_hash', 'perceptual_hash_algorithm']).where('id', '=', original).executeTakeFirstOrThrow()
    expect(row.perceptual_hash_algorithm).toBe('dhash')
    const bands = await t.database.handle.db.selectFrom('perceptual_hash_bands').select(['band', 'value', 'hash']).where('asset_id', '=', original).orderBy('band').execute()
    expect(bands.map((band) => band.band)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(new Set(bands.map((band) => String(band.hash)))).toEqual(new Set([String(row.perceptual_hash)]))
  })

  it('lists at most 5, closest first', async () => {
    const seed = picture()
    const variants = [await png(seed), ...(await Promise.all([40, 50, 60, 70, 80, 90].map((quality) => scene(seed).jpeg({ quality }).toBuffer())))]
    const ids = []
    for (const variant of variants) ids.push(await push(variant))
    await hashAll()
    const listed = (await nearDuplicatesOf(ids[0]!))!
    expect(listed).toHaveLength(5)
    expect(listed.map((near) => near.distance)).toEqual([...listed.map((near) => near.distance)].sort((a, b) => a - b))
    expect(ids).toEqual(expect.arrayContaining(listed.map((near) => near.asset_id)))
  })

  it('never pairs assets of two organizations', async () => {
    const seed = picture()
    const mine = await push(await png(seed))
    const theirs = await push(await jpeg(seed), {}, globex)
    await hashAll()
    expect(await nearDuplicatesOf(mine)).toEqual([])
    expect(await nearDuplicatesOf(theirs, globex)).toEqual([])
  })

  it('keeps an image that cannot be decoded with no hash and no near-duplicates', async () => {
    const id = await push(await undecodablePng())
    await hashAll()
    expect(await nearDuplicatesOf(id)).toEqual([])
    const row = await t.database.handle.db.selectFrom('assets').select(['perceptual_hash', 'perceptual_hash_algorithm']).where('id', '=', id).executeTakeFirstOrThrow()
    expect(row).toEqual({ perceptual_hash: null, perceptual_hash_algorithm: 'dhash' })
  })

  it('pairs no pictures too plain to compare: a red and a blue square are not near-duplicates, nor similar by appearance', async () => {
    const red = await push(await solid(60, 40, '#ff0000').png().toBuffer())
    const blue = await push(await solid(60, 40, '#0000ff').png().toBuffer())
    await hashAll()
    expect(await nearDuplicatesOf(red)).toEqual([])
    expect(await nearDuplicatesOf(blue)).toEqual([])
    const similar = await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${red}/similar?by=appearance`)
    expect(similar.statusCode, similar.body).toBe(200)
    expect(similar.json().data).toEqual([])
  })

  it('forgets the pairs of an older file: a new version is hashed again', async () => {
    const seed = picture()
    const first = await push(await png(seed))
    const second = await push(await jpeg(seed))
    await hashAll()
    expect(await nearDuplicatesOf(first)).toHaveLength(1)

    const res = await callApi(t.app, acme.writeKey, 'POST', `/api/v1/assets/${second}/versions`, { image_base64: (await png(picture())).toString('base64') })
    expect(res.statusCode, res.body).toBe(201)
    expect(await nearDuplicatesOf(second)).toBeNull()
    expect(await nearDuplicatesOf(first)).toEqual([])
    await hashAll()
    expect(await nearDuplicatesOf(second)).toEqual([])
    expect(await nearDuplicatesOf(first)).toEqual([])
  })

  it('drops a trashed asset from the others’ lists, and finds it again once restored', async () => {
    const seed = picture()
    const kept = await push(await png(seed))
    const trashed = await push(await jpeg(seed))
    await hashAll()
    expect((await nearDuplicatesOf(kept))!.map((near) => near.asset_id)).toEqual([trashed])

    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${trashed}`)).statusCode).toBe(204)
    expect(await nearDuplicatesOf(kept)).toEqual([])
    expect((await callApi(t.app, acme.writeKey, 'POST', `/api/v1/trash/${trashed}/restore`)).statusCode).toBe(200)
    await hashAll()
    expect((await nearDuplicatesOf(kept))!.map((near) => near.asset_id)).toEqual([trashed])
    expect((await nearDuplicatesOf(trashed))!.map((near) => near.asset_id)).toEqual([kept])
  })

  it('changes a kept list page that shows an asset whose pairs changed, though its row did not', async () => {
    const seed = picture()
    const tag = `listed-${seed}`
    const listedId = await push(await png(seed), { tag_names: [tag] })
    await hashAll()
    const listed = async () => {
      const res = await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets?tag=${tag}`)
      expect(res.statusCode, res.body).toBe(200)
      const { data } = res.json<{ data: Array<{ id: string; near_duplicates: unknown }> }>()
      expect(data.map((asset) => asset.id)).toEqual([listedId])
      return data[0]!.near_duplicates
    }
    expect(await listed()).toEqual([])

    const other = await push(await jpeg(seed))
    await hashAll()
    expect(await listed()).toEqual([expect.objectContaining({ asset_id: other })])

    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${other}`)).statusCode).toBe(204)
    expect(await listed()).toEqual([])
  })

  it('logs a record change for both assets of a pair added or removed', async () => {
    const seed = picture()
    const first = await push(await png(seed))
    const second = await push(await jpeg(seed))
    await hashAll()
    const { db } = t.database.handle
    const logged = await sql<{ asset_id: string }>`
      select asset_id from library_changes where organization_id = ${acme.org.id} and kind = 'record' and asset_id in (${first}, ${second})
    `.execute(db)
    expect(new Set(logged.rows.map((row) => row.asset_id))).toEqual(new Set([first, second]))
  })
})

describe('GET /api/v1/assets/{id}/similar?by=appearance', () => {
  it('lists every asset within 7 bits, closest first with its distance, with AI off; by=meaning stays empty', async () => {
    const seed = picture()
    const asked = await push(await png(seed))
    const near = await push(await jpeg(seed))
    await push(await png(picture()))
    const pending = await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${asked}/similar?by=appearance`)
    expect(pending.json()).toMatchObject({ data: [], total: 0 })
    await hashAll()

    const res = await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${asked}/similar?by=appearance`)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json<{ data: Array<{ id: string; distance: number; title: string }>; total: number }>()
    expect(body.data.map((asset) => asset.id)).toEqual([near])
    expect(body.data[0]!.distance).toBeLessThanOrEqual(6)
    expect(body.data[0]).toHaveProperty('title')
    expect(body.data[0]).not.toHaveProperty('semantic_score')
    expect(body.total).toBe(1)

    expect((await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${asked}/similar`)).json()).toMatchObject({ data: [] })
  })

  it('answers 404 for another organization’s asset and 400 for an unknown `by`', async () => {
    const theirs = await push(await png(picture()), {}, globex)
    expect((await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${theirs}/similar?by=appearance`)).statusCode).toBe(404)
    expect((await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${theirs}/similar?by=colour`)).statusCode).toBe(400)
  })
})

describe('GET /api/v1/duplicates', () => {
  it('lists each cluster once: the oldest asset with its newer near-duplicates, paginated', async () => {
    const studio = await seedOrganization(t.app, 'Groups')
    const seedA = picture()
    const seedB = picture()
    const a1 = await push(await png(seedA), {}, studio)
    const a2 = await push(await jpeg(seedA), {}, studio)
    const a3 = await push(await scene(seedA).webp({ quality: 60 }).toBuffer(), {}, studio)
    const b1 = await push(await png(seedB), {}, studio)
    const b2 = await push(await jpeg(seedB), {}, studio)
    await push(await png(picture()), {}, studio)
    await hashAll()

    const page = async (query: string) => {
      const res = await callApi(t.app, studio.readKey, 'GET', `/api/v1/duplicates${query}`)
      expect(res.statusCode, res.body).toBe(200)
      return res.json<{ data: Array<{ asset: { id: string }; duplicates: Array<{ distance: number; asset: { id: string; mime_type: string } }> }>; total: number }>()
    }
    const all = await page('')
    // The newest group first: b1's, then a1's. a2 leads no group of its own: a3, near it, is near a1 too.
    expect(all.data.map((group) => group.asset.id)).toEqual([b1, a1])
    expect(all.total).toBe(2)
    expect(all.data[0]!.duplicates.map((near) => near.asset.id)).toEqual([b2])
    expect(new Set(all.data[1]!.duplicates.map((near) => near.asset.id))).toEqual(new Set([a2, a3]))
    expect(all.data[0]!.duplicates[0]!.asset.mime_type).toBe('image/jpeg')

    expect((await page('?limit=1&offset=1')).data.map((group) => group.asset.id)).toEqual([a1])
    expect(await page('?offset=10')).toMatchObject({ data: [], total: 2 })
    expect((await callApi(t.app, acme.readKey, 'GET', '/api/v1/duplicates')).json().data.map((group: { asset: { id: string } }) => group.asset.id)).not.toContain(a1)
  })

  it('keeps every pair of a chain: A near B and B near C, A not near C, lists A with B and B with C', async () => {
    const chain = await seedOrganization(t.app, 'Chain')
    const [a, b, c] = [await push(await png(picture()), {}, chain), await push(await png(picture()), {}, chain), await push(await png(picture()), {}, chain)]
    await hashAll()
    // Three different pictures, paired by hand as the hashes of a gradual edit would pair them.
    const pair = (one: string, other: string) => [
      { asset_id: one, other_id: other, organization_id: chain.org.id, distance: 5 },
      { asset_id: other, other_id: one, organization_id: chain.org.id, distance: 5 },
    ]
    const db = t.database.handle.db
    await db.insertInto('near_duplicate_pairs').values([...pair(a, b), ...pair(b, c)]).execute()
    const groups = async () =>
      (await callApi(t.app, chain.readKey, 'GET', '/api/v1/duplicates')).json<{ data: Array<{ asset: { id: string }; duplicates: Array<{ asset: { id: string } }> }> }>().data.map((group) => [group.asset.id, group.duplicates.map((near) => near.asset.id)])
    expect(await groups()).toEqual([[b, [c]], [a, [b]]])
    // Once A is near C too, B's group would repeat what A's shows.
    await db.insertInto('near_duplicate_pairs').values(pair(a, c)).execute()
    expect(await groups()).toEqual([[a, [b, c].sort()]])
  })
})

describe('POST /api/v1/duplicates/resolve', () => {
  const resolve = (body: object, key = acme.writeKey) => callApi(t.app, key, 'POST', '/api/v1/duplicates/resolve', body)

  async function collectionWith(name: string, ...ids: string[]): Promise<string> {
    const res = await callApi(t.app, acme.writeKey, 'POST', '/api/v1/collections', { name })
    expect(res.statusCode, res.body).toBe(201)
    const id = res.json<{ id: string }>().id
    for (const assetId of ids) expect((await callApi(t.app, acme.writeKey, 'POST', `/api/v1/collections/${id}/assets`, { asset_ids: [assetId] })).statusCode).toBeLessThan(300)
    return id
  }

  it('trashes the others and merges their tags and manual collections into the kept asset, with the events a delete and an edit emit', async () => {
    const seed = picture()
    const keep = await push(await png(seed), { tag_names: ['Logo', 'blue'] })
    const other = await push(await jpeg(seed), { tag_names: ['logo', 'final'] })
    const third = await push(await png(picture()), { tag_names: ['draft'] })
    const shelf = await collectionWith(`Shelf ${seed}`, other)
    await hashAll()

    const res = await resolve({ keep, trash: [other, third] })
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json<{ kept: { id: string; tags: string[]; collections: Array<{ id: string }>; near_duplicates: unknown }; trashed: string[] }>()
    expect(body.trashed).toEqual([other, third])
    expect(body.kept.tags).toEqual(['blue', 'draft', 'final', 'Logo'])
    expect(body.kept.collections.map((collection) => collection.id)).toEqual([shelf])
    expect(body.kept.near_duplicates).toEqual([])

    for (const id of [other, third]) expect((await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${id}`)).statusCode).toBe(404)
    const trash = (await callApi(t.app, acme.readKey, 'GET', '/api/v1/trash?limit=100')).json<{ data: Array<{ id: string }> }>()
    expect(trash.data.map((asset) => asset.id)).toEqual(expect.arrayContaining([other, third]))
    const deleted = await outboxEvents(t.database.handle.db, acme.org.id, 'asset.deleted')
    expect(deleted.map((event) => (event as { id: string }).id)).toEqual(expect.arrayContaining([other, third]))
    const updated = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.updated')).filter((event) => (event as { id: string }).id === keep)
    expect(updated.map((event) => (event as { changes: string[] }).changes)).toEqual([['collections', 'tags']])
  })

  it('emits no asset.updated when the kept asset gains nothing', async () => {
    const keep = await push(await png(picture()), { tag_names: ['same'] })
    const other = await push(await png(picture()), { tag_names: ['SAME'] })
    expect((await resolve({ keep, trash: [other] })).statusCode).toBe(200)
    const updated = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.updated')).filter((event) => (event as { id: string }).id === keep)
    expect(updated).toEqual([])
  })

  it('refuses bad input with 4xx and changes nothing', async () => {
    const keep = await push(await png(picture()), { tag_names: ['kept'] })
    const other = await push(await png(picture()), { tag_names: ['other'] })
    const theirs = await push(await png(picture()), {}, globex)
    const trashed = await push(await png(picture()))
    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${trashed}`)).statusCode).toBe(204)

    expectProblem(await resolve({ keep, trash: [other, theirs] }), 404, 'not_found')
    expectProblem(await resolve({ keep: theirs, trash: [other] }), 404, 'not_found')
    expectProblem(await resolve({ keep, trash: [other, trashed] }), 404, 'not_found')
    expectProblem(await resolve({ keep, trash: [other, keep] }), 400, 'validation_failed')
    expectInvalid(await resolve({ keep, trash: [other, other] }), '/trash')
    expectInvalid(await resolve({ keep, trash: [] }), '/trash')
    expectInvalid(await resolve({ keep, trash: Array.from({ length: 101 }, () => randomUUID()) }), '/trash')
    expectProblem(await resolve({ keep, trash: [other] }, acme.readKey), 403, 'insufficient_scope')

    const kept = (await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${keep}`)).json<{ tags: string[] }>()
    expect(kept.tags).toEqual(['kept'])
    expect((await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${other}`)).statusCode).toBe(200)
    expect((await callApi(t.app, globex.readKey, 'GET', `/api/v1/assets/${theirs}`)).statusCode).toBe(200)
  })

  it('refuses a merge that would give the kept asset more than 100 tags, and changes nothing', async () => {
    const keep = await push(await png(picture()), { tag_names: Array.from({ length: 60 }, (_, i) => `k${i}`) })
    const other = await push(await png(picture()), { tag_names: Array.from({ length: 60 }, (_, i) => `o${i}`) })
    expectProblem(await resolve({ keep, trash: [other] }), 400, 'validation_failed')
    expect((await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${other}`)).statusCode).toBe(200)
  })
})
