import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_IMAGE_BYTES } from '../../src/modules/assets/push.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { callApi, expectProblem, type AssetRecord } from '../support/fixtures.js'
import { solidPng } from '../support/images.js'
import { billionLaughs, filterMemoryBomb, nested, referenceTimeBomb, svg, withElements } from '../support/svg.js'

/** SVG pushed through the API (issue 34): accepted through the sanitizer, refused with its codes, rendered out of process. */

let t: TestApp
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp({ env: { SVG_RENDER_TIMEOUT_MS: '8000', SVG_RENDER_MAX_MEMORY_MB: '192', RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_STANDARD: '10000' } })
  acme = await seedOrganization(t.app, 'Acme')
})
afterAll(() => t.close())

const pushJson = (bytes: Buffer, fields: object = {}) => callApi(t.app, acme.writeKey, 'POST', '/api/v1/assets', { image_base64: bytes.toString('base64'), ...fields })
async function pushMultipart(bytes: Buffer, title: string) {
  const form = new FormData()
  form.append('title', title)
  form.append('file', new Blob([bytes], { type: 'image/svg+xml' }), 'logo.svg')
  const response = new Response(form)
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/assets',
    headers: { ...bearer(acme.writeKey), 'content-type': response.headers.get('content-type')! },
    payload: Buffer.from(await response.arrayBuffer()),
  })
}
const read = async (id: string) => (await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${id}`)).json<AssetRecord & { thumbnail_status: string; thumbnail_failure: string | null }>()
const fetchFile = (url: string) => t.app.inject({ method: 'GET', url: url.replace('http://assets.test', '') })
const listed = async (q: string) => (await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets?q=${encodeURIComponent(q)}`)).json<{ data: Array<{ id: string }> }>().data.map((asset) => asset.id)
const allIds = async () => (await callApi(t.app, acme.readKey, 'GET', '/api/v1/assets?limit=100')).json<{ data: Array<{ id: string }> }>().data.map((asset) => asset.id)
const logo = (word: string) =>
  Buffer.from(
    svg(
      'viewBox="0 0 240 80" width="100%"',
      `<title>${word} wordmark</title><desc>The ${word} logo in red, for light backgrounds</desc><defs><linearGradient id="g"><stop offset="0" stop-color="#c00"/></linearGradient></defs><rect width="240" height="80" fill="url(#g)"/>`,
    ),
  )

describe('a good SVG logo', () => {
  it.each([
    ['JSON base64', (bytes: Buffer) => pushJson(bytes, { title: 'Logo' }), 'Zanzibar'],
    ['multipart', (bytes: Buffer) => pushMultipart(bytes, 'Logo'), 'Quetzal'],
  ])('pushed as %s: 201, image/svg+xml sized from its viewBox, a WebP thumbnail, the original served safely, its title searchable', async (_, push, word) => {
    const bytes = logo(word)
    const res = await push(bytes)
    expect(res.statusCode, res.body).toBe(201)
    const record = await read(res.json<{ asset_id: string }>().asset_id)
    expect(record).toMatchObject({ mime_type: 'image/svg+xml', width: 240, height: 80, byte_size: bytes.length, thumbnail_status: 'available' })

    const thumbnail = await fetchFile(record.thumbnail_url)
    expect(thumbnail.statusCode).toBe(200)
    expect(thumbnail.headers['content-type']).toBe('image/webp')
    expect(await sharp(thumbnail.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 512, height: 171 })

    const original = await fetchFile(record.original_url)
    expect(original.statusCode).toBe(200)
    expect(original.rawPayload.equals(bytes)).toBe(true)
    expect(original.headers).toMatchObject({
      'content-type': 'image/svg+xml',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
      'x-content-type-options': 'nosniff',
    })

    expect(await listed(word)).toEqual([record.id])
    expect(await listed(`${word.toLowerCase()} backgrounds`)).toEqual([record.id])
    const searched = await callApi(t.app, acme.readKey, 'POST', '/api/v1/search', { q: word })
    expect(searched.json<{ data: Array<{ id: string; text_score: number }> }>().data.filter((hit) => hit.text_score > 0).map((hit) => hit.id)).toEqual([record.id])
  })

  it('a new version carries its own text: the old words stop matching, the new ones match, and a restore brings the old back', async () => {
    const res = await pushJson(logo('Marmalade'))
    const id = res.json<{ asset_id: string }>().asset_id
    const png = await solidPng(20, 10)
    const version = await callApi(t.app, acme.writeKey, 'POST', `/api/v1/assets/${id}/versions`, { image_base64: logo('Pumpernickel').toString('base64') })
    expect(version.statusCode, version.body).toBe(201)
    expect(await listed('Marmalade')).toEqual([])
    expect(await listed('Pumpernickel')).toEqual([id])

    expect((await callApi(t.app, acme.writeKey, 'POST', `/api/v1/assets/${id}/versions`, { image_base64: png.toString('base64') })).statusCode).toBe(201)
    expect(await listed('Pumpernickel')).toEqual([])
    expect(await read(id)).toMatchObject({ mime_type: 'image/png', width: 20, height: 10 })

    expect((await callApi(t.app, acme.writeKey, 'POST', `/api/v1/assets/${id}/versions/1/restore`)).statusCode).toBe(201)
    expect(await listed('Marmalade')).toEqual([id])
    expect(await read(id)).toMatchObject({ mime_type: 'image/svg+xml', width: 240, height: 80, version: 4 })
  })
  it('its text leaves the search with it for the trash, and comes back with its restore', async () => {
    const id = (await pushJson(logo('Vermilion'))).json<{ asset_id: string }>().asset_id
    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${id}`)).statusCode).toBe(204)
    expect(await listed('Vermilion')).toEqual([])
    expect((await callApi(t.app, acme.writeKey, 'POST', `/api/v1/trash/${id}/restore`)).statusCode).toBe(200)
    expect(await listed('Vermilion')).toEqual([id])
  })
})

describe('the share page', () => {
  it('shows an SVG only through <img> (its WebP thumbnail, the original in the lightbox\u2019s <img>), never inlined, nor in an <object>, <iframe> or <embed>', async () => {
    const marker = 'Ultramarine'
    const bytes = logo(marker)
    const id = (await pushJson(bytes, { title: 'Shared logo', tag_names: ['shared-svg'] })).json<{ asset_id: string }>().asset_id
    const collection = await callApi(t.app, acme.writeKey, 'POST', '/api/v1/collections', { name: 'Shared SVG', query: { tag: 'shared-svg' } })
    const share = await callApi(t.app, acme.writeKey, 'POST', `/api/v1/collections/${collection.json<{ id: string }>().id}/share`)
    const page = await t.app.inject({ method: 'GET', url: new URL(share.json<{ share_url: string }>().share_url).pathname })
    expect(page.statusCode).toBe(200)
    const html = page.body
    expect(html).not.toMatch(/<(object|iframe|embed)\b/i)
    // The SVG's own markup is nowhere in the page: its title text only as the asset's alt and data-title.
    expect(html).not.toContain('<linearGradient')
    expect(html).not.toContain(marker)
    const item = /<a class="open" href="([^"]+)"[^>]*><img src="([^"]+)"/.exec(html)!
    expect(item[1]).toContain(`/files/assets/${id}/`)
    expect((await fetchFile(item[2]!.replaceAll('&#38;', '&'))).headers['content-type']).toBe('image/webp')
    expect(html).toMatch(/image\.src = link\.href/)
  })
})

describe('a hostile SVG is refused with 422 and its code, and nothing is stored', () => {
  const dataPng = async () => `data:image/png;base64,${(await solidPng(4, 4)).toString('base64')}`
  it.each([
    ['a billion-laughs file', 'svg_entity', () => billionLaughs()],
    ['<script>', 'svg_script', () => svg('', '<script>fetch("/")</script>')],
    ['onload=', 'svg_script', () => svg('onload="alert(1)"', '')],
    ['<image href="http://169.254.169.254/">', 'svg_external_reference', () => svg('', '<image href="http://169.254.169.254/latest/meta-data/" width="10" height="10"/>')],
    ['<use href="file:///etc/passwd">', 'svg_external_reference', () => svg('', '<use href="file:///etc/passwd"/>')],
    ['200,000 elements', 'svg_too_complex', () => withElements(200_000)],
    ['10,000 levels of nesting', 'svg_too_complex', () => nested(10_000)],
    ['a data: image that says PNG and is not one', 'svg_too_complex', async () => svg('', `<image href="${(await dataPng()).replace('iVBOR', 'AAAA')}"/>`)],
  ])('%s: %s', async (_, code, make) => {
    const before = await allIds()
    expectProblem(await pushJson(Buffer.from(await make())), 422, code)
    expect(await allIds()).toEqual(before)
  })

  it('a data: image of 100k x 100k pixels inside an SVG: svg_too_complex, naming the embedded image', async () => {
    const { pngDeclaring } = await import('../support/images.js')
    const res = await pushMultipart(Buffer.from(svg('viewBox="0 0 10 10"', `<image href="data:image/png;base64,${pngDeclaring(100_000, 100_000).toString('base64')}"/>`)), 'Huge')
    expectProblem(res, 422, 'svg_too_complex')
    expect(res.json().detail).toContain('An embedded data:image/png was refused')
  })

  it('a UTF-16 SVG and a gzip-compressed one: unsupported_image_format; one with a UTF-8 BOM is accepted', async () => {
    const { gzipSync } = await import('node:zlib')
    const text = svg('viewBox="0 0 8 8"', '<title>Bommed</title><rect width="8" height="8"/>')
    expectProblem(await pushJson(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])), 422, 'unsupported_image_format')
    expectProblem(await pushJson(gzipSync(text)), 422, 'unsupported_image_format')
    const res = await pushJson(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))
    expect(res.statusCode, res.body).toBe(201)
    expect(await read(res.json<{ asset_id: string }>().asset_id)).toMatchObject({ mime_type: 'image/svg+xml', width: 8, height: 8 })
  })

  it('a 50 MB data: PNG inside a 25 MB SVG: refused by size (413 image_too_large) as JSON and as multipart', async () => {
    const head = Buffer.from(svg('viewBox="0 0 1 1"', '<image href="data:image/png;base64,'))
    // 50 MB of PNG is ~67 MB of base64: the file is cut off just past the cap, which is all that is read.
    const oversized = Buffer.concat([head, Buffer.alloc(MAX_IMAGE_BYTES + 1 - head.length, 'A')])
    expectProblem(await pushJson(oversized), 413, 'image_too_large')
    expectProblem(await pushMultipart(oversized, 'Too large'), 413, 'image_too_large')
  })
})

describe('a render-time bomb that passes the sanitizer', () => {
  it('fails its thumbnail (thumbnail_status failed, with the reason) past the memory or time limit, while /health keeps answering', async () => {
    const pushed = await Promise.all([pushJson(Buffer.from(filterMemoryBomb(2000))), pushJson(Buffer.from(referenceTimeBomb()))])
    expect(pushed.map((res) => res.statusCode)).toEqual([201, 201])
    const [memory, time] = pushed.map((res) => res.json<{ asset_id: string }>().asset_id)

    let rendering = true
    const drained = t.app.services.thumbnails.drain().finally(() => (rendering = false))
    const health: number[] = []
    while (rendering) {
      health.push((await t.app.inject({ method: 'GET', url: '/health' })).statusCode)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await drained
    expect(health.length).toBeGreaterThan(10)
    expect(new Set(health)).toEqual(new Set([200]))

    expect(await read(memory!)).toMatchObject({ thumbnail_status: 'failed', thumbnail_failure: 'The SVG needed more than 192 MB of memory to render.' })
    expect(await read(time!)).toMatchObject({ thumbnail_status: 'failed', thumbnail_failure: 'The SVG took longer than 8000 ms to render.' })
  }, 90_000)
})
