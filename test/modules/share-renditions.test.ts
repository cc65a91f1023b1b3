import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zipOf, ZipTooLargeError, type ZipEntry } from '../../src/modules/collections/share-zip.js'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, organizationApi, pushImage, type OrganizationApi } from '../support/fixtures.js'
import { undecodablePng } from '../support/images.js'
import { waitFor } from '../support/wait.js'
import { readZip } from '../support/zip-reader.js'

/**
 * A public share offers the organization's presets: a link per asset and preset, bound to the share like
 * its other file links, and the zip of a preset (`/s/{token}.zip?preset=NAME`), whose files are made
 * through the renditions service as the zip reaches them.
 */

const BASE_URL = 'http://assets.test'
const LIMITS = { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000', RATE_LIMIT_FILES: '10000' }

let t: TestApp
let acme: Seeded
let call: OrganizationApi['call']

const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url: url.replace(BASE_URL, '') })

interface SharedAsset {
  id: string
  title: string
  renditions: Record<string, string>
}

/** A new manual collection of `images` (title and bytes), shared: its page's path and its id. */
async function sharedCollection(name: string, images: Array<{ title: string; bytes: Buffer }>) {
  const created = await call('POST', '/api/v1/collections', { name })
  expect(created.statusCode, created.body).toBe(201)
  const ids: string[] = []
  for (const image of images) ids.push((await pushImage(t.app, acme.writeKey, { title: image.title, collection_name: name }, image.bytes)).id)
  const shared = await call('POST', `/api/v1/collections/${created.json().id}/share`)
  expect(shared.statusCode, shared.body).toBe(201)
  return { id: created.json().id as string, page: new URL(shared.json().share_url).pathname, ids }
}

async function sharedAssets(page: string): Promise<SharedAsset[]> {
  const res = await get(`${page}.json`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json().assets.data
}

/** A new PNG of this size each call (random pixels), so no push is a duplicate of another. */
const picture = (width: number, height: number) => sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()

async function imageOf(bytes: Buffer) {
  const meta = await sharp(bytes).metadata()
  return { format: meta.format, width: meta.width, height: meta.height }
}

beforeAll(async () => {
  // One render at a time and no queue: a second first render at once is `render_busy`.
  t = await startTestApp({ env: { ...LIMITS, RENDER_CONCURRENCY: '1', RENDER_QUEUE_MAX: '0' } })
  acme = await seedOrganization(t.app, 'Acme')
  ;({ call } = organizationApi(t.app, acme))
  await t.app.services.presets.create(acme.org.id, 'web-300', { width: 300, format: 'webp', quality: 80 })
  await t.app.services.presets.create(acme.org.id, 'og-image', { width: 120, height: 63, fit: 'cover', format: 'jpeg', quality: 82 })
})
afterAll(() => t.close())

describe('a share\u2019s presets', () => {
  let shared: Awaited<ReturnType<typeof sharedCollection>>
  beforeAll(async () => {
    shared = await sharedCollection('Brand kit', [
      { title: 'Wide', bytes: await picture(600, 400) },
      { title: 'Tall', bytes: await picture(200, 400) },
    ])
  })

  it('are listed by its JSON, the built-ins first, with a link per asset and preset bound to the share', async () => {
    const view = (await get(`${shared.page}.json`)).json()
    expect(view.presets).toEqual([
      { name: 'thumbnail', format: 'webp', width: 512, height: 512, fit: 'inside' },
      { name: 'original', format: null, width: null, height: null, fit: 'inside' },
      { name: 'og-image', format: 'jpeg', width: 120, height: 63, fit: 'cover' },
      { name: 'web-300', format: 'webp', width: 300, height: null, fit: 'contain' },
    ])
    for (const asset of view.assets.data as Array<SharedAsset & { thumbnail_url: string; original_url: string }>) {
      expect(Object.keys(asset.renditions)).toEqual(['thumbnail', 'original', 'og-image', 'web-300'])
      expect(asset.renditions.thumbnail).toBe(asset.thumbnail_url)
      expect(asset.renditions.original).toBe(asset.original_url)
      expect(asset.renditions['web-300']).toMatch(
        new RegExp(`^${BASE_URL}/files/assets/${asset.id}/versions/1/renditions/w300-contain-q80\\.webp\\?expires=\\d+&share=${shared.id}\\.[0-9a-f]{16}&sig=[0-9a-f]{64}$`),
      )
    }
  })

  it('serve each asset\u2019s rendition at the preset\u2019s size and format', async () => {
    const [tall, wide] = await sharedAssets(shared.page)
    expect(wide!.title).toBe('Wide')
    const served = await get(wide!.renditions['web-300']!)
    expect(served.statusCode, served.body).toBe(200)
    expect(served.headers['content-type']).toBe('image/webp')
    expect(await imageOf(served.rawPayload)).toEqual({ format: 'webp', width: 300, height: 200 })
    const og = await get(tall!.renditions['og-image']!)
    expect(await imageOf(og.rawPayload)).toEqual({ format: 'jpeg', width: 120, height: 63 })
  })

  it('are offered on the HTML page under "More sizes", each link saving a named file, and as zips', async () => {
    const html = (await get(shared.page)).body
    const [, wide] = await sharedAssets(shared.page)
    const link = `${wide!.renditions['web-300']}&download=${encodeURIComponent('Wide (web-300).webp')}`
    expect(html).toContain(`<summary>More sizes<span class="visually-hidden"> of Wide</span></summary>`)
    expect(html).toContain(`<a href="${link.replaceAll('&', '&#38;')}" download="Wide (web-300).webp">web-300</a> <span class="muted">WebP, 300 px wide</span>`)
    expect(html).toContain('<span class="muted">JPEG, 120\u00d763</span>')
    expect(html).toContain('<span class="muted">WebP, up to 512\u00d7512</span>')
    const token = shared.page.slice('/s/'.length)
    expect(html).toContain(`<a href="${token}.zip?preset=web-300" download title="WebP, 300 px wide">web-300</a>`)
    const saved = await get(link)
    expect(saved.headers['content-disposition']).toContain('filename="Wide (web-300).webp"')
  })

  it('zip a preset\u2019s renditions, named with its extension, sent in chunks', async () => {
    const res = await get(`${shared.page}.zip?preset=web-300`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('application/zip')
    expect(res.headers['content-disposition']).toContain('filename="Brand kit (web-300).zip"')
    expect(res.headers['content-length']).toBeUndefined()
    expect(res.headers['transfer-encoding']).toBe('chunked')
    const entries = readZip(res.rawPayload)
    expect(entries.map((entry) => entry.name).sort()).toEqual(['Tall.webp', 'Wide.webp'])
    const sizes = Object.fromEntries(await Promise.all(entries.map(async (entry) => [entry.name, await imageOf(entry.bytes)] as const)))
    expect(sizes).toEqual({ 'Wide.webp': { format: 'webp', width: 300, height: 200 }, 'Tall.webp': { format: 'webp', width: 300, height: 600 } })
    // The same bytes as the share's own links to the renditions, which the zip made and stored.
    for (const asset of await sharedAssets(shared.page)) {
      const entry = entries.find((candidate) => candidate.name === `${asset.title}.webp`)!
      expect((await get(asset.renditions['web-300']!)).rawPayload.equals(entry.bytes)).toBe(true)
    }
  })

  it('zip the thumbnails with ?preset=thumbnail, and the originals with ?preset=original as without a preset', async () => {
    const thumbnails = await get(`${shared.page}.zip?preset=thumbnail`)
    expect(thumbnails.statusCode, thumbnails.body).toBe(200)
    const entries = readZip(thumbnails.rawPayload)
    expect(await Promise.all(entries.map(async (entry) => [entry.name, await imageOf(entry.bytes)]))).toEqual(
      expect.arrayContaining([
        ['Wide.webp', { format: 'webp', width: 512, height: 341 }],
        ['Tall.webp', { format: 'webp', width: 200, height: 400 }],
      ]),
    )
    const plain = await get(`${shared.page}.zip`)
    const originals = await get(`${shared.page}.zip?preset=original`)
    expect(originals.statusCode).toBe(200)
    expect(Number(originals.headers['content-length'])).toBe(originals.rawPayload.length)
    expect(originals.headers['content-disposition']).toBe(plain.headers['content-disposition'])
    expect(readZip(originals.rawPayload).map((entry) => entry.name)).toEqual(readZip(plain.rawPayload).map((entry) => entry.name))
  })

  it('answer an unknown preset with 400 validation_failed, as render?preset= does', async () => {
    for (const name of ['web-1200', 'Web-300']) {
      const res = await get(`${shared.page}.zip?preset=${name}`)
      expectProblem(res, 400, 'validation_failed')
      expect(res.json().errors).toEqual([{ pointer: '/query/preset', detail: expect.stringContaining('no preset of this name') }])
    }
    expectProblem(await get(`${shared.page}.zip?preset=`), 400, 'validation_failed')
  })
})

describe('a share\u2019s rendition links', () => {
  it('stop working when the asset leaves the collection, and when the share is revoked', async () => {
    const shared = await sharedCollection('Short lived', [
      { title: 'Kept', bytes: await picture(300, 200) },
      { title: 'Removed', bytes: await picture(300, 200) },
    ])
    const byTitle = Object.fromEntries((await sharedAssets(shared.page)).map((asset) => [asset.title, asset]))
    const removed = byTitle.Removed!
    const kept = byTitle.Kept!
    expect((await get(removed.renditions['web-300']!)).statusCode).toBe(200)
    expect((await call('DELETE', `/api/v1/collections/${shared.id}/assets`, { asset_id: removed.id })).statusCode).toBe(200)
    expectProblem(await get(removed.renditions['web-300']!), 404, 'not_found')
    // A rendition not made yet is refused as well, before anything is rendered.
    expectProblem(await get(removed.renditions['og-image']!), 404, 'not_found')
    expect((await get(kept.renditions['og-image']!)).statusCode).toBe(200)
    const zip = readZip((await get(`${shared.page}.zip?preset=web-300`)).rawPayload)
    expect(zip.map((entry) => entry.name)).toEqual(['Kept.webp'])
    expect((await call('DELETE', `/api/v1/collections/${shared.id}/share`)).statusCode).toBe(204)
    for (const url of [...Object.values(kept.renditions)]) expectProblem(await get(url), 404, 'not_found')
    expectProblem(await get(`${shared.page}.zip?preset=web-300`), 404, 'not_found')
    expectProblem(await get(`${shared.page}.json`), 404, 'not_found')
  })

  it('are not offered for an image that cannot be decoded, which a preset\u2019s zip leaves out', async () => {
    const shared = await sharedCollection('Partly broken', [
      { title: 'Fine', bytes: await picture(300, 200) },
      { title: 'Broken', bytes: await undecodablePng() },
    ])
    await t.app.services.thumbnails.drain()
    const byTitle = Object.fromEntries((await sharedAssets(shared.page)).map((asset) => [asset.title, asset]))
    expect(Object.keys(byTitle.Broken!.renditions)).toEqual(['original'])
    expect(Object.keys(byTitle.Fine!.renditions)).toContain('web-300')
    expect(readZip((await get(`${shared.page}.zip?preset=web-300`)).rawPayload).map((entry) => entry.name)).toEqual(['Fine.webp'])
    expect(readZip((await get(`${shared.page}.zip`)).rawPayload).map((entry) => entry.name).sort()).toEqual(['Broken.png', 'Fine.png'])
  })
})

describe('a preset\u2019s zip under load', () => {
  it('waits its turn when the render queue is full, rather than fail', async () => {
    const shared = await sharedCollection('Busy day', [
      { title: 'First', bytes: await picture(300, 200) },
      { title: 'Second', bytes: await picture(300, 200) },
    ])
    const [asset] = await sharedAssets(shared.page)
    // A slow render holds the only slot: 2048 px AVIF, from the API.
    let slowDone = false
    const slow = t.app
      .inject({ method: 'GET', url: `/api/v1/assets/${asset!.id}/render?width=2048&height=2048&fit=cover&format=avif&quality=90`, headers: { authorization: `Bearer ${acme.readKey}` } })
      .finally(() => (slowDone = true))
    await waitFor('the slow render under way', () => t.app.services.renditions.load.running === 1)
    const zip = get(`${shared.page}.zip?preset=og-image`)
    // The queue holds no one else: another first render now is refused at once.
    const refused = await call('GET', `/api/v1/assets/${asset!.id}/render?width=77&format=png`, undefined, acme.readKey)
    expectProblem(refused, 503, 'render_busy')
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(slowDone).toBe(false)
    const res = await zip
    expect((await slow).statusCode).toBe(302)
    expect(res.statusCode, res.body).toBe(200)
    const entries = readZip(res.rawPayload)
    expect(entries.map((entry) => entry.name).sort()).toEqual(['First.jpg', 'Second.jpg'])
    for (const entry of entries) expect(await imageOf(entry.bytes)).toEqual({ format: 'jpeg', width: 120, height: 63 })
  }, 60_000)
})

describe('a zip whose size is not known up front', () => {
  const entry = (name: string, bytes: Buffer): ZipEntry => ({ name, byteSize: null, modifiedAt: new Date('2026-01-02T03:04:05Z'), open: async () => Readable.from([bytes]) })

  it('carries each entry\u2019s size after its bytes, and ends with ZipTooLargeError once its files pass the cap', async () => {
    const files = [entry('a.bin', Buffer.alloc(600, 1)), entry('b.bin', Buffer.alloc(600, 2))]
    const whole = zipOf(files, 2000)
    expect(whole.size).toBeNull()
    const zip = Buffer.concat(await whole.stream.toArray())
    expect(readZip(zip).map((read) => [read.name, read.bytes.length])).toEqual([
      ['a.bin', 600],
      ['b.bin', 600],
    ])
    const capped = zipOf(files, 1000)
    await expect(capped.stream.toArray()).rejects.toBeInstanceOf(ZipTooLargeError)
  })
})
