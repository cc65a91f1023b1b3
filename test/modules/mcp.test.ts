import { randomBytes } from 'node:crypto'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, type Seeded, type TestApp } from '../support/app.js'
import { callApi, pushImage } from '../support/fixtures.js'
import { captureLogs } from '../support/logs.js'
import { startServed } from '../support/served.js'
import { uniquePng } from '../support/images.js'

const ALL_TOOLS = [
  'search_assets',
  'list_assets',
  'get_asset',
  'render_asset',
  'similar_assets',
  'find_duplicates',
  'list_collections',
  'get_collection',
  'list_tags',
  'list_asset_types',
  'list_clients',
  'list_products',
  'list_trash',
  'push_asset',
  'update_asset',
  'update_assets',
  'restore_asset',
  'create_collection',
  'add_to_collection',
  'import_from_figma',
  'get_import',
]
const WRITE_TOOLS = ['push_asset', 'update_asset', 'update_assets', 'restore_asset', 'create_collection', 'add_to_collection', 'import_from_figma']

const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

/** The official SDK's client over Streamable HTTP, with the key as its bearer token. */
async function connect(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'asset-library-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${key}` } } })
  await client.connect(transport)
  clients.push(client)
  return client
}

type Result = CallToolResult & { structuredContent?: Record<string, unknown> }

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result
}

/** A successful call: its structured content, which its text content renders. */
async function ok<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await call(client, name, args)
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent)
  return result.structuredContent as T
}

/** A failed call: a tool error (not a JSON-RPC error), its text. */
async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, args)
  expect(result.isError, JSON.stringify(result)).toBe(true)
  expect(result.structuredContent).toBeUndefined()
  return (result.content[0] as { text: string }).text
}

describe('the MCP server', () => {
  let served: Awaited<ReturnType<typeof startServed>>
  let t: TestApp
  let acme: Seeded
  let globex: Seeded
  const logs = captureLogs()
  const assetTotal = async (seeded = acme) =>
    (await callApi(t.app, seeded.readKey, 'GET', '/api/v1/assets?limit=1')).json<{ total: number }>().total

  beforeAll(async () => {
    served = await startServed({ env: { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_CHEAP: '10000', RATE_LIMIT_STANDARD: '10000' }, logger: logs.logger })
    ;({ t, acme, globex } = served)
  })
  afterAll(() => served.close())

  describe('tools/list', () => {
    it('lists every tool to a write key, each with a title, a description, schemas and its hints', async () => {
      const { tools } = await (await connect(served.url, acme.writeKey)).listTools()
      expect(tools.map((tool) => tool.name).sort()).toEqual([...ALL_TOOLS].sort())
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy()
        expect(tool.description!.length, tool.name).toBeGreaterThan(40)
        expect(tool.inputSchema.type, tool.name).toBe('object')
        expect(tool.outputSchema?.type, tool.name).toBe('object')
        const write = WRITE_TOOLS.includes(tool.name)
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(!write)
        if (write) {
          expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean')
          expect(typeof tool.annotations?.idempotentHint, tool.name).toBe('boolean')
        }
      }
      const byName = new Map(tools.map((tool) => [tool.name, tool]))
      expect(byName.get('update_asset')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true })
      expect(byName.get('create_collection')!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false })
      // The contract's argument names, in the API's own field names.
      expect(Object.keys(byName.get('search_assets')!.inputSchema.properties!)).toEqual(expect.arrayContaining(['q', 'limit', 'asset_type', 'client', 'product', 'tag']))
      expect(Object.keys(byName.get('list_assets')!.inputSchema.properties!)).toEqual(expect.arrayContaining(['tag', 'q', 'limit', 'offset']))
      expect(Object.keys(byName.get('push_asset')!.inputSchema.properties!)).toEqual(expect.arrayContaining(['image_url', 'image_base64', 'title', 'tag_names', 'collection_name']))
      expect(Object.keys(byName.get('add_to_collection')!.inputSchema.properties!).sort()).toEqual(['asset_id', 'asset_ids', 'collection_id'])
    })

    it('lists no write tool to a read key', async () => {
      const { tools } = await (await connect(served.url, acme.readKey)).listTools()
      expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS.filter((name) => !WRITE_TOOLS.includes(name)).sort())
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true)
    })

    it('refuses a connection without a valid key', async () => {
      await expect(connect(served.url, 'al_nope_nope')).rejects.toThrow(/401/)
    })
  })

  describe('each tool, called once', () => {
    it('pushes, finds, shows, changes and collects an asset', async () => {
      const client = await connect(served.url, acme.writeKey)
      const image = await uniquePng(64, 48)
      const fields = { title: 'Blue mountain poster', client: 'Initech', product: 'Stapler', tag_names: ['mountain', 'poster'] }

      const pushed = await ok<{ asset_id: string; duplicate: boolean }>(client, 'push_asset', { image_base64: image.toString('base64'), ...fields })
      expect(pushed.duplicate).toBe(false)
      expect(await ok(client, 'push_asset', { image_base64: image.toString('base64') })).toEqual({ asset_id: pushed.asset_id, duplicate: true })
      const id = pushed.asset_id

      const listed = await ok<{ data: Array<Record<string, unknown>>; total: number; next_offset: number | null }>(client, 'list_assets', { tag: 'mountain' })
      expect(listed).toMatchObject({ total: 1, next_offset: null })
      expect(Object.keys(listed.data[0]!).sort()).toEqual(['asset_type', 'client', 'created_at', 'height', 'id', 'product', 'tags', 'thumbnail_url', 'title', 'width'])
      expect(listed.data[0]).toMatchObject({ id, title: fields.title, client: 'Initech', width: 64, height: 48 })

      const found = await ok<{ mode: string; data: Array<{ id: string; score: number }> }>(client, 'search_assets', { q: 'mountain', limit: 5 })
      expect(found.mode).toBe('text')
      expect(found.data.map((hit) => hit.id)).toEqual([id])
      expect(found.data[0]!.score).toBeGreaterThan(0)

      expect(await ok(client, 'similar_assets', { id, limit: 3 })).toEqual({ data: [] })

      const updated = await ok<{ title: string; tags: string[] }>(client, 'update_asset', { id, title: 'Blue mountain', tag_names: ['mountain'], asset_type: null })
      expect(updated).toMatchObject({ id, title: 'Blue mountain', tags: ['mountain'] })

      const collection = await ok<{ id: string; kind: string }>(client, 'create_collection', { name: 'Mountains', description: 'Peaks' })
      expect(collection.kind).toBe('manual')
      expect(await ok(client, 'add_to_collection', { collection_id: collection.id, asset_id: id })).toEqual({ changed: 1, asset_count: 1 })
      const held = await ok<{ name: string; assets: { data: Array<{ id: string }>; total: number; next_offset: null } }>(client, 'get_collection', { id: collection.id })
      expect(held).toMatchObject({ name: 'Mountains', assets: { total: 1, next_offset: null } })
      expect(held.assets.data.map((asset) => asset.id)).toEqual([id])
      const collections = await ok<{ data: Array<{ id: string }> }>(client, 'list_collections', { kind: 'manual' })
      expect(collections.data.map((entry) => entry.id)).toContain(collection.id)

      expect((await ok<{ data: unknown[] }>(client, 'list_tags', { q: 'moun' })).data).toEqual([{ name: 'mountain', asset_count: 1 }])
      expect((await ok<{ data: Array<{ name: string }> }>(client, 'list_asset_types')).data.length).toBeGreaterThan(0)
      expect((await ok<{ data: unknown[] }>(client, 'list_clients')).data).toEqual([{ name: 'Initech', registered: false, asset_count: 1 }])
      expect((await ok<{ data: unknown[] }>(client, 'list_products')).data).toEqual([{ name: 'Stapler', registered: false, asset_count: 1 }])
    })

    it('get_asset answers the record, the image sized for a model (longest side 1024) as image content, and a link to the original', async () => {
      const { id, image } = await pushImage(t.app, acme.writeKey, { title: 'Wide banner' }, await uniquePng(1200, 300))
      const result = await call(await connect(served.url, acme.readKey), 'get_asset', { id })
      expect(result.isError).toBeFalsy()
      const record = result.structuredContent as { id: string; original_url: string; byte_size: number }
      expect(record).toMatchObject({ id, title: 'Wide banner', width: 1200, height: 300, byte_size: image.length })

      const picture = result.content.find((block) => block.type === 'image')!
      expect(picture.mimeType).toBe('image/webp')
      const thumbnail = Buffer.from(picture.data, 'base64')
      expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 1024, height: 256 })

      const link = result.content.find((block) => block.type === 'resource_link')!
      expect(link.uri).toBe(record.original_url)
      const original = await fetch(link.uri)
      expect(original.status).toBe(200)
      expect(Buffer.from(await original.arrayBuffer()).equals(image)).toBe(true)
    })

    it('render_asset answers a signed link at the size and format asked, or a preset\u2019s; nonsense is an argument error', async () => {
      const { id } = await pushImage(t.app, acme.writeKey, { title: 'Square' }, await uniquePng(400, 400))
      const client = await connect(served.url, acme.readKey)
      const link = await ok<{ url: string; width: number; height: number; format: string }>(client, 'render_asset', { id, width: 200, format: 'jpeg' })
      expect(link).toMatchObject({ width: 200, height: 200, format: 'jpeg' })
      expect(link.url).toContain(`/files/assets/${id}/versions/1/renditions/w200-contain-q80.jpeg?`)
      const file = await fetch(link.url)
      expect(file.status).toBe(200)
      expect(await sharp(Buffer.from(await file.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 200, height: 200 })
      expect(await ok(client, 'render_asset', { id, preset: 'thumbnail' })).toMatchObject({ width: 400, height: 400, format: 'webp' })
      expect(await toolError(client, 'render_asset', { id, format: 'gif' })).toMatch(/^- format: /m)
    })

    it('update_assets edits many assets in one call and answers each id, another organization\u2019s as not found', async () => {
      const client = await connect(served.url, acme.writeKey)
      const mine = [await pushImage(t.app, acme.writeKey, { tag_names: ['draft'] }), await pushImage(t.app, acme.writeKey, { client: 'Umbrella' })]
      const theirs = await pushImage(t.app, globex.writeKey, { tag_names: ['draft'] })
      const ids = [...mine.map((asset) => asset.id), theirs.id]
      const answer = await ok<{ results: Array<{ id: string; result: string; reason?: string }> }>(client, 'update_assets', { ids, set: { client: 'Umbrella' }, remove_tags: ['draft'] })
      expect(answer.results.map(({ id, result }) => [id, result])).toEqual([
        [ids[0], 'updated'],
        [ids[1], 'unchanged'],
        [ids[2], 'not_found'],
      ])
      expect(answer.results[2]!.reason).toBeTruthy()
      expect(await ok(client, 'get_asset', { id: ids[0] })).toMatchObject({ client: 'Umbrella', tags: [] })
      expect(await toolError(client, 'update_assets', { ids })).toContain('400 validation_failed')
    })

    it('lists the trash and restores an asset from it, as it was', async () => {
      const { id } = await pushImage(t.app, acme.writeKey, { title: 'Binned banner', tag_names: ['binned'] })
      expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${id}`)).statusCode).toBe(204)
      const reader = await connect(served.url, acme.readKey)
      const trash = await ok<{ data: Array<Record<string, unknown>>; total: number; next_offset: number | null }>(reader, 'list_trash', { limit: 100 })
      const listed = trash.data.find((asset) => asset.id === id)
      expect(listed).toMatchObject({ title: 'Binned banner', tags: ['binned'], deleted_by: { kind: 'key', name: 'assets:write' } })
      expect(Object.keys(listed!).sort()).toEqual(['asset_type', 'client', 'created_at', 'deleted_at', 'deleted_by', 'height', 'id', 'product', 'purge_at', 'tags', 'thumbnail_url', 'title', 'width'])
      expect(Date.parse(String(listed!.purge_at))).toBeGreaterThan(Date.parse(String(listed!.deleted_at)))

      const restored = await ok<Record<string, unknown>>(await connect(served.url, acme.writeKey), 'restore_asset', { id })
      expect(restored).toMatchObject({ id, title: 'Binned banner', tags: ['binned'], version: 1 })
      expect((await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${id}`)).statusCode).toBe(200)
      expect((await ok<{ data: Array<{ id: string }> }>(reader, 'list_trash', { limit: 100 })).data.map((asset) => asset.id)).not.toContain(id)
      expect(await toolError(await connect(served.url, acme.writeKey), 'restore_asset', { id })).toContain('404 not_found')
      expect(await toolError(reader, 'restore_asset', { id })).toContain('403 insufficient_scope')
    })

    it('pages a list with next_offset or next_cursor', async () => {
      const client = await connect(served.url, globex.writeKey)
      for (let i = 0; i < 3; i++) await pushImage(t.app, globex.writeKey, { tag_names: ['paged'] })
      type Listed = { data: Array<{ id: string }>; total: number; next_offset: number | null; next_cursor: string | null }
      const first = await ok<Listed>(client, 'list_assets', { tag: 'paged', limit: 2 })
      expect(first).toMatchObject({ total: 3, total_exact: true, next_offset: 2, next_cursor: expect.any(String) })
      const second = await ok<Listed>(client, 'list_assets', { tag: 'paged', limit: 2, offset: first.next_offset })
      expect(second).toMatchObject({ next_offset: null, next_cursor: null })
      expect(new Set([...first.data, ...second.data].map((asset) => asset.id)).size).toBe(3)
      expect(await ok<Listed>(client, 'list_assets', { tag: 'paged', limit: 2, cursor: first.next_cursor })).toEqual(second)
      expect(await toolError(client, 'list_assets', { limit: 2, cursor: first.next_cursor })).toContain('400 invalid_cursor')
    })

    it('says when list_assets’s total, or a collection’s, is an estimate, as the REST lists do', async () => {
      const estimating = await startServed({ env: { LIST_EXACT_TOTAL_UP_TO: '3' } })
      try {
        for (let i = 0; i < 5; i++) await pushImage(estimating.t.app, estimating.acme.writeKey, { title: `Lighthouse ${i}` })
        const client = await connect(estimating.url, estimating.acme.readKey)
        const many = await ok<{ total: number; total_exact: boolean }>(client, 'list_assets', { q: 'lighthouse', limit: 2 })
        expect(many.total_exact).toBe(false)
        expect(many.total).toBeGreaterThan(3)
        // The next page follows the cursor, not the estimated total.
        expect(many).toMatchObject({ next_offset: 2, next_cursor: expect.any(String) })
        expect(await ok(client, 'list_assets', { limit: 2 })).toMatchObject({ total: 5, total_exact: true })
        const smart = await callApi(estimating.t.app, estimating.acme.writeKey, 'POST', '/api/v1/collections', { name: 'Lights', kind: 'smart', query: { q: 'lighthouse' } })
        expect(smart.statusCode, smart.body).toBe(201)
        const collection = await ok<{ assets: { total_exact: boolean } }>(client, 'get_collection', { id: smart.json().id, limit: 2 })
        expect(collection.assets.total_exact).toBe(false)
      } finally {
        await estimating.close()
      }
    })
  })

  describe('failures are tool errors, and nothing is half-written', () => {
    it('refuses a write tool on a read key with the scope problem', async () => {
      const before = await assetTotal()
      const text = await toolError(await connect(served.url, acme.readKey), 'push_asset', { image_base64: (await uniquePng()).toString('base64') })
      expect(text).toContain('403 insufficient_scope')
      expect(text).toContain('assets:write')
      expect(await assetTotal()).toBe(before)
    })

    it('answers another organization\u2019s id as not found, and changes nothing there', async () => {
      const theirs = await pushImage(t.app, globex.writeKey, { title: 'Globex secret' })
      const client = await connect(served.url, acme.writeKey)
      expect(await toolError(client, 'get_asset', { id: theirs.id })).toContain('404 not_found')
      expect(await toolError(client, 'update_asset', { id: theirs.id, title: 'Mine now' })).toContain('404 not_found')
      expect(await toolError(client, 'similar_assets', { id: theirs.id })).toContain('404 not_found')
      const res = await callApi(t.app, globex.readKey, 'GET', `/api/v1/assets/${theirs.id}`)
      expect(res.json()).toMatchObject({ title: 'Globex secret' })
    })

    it('refuses adding to a smart collection with the REST problem', async () => {
      const client = await connect(served.url, acme.writeKey)
      const smart = await ok<{ id: string }>(client, 'create_collection', { name: 'All posters', kind: 'smart', query: { tag: 'poster' } })
      const { id } = await pushImage(t.app, acme.writeKey)
      const text = await toolError(client, 'add_to_collection', { collection_id: smart.id, asset_ids: [id] })
      expect(text).toContain('409 smart_collection_immutable')
      expect(await ok(client, 'get_collection', { id: smart.id })).toMatchObject({ asset_count: 0 })
    })

    it.each([
      ['the loopback address', 'http://127.0.0.1:9/logo.png'],
      ['a private address', 'http://10.0.0.1/logo.png'],
    ])('refuses an image_url to %s with the outbound guard\u2019s problem', async (_label, imageUrl) => {
      const before = await assetTotal()
      const text = await toolError(await connect(served.url, acme.writeKey), 'push_asset', { image_url: imageUrl })
      expect(text).toContain('image_fetch_blocked')
      expect(await assetTotal()).toBe(before)
    })

    it('names each bad argument, under the tool\u2019s own argument names', async () => {
      const client = await connect(served.url, acme.writeKey)
      expect(await toolError(client, 'list_assets', { limit: 0 })).toMatch(/^- limit: must be >= 1$/m)
      expect(await toolError(client, 'get_asset', { id: 'not-a-uuid' })).toMatch(/^- id: /m)
      expect(await toolError(client, 'add_to_collection', { collection_id: 'nope', asset_id: randomUuid() })).toMatch(/^- collection_id: /m)
      expect(await toolError(client, 'update_asset', { id: randomUuid(), tag_names: 'not a list' })).toMatch(/^- tag_names: /m)
      const names = await toolError(client, 'get_asset', { id: randomUuid(), colour: 'red' })
      expect(names).toContain('Invalid arguments for get_asset (it takes id):\n- colour: is not a known field')
      expect(await toolError(client, 'get_collection', {})).toContain('- id: is required')
      expect(await toolError(client, 'push_asset', { title: 'No image' })).toContain('exactly one of image_url and image_base64')
    })

    it('checks arguments against the tool\u2019s own schema as JSON, coercing nothing, before the endpoint reads them as text', async () => {
      const client = await connect(served.url, acme.writeKey)
      const text = await toolError(client, 'list_assets', { client: { a: 1 }, limit: null })
      expect(text).toBe('Invalid arguments for list_assets (it takes asset_type, client, product, tag, tag_prefix, q, color, provenance, external_id, sort, limit, offset, cursor):\n- client: must be a string\n- limit: must be an integer')
      expect(await toolError(client, 'list_tags', { limit: '5' })).toContain('- limit: must be an integer')
      expect(await toolError(client, 'get_collection', { id: randomUuid(), offset: true })).toContain('- offset: must be an integer')
      expect(await toolError(client, 'search_assets', { q: ['poster'] })).toContain('- q: must be a string')
    })

    it('says what a person must change when a call fits none of the shapes the endpoint takes, creating nothing', async () => {
      const client = await connect(served.url, acme.writeKey)
      const listed = async () => (await ok<{ total: number }>(client, 'list_collections', {})).total
      const before = await listed()
      const smart = await toolError(client, 'create_collection', { name: 'Half smart', kind: 'smart' })
      expect(smart).toBe('Validation failed (400 validation_failed): The request is not valid.\n- query: is required for a smart collection')
      expect(await toolError(client, 'create_collection', { name: 'Half manual', kind: 'manual', query: { tag: 'x' } })).toContain('- query: is not a field of a manual collection')
      expect(await toolError(client, 'create_collection', { name: 'Wrong filter', kind: 'smart', query: { tag: 5 } })).toContain('- query/tag: must be a string')
      const collection = await ok<{ id: string }>(client, 'create_collection', { name: 'Empty for now' })
      expect(await toolError(client, 'add_to_collection', { collection_id: collection.id })).toContain('- arguments: must be one asset (asset_id) or up to 100 assets (asset_ids)')
      expect(await listed()).toBe(before + 1)
    })

    it('answers an unknown tool with a JSON-RPC invalid-params error, and the session goes on', async () => {
      const client = await connect(served.url, acme.writeKey)
      const refusal = call(client, 'delete_everything')
      await expect(refusal).rejects.toBeInstanceOf(McpError)
      await expect(refusal).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: 'MCP error -32602: Unknown tool: delete_everything. tools/list names the tools this key may call.' })
      expect((await client.listTools()).tools).toHaveLength(ALL_TOOLS.length)
    })

    it('refuses an argument over its schema\u2019s limit as a tool error before the call is made, changing nothing', async () => {
      const { id } = await pushImage(t.app, acme.writeKey, { title: 'Kept' })
      const text = await toolError(await connect(served.url, acme.writeKey), 'update_asset', { id, title: 'x'.repeat(1024 * 1024) })
      expect(text).toMatch(/^- title: must NOT have more than 500 characters$/m)
      expect((await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${id}`)).json()).toMatchObject({ title: 'Kept' })
    })

    // 35 MB of base64 is read by the SDK's client, the transport and the endpoint in turn: seconds each
    // when the machine's two cores are busy with other test files.
    it('refuses an image over the 25 MiB push cap as a tool error, storing nothing', { timeout: 120_000 }, async () => {
      const before = await assetTotal()
      const tooBig = randomBytes(25 * 1024 * 1024 + 1).toString('base64')
      const text = await toolError(await connect(served.url, acme.writeKey), 'push_asset', { image_base64: tooBig })
      expect(text).toContain('413 image_too_large')
      expect(await assetTotal()).toBe(before)
    })
  })

  describe('the HTTP endpoint', () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${served.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${acme.writeKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
      })

    it.each([
      ['JSON that does not parse', '{"jsonrpc": "2.0", "method": '],
      ['JSON that is not a JSON-RPC message', '{"hello": "world"}'],
      ['an empty body', ''],
    ])('answers %s with a JSON-RPC parse error, HTTP 400', async (_label, body) => {
      const res = await post(body)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError } })
    })

    const request = (method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 7, method, ...(params !== undefined && { params }) })
    const invalidParams = (message: string) => ({ jsonrpc: '2.0', id: 7, error: { code: ErrorCode.InvalidParams, message } })

    it.each([
      ['params missing', request('tools/call'), 'Invalid params for tools/call: `params` is required.'],
      ['params null', request('tools/call', null), 'Invalid params for tools/call: `params` must be an object, not null.'],
      ['name missing', request('tools/call', { arguments: {} }), 'Invalid params for tools/call: `name` is required.'],
      ['name a number', request('tools/call', { name: 5 }), 'Invalid params for tools/call: `name` must be a string, not a number.'],
      ['arguments an array', request('tools/call', { name: 'list_tags', arguments: [] }), 'Invalid params for tools/call: `arguments` must be an object, not an array.'],
      ['arguments a string', request('tools/call', { name: 'list_tags', arguments: 'q' }), 'Invalid params for tools/call: `arguments` must be an object, not a string.'],
      ['arguments null', request('tools/call', { name: 'list_tags', arguments: null }), 'Invalid params for tools/call: `arguments` must be an object, not null.'],
      [
        'initialize with a number for protocolVersion',
        request('initialize', { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'fuzzer', version: '1' } }),
        'Invalid params for initialize: `protocolVersion` must be a string, not a number.',
      ],
    ])('answers tools/call or initialize with %s as invalid params, in one sentence', async (_label, body, message) => {
      const res = await post(body)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(invalidParams(message))
    })

    it('answers a refused request of a batch beside the others\u2019 answers', async () => {
      const res = await post(`[${request('tools/call', { name: 5 })}, {"jsonrpc": "2.0", "id": 8, "method": "tools/list"}]`)
      expect(res.status).toBe(200)
      const [refused, listed] = (await res.json()) as [unknown, { id: number; result: { tools: unknown[] } }]
      expect(refused).toEqual(invalidParams('Invalid params for tools/call: `name` must be a string, not a number.'))
      expect(listed.id).toBe(8)
      expect(listed.result.tools).toHaveLength(ALL_TOOLS.length)
    })

    it('answers an unknown tool with its message once, without the SDK\u2019s prefix in it', async () => {
      const res = await post(request('tools/call', { name: 'delete_everything', arguments: {} }))
      expect(await res.json()).toEqual(invalidParams('Unknown tool: delete_everything. tools/list names the tools this key may call.'))
    })

    // What overflowed the stack at 5,000 levels: String() of nested arrays for a GET tool's query, JSON.stringify of a body.
    const nested = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`
    it.each([
      ['list_tags', `{"q": ${nested(5000)}}`],
      ['search_assets', `{"q": ${nested(5000)}}`],
      ['update_asset', `{"id": "${randomUuid()}", "tag_names": ${nested(5000)}}`],
    ])('refuses %s with arguments nested 5,000 deep as invalid params, before anything walks them', async (name, args) => {
      const res = await post(`{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "${name}", "arguments": ${args}}}`)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(invalidParams('Invalid params: the message nests arrays or objects deeper than 32 levels.'))
      expect(logs.text()).not.toMatch(/Maximum call stack|RangeError/)
    })

    it('answers a lone tools/list with no handshake before it, as the README shows', async () => {
      const res = await post('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('application/json')
      const body = (await res.json()) as { result: { tools: unknown[] } }
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } })
      expect(body.result.tools).toHaveLength(ALL_TOOLS.length)
    })

    it('refuses a body over the route\u2019s limit with 413 before reading it', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { authorization: `Bearer ${acme.writeKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'push_asset', arguments: { image_base64: 'A'.repeat(41 * 1024 * 1024) } } }),
      })
      expect(res.statusCode).toBe(413)
      expect(res.json()).toMatchObject({ code: 'body_too_large' })
    })

    it('answers GET and DELETE with 405, as a stateless server', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${served.url}/mcp`, { method, headers: { authorization: `Bearer ${acme.readKey}`, accept: 'text/event-stream' } })
        expect(res.status, method).toBe(405)
        expect(res.headers.get('allow')).toBe('POST')
        expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } })
      }
    })

    it('refuses a request without a key with 401 and WWW-Authenticate', async () => {
      const res = await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { authorization: '' })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toContain('Bearer')
    })
  })
})

describe('the MCP server\u2019s limits', () => {
  let served: Awaited<ReturnType<typeof startServed>>
  beforeAll(async () => {
    served = await startServed({ env: { RATE_LIMIT_CHEAP: '3', RATE_LIMIT_EXPENSIVE: '1' } })
  })
  afterAll(() => served.close())

  it('counts each tool call in its endpoint\u2019s bucket, shared with REST, and the MCP exchange itself in none', async () => {
    const seeded = await seedOrganization(served.t.app, 'Limited')
    const client = await connect(served.url, seeded.readKey)
    for (let i = 0; i < 5; i++) await client.listTools()
    for (let i = 0; i < 3; i++) await ok(client, 'list_tags')
    const refused = await toolError(client, 'list_tags', {})
    expect(refused).toContain('429 rate_limited')
    expect(refused).toMatch(/retry in \d+ seconds/)
    expect((await callApi(served.t.app, seeded.readKey, 'GET', '/api/v1/tags')).statusCode).toBe(429)
    // The expensive bucket is another count: one search still passes, the second does not.
    await ok(client, 'search_assets', { q: 'anything' })
    expect(await toolError(client, 'search_assets', { q: 'anything' })).toContain('429 rate_limited')
  })
})

function randomUuid(): string {
  return '0193a5b2-7c1e-7d3a-9f10-' + randomBytes(6).toString('hex')
}
