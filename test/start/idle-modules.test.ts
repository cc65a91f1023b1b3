import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * The packages that only some configurations use: the AWS SDK (an S3 store), ioredis (REDIS_URL), undici
 * (an outbound request: a webhook, a URL push, an embedding provider) and nodemailer (SMTP). Together they
 * held ~40 MiB of the embedded default's idle RSS (issue 39), so each loads with its first use.
 */
const LOADED_ON_USE = ['@aws-sdk', 'ioredis', 'undici', 'nodemailer']

const dataDir = mkdtempSync(join(tmpdir(), 'al-idle-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** Starts `serve` as the README's `npm start` does (embedded database, files on disk) and names the listed packages it has loaded once it serves. */
const SERVE_AND_LIST = `
import { createRequire } from 'node:module'
import { loadConfig } from ${JSON.stringify(fileURLToPath(new URL('../../src/config.ts', import.meta.url)))}
import { serve } from ${JSON.stringify(fileURLToPath(new URL('../../src/start/serve.ts', import.meta.url)))}
await serve(loadConfig())
const loaded = Object.keys(createRequire(import.meta.url).cache)
const packages = ${JSON.stringify(LOADED_ON_USE)}
process.stdout.write('LOADED ' + JSON.stringify(packages.filter((name) => loaded.some((path) => path.includes('/node_modules/' + name + '/')))) + '\\n')
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
  it('serves without loading the packages only an S3 store, Redis, outbound requests or SMTP use', async () => {
    expect(await packagesLoadedAtStart()).toEqual([])
  }, 120_000)
})
