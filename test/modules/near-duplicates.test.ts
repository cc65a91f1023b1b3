import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drainDerivations, type Seeded, type TestApp } from '../support/app.js'
import { callApi, pushImage, startTwoOrganizations } from '../support/fixtures.js'
import { truncatedPng } from '../support/images.js'
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
    const id = await push(await truncatedPng())
    await hashAll()
    expect(await nearDuplicatesOf(id)).toEqual([])
    const row = await t.database.handle.db.selectFrom('assets').select(['perceptual_hash', 'perceptual_hash_algorithm']).where('id', '=', id).executeTakeFirstOrThrow()
    expect(row).toEqual({ perceptual_hash: null, perceptual_hash_algorithm: 'dhash' })
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
