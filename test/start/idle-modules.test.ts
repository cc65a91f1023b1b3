import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * The packages that only some configurations or the first request of a kind use: the AWS SDK (an S3
 * store), ioredis (REDIS_URL), undici (an outbound request: a webhook, a URL push, an embedding
 * provider), nodemailer (SMTP), MCP's SDK (the first /mcp request) and the API reference (the first
 * /api/v1/docs request). Each loads with its first use: the SDK, ioredis, undici and Scalar took 18 to
 * 22 MiB of RSS each when loaded alone (issue 39).
 */
const LOADED_ON_USE = ['@aws-sdk', 'ioredis', 'undici', 'nodemailer', '@modelcontextprotocol', '@scalar']

const dataDir = mkdtempSync(join(tmpdir(), 'al-idle-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/**
 * Every module the process loads, CommonJS or ES, as a resolve hook sees it (a data: URL, so the hook
 * needs no file of its own), posted to the main thread.
 */
const RESOLVE_HOOK = `export async function initialize({ port }) { globalThis.loadedPort = port }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  globalThis.loadedPort.postMessage(resolved.url)
  return resolved
}`

/** Starts `serve` as the README's `npm start` does (embedded database, files on disk) and names the listed packages it has loaded once it serves. */
const SERVE_AND_LIST = `
import { register } from 'node:module'
import { MessageChannel } from 'node:worker_threads'
const loaded = new Set()
const { port1, port2 } = new MessageChannel()
port1.on('message', (url) => loaded.add(url))
port1.unref()
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(RESOLVE_HOOK)}), { data: { port: port2 }, transferList: [port2] })
const { loadConfig } = await import(${JSON.stringify(pathToFileURL(fileURLToPath(new URL('../../src/config.ts', import.meta.url))).href)})
const { serve } = await import(${JSON.stringify(pathToFileURL(fileURLToPath(new URL('../../src/start/serve.ts', import.meta.url))).href)})
await serve(loadConfig())
const { createRequire } = await import('node:module')
const urls = [...loaded, ...Object.keys(createRequire(import.meta.url).cache)]
const packages = ${JSON.stringify(LOADED_ON_USE)}
process.stdout.write('LOADED ' + JSON.stringify(packages.filter((name) => urls.some((url) => url.includes('/node_modules/' + name + '/')))) + '\\n')
process.exit(0)
`

async function packagesLoadedAtStart(): Promise<string[]> {
  const { DATABASE_URL: _db, REDIS_URL: _redis, BLOB_STORE: _store, SMTP_URL: _smtp, NODE_ENV: _env, ...rest } = process.env
  // A file, not --eval: the embedded database's process would inherit --input-type.
  const script = join(dataDir, 'serve-and-list.mjs')
  writeFileSync(script, SERVE_AND_LIST)
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...rest, DATA_DIR: join(dataDir, 'data'), PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  const line = /^LOADED (.*)$/m.exec(output)
  if (code !== 0 || !line) throw new Error(`serve did not start (exit ${code}): ${output.slice(-2000)}`)
  return JSON.parse(line[1]!) as string[]
}

describe('the embedded default at start', () => {
  it('serves without loading the packages only an S3 store, Redis, outbound requests, SMTP, MCP or the API reference use', async () => {
    expect(await packagesLoadedAtStart()).toEqual([])
  }, 120_000)
})
