import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProxy, type TestServer } from '../support/http-server.js'
import { startServed } from '../support/served.js'

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, 0.1.13: the last release that
 * runs on Node 20; 0.1.14 and later import `fs.globSync`, Node 22's) against `POST /mcp`.
 */
const CONFORMANCE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url))

/**
 * The suite's scenarios about any server. The others call the fixture tools, resources and prompts of the
 * suite's own reference server (`test_simple_text`, `json_schema_2020_12_tool`, …), or optional
 * capabilities this server does not declare (logging, completion). `dns-rebinding-protection` is for
 * servers on localhost without authentication; a page that rebinds a name to ours cannot send our bearer key.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list']

function runScenario(url: string, scenario: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CONFORMANCE, 'server', '--url', `${url}/mcp`, '--scenario', scenario], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` })
    })
  })
}

describe('the official MCP conformance suite', () => {
  let served: Awaited<ReturnType<typeof startServed>>
  const proxies: TestServer[] = []

  beforeAll(async () => {
    served = await startServed()
  })

  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()))
    await served?.close()
  })

  /** The suite takes a URL and no headers: it talks to the server through a proxy that adds the key, as a desktop client's configuration does. */
  const proxied = async (key: string | undefined) => {
    const proxy = await startProxy(served.url, key ? { authorization: `Bearer ${key}` } : {})
    proxies.push(proxy)
    return proxy.url
  }

  it.each(SCENARIOS)('passes %s with a read key', async (scenario) => {
    const { code, output } = await runScenario(await proxied(served.acme.readKey), scenario)
    expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed/)
    expect(code, output).toBe(0)
  }, 90_000)

  it('fails without a key: the suite does see the server refuse', async () => {
    const { code, output } = await runScenario(await proxied(undefined), 'server-initialize')
    expect(code).not.toBe(0)
    expect(output).toMatch(/1 failed/)
  }, 90_000)
})
