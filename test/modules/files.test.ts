import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readlinkSync, rmSync } from 'node:fs'
import { request, type IncomingMessage } from 'node:http'
import { join } from 'node:path'
import type { LightMyRequestResponse } from 'fastify'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, FILES_ON_DISK, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, pushAndRead } from '../support/fixtures.js'
import { noisePng } from '../support/images.js'

let t: TestApp
let acme: Seeded

const BASE_URL = 'http://assets.test'
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

interface Pushed {
  id: string
  bytes: Buffer
  sha256: string
  /** Paths (with their signed query) as the app would be called on, without the public base URL. */
  original: string
  thumbnail: string
}

/** Pushes a PNG of noise `side` pixels square, and reads where the API says its files are. */
async function pushNoise(app: TestApp = t, owner = acme, side = 200): Promise<Pushed> {
  const { image: bytes, record } = await pushAndRead(app.app, owner, {}, await noisePng(side))
  return {
    id: record.id,
    bytes,
    sha256: record.sha256,
    original: record.original_url.replace(BASE_URL, ''),
    thumbnail: record.thumbnail_url.replace(BASE_URL, ''),
  }
}

const fetchFile = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers })

function expectSecurityHeaders(res: LightMyRequestResponse) {
  expect(res.headers['x-content-type-options']).toBe('nosniff')
  expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox")
  expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+, immutable$/)
}

let image: Pushed

beforeAll(async () => {
  t = await startTestApp({ env: { ...FILES_ON_DISK, RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000', RATE_LIMIT_FILES: '10000' } })
  acme = await seedOrganization(t.app, 'Acme')
  image = await pushNoise()
  expect(image.sha256).toBe(sha256(image.bytes))
  expect(image.bytes.length).toBeGreaterThan(100_000)
})
afterAll(() => t.close())

describe('GET /files/assets/:id/:variant', () => {
  it('streams the original byte for byte with a strong ETag, Accept-Ranges, Content-Length and the security headers', async () => {
    const res = await fetchFile(image.original)
    expect(res.statusCode).toBe(200)
    expect(sha256(res.rawPayload)).toBe(image.sha256)
    expect(res.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(image.bytes.length),
      etag: `"${image.sha256}"`,
      'accept-ranges': 'bytes',
    })
    expect(new Date(String(res.headers['last-modified'])).getTime()).toBeGreaterThan(Date.now() - 3_600_000)
    expect(res.headers['content-range']).toBeUndefined()
    expectSecurityHeaders(res)
  })

  it('with download=<name>, answers the same bytes as an attachment under that name, in ASCII and in UTF-8', async () => {
    const plain = await fetchFile(`${image.original}&download=${encodeURIComponent('Crème/brûlée "1".png')}`)
    expect(plain.statusCode).toBe(200)
    expect(sha256(plain.rawPayload)).toBe(image.sha256)
    expect(plain.headers['content-disposition']).toBe(`attachment; filename="Cr_me_br_l_e _1_.png"; filename*=UTF-8''Cr%C3%A8me_br%C3%BBl%C3%A9e%20%221%22.png`)
    expect((await fetchFile(image.original)).headers['content-disposition']).toBeUndefined()
  })

  it('streams the thumbnail under its own ETag', async () => {
    const res = await fetchFile(image.thumbnail)
    expect(res.statusCode).toBe(200)
    expect(res.headers).toMatchObject({ 'content-type': 'image/webp', etag: `"${image.sha256}.thumb.webp"`, 'content-length': String(res.rawPayload.length) })
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 200, height: 200 })
    expectSecurityHeaders(res)
  })

  it.each([
    ['the ETag', (etag: string) => etag],
    ['the ETag in a list', (etag: string) => `"something-else", ${etag}`],
    ['the weak form of the ETag', (etag: string) => `W/${etag}`],
    ['*', () => '*'],
  ])('answers If-None-Match with %s with 304 and no body', async (_label, ifNoneMatch) => {
    const etag = `"${image.sha256}"`
    const res = await fetchFile(image.original, { 'if-none-match': ifNoneMatch(etag) })
    expect(res.statusCode).toBe(304)
    expect(res.rawPayload.length).toBe(0)
    expect(res.headers.etag).toBe(etag)
    expect(res.headers['content-length']).toBeUndefined()
    expectSecurityHeaders(res)
  })

  it('sends the whole file when If-None-Match names other bytes', async () => {
    const res = await fetchFile(image.original, { 'if-none-match': `"${sha256(Buffer.from('other'))}"` })
    expect(res.statusCode).toBe(200)
    expect(sha256(res.rawPayload)).toBe(image.sha256)
  })

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, 'last'],
    ['bytes=-50', 'size-50', 'last'],
    ['bytes=10-10', 10, 10],
    ['bytes=500-99999999', 500, 'last'],
    ['bytes=-99999999', 0, 'last'],
    ['BYTES=0-0', 0, 0],
  ] as const)('answers %s with 206, the exact slice and Content-Range', async (range, from, to) => {
    const size = image.bytes.length
    const start = from === 'size-50' ? size - 50 : from
    const end = to === 'last' ? size - 1 : to
    const res = await fetchFile(image.original, { range })
    expect(res.statusCode).toBe(206)
    expect(res.rawPayload.equals(image.bytes.subarray(start, end + 1))).toBe(true)
    expect(res.headers).toMatchObject({
      'content-range': `bytes ${start}-${end}/${size}`,
      'content-length': String(end - start + 1),
      'content-type': 'image/png',
      etag: `"${image.sha256}"`,
      'accept-ranges': 'bytes',
    })
    expectSecurityHeaders(res)
  })

  it.each([
    ['several ranges (answered with the whole file, by choice)', 'bytes=0-9, 20-29'],
    ['another unit', 'items=0-9'],
    ['a backwards range', 'bytes=9-0'],
    ['no numbers', 'bytes=-'],
    ['garbage', 'bytes=abc'],
  ])('ignores %s: 200 with the whole file', async (_label, range) => {
    const res = await fetchFile(image.original, { range })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-range']).toBeUndefined()
    expect(sha256(res.rawPayload)).toBe(image.sha256)
  })

  it('honours If-Range: the range when it is the ETag, the whole file when it is anything else', async () => {
    const etag = `"${image.sha256}"`
    const matching = await fetchFile(image.original, { range: 'bytes=0-99', 'if-range': etag })
    expect(matching.statusCode).toBe(206)
    expect(matching.rawPayload.equals(image.bytes.subarray(0, 100))).toBe(true)

    for (const ifRange of [`"${sha256(Buffer.from('older bytes'))}"`, `W/${etag}`, new Date().toUTCString()]) {
      const res = await fetchFile(image.original, { range: 'bytes=0-99', 'if-range': ifRange })
      expect(res.statusCode, ifRange).toBe(200)
      expect(sha256(res.rawPayload)).toBe(image.sha256)
    }
  })

  it.each(['bytes=999999999-', 'bytes=999999999-1000000000', 'bytes=-0'])('refuses the unsatisfiable %s with 416 problem+json and Content-Range: bytes */size', async (range) => {
    const res = await fetchFile(image.original, { range })
    const body = expectProblem(res, 416, 'range_not_satisfiable')
    expect(body.detail).toContain(String(image.bytes.length))
    expect(res.headers['content-range']).toBe(`bytes */${image.bytes.length}`)
    expect(res.headers.etag).toBeUndefined()
    expect(res.headers['cache-control']).toBeUndefined()
  })

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await fetchFile(image.original, {}, 'HEAD')
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.length).toBe(0)
    expect(res.headers).toMatchObject({ 'content-length': String(image.bytes.length), etag: `"${image.sha256}"`, 'content-type': 'image/png' })
    const ranged = await fetchFile(image.original, { range: 'bytes=0-99' }, 'HEAD')
    expect(ranged.statusCode).toBe(206)
    expect(ranged.headers).toMatchObject({ 'content-length': '100', 'content-range': `bytes 0-99/${image.bytes.length}` })
  })

  it('still refuses a bad signature with 403, before looking at conditions or ranges', async () => {
    const tampered = image.original.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`)
    const variants: Array<Record<string, string>> = [{}, { 'if-none-match': `"${image.sha256}"` }, { range: 'bytes=0-99' }, { range: 'bytes=999999999-' }]
    for (const headers of variants) {
      const res = await fetchFile(tampered, headers)
      expectProblem(res, 403, 'invalid_signature')
      expect(res.headers.etag).toBeUndefined()
    }
  })

  it('is 404, without cache headers, when the file is gone from the blob store', async () => {
    const lost = await pushNoise()
    // Asked for while the original is there, the thumbnail is made, and is a blob of its own.
    expect((await fetchFile(lost.thumbnail)).statusCode).toBe(200)
    rmSync(join(t.config.blobDir, lost.sha256.slice(0, 2), lost.sha256.slice(2, 4), lost.sha256))
    const res = await fetchFile(lost.original)
    expectProblem(res, 404, 'not_found')
    expect(res.headers['cache-control']).toBeUndefined()
    expect(res.headers.etag).toBeUndefined()
    expect((await fetchFile(lost.thumbnail)).statusCode).toBe(200)
  })
})

/** File descriptors of this process open on `path` (Linux: /proc/self/fd). */
function openDescriptors(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path
    } catch {
      return false // closed meanwhile
    }
  }).length
}

describe('streaming over a real socket', () => {
  it.skipIf(!existsSync('/proc/self/fd'))('closes the file when the client goes away mid-download', async () => {
    const { bytes, sha256: hash, original } = await pushNoise(t, acme, 1500)
    const blobPath = join(t.config.blobDir, hash.slice(0, 2), hash.slice(2, 4), hash)
    const origin = await t.app.listen({ host: '127.0.0.1', port: 0 })

    // The client reads one chunk and stops: the kernel's buffers fill and the server's stream waits.
    const req = request(`${origin}${original}`)
    const response = await new Promise<IncomingMessage>((resolve, reject) => req.once('response', resolve).once('error', reject).end())
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-length']).toBe(String(bytes.length))
    await new Promise((resolve) => response.once('data', resolve))
    response.pause()
    expect(openDescriptors(blobPath)).toBe(1)

    req.destroy()
    await expect.poll(() => openDescriptors(blobPath), { timeout: 5000 }).toBe(0)
    // And the server is fine: the next download is whole.
    expect(sha256((await fetchFile(original)).rawPayload)).toBe(sha256(bytes))
  })
})

describe('the per-IP limit on /files and /s (RATE_LIMIT_FILES)', () => {
  it('refuses the 4th request from one IP within the window with 429 problem+json and Retry-After, for files and share links alike', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_FILES: '3', RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' } })
    try {
      const owner = await seedOrganization(limited.app, 'Limited')
      const pushed = await pushNoise(limited, owner)
      const collection = await limited.app.inject({ method: 'POST', url: '/api/v1/collections', headers: bearer(owner.writeKey), payload: { name: 'Shared' } })
      expect(collection.statusCode, collection.body).toBe(201)
      const shared = await limited.app.inject({ method: 'POST', url: `/api/v1/collections/${collection.json().id}/share`, headers: bearer(owner.writeKey) })
      expect(shared.statusCode, shared.body).toBe(201)
      const share = `${(shared.json().share_url as string).replace(BASE_URL, '')}.json`

      const from = (ip: string, url: string) => limited.app.inject({ method: 'GET', url, remoteAddress: ip })
      const expectLimited = (res: LightMyRequestResponse) => {
        expectProblem(res, 429, 'rate_limited')
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1)
        expect(res.headers['x-ratelimit-remaining']).toBe('0')
      }

      // Files: three answered (a 304 and a 206 count too), the fourth refused.
      expect((await from('192.0.2.1', pushed.original)).statusCode).toBe(200)
      const ok = await limited.app.inject({ method: 'GET', url: pushed.original, remoteAddress: '192.0.2.1', headers: { 'if-none-match': `"${pushed.sha256}"` } })
      expect(ok.statusCode).toBe(304)
      expect(ok.headers['x-ratelimit-limit']).toBe('3')
      expect((await from('192.0.2.1', pushed.thumbnail)).statusCode).toBe(200)
      expectLimited(await from('192.0.2.1', pushed.original))
      // One bucket: the same IP has spent it on share links too.
      expectLimited(await from('192.0.2.1', share))

      // Share links: three answered, the fourth refused; the HTML gallery counts too.
      expect((await from('192.0.2.2', share)).statusCode).toBe(200)
      expect((await from('192.0.2.2', share.replace(/\.json$/, ''))).statusCode).toBe(200)
      expect((await from('192.0.2.2', share)).statusCode).toBe(200)
      expectLimited(await from('192.0.2.2', share))
      expectLimited(await from('192.0.2.2', pushed.thumbnail))

      // Another IP has its own bucket; the API's own buckets are untouched.
      expect((await from('192.0.2.3', pushed.original)).statusCode).toBe(200)
      const api = await limited.app.inject({ method: 'GET', url: `/api/v1/assets/${pushed.id}`, headers: bearer(owner.readKey), remoteAddress: '192.0.2.1' })
      expect(api.statusCode).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
