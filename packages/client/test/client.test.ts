import { createHash } from 'node:crypto'
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request as httpRequest } from 'node:http'
import { Readable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeImmichMl, type FakeImmichMl } from '../../../test/support/fake-immich-ml.js'
import { pushUntitledPictures } from '../../../test/support/fixtures.js'
import { startServer as startHttpServer, type TestServer } from '../../../test/support/http-server.js'
import { uniquePng } from '../../../test/support/images.js'
import { ApiError, createClient as createBrowserClient, type Asset, type ProblemCode, type ResponseInfo } from '../src/index.js'
import { createClient, type NodeAssetLibraryClient } from '../src/node.js'
import { seedOrganization } from '../../../test/support/app.js'
import { startServer, type RunningServer } from './server.js'

let server: RunningServer
let client: NodeAssetLibraryClient
let imageHost: TestServer
let hostedImage: Buffer
let scratch: string
const responses: ResponseInfo[] = []

beforeAll(async () => {
  server = await startServer({ OUTBOUND_ALLOWLIST: '127.0.0.1/32' })
  client = createClient({ baseUrl: server.url, apiKey: server.acme.writeKey, onResponse: (response) => responses.push(response) })
  hostedImage = await uniquePng()
  imageHost = await startHttpServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(hostedImage))
  scratch = await mkdtemp(join(tmpdir(), 'client-test-'))
})

afterAll(async () => {
  await imageHost?.close()
  await server?.close()
  await rm(scratch, { recursive: true, force: true })
})

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

describe('assets', () => {
  it('pushes bytes as multipart with every field, and the same bytes again as a duplicate', async () => {
    const image = await uniquePng()
    const pushed = await client.assets.push(image, {
      title: 'Spring banner',
      client: 'Initech',
      product: 'Widget',
      tag_names: ['brand', '[draft]'],
      source_url: 'https://example.com/spring',
      created_by_ai: false,
    })
    expect(pushed.duplicate).toBe(false)

    const asset = await client.assets.get(pushed.asset_id)
    expect(asset).toMatchObject({
      id: pushed.asset_id,
      title: 'Spring banner',
      client: 'Initech',
      product: 'Widget',
      source_url: 'https://example.com/spring',
      created_by_ai: false,
      sha256: sha256(image),
      mime_type: 'image/png',
    })
    expect([...asset.tags].sort()).toEqual(['[draft]', 'brand'])

    const again = await client.assets.push(new Blob([image]), { title: 'ignored' })
    expect(again).toEqual({ asset_id: pushed.asset_id, duplicate: true })
  })

  it('pushes from a web stream, a Node stream, a file path, a file: URL and an http URL the service fetches', async () => {
    const fromWebStream = await uniquePng()
    const fromNodeStream = await uniquePng()
    const fromPath = await uniquePng()
    const fromFileUrl = await uniquePng()
    const path = join(scratch, 'logo.png')
    const urlPath = join(scratch, 'mark.png')
    await writeFile(path, fromPath)
    await writeFile(urlPath, fromFileUrl)

    const pushes = [
      [fromWebStream, await client.assets.push(new Blob([fromWebStream]).stream(), { title: 'web stream' })],
      [fromNodeStream, await client.assets.push(Readable.from([fromNodeStream.subarray(0, 10), fromNodeStream.subarray(10)]), { title: 'node stream' })],
      [fromPath, await client.assets.push(path, { title: 'path' })],
      [fromFileUrl, await client.assets.push(pathToFileURL(urlPath), { title: 'file url' })],
      [hostedImage, await client.assets.push(new URL(`${imageHost.url}/hosted.png`), { title: 'fetched', tag_names: ['imported'] })],
    ] as const
    for (const [bytes, pushed] of pushes) {
      expect(pushed.duplicate).toBe(false)
      expect((await client.assets.get(pushed.asset_id)).sha256).toBe(sha256(bytes))
    }
    expect(imageHost.hits).toEqual(['/hosted.png'])
  })

  it('sends fields with quotes, commas and non-ASCII as they were, from a file whose name has a quote', async () => {
    const image = await uniquePng()
    const path = join(scratch, 'affiche "été".png')
    await writeFile(path, image)
    const pushed = await client.assets.push(path, { title: 'Café "Noël" ☕ – 2027', client: 'Müller & Söhne, GmbH', tag_names: ['été', 'a,b'] })
    const asset = await client.assets.get(pushed.asset_id)
    expect(asset).toMatchObject({ title: 'Café "Noël" ☕ – 2027', client: 'Müller & Söhne, GmbH', sha256: sha256(image) })
    expect([...asset.tags].sort()).toEqual(['a,b', 'été'])
  })

  it('refuses a missing file, a folder, a file over 25 MiB before any request, and a file: URL in the browser entry', async () => {
    const before = responses.length
    await expect(client.assets.push(join(scratch, 'missing.png'))).rejects.toMatchObject({ code: 'ENOENT' })
    await expect(client.assets.push(scratch)).rejects.toMatchObject({ code: 'EISDIR' })
    const huge = join(scratch, 'huge.png')
    await writeFile(huge, '')
    await truncate(huge, 25 * 1024 * 1024 + 1)
    await expect(client.assets.push(huge)).rejects.toThrow(/larger than 26214400 bytes/)
    const browser = createBrowserClient({ baseUrl: server.url, apiKey: server.acme.writeKey })
    await expect(browser.assets.push(pathToFileURL(join(scratch, 'logo.png')))).rejects.toThrow(/client\/node/)
    expect(responses.length).toBe(before)
  })

  it('lists with filters, and iterates every page by itself', async () => {
    const tag = 'paged'
    const ids: string[] = []
    for (let index = 0; index < 5; index++) ids.push((await client.assets.push(await uniquePng(), { title: `paged ${index}`, tag_names: [tag] })).asset_id)

    const page = await client.assets.list({ tag, limit: 2 })
    expect(page).toMatchObject({ total: 5, limit: 2, offset: 0 })
    expect(page.data).toHaveLength(2)

    const before = responses.length
    const seen: Asset[] = []
    for await (const asset of client.assets.iterate({ tag, limit: 2 })) seen.push(asset)
    expect(seen.map((asset) => asset.id).sort()).toEqual([...ids].sort())
    expect(responses.length - before).toBe(3)
  })

  it('iterates by cursor to the end of a full-text list whose total is an estimate, from an offset or a cursor', async () => {
    // Totals exact up to 1 here: four matches make an estimate, which may be below them.
    const estimating = await startServer({ LIST_EXACT_TOTAL_UP_TO: '1' })
    try {
      const own = createClient({ baseUrl: estimating.url, apiKey: estimating.acme.writeKey })
      const ids: string[] = []
      for (let index = 0; index < 4; index++) ids.push((await own.assets.push(await uniquePng(), { title: `Lighthouse ${index}` })).asset_id)
      const first = await own.assets.list({ q: 'lighthouse', sort: 'title', limit: 1 })
      expect(first).toMatchObject({ total_exact: false, next_cursor: expect.any(String) })
      const every: string[] = []
      for await (const asset of own.assets.iterate({ q: 'lighthouse', sort: 'title', limit: 1 })) every.push(asset.id)
      expect(every).toEqual(ids)
      const fromOffset: string[] = []
      for await (const asset of own.assets.iterate({ q: 'lighthouse', sort: 'title', limit: 1, offset: 1 })) fromOffset.push(asset.id)
      expect(fromOffset).toEqual(ids.slice(1))
      const fromCursor: string[] = []
      for await (const asset of own.assets.iterate({ q: 'lighthouse', sort: 'title', limit: 3, cursor: first.next_cursor! })) fromCursor.push(asset.id)
      expect(fromCursor).toEqual(ids.slice(1))
    } finally {
      await estimating.close()
    }
  })

  it('checks which hashes the library has, with a read key, in the cheap bucket', async () => {
    const image = await uniquePng()
    const { asset_id } = await client.assets.push(image)
    const absent = sha256(await uniquePng())
    const reader = createClient({ baseUrl: server.url, apiKey: server.acme.readKey })
    expect(await reader.assets.check([sha256(image), absent])).toEqual({ found: [{ sha256: sha256(image), asset_id }], missing: [absent] })
    expect(reader.rateLimit('cheap')).toMatchObject({ limit: 120 })

    const malformed = await rejection(reader.assets.check([absent, 'ABC']))
    expect(malformed).toMatchObject({ status: 400, code: 'validation_failed' })
    expect(malformed.fieldProblems.map((problem) => problem.pointer)).toEqual(['/sha256/1'])
  })

  it('updates, finds similar assets, and deletes', async () => {
    const { asset_id } = await client.assets.push(await uniquePng(), { title: 'Before', tag_names: ['old'] })
    const updated = await client.assets.update(asset_id, { title: 'After', tag_names: ['new'], client: null })
    expect(updated).toMatchObject({ id: asset_id, title: 'After', tags: ['new'], client: null })

    const similar = await client.assets.similar(asset_id, { limit: 5 })
    expect(similar).toMatchObject({ offset: 0 })
    expect(Array.isArray(similar.data)).toBe(true)

    expect(await client.assets.delete(asset_id)).toBeUndefined()
    const gone = await rejection(client.assets.get(asset_id))
    expect(gone).toMatchObject({ status: 404, code: 'not_found' })
  })
})

describe('versions and the trash', () => {
  // An organization of their own: its keys' buckets, so these pushes leave the other tests' limits alone.
  let client: NodeAssetLibraryClient
  beforeAll(async () => {
    const own = await seedOrganization(server.t.app, 'Versioned')
    client = createClient({ baseUrl: server.url, apiKey: own.writeKey })
  })

  it('uploads versions from bytes, a file path and a URL, lists them newest first, and restores an earlier one', async () => {
    const first = await uniquePng()
    const { asset_id: id } = await client.assets.push(first, { title: 'Logo' })
    const redrawn = await uniquePng()
    expect(await client.assets.pushVersion(id, redrawn)).toEqual({ asset_id: id, version: 2, duplicate: false })
    expect(await client.assets.pushVersion(id, redrawn)).toEqual({ asset_id: id, version: 2, duplicate: true })
    const path = join(scratch, 'logo-v3.png')
    const third = await uniquePng()
    await writeFile(path, third)
    expect(await client.assets.pushVersion(id, path)).toMatchObject({ version: 3, duplicate: false })
    const fetched = await uniquePng()
    const host = await startHttpServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(fetched))
    try {
      expect(await client.assets.pushVersion(id, new URL(`${host.url}/logo.png`))).toMatchObject({ version: 4, duplicate: false })
    } finally {
      await host.close()
    }

    const { data } = await client.assets.versions(id)
    expect(data.map((version) => [version.version, version.sha256])).toEqual([
      [4, sha256(fetched)],
      [3, sha256(third)],
      [2, sha256(redrawn)],
      [1, sha256(first)],
    ])
    expect(data[0]!.created_by).toEqual({ kind: 'key', name: expect.any(String) })

    expect(await client.assets.restoreVersion(id, 1)).toMatchObject({ asset_id: id, version: 5 })
    expect(await client.assets.get(id)).toMatchObject({ version: 5, sha256: sha256(first), title: 'Logo' })
    const other = await uniquePng()
    await client.assets.push(other)
    expect(await rejection(client.assets.pushVersion(id, other))).toMatchObject({ status: 409, code: 'content_belongs_to_other_asset' })
  })

  it('pushes by external_id: new bytes are the next version of its asset, found by the list filter, and PATCH clears it', async () => {
    const externalId = 'figma:FILE:1-23'
    const { asset_id: id } = await client.assets.push(await uniquePng(), { title: 'Frame', external_id: externalId })
    const again = await uniquePng()
    expect(await client.assets.push(again, { title: 'Frame, edited', external_id: externalId })).toEqual({ asset_id: id, duplicate: false, version: 2 })
    expect(await client.assets.push(again, { external_id: externalId })).toMatchObject({ asset_id: id, duplicate: true })
    expect((await client.assets.list({ external_id: externalId })).data.map((asset) => [asset.id, asset.title, asset.version])).toEqual([[id, 'Frame, edited', 2]])
    expect(await client.assets.update(id, { external_id: null })).toMatchObject({ id, external_id: null })
    expect((await client.assets.list({ external_id: externalId })).data).toEqual([])
  })

  it('lists, iterates, restores and purges the trash', async () => {
    const kept = await client.assets.push(await uniquePng(), { title: 'Kept', tag_names: ['binned'] })
    const purged = await client.assets.push(await uniquePng(), { title: 'Purged' })
    await client.assets.delete(kept.asset_id)
    await client.assets.delete(purged.asset_id)

    const page = await client.trash.list({ limit: 1 })
    expect(page).toMatchObject({ limit: 1, offset: 0 })
    expect(page.data[0]).toMatchObject({ id: purged.asset_id, deleted_by: { kind: 'key' } })
    const every: string[] = []
    for await (const asset of client.trash.iterate({ limit: 1 })) every.push(asset.id)
    expect(every.slice(0, 2)).toEqual([purged.asset_id, kept.asset_id])

    expect(await client.trash.restore(kept.asset_id)).toMatchObject({ id: kept.asset_id, title: 'Kept', tags: ['binned'] })
    expect(await client.assets.get(kept.asset_id)).toMatchObject({ title: 'Kept' })
    expect(await client.trash.purge(purged.asset_id)).toBeUndefined()
    expect(await rejection(client.trash.restore(purged.asset_id))).toMatchObject({ status: 404, code: 'not_found' })
  })
})

describe('search and the catalogue', () => {
  it('searches with filters', async () => {
    const { asset_id } = await client.assets.push(await uniquePng(), { title: 'Quarterly lighthouse poster', tag_names: ['poster'] })
    const result = await client.search({ q: 'lighthouse', tag: 'poster', limit: 5 })
    expect(result.mode).toBe('text')
    expect(result.data.map((hit) => hit.id)).toEqual([asset_id])
  })

  it('lists and iterates tags, asset types, clients and products', async () => {
    await client.assets.push(await uniquePng(), { client: 'Globex', product: 'Rocket', tag_names: ['catalogued'] })
    expect((await client.tags.list({ q: 'catalog' })).data.map((tag) => tag.name)).toEqual(['catalogued'])
    const tags: string[] = []
    for await (const tag of client.tags.iterate()) tags.push(tag.name)
    expect(tags).toContain('catalogued')
    expect(tags).toContain('brand')
    expect((await client.clients.list()).data.map((entry) => entry.name)).toContain('Globex')
    expect((await client.products.list()).data.map((entry) => entry.name)).toContain('Rocket')
    const types = await client.assetTypes.list()
    expect(types.total).toBe(types.data.length)
    const iterated: string[] = []
    for await (const type of client.assetTypes.iterate()) iterated.push(type.name)
    expect(iterated).toEqual(types.data.map((type) => type.name))
  })
})

describe.runIf(!process.env.TEST_DATABASE_URL)('search that sees the pictures (the fake Immich-ML service; pgvector: embedded only)', () => {
  let service: FakeImmichMl
  let seeing: RunningServer

  beforeAll(async () => {
    service = await startFakeImmichMl()
    seeing = await startServer({ IMAGE_EMBEDDING_PROVIDER: 'immich-ml', IMAGE_EMBEDDING_URL: service.url })
  })
  afterAll(async () => {
    await seeing?.close()
    await service?.close()
  })

  it('finds the untitled red picture first by what it shows, and its look-alike among the similar assets', async () => {
    const pictures = await pushUntitledPictures(seeing.t.app, seeing.acme.writeKey)
    const sdk = createClient({ baseUrl: seeing.url, apiKey: seeing.acme.readKey })
    const found = await sdk.search({ q: 'red', limit: 5 })
    expect(found.mode).toBe('hybrid')
    expect(found.data.slice(0, 2).map((hit) => [hit.id, hit.title])).toEqual([
      [pictures.red, 'IMG_0001'],
      [pictures.lookalike, 'IMG_0003'],
    ])
    expect((await sdk.assets.similar(pictures.red)).data[0]?.id).toBe(pictures.lookalike)
  })
})

describe('collections', () => {
  it('creates, lists, fills, pages, shares, renames and deletes a manual collection', async () => {
    const collection = await client.collections.create({ name: 'Launch', description: 'By hand' })
    expect(collection).toMatchObject({ name: 'Launch', kind: 'manual', asset_count: 0 })
    expect((await client.collections.list({ q: 'laun' })).data.map((entry) => entry.id)).toEqual([collection.id])
    const listed: string[] = []
    for await (const entry of client.collections.iterate({ kind: 'manual' })) listed.push(entry.id)
    expect(listed).toContain(collection.id)

    const ids: string[] = []
    for (let index = 0; index < 3; index++) ids.push((await client.assets.push(await uniquePng())).asset_id)
    expect(await client.collections.addAssets(collection.id, ids)).toEqual({ changed: 3, asset_count: 3 })
    expect(await client.collections.addAssets(collection.id, ids[0]!)).toEqual({ changed: 0, asset_count: 3 })

    const page = await client.collections.get(collection.id, { limit: 1 })
    expect(page).toMatchObject({ id: collection.id, asset_count: 3, assets: { total: 3, limit: 1 } })
    const members: string[] = []
    for await (const asset of client.collections.iterateAssets(collection.id, { limit: 2 })) members.push(asset.id)
    expect(members.sort()).toEqual([...ids].sort())
    const oldestFirst: string[] = []
    for await (const asset of client.collections.iterateAssets(collection.id, { limit: 2, sort: 'created_at' })) oldestFirst.push(asset.id)
    expect(oldestFirst).toEqual(ids)

    expect(await client.collections.removeAssets(collection.id, ids[0]!)).toEqual({ changed: 1, asset_count: 2 })

    const { share_url } = await client.collections.share(collection.id)
    expect(share_url).toMatch(/\/s\//)
    expect((await client.collections.get(collection.id)).shared).toBe(true)
    expect(await client.collections.unshare(collection.id)).toBeUndefined()
    expect((await client.collections.get(collection.id)).shared).toBe(false)

    expect(await client.collections.update(collection.id, { name: 'Launch 2' })).toMatchObject({ name: 'Launch 2' })
    expect(await client.collections.delete(collection.id)).toBeUndefined()
    expect(await rejection(client.collections.get(collection.id))).toMatchObject({ status: 404, code: 'not_found' })
    for (const id of ids.slice(1)) expect((await client.assets.get(id)).id).toBe(id)
  })

  it('refuses to add to a smart collection with a typed 409', async () => {
    const smart = await client.collections.create({ name: 'Posters', query: { tag: 'poster' } })
    const { asset_id } = await client.assets.push(await uniquePng())
    const error = await rejection(client.collections.addAssets(smart.id, asset_id))
    expect(error).toMatchObject({ status: 409, code: 'smart_collection_immutable', method: 'POST', path: `/api/v1/collections/${smart.id}/assets` })
  })
})

describe('idempotency', () => {
  /** Forwards to the server, but drops the connection instead of passing on the first answer: the work is done, the client never hears. */
  async function losingFirstAnswer(): Promise<TestServer> {
    let forwarded = 0
    return startHttpServer((incoming, outgoing) => {
      const first = ++forwarded === 1
      const upstream = httpRequest(`${server.url}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          if (first) return incoming.socket.destroy()
          outgoing.writeHead(answer.statusCode!, answer.headers).end(Buffer.concat(chunks))
        })
      })
      incoming.pipe(upstream)
    })
  }

  it('retries a push whose answer was lost and gets the first answer back, not a second asset', async () => {
    const proxy = await losingFirstAnswer()
    try {
      const seen: ResponseInfo[] = []
      const retrying = createClient({ baseUrl: proxy.url, apiKey: server.acme.writeKey, retryBaseDelayMs: 5, onResponse: (response) => seen.push(response) })
      const image = await uniquePng()
      const pushed = await retrying.assets.push(image, { title: 'Once', tag_names: ['once'] })
      expect(pushed.duplicate).toBe(false)
      expect(seen).toEqual([expect.objectContaining({ status: 201, attempt: 2, replayed: true })])
      expect((await client.assets.list({ tag: 'once' })).total).toBe(1)
    } finally {
      await proxy.close()
    }
  })

  it('answers a second call with the caller\'s key from the first, and refuses the key with another body', async () => {
    const key = `collection-${Date.now()}`
    const first = await client.collections.create({ name: 'Made once' }, { idempotencyKey: key })
    expect(await client.collections.create({ name: 'Made once' }, { idempotencyKey: key })).toEqual(first)
    expect(responses.at(-1)).toMatchObject({ status: 201, replayed: true })
    const reused = await rejection(client.collections.create({ name: 'Another' }, { idempotencyKey: key }))
    expect(reused).toMatchObject({ status: 422, code: 'idempotency_key_reused' })
  })
})

describe('keys, errors and limits', () => {
  it('describes the calling key', async () => {
    expect(await client.auth.key()).toMatchObject({ scope: 'assets:write' })
  })

  it('types bodies and codes from the OpenAPI document (checked by tsc)', () => {
    const code: ProblemCode = 'smart_collection_immutable'
    // @ts-expect-error not a code of the catalogue
    const unknown: ProblemCode = 'no_such_code'
    // @ts-expect-error not a field of the PATCH body
    const misspelt = () => client.assets.update('id', { titel: 'x' })
    expect([code, unknown, typeof misspelt]).toEqual(['smart_collection_immutable', 'no_such_code', 'function'])
  })

  it('gives the problem as a typed ApiError: code, detail and the fields at fault', async () => {
    const invalid = await rejection(client.assets.list({ limit: 0 }))
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' })
    expect(invalid.fieldProblems).toEqual([expect.objectContaining({ pointer: '/query/limit' })])
    expect(invalid.requestId).toBeTruthy()

    const reader = createClient({ baseUrl: server.url, apiKey: server.acme.readKey })
    const forbidden = await rejection(reader.assets.push(await uniquePng()))
    expect(forbidden).toMatchObject({ status: 403, code: 'insufficient_scope' })
    expect(forbidden.detail).toBeTruthy()

    const stranger = createClient({ baseUrl: server.url, apiKey: 'al_zzzzzzzz_notarealkeynotarealkeynotarealkeynotareal' })
    expect(await rejection(stranger.tags.list())).toMatchObject({ status: 401, code: 'invalid_api_key' })
  })

  it('remembers the rate-limit state of each bucket', async () => {
    await client.tags.list()
    const cheap = client.rateLimit('cheap')!
    expect(cheap).toMatchObject({ bucket: 'cheap', limit: 120 })
    expect(cheap.remaining).toBeLessThan(120)
    expect(cheap.resetAt).toBeGreaterThan(Date.now())
    await client.assets.push(await uniquePng())
    expect(client.rateLimit('expensive')).toMatchObject({ bucket: 'expensive', limit: 30 })
    expect(responses.at(-1)).toMatchObject({ method: 'POST', path: '/api/v1/assets', status: 201, bucket: 'expensive', attempt: 1, replayed: false })
  })

  it('revokes the calling key', async () => {
    const { token } = await server.t.app.services.keys.create({
      organizationId: server.acme.org.id,
      name: 'short-lived',
      scope: 'assets:read',
      expiresAt: null,
      createdBy: server.acme.owner.id,
    })
    const doomed = createClient({ baseUrl: server.url, apiKey: token })
    await doomed.auth.revoke()
    expect(await rejection(doomed.auth.key())).toMatchObject({ status: 401, code: 'invalid_api_key' })
  })
})
