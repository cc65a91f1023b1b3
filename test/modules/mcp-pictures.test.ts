import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { drainDerivations, type Seeded, type TestApp } from '../support/app.js'
import { startFakeImmichMl, type FakeImmichMl } from '../support/fake-immich-ml.js'
import { pushImage, pushUntitledPictures } from '../support/fixtures.js'
import { scenePng } from '../support/scenes.js'
import { solidPng } from '../support/images.js'
import { startServed } from '../support/served.js'

/** What MCP offers of issue 36: find_duplicates, similar_assets by appearance, the colour and provenance filters. */

let served: Awaited<ReturnType<typeof startServed>>
let t: TestApp
let acme: Seeded
let globex: Seeded
const clients: Client[] = []

beforeAll(async () => {
  served = await startServed()
  ;({ t, acme, globex } = served)
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})
afterAll(() => served?.close())

async function connect(key: string, url = served.url): Promise<Client> {
  const client = new Client({ name: 'asset-library-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
  clients.push(client)
  return client
}

type Result = CallToolResult & { structuredContent?: Record<string, unknown> }

async function ok<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as Result
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
  return result.structuredContent as T
}

interface Summary {
  id: string
  title: string
  distance?: number
}

describe('MCP and what the picture shows', () => {
  let original: string
  let copy: string
  let red: string

  beforeAll(async () => {
    const scene = await scenePng(7)
    original = (await pushImage(t.app, acme.writeKey, { title: 'Poster' }, scene)).id
    copy = (await pushImage(t.app, acme.writeKey, { title: 'Poster, as JPEG' }, await sharp(scene).jpeg({ quality: 80 }).toBuffer())).id
    red = (await pushImage(t.app, acme.writeKey, { title: 'Red square' }, await solidPng(40, 40, '#e02020'))).id
    await pushImage(t.app, globex.writeKey, { title: 'Poster at Globex' }, scene)
    await drainDerivations(t.app)
  })

  it('find_duplicates lists the group of a picture and its re-encoded copy, with the distance, and only the caller\u2019s', async () => {
    const groups = await ok<{ data: Array<{ asset: Summary; duplicates: Array<{ distance: number; asset: Summary }> }>; total: number; next_offset: number | null }>(
      await connect(acme.readKey),
      'find_duplicates',
      {},
    )
    expect(groups.total).toBe(1)
    expect(groups.next_offset).toBeNull()
    expect(groups.data[0]!.asset).toMatchObject({ id: original, title: 'Poster' })
    expect(groups.data[0]!.duplicates).toEqual([{ distance: expect.any(Number), asset: expect.objectContaining({ id: copy, title: 'Poster, as JPEG' }) }])
    expect(groups.data[0]!.duplicates[0]!.distance).toBeLessThanOrEqual(6)
  })

  it('similar_assets by appearance answers distances without AI; by meaning stays empty with AI off', async () => {
    const client = await connect(acme.readKey)
    const lookalikes = await ok<{ data: Summary[] }>(client, 'similar_assets', { id: original, by: 'appearance' })
    expect(lookalikes.data).toEqual([expect.objectContaining({ id: copy, distance: expect.any(Number) })])
    expect(await ok(client, 'similar_assets', { id: original })).toEqual({ data: [] })
  })

  it('search_assets and list_assets filter by colour and provenance', async () => {
    const client = await connect(acme.readKey)
    const searched = await ok<{ data: Summary[] }>(client, 'search_assets', { q: 'square', color: 'red' })
    expect(searched.data.map((hit) => hit.id)).toEqual([red])
    expect((await ok<{ data: Summary[] }>(client, 'search_assets', { q: 'square', color: 'blue' })).data).toEqual([])
    const listed = await ok<{ data: Summary[] }>(client, 'list_assets', { color: 'red' })
    expect(listed.data.map((asset) => asset.id)).toEqual([red])
    const unknown = await ok<{ data: Summary[] }>(client, 'list_assets', { provenance: 'unknown' })
    expect(unknown.data.map((asset) => asset.id).sort()).toEqual([original, copy, red].sort())
    const refused = (await client.callTool({ name: 'list_assets', arguments: { color: 'mauve' } })) as Result
    expect(refused.isError).toBe(true)
  })
})

describe.runIf(!process.env.TEST_DATABASE_URL)('MCP finds untitled pictures by what they show (the fake Immich-ML service; pgvector: embedded only)', () => {
  let service: FakeImmichMl
  let seeing: Awaited<ReturnType<typeof startServed>>
  let pictures: Awaited<ReturnType<typeof pushUntitledPictures>>

  beforeAll(async () => {
    service = await startFakeImmichMl()
    seeing = await startServed({ env: { IMAGE_EMBEDDING_PROVIDER: 'immich-ml', IMAGE_EMBEDDING_URL: service.url } })
    pictures = await pushUntitledPictures(seeing.t.app, seeing.acme.writeKey)
  })
  afterAll(async () => {
    await seeing?.close()
    await service?.close()
  })

  it('search_assets "red" answers the red picture first, in hybrid mode; similar_assets by meaning answers its look-alike', async () => {
    const client = await connect(seeing.acme.readKey, seeing.url)
    const found = await ok<{ mode: string; data: Summary[] }>(client, 'search_assets', { q: 'red' })
    expect(found.mode).toBe('hybrid')
    expect(found.data.slice(0, 2).map((hit) => hit.id)).toEqual([pictures.red, pictures.lookalike])
    expect(service.predictions.at(-1)).toMatchObject({ kind: 'text', text: 'red' })
    const similar = await ok<{ data: Array<Summary & { semantic_score: number }> }>(client, 'similar_assets', { id: pictures.red })
    expect(similar.data[0]).toMatchObject({ id: pictures.lookalike, title: 'IMG_0003' })
    expect(similar.data[0]!.semantic_score).toBeGreaterThan(similar.data.find((hit) => hit.id === pictures.blue)?.semantic_score ?? 0)
  })
})
