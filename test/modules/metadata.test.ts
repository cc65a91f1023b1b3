import { sql } from 'kysely'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, drainDerivations, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { cameraExif, iptcResources, jpegWith, xmpPacket } from '../support/embedded-metadata.js'
import { callApi, outboxEvents, pushImage, type AssetRecord } from '../support/fixtures.js'
import { solid } from '../support/images.js'

const BASE_URL = 'http://assets.test'

let t: TestApp
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp()
  acme = await seedOrganization(t.app, 'Acme')
})
afterAll(() => t.close())

const read = async (app: TestApp, seeded: Seeded, id: string) => {
  const res = await callApi(app.app, seeded.readKey, 'GET', `/api/v1/assets/${id}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<AssetRecord & { width: number; height: number; metadata: Record<string, unknown> | null; updated_at: string }>()
}

/** A camera's photo stored 40 × 20 whose EXIF says to turn it a quarter (orientation 6): shown 20 × 40. */
async function turnedPhoto(): Promise<Buffer> {
  const photo = await jpegWith({ exif: cameraExif({ orientation: 6 }), xmp: xmpPacket({ creator: 'Dana Reyes', credit: 'Initech', subjects: ['summer'] }) })
  expect(await sharp(photo).metadata()).toMatchObject({ width: 40, height: 20, orientation: 6 })
  return photo
}

describe('the metadata derivation', () => {
  it('keeps what the file says on the record once it has run, and nothing else changes', async () => {
    const { id } = await pushImage(t.app, acme.writeKey, { tag_names: ['mine'] }, await turnedPhoto())
    const before = await read(t, acme, id)
    expect(before).toMatchObject({ metadata: null, width: 20, height: 40 })

    await drainDerivations(t.app, 'metadata')
    const after = await read(t, acme, id)
    expect(after.metadata).toEqual({
      orientation: 6,
      captured_at: '2026-06-14T09:31:05+02:00',
      camera_make: 'FUJIFILM',
      camera_model: 'X-T5',
      lens: 'XF23mmF1.4 R LM WR',
      creator: 'Dana Reyes',
      copyright: '(c) 2026 Initech',
      credit: 'Initech',
      title: null,
      description: null,
      keywords: ['summer'],
      gps: null,
    })
    expect(after).toMatchObject({ width: 20, height: 40, updated_at: before.updated_at })
    expect((await outboxEvents(t.database.handle.db, acme.org.id, 'asset.updated')).filter((event) => event.id === id)).toEqual([])
  })

  it('puts right the sides of a photo recorded before they followed its orientation, and of its version', async () => {
    const { id } = await pushImage(t.app, acme.writeKey, {}, await turnedPhoto())
    await drainDerivations(t.app, 'metadata')
    // As an asset pushed before issue 36 was, with migration 0021's job.
    const db = t.database.handle.db
    await sql`update assets set width = 40, height = 20, metadata = null where id = ${id}`.execute(db)
    await sql`update asset_versions set width = 40, height = 20 where asset_id = ${id}`.execute(db)
    await sql`insert into metadata_jobs (asset_id) values (${id})`.execute(db)
    expect(await read(t, acme, id)).toMatchObject({ width: 40, height: 20, metadata: null })

    await drainDerivations(t.app, 'metadata')
    expect(await read(t, acme, id)).toMatchObject({ width: 20, height: 40, metadata: { orientation: 6 } })
    const versions = (await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${id}/versions`)).json<{ data: { width: number; height: number }[] }>()
    expect(versions.data.map(({ width, height }) => [width, height])).toEqual([[20, 40]])
  })

  it('reads each new version again, and leaves an image without metadata with an empty one', async () => {
    const { id } = await pushImage(t.app, acme.writeKey, {}, await turnedPhoto())
    await drainDerivations(t.app, 'metadata')
    const plain = await solid(30, 10, '#aa3366').png().toBuffer()
    const upload = await callApi(t.app, acme.writeKey, 'POST', `/api/v1/assets/${id}/versions`, { image_base64: plain.toString('base64') })
    expect(upload.statusCode, upload.body).toBe(201)
    expect(await read(t, acme, id)).toMatchObject({ metadata: null, width: 30, height: 10 })
    await drainDerivations(t.app, 'metadata')
    expect((await read(t, acme, id)).metadata).toMatchObject({ orientation: null, camera_make: null, keywords: [], gps: null })
  })

  it('keeps the rest of a file with malformed IPTC', async () => {
    const bytes = await jpegWith({ exif: cameraExif(), iptc: iptcResources([{ dataset: 25, value: 'short', size: 60_000 }]) })
    const { id } = await pushImage(t.app, acme.writeKey, {}, bytes)
    await drainDerivations(t.app, 'metadata')
    expect((await read(t, acme, id)).metadata).toMatchObject({ camera_make: 'FUJIFILM', keywords: [] })
  })

  it('never stores GPS unless EXPOSE_GPS is set, and then shows it', async () => {
    const { id } = await pushImage(t.app, acme.writeKey, {}, await jpegWith({ exif: cameraExif({ gps: true }) }))
    await drainDerivations(t.app, 'metadata')
    expect((await read(t, acme, id)).metadata).toMatchObject({ camera_make: 'FUJIFILM', gps: null })
    const stored = await sql<{ metadata: unknown }>`select metadata from assets where id = ${id}`.execute(t.database.handle.db)
    expect(JSON.stringify(stored.rows[0]!.metadata)).not.toMatch(/48\.8|latitude"\s*:\s*\d/)

    const exposing = await startTestApp({ env: { EXPOSE_GPS: 'true' } })
    try {
      const owner = await seedOrganization(exposing.app, 'Acme')
      const pushed = await pushImage(exposing.app, owner.writeKey, {}, await jpegWith({ exif: cameraExif({ gps: true }) }))
      await drainDerivations(exposing.app, 'metadata')
      const { metadata } = await read(exposing, owner, pushed.id)
      expect(metadata!.gps).toEqual({ latitude: expect.closeTo(48.858333, 5), longitude: expect.closeTo(-2.35, 5), altitude: 35 })
    } finally {
      await exposing.close()
    }
  })
})

describe('files made from an original', () => {
  it('carry none of its EXIF, XMP or GPS: the thumbnail and the renditions', async () => {
    const original = await jpegWith({ exif: cameraExif({ gps: true }), xmp: xmpPacket({ creator: 'Dana Reyes', title: 'Secret title' }) }, 200, 100)
    const { id } = await pushImage(t.app, acme.writeKey, {}, original)
    const record = await read(t, acme, id)
    const files: Buffer[] = []
    const thumbnail = await t.app.inject({ method: 'GET', url: record.thumbnail_url.replace(BASE_URL, '') })
    expect(thumbnail.statusCode).toBe(200)
    files.push(thumbnail.rawPayload)
    for (const format of ['jpeg', 'png', 'webp', 'avif']) {
      const rendered = await t.app.inject({ method: 'GET', url: `/api/v1/assets/${id}/render?width=50&format=${format}&redirect=false`, headers: bearer(acme.readKey) })
      expect(rendered.statusCode, rendered.body).toBe(200)
      const file = await t.app.inject({ method: 'GET', url: rendered.json<{ url: string }>().url.replace(BASE_URL, '') })
      expect(file.statusCode).toBe(200)
      files.push(file.rawPayload)
    }
    for (const file of files) {
      const meta = await sharp(file).metadata()
      expect([meta.exif, meta.xmp, meta.iptc]).toEqual([undefined, undefined, undefined])
      for (const text of ['FUJIFILM', 'Dana Reyes', 'Secret title', 'X-T5']) expect(file.includes(Buffer.from(text, 'latin1'))).toBe(false)
    }
  })
})

describe('a push fills what it leaves empty from the file', () => {
  const described = () =>
    jpegWith({
      exif: cameraExif(),
      xmp: xmpPacket({ title: 'Summer campaign hero', description: 'Stapler on a striped towel', subjects: ['Seaside', 'beach', 'seaside'] }),
    })
  const search = async (q: string) => (await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets?q=${encodeURIComponent(q)}`)).json<{ data: { id: string }[] }>().data.map((asset) => asset.id)

  it('takes the embedded title, and the keywords as tags, when the push sends none; full text finds the description', async () => {
    const { id } = await pushImage(t.app, acme.writeKey, {}, await described())
    expect(await read(t, acme, id)).toMatchObject({ title: 'Summer campaign hero', tags: ['beach', 'Seaside'] })
    expect(await search('striped towel')).toContain(id)
    const created = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.created')).find((event) => event.id === id)
    expect(created).toMatchObject({ title: 'Summer campaign hero', tags: ['beach', 'Seaside'] })
  })

  it('keeps the push’s own title and tags, an empty list of tags included; the file’s words are still found', async () => {
    const own = await pushImage(t.app, acme.writeKey, { title: 'Our title', tag_names: ['ours'] }, await described())
    expect(await read(t, acme, own.id)).toMatchObject({ title: 'Our title', tags: ['ours'] })
    const none = await pushImage(t.app, acme.writeKey, { tag_names: [] }, await described())
    expect(await read(t, acme, none.id)).toMatchObject({ title: 'Summer campaign hero', tags: [] })
    const found = await search('"Summer campaign hero"')
    expect(found).toEqual(expect.arrayContaining([own.id, none.id]))
  })

  it('fills a blank title, not one the push sets', async () => {
    const { id } = await pushImage(t.app, acme.writeKey, { title: '   ' }, await described())
    expect((await read(t, acme, id)).title).toBe('Summer campaign hero')
  })

  it('makes tags of Latin-1 IPTC keywords, and of keywords 10,000 characters long cut to a tag', async () => {
    const long = 'x'.repeat(10_000)
    const bytes = await jpegWith({ iptc: iptcResources([{ dataset: 25, value: Buffer.from('café', 'latin1') }, { dataset: 25, value: long }]) })
    const { id } = await pushImage(t.app, acme.writeKey, {}, bytes)
    expect((await read(t, acme, id)).tags).toEqual(['café', 'x'.repeat(100)])
  })

  it('does the same for a multipart upload', async () => {
    const form = new FormData()
    form.append('file', new Blob([await described()], { type: 'image/jpeg' }), 'photo.jpg')
    const response = new Response(form)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/assets',
      headers: { ...bearer(acme.writeKey), 'content-type': response.headers.get('content-type')! },
      payload: Buffer.from(await response.arrayBuffer()),
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(await read(t, acme, res.json<{ asset_id: string }>().asset_id)).toMatchObject({ title: 'Summer campaign hero', tags: ['beach', 'Seaside'] })
  })

  it('finds a new version by its own description, the asset keeping its title and tags', async () => {
    const { id } = await pushImage(t.app, acme.writeKey, { title: 'Kept', tag_names: ['kept'] }, await jpegWith({ xmp: xmpPacket({ description: 'Anchovies on toast' }) }))
    expect(await search('anchovies')).toContain(id)
    const next = await jpegWith({ xmp: xmpPacket({ title: 'Other', description: 'Marmalade on a scone', subjects: ['breakfast'] }) })
    const upload = await callApi(t.app, acme.writeKey, 'POST', `/api/v1/assets/${id}/versions`, { image_base64: next.toString('base64') })
    expect(upload.statusCode, upload.body).toBe(201)
    expect(await read(t, acme, id)).toMatchObject({ title: 'Kept', tags: ['kept'] })
    expect(await search('marmalade')).toContain(id)
    expect(await search('anchovies')).not.toContain(id)
  })
})
