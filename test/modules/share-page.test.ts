import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileNameOf, uniqueNames, zipNameOf, zipOf, type ZipEntry } from '../../src/modules/collections/share-zip.js'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { callApi, expectProblem, pushImage } from '../support/fixtures.js'
import { gaussianNoise } from '../support/images.js'
import { readZip } from '../support/zip-reader.js'

/** The public share page: every page of a large collection, its lightbox and downloads, and its zip. */

const ZIP_CAP = 1024 * 1024
const SHARED_COUNT = 120

let t: TestApp
let acme: Seeded

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url })

async function sharedCollection(name: string, push: (collectionName: string) => Promise<Buffer[]>): Promise<{ id: string; page: string; images: Buffer[] }> {
  const created = await callApi(t.app, acme.writeKey, 'POST', '/api/v1/collections', { name })
  expect(created.statusCode, created.body).toBe(201)
  const images = await push(name)
  const shared = await callApi(t.app, acme.writeKey, 'POST', `/api/v1/collections/${created.json().id}/share`)
  expect(shared.statusCode, shared.body).toBe(201)
  return { id: created.json().id, page: new URL(shared.json().share_url).pathname, images }
}

/** What a page of the gallery links to: its assets' large images, and its rel links in the body and the head. */
function linksOf(html: string) {
  const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]
  const tags = (pattern: RegExp) => [...html.matchAll(pattern)].map((match) => match[0])
  return {
    opens: tags(/<a class="open"[^>]*>/g).map((tag) => attribute(tag, 'href')!.replaceAll('&#38;', '&')),
    downloads: tags(/<a class="download"[^>]*>/g).map((tag) => ({ name: attribute(tag, 'download'), href: attribute(tag, 'href')!.replaceAll('&#38;', '&') })),
    rel: (rel: 'next' | 'prev') => ({
      anchor: tags(new RegExp(`<a rel="${rel}"[^>]*>`, 'g')).map((tag) => attribute(tag, 'href')),
      head: tags(new RegExp(`<link rel="${rel}"[^>]*>`, 'g')).map((tag) => attribute(tag, 'href')),
    }),
  }
}

/**
 * The files of the data directory outside the embedded database's own (`pg/`, where PGlite's VACUUM and
 * ANALYZE may add a visibility or free-space map at any moment): the blobs and anything a zip would stage.
 */
const filesWeWrite = () =>
  readdirSync(t.database.dataDir, { recursive: true })
    .map(String)
    .filter((path) => !path.startsWith('pg/') && path !== 'pg')
    .sort()

const assetIdOf = (url: string) => /\/files\/assets\/([0-9a-f-]{36})\/versions\/\d+\/original/.exec(url)![1]!

beforeAll(async () => {
  t = await startTestApp({ env: { SHARE_ZIP_MAX_BYTES: String(ZIP_CAP), RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_STANDARD: '10000', RATE_LIMIT_FILES: '10000' } })
  acme = await seedOrganization(t.app, 'Acme Studio')
})
afterAll(() => t.close())

describe('a share of 120 assets', () => {
  let shared: { id: string; page: string; images: Buffer[] }
  let ids: string[]
  beforeAll(async () => {
    ids = []
    shared = await sharedCollection('Spring catalogue', async (collectionName) => {
      const images: Buffer[] = []
      for (let i = 0; i < SHARED_COUNT; i++) {
        // Two assets share a title, and one title holds a slash, to prove the zip's names unique and safe.
        const title = i < 2 ? 'Same title' : i === 2 ? 'Front/back' : `Photo ${String(i).padStart(3, '0')}`
        const pushed = await pushImage(t.app, acme.writeKey, { title, collection_name: collectionName })
        ids.push(pushed.id)
        images.push(pushed.image)
      }
      return images
    })
  }, 180_000)

  it('pages through all of them, linked with rel next and prev, and names the organization', async () => {
    const seen: string[] = []
    const expected = [
      { page: 1, count: 50, prev: undefined, next: '?page=2' },
      { page: 2, count: 50, prev: '?page=1', next: '?page=3' },
      { page: 3, count: 20, prev: '?page=2', next: undefined },
    ]
    for (const { page, count, prev, next } of expected) {
      const res = await get(page === 1 ? shared.page : `${shared.page}?page=${page}`)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.body).toContain('120 assets')
      expect(res.body).toContain(`Page ${page} of 3`)
      expect(res.body).toContain('Shared by Acme Studio')
      const links = linksOf(res.body)
      expect(links.opens).toHaveLength(count)
      expect(links.rel('prev')).toEqual({ anchor: prev ? [prev] : [], head: prev ? [prev] : [] })
      expect(links.rel('next')).toEqual({ anchor: next ? [next] : [], head: next ? [next] : [] })
      seen.push(...links.opens.map(assetIdOf))
    }
    expect(new Set(seen).size).toBe(SHARED_COUNT)
    expect([...seen].sort()).toEqual([...ids].sort())
  })

  it('links each large image, offers each original for download under its file name, and the whole as a zip', async () => {
    const html = (await get(shared.page)).body
    const { opens, downloads } = linksOf(html)
    expect(downloads).toHaveLength(opens.length)
    expect(downloads[0]).toEqual({ name: 'Photo 119.png', href: `${opens[0]}&download=Photo%20119.png` })
    expect(html).toContain(`href="${shared.page.slice('/s/'.length)}.zip" download`)
    const original = await get(opens[0]!.replace('http://assets.test', ''))
    expect(original.statusCode).toBe(200)
    expect(original.headers['content-type']).toBe('image/png')
  })

  it('answers a page out of range with the last page, and a malformed one with 400', async () => {
    const past = await get(`${shared.page}?page=9`)
    expect(past.statusCode).toBe(303)
    expect(past.headers.location).toBe(`${shared.page}?page=3`)
    for (const page of ['0', 'two', '-1', '1.5']) expectProblem(await get(`${shared.page}?page=${page}`), 400, 'validation_failed')
  })

  it('has the app\u2019s favicon, a script its policy allows by hash, and no grey text below AA contrast', async () => {
    const res = await get(shared.page)
    const policy = String(res.headers['content-security-policy'])
    const script = /<script>([\s\S]*?)<\/script>/.exec(res.body)![1]!
    expect(policy).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`)
    expect(policy).not.toContain('unsafe-eval')
    const favicon = /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,([^"]+)">/.exec(res.body)![1]!
    expect(decodeURIComponent(favicon)).toBe(readFileSync(new URL('../../web/src/favicon.svg', import.meta.url), 'utf8').trim())
    expect(res.body).not.toMatch(/#777\b/)
  })

  it('zips every original, stored, under unique names, streamed with its length known, and writes no file', async () => {
    const before = filesWeWrite()
    const res = await get(`${shared.page}.zip`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('application/zip')
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Spring catalogue.zip"; filename*=UTF-8''Spring%20catalogue.zip`)
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length)
    const entries = readZip(res.rawPayload)
    expect(entries).toHaveLength(SHARED_COUNT)
    expect(entries.every((entry) => entry.method === 0)).toBe(true)
    const names = entries.map((entry) => entry.name)
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(SHARED_COUNT)
    expect(names).toEqual(expect.arrayContaining(['Same title.png', 'Same title (2).png', 'Front-back.png', 'Photo 003.png', 'Photo 119.png']))
    expect(entries.map((entry) => sha256(entry.bytes)).sort()).toEqual(shared.images.map(sha256).sort())
    expect(filesWeWrite()).toEqual(before)
    const head = await get(`${shared.page}.zip`, 'HEAD')
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-length']).toBe(res.headers['content-length'])
  })

  it('is 404 once revoked, on the page, its JSON and its zip', async () => {
    const unknown = '/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    for (const suffix of ['.json', '.zip']) expectProblem(await get(`${unknown}${suffix}`), 404, 'not_found')
    expectGonePage(await get(unknown))
    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/collections/${shared.id}/share`)).statusCode).toBe(204)
    for (const suffix of ['.json', '.zip']) expectProblem(await get(`${shared.page}${suffix}`), 404, 'not_found')
    for (const suffix of ['', '?page=2']) expectGonePage(await get(`${shared.page}${suffix}`))
  })
})

/** The gallery's 404: a page for the person who followed the link, under the gallery's strict policy. */
function expectGonePage(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode).toBe(404)
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
  expect(res.headers['content-security-policy']).toContain("default-src 'none'")
  expect(res.body).toContain('<h1>This link does not work</h1>')
}

describe('the zip\u2019s size cap', () => {
  it('refuses a collection whose originals pass SHARE_ZIP_MAX_BYTES with 413 before any byte of the zip', async () => {
    const noise = await gaussianNoise(800, 600)
      .png()
      .toBuffer()
    expect(noise.length).toBeGreaterThan(ZIP_CAP)
    const big = await sharedCollection('Large prints', async (collectionName) => [(await pushImage(t.app, acme.writeKey, { collection_name: collectionName }, noise)).image])
    const res = await get(`${big.page}.zip`)
    expectProblem(res, 413, 'share_zip_too_large')
    expect(res.json().detail).toMatch(/1\.0 MiB a zip may hold/)
    // The gallery itself still serves it.
    expect((await get(big.page)).statusCode).toBe(200)
  })
})

describe('zip streaming', () => {
  const CHUNK = 64 * 1024
  /** A file read in chunks, as the blob store reads one, logging its opening and its end; `gate` holds its opening back. */
  const file = (name: string, bytes: Buffer, events: string[], gate?: Promise<void>): ZipEntry => ({
    name,
    byteSize: bytes.length,
    modifiedAt: new Date('2026-01-02T03:04:05Z'),
    async open() {
      await gate
      events.push(`open ${name}`)
      const chunks = Array.from({ length: Math.ceil(bytes.length / CHUNK) }, (_, i) => bytes.subarray(i * CHUNK, (i + 1) * CHUNK))
      const body = Readable.from(chunks)
      body.on('end', () => events.push(`end ${name}`))
      body.on('close', () => events.push(`close ${name}`))
      return body
    },
  })

  it('sends its first bytes before it opens the last file, and reads one file at a time', async () => {
    const events: string[] = []
    let firstBytesSeen!: () => void
    // The last file opens only once the reader has bytes: a zip made before it is sent never would.
    const firstBytes = new Promise<void>((resolve) => (firstBytesSeen = resolve))
    const contents = Array.from({ length: 5 }, (_, i) => Buffer.alloc(256 * 1024, i))
    const files = contents.map((bytes, i) => file(`f${i}.bin`, bytes, events, i === 4 ? firstBytes : undefined))
    const { size, stream } = zipOf(files)
    const chunks: Buffer[] = []
    for await (const chunk of stream) {
      if (chunks.length === 0) {
        events.push('first bytes')
        firstBytesSeen()
      }
      chunks.push(chunk as Buffer)
    }
    const zip = Buffer.concat(chunks)
    expect(zip.length).toBe(size)
    expect(events.indexOf('first bytes')).toBeLessThan(events.indexOf('open f4.bin'))
    for (let i = 1; i < 5; i++) expect(events.indexOf(`end f${i - 1}.bin`), events.join(', ')).toBeLessThan(events.indexOf(`open f${i}.bin`))
    expect(readZip(zip).map((entry) => [entry.name, entry.bytes.equals(contents[Number(entry.name[1])]!)])).toEqual(files.map((entry) => [entry.name, true]))
  })

  it('reads no further than its reader, and closes the file being read when the reader goes away', async () => {
    const events: string[] = []
    const { stream } = zipOf([file('a.bin', Buffer.alloc(4 * 1024 * 1024, 1), events), file('b.bin', Buffer.alloc(16), events)])
    for await (const chunk of stream) {
      expect(chunk).toBeDefined()
      break
    }
    await expect.poll(() => events).toContain('close a.bin')
    expect(events).not.toContain('end a.bin')
    expect(events).not.toContain('open b.bin')
  })

  it('names files after their titles, safely, with the extension of their type, unique without regard to case', () => {
    expect(fileNameOf('  Summer: "final" v2  ', 'image/jpeg')).toBe('Summer- -final- v2.jpg')
    expect(fileNameOf('', 'image/webp')).toBe('untitled.webp')
    expect(fileNameOf('../../etc/passwd', 'image/png')).toBe('-..-etc-passwd.png')
    expect(zipNameOf('Q3/Q4 launch')).toBe('Q3-Q4 launch.zip')
    expect(uniqueNames(['a.png', 'A.png', 'a.png', 'a (2).png'])).toEqual(['a.png', 'A (2).png', 'a (3).png', 'a (2) (2).png'])
  })
})
