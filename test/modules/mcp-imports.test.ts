import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ImportRecord } from '../../src/modules/imports/schemas.js'
import { seedOrganization, type Seeded, type TestApp } from '../support/app.js'
import { callApi } from '../support/fixtures.js'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { createImport, FIGMA_TOKEN, figmaLink, IMPORT_TEST_ENV, importEnded } from '../support/imports.js'
import { startServed } from '../support/served.js'
import { loginOwner } from '../support/sessions.js'

/** MCP's import_from_figma and get_import (issue 35), through the official SDK's client, against the fake Figma. */

let fake: FakeFigma
let served: Awaited<ReturnType<typeof startServed>>
let t: TestApp
let acme: Seeded
let globex: Seeded
const clients: Client[] = []

beforeAll(async () => {
  fake = await startFakeFigma()
  fake.addToken(FIGMA_TOKEN)
  served = await startServed({ env: { ...IMPORT_TEST_ENV, ...fake.env } })
  ;({ t, acme, globex } = served)
  await t.app.services.importJob.start()
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  fake.reset()
})
afterAll(async () => {
  await served?.close()
  await fake?.close()
})

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'asset-library-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', served.url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
  clients.push(client)
  return client
}

type Result = CallToolResult & { structuredContent?: Record<string, unknown> }
const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result

async function ok<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(client, name, args)
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent)
  return result.structuredContent as T
}

async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, args)
  expect(result.isError, JSON.stringify(result)).toBe(true)
  return (result.content[0] as { text: string }).text
}

let files = 0
/** A file of its own, with two frames on one page. */
function twoFrames() {
  const fileKey = `Mcp${process.pid}x${++files}AbCdEf`
  const file = fake.file(fileKey, 'Brand kit')
  const page = file.addPage('Brand')
  return { fileKey, file, hero: file.addFrame(page, 'Hero'), banner: file.addFrame(page, 'Banner') }
}

/** A new organization whose owner has stored the Figma token (Settings → Integrations, the app API). */
async function connectedOrganization(): Promise<Seeded> {
  const seeded = await seedOrganization(t.app, 'Initech')
  const stored = await (await loginOwner(t.app, seeded)).put(`/app/api/orgs/${seeded.org.slug}/integrations/figma`, { token: FIGMA_TOKEN })
  expect(stored.statusCode, stored.body).toBe(200)
  return seeded
}

const importTotal = async (seeded: Seeded) => (await callApi(t.app, seeded.readKey, 'GET', '/api/v1/imports?limit=1')).json<{ total: number }>().total

describe('import_from_figma', () => {
  it('lists its arguments (never a token) and says why it takes none; a read key sees get_import only', async () => {
    const { tools } = await (await connect(acme.writeKey)).listTools()
    const tool = tools.find((listed) => listed.name === 'import_from_figma')!
    expect(Object.keys(tool.inputSchema.properties!).sort()).toEqual(
      ['asset_type', 'client', 'collection_name', 'file_url', 'format', 'node_ids', 'product', 'scale', 'select', 'tag_names', 'wait'].sort(),
    )
    expect(tool.inputSchema.required).toEqual(['file_url'])
    expect(tool.description).toMatch(/never takes a token as an argument, because tool arguments are kept in chat transcripts/)
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true })
    const read = (await (await connect(acme.readKey)).listTools()).tools.map((listed) => listed.name)
    expect(read).toContain('get_import')
    expect(read).not.toContain('import_from_figma')
  })

  it('refuses a token argument, and without the organization\u2019s stored token says how to connect Figma; nothing is queued', async () => {
    const client = await connect(acme.writeKey)
    const { fileKey } = twoFrames()
    const withToken = await toolError(client, 'import_from_figma', { file_url: figmaLink(fileKey), figma_token: FIGMA_TOKEN })
    expect(withToken).toMatch(/^Invalid arguments for import_from_figma \(it takes file_url, select, node_ids, format, scale, asset_type, client, product, tag_names, collection_name, wait\):/)
    const notConnected = await toolError(client, 'import_from_figma', { file_url: figmaLink(fileKey), wait: true })
    expect(notConnected).toMatch(/\(422 figma_not_connected\): The organization has no stored Figma token\. An owner or admin connects Figma in the web app \(Settings → Integrations\); this tool never takes a token itself\.$/)
    expect(await importTotal(acme)).toBe(0)
    expect(fake.calls.file + fake.calls.nodes).toBe(0)
  })

  it('imports with the organization\u2019s stored token; with wait, answers the ended import and its counts', async () => {
    const initech = await connectedOrganization()
    const { fileKey, hero, banner } = twoFrames()
    const client = await connect(initech.writeKey)
    const record = await ok<ImportRecord & { summary: string }>(client, 'import_from_figma', {
      file_url: figmaLink(fileKey),
      format: 'png',
      scale: 2,
      tag_names: ['from-mcp'],
      asset_type: 'Banner',
      wait: true,
    })
    expect(record).toMatchObject({ status: 'done', file_key: fileKey, file_name: 'Brand kit', select: 'frames', scale: 2, total: 2, created: 2, failed: 0, created_by: { kind: 'key' } })
    expect(record.metadata).toMatchObject({ asset_type: 'Banner', tag_names: ['from-mcp'], created_by_ai: false })
    expect(record.summary).toBe('The import is done: 2 nodes: 2 created, 0 updated, 0 unchanged, 0 failed, 0 missing.')
    // The stored token, as Figma's personal access tokens are sent.
    expect(fake.requests.filter((request) => request.url.startsWith(`/v1/files/${fileKey}`)).map((request) => request.token)).toEqual([FIGMA_TOKEN])
    for (const node of [hero, banner]) {
      const found = (await callApi(t.app, initech.readKey, 'GET', `/api/v1/assets?external_id=${encodeURIComponent(`figma:${fileKey}:${node}`)}`)).json<{ data: Array<{ asset_type: string; tags: string[] }> }>()
      expect(found.data).toEqual([expect.objectContaining({ asset_type: 'Banner', tags: expect.arrayContaining(['Brand', 'from-mcp']) })])
    }
  })

  it('without wait answers the queued import at once, saying to follow it with get_import', async () => {
    const initech = await connectedOrganization()
    const { fileKey } = twoFrames()
    const client = await connect(initech.writeKey)
    // A slow Figma: the import cannot have ended when the tool answers.
    fake.latencyMs = 300
    const queued = await ok<ImportRecord & { summary: string }>(client, 'import_from_figma', { file_url: figmaLink(fileKey), select: 'components' })
    expect(queued).toMatchObject({ select: 'components', run: 1, status: expect.stringMatching(/^(queued|running)$/) })
    expect(queued.summary).toMatch(new RegExp(`^The import is ${queued.status} \\(.+ so far\\): call get_import with id ${queued.id} to follow it\\.$`))
    const ended = await importEnded(t.app, initech.writeKey, queued.id)
    expect(ended.status).toBe('done')
  })

  it('answers the endpoint\u2019s own refusals under the tool\u2019s argument names', async () => {
    const client = await connect(acme.writeKey)
    expect(await toolError(client, 'import_from_figma', { file_url: 'https://example.com/file/AbCdEf1234567890/Kit' })).toMatch(/\(400 invalid_figma_url\)/)
    expect(await toolError(client, 'import_from_figma', { file_url: figmaLink('AbCdEf1234567890'), select: 'nodes' })).toMatch(/validation_failed/)
  })
})

describe('get_import', () => {
  it('answers an import\u2019s record with a sentence on where it stands; another organization\u2019s import is not found', async () => {
    const { fileKey, hero } = twoFrames()
    fake.nullRenders([hero])
    const id = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) })
    const ended = await importEnded(t.app, acme.writeKey, id)
    const client = await connect(acme.readKey)
    const record = await ok<ImportRecord & { summary: string }>(client, 'get_import', { id })
    expect(record).toEqual({ ...ended, summary: 'The import is done: 2 nodes: 1 created, 0 updated, 0 unchanged, 1 failed, 0 missing. `failures` says why each failed node failed.' })
    expect(record.failures).toEqual([expect.objectContaining({ node_id: hero, name: 'Hero', reason: 'render_failed' })])

    expect(await toolError(await connect(globex.readKey), 'get_import', { id })).toMatch(/\(404 not_found\)/)
    expect(await toolError(client, 'get_import', { id: 'not-a-uuid' })).toMatch(/^Invalid arguments for get_import \(it takes id\):\n- id: /)
  })
})
