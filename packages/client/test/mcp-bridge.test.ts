import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LATEST_PROTOCOL_VERSION, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pushImage } from '../../../test/support/fixtures.js'
import { uniquePng } from '../../../test/support/images.js'
import { BRIDGE_FAILURE } from '../src/mcp-bridge.js'
import { startServer, type RunningServer } from './server.js'

// The bridge as a desktop client starts it: its own process, spoken to on stdin and stdout.
/** `asset-library-client mcp`, as a desktop client starts it (URL and key from the environment). */
const BRIDGE = ['--import', 'tsx', new URL('../src/cli/main.ts', import.meta.url).pathname, 'mcp']
const WRITE_TOOLS = ['push_asset', 'update_asset', 'create_collection', 'add_to_collection', 'import_from_figma']

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.close()
})

const clients: Client[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

function bridgeEnv(url: string, key: string): Record<string, string> {
  return { ...(process.env as Record<string, string>), ASSET_LIBRARY_URL: url, ASSET_LIBRARY_KEY: key }
}

/** The official SDK's client on the bridge's stdio; the lines the bridge writes on stderr are collected. */
async function viaBridge(key: string, url = server.url): Promise<{ client: Client; stderr: string[] }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: BRIDGE, env: bridgeEnv(url, key), stderr: 'pipe' })
  const stderr: string[] = []
  createInterface({ input: transport.stderr as Readable }).on('line', (line) => stderr.push(line))
  const client = new Client({ name: 'asset-library-bridge-test', version: '1.0.0' })
  clients.push(client)
  await client.connect(transport)
  return { client, stderr }
}

/** The same client straight to the server over Streamable HTTP, to compare with. */
async function direct(key: string): Promise<Client> {
  const client = new Client({ name: 'asset-library-bridge-test', version: '1.0.0' })
  clients.push(client)
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
  return client
}

async function refusal(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  )
  expect(error).toBeInstanceOf(McpError)
  return error as McpError
}

async function waitFor(condition: () => boolean): Promise<void> {
  await expect.poll(condition, { timeout: 10_000 }).toBe(true)
}

describe('the stdio bridge', () => {
  it('lists the tools the server lists for the key: all of them for a write key, the read ones for a read key', async () => {
    for (const key of [server.acme.writeKey, server.acme.readKey]) {
      const bridged = await (await viaBridge(key)).client.listTools()
      expect(bridged).toEqual(await (await direct(key)).listTools())
    }
    const readTools = (await (await viaBridge(server.acme.readKey)).client.listTools()).tools.map((tool) => tool.name)
    expect(readTools.length).toBeGreaterThan(0)
    expect(readTools.filter((name) => WRITE_TOOLS.includes(name))).toEqual([])
  })

  it('passes tool calls through: a search, and get_asset with its thumbnail as image content', async () => {
    const { id } = await pushImage(server.t.app, server.acme.writeKey, { title: 'Bridged lighthouse', tag_names: ['coast'] }, await uniquePng(800, 400))
    const { client } = await viaBridge(server.acme.readKey)

    const search = (await client.callTool({ name: 'search_assets', arguments: { q: 'lighthouse' } })) as CallToolResult
    expect(search.isError, JSON.stringify(search.content)).toBeFalsy()
    expect(search.structuredContent).toMatchObject({ data: [expect.objectContaining({ id, title: 'Bridged lighthouse' })] })

    const bridged = (await client.callTool({ name: 'get_asset', arguments: { id } })) as CallToolResult
    const straight = (await (await direct(server.acme.readKey)).callTool({ name: 'get_asset', arguments: { id } })) as CallToolResult
    expect(bridged.isError).toBeFalsy()
    expect(bridged.structuredContent).toMatchObject({ id, title: 'Bridged lighthouse', width: 800, height: 400 })
    expect(bridged.content.map((block) => block.type)).toEqual(straight.content.map((block) => block.type))
    const image = (result: CallToolResult) => result.content.find((block) => block.type === 'image')
    expect(image(bridged)).toMatchObject({ mimeType: 'image/webp' })
    expect(image(bridged)).toEqual(image(straight))
  })

  it('answers a write tool called with a read key with the server’s tool error', async () => {
    const { client } = await viaBridge(server.acme.readKey)
    const result = (await client.callTool({ name: 'create_collection', arguments: { name: 'Nope' } })) as CallToolResult
    expect(result.isError).toBe(true)
    expect(JSON.stringify(result.content)).toContain('insufficient_scope')
  })

  it('answers each request with a clear error once the key is revoked, and goes on running', async () => {
    const app = server.t.app
    const { key, token } = await app.services.keys.create({
      organizationId: server.acme.org.id,
      name: 'desktop',
      scope: 'assets:read',
      expiresAt: null,
      createdBy: server.acme.owner.id,
    })
    const { client, stderr } = await viaBridge(token)
    expect((await client.listTools()).tools.length).toBeGreaterThan(0)

    await app.services.keys.revoke(server.acme.org.id, key.id)
    for (const attempt of [() => client.listTools(), () => client.callTool({ name: 'list_tags', arguments: {} })]) {
      const error = await refusal(attempt())
      expect(error.code).toBe(BRIDGE_FAILURE)
      expect(error.message).toBe(
        `MCP error ${BRIDGE_FAILURE}: ${server.url}/mcp answered HTTP 401: Unauthorized (invalid_api_key): The API key is missing, malformed, unknown, revoked or expired. ` +
          'Check ASSET_LIBRARY_KEY: the key is wrong, expired or revoked.',
      )
    }
    await waitFor(() => stderr.filter((line) => line.includes('HTTP 401')).length === 2)
    expect(stderr.every((line) => line.startsWith('asset-library-client mcp: '))).toBe(true)
  })
})

describe('the stdio bridge to a server that is not there', () => {
  it('says to check the address when it names the MCP endpoint itself (404)', async () => {
    const error = await refusal(viaBridge(server.acme.readKey, `${server.url}/mcp`))
    expect(error.code).toBe(BRIDGE_FAILURE)
    expect(error.message).toContain(`${server.url}/mcp/mcp answered HTTP 404: `)
    expect(error.message).toMatch(/Check ASSET_LIBRARY_URL: the service's address, without \/mcp\.$/)
  })

  it('answers initialize with an error naming the address, reports it on stderr, and exits 0 when stdin ends', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise<void>((resolve) => closed.close(() => resolve()))

    const child = spawn(process.execPath, BRIDGE, { env: bridgeEnv(url, server.acme.readKey), stdio: ['pipe', 'pipe', 'pipe'] })
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    const stderr: string[] = []
    createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line))
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`)

    const initialize = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'test', version: '1' } }
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize })
    const first = JSON.parse((await answers.next()).value as string)
    expect(first).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: BRIDGE_FAILURE } })
    expect(first.error.message).toContain(`cannot reach ${url}/mcp`)
    expect(first.error.message).toContain('ECONNREFUSED')

    // Still running: the next request is answered the same way.
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
    expect(JSON.parse((await answers.next()).value as string)).toMatchObject({ id: 2, error: { code: BRIDGE_FAILURE } })

    child.stdin.end()
    expect(await exited).toBe(0)
    expect(stderr).toHaveLength(2)
    expect(stderr[0]).toMatch(/^asset-library-client mcp: cannot reach .*ECONNREFUSED/)
  })

  it('skips a line that is not JSON-RPC, saying so on stderr, and answers a request still in flight when stdin ends', async () => {
    const child = spawn(process.execPath, BRIDGE, { env: bridgeEnv(server.url, server.acme.readKey), stdio: ['pipe', 'pipe', 'pipe'] })
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
    const lines: string[] = []
    const stderr: string[] = []
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line))
    createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line))
    child.stdin.end(`not json\n${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' })}\n`)
    expect(await exited).toBe(0)
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([{ id: 7, result: { tools: expect.any(Array) } }])
    expect(stderr).toEqual([expect.stringMatching(/^asset-library-client mcp: cannot read a message on stdin: /)])
  })
})
