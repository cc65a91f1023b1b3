import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/platform/db/index.js'
import { migrate } from '../src/platform/db/migrate.js'
import { bearer, TEST_SECRET } from './support/app.js'
import { silentLogger } from './support/database.js'
import { startEmbeddingServer, type EmbeddingServer } from './support/embedding-server.js'
import { solidPng } from './support/images.js'
import { createTestBucket, s3Env, startS3Server } from './support/s3-server.js'
import { staysTrue, waitFor } from './support/wait.js'

// Each test runs the real executable: tsx compiles it at every start, and a first start runs initdb.
// That takes seconds alone, and several times the default 30 s on a 2-core machine that runs other test
// files beside this one (CI's parallel workers) and other work besides.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

/** The real executable on the embedded default, as a newcomer runs it: separate processes, real sockets. */
const CLI = [process.execPath, '--import', 'tsx', 'src/cli.ts']

let dataDir: string
const running: ChildProcess[] = []

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'al-cli-'))
})
afterAll(() => {
  for (const child of running) child.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _db, REDIS_URL: _redis, NODE_ENV: _env, ...rest } = process.env
  return { ...rest, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '0', ...extra }
}

interface Server {
  child: ChildProcess
  url: string
  output: () => string
  exited: Promise<number | null>
}

async function startServer(extra: Record<string, string> = {}): Promise<Server> {
  const child = spawn(CLI[0]!, [...CLI.slice(1), 'serve'], { env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] })
  running.push(child)
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) {
        clearInterval(check)
        resolve(match[1]!)
      }
    }, 50)
    void exited.then((code) => {
      clearInterval(check)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
  return { child, url, output: () => output, exited }
}

/** How long the first server drains on SIGTERM: time enough for the test's requests in between. */
const DRAIN_MS = 3000

/** A POST whose headers and first half of the body are sent at once, and the rest when `finish` is called. */
function slowRequest(url: string, key: string, body: string) {
  const request = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } })
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('error', reject)
    request.once('response', (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk))
      response.once('end', () => resolve({ status: response.statusCode!, body: text }))
    })
  })
  const half = Math.floor(body.length / 2)
  const headersSent = new Promise<void>((resolve) => request.write(body.slice(0, half), () => resolve()))
  return {
    headersSent,
    finish: () => {
      request.end(body.slice(half))
      return answer
    },
  }
}

function runCli(args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(CLI[0]!, [...CLI.slice(1), ...args], { env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('asset-library serve on a fresh data directory', () => {
  let server: Server
  let firstKey: string
  /** The printed owner login, and the session it started. */
  let owner: { email: string; password: string; cookie: string }

  it('prints a working assets:write key and the owner login, once', async () => {
    server = await startServer({ SHUTDOWN_DRAIN_MS: String(DRAIN_MS) })
    const output = server.output()
    expect(output).toContain('shown once')
    expect(output).toMatch(/Web app: http:\/\/\S+\/ \(sign in with the owner login\)/)
    firstKey = /API key \(assets:write\): (al_\S+)/.exec(output)![1]!
    const [, email, password] = /Owner login:\s+(\S+) \/ (\S+)/.exec(output)!

    const key = await fetch(`${server.url}/api/v1/auth/key`, { headers: { authorization: `Bearer ${firstKey}` } })
    expect(key.status).toBe(200)
    expect(await key.json()).toMatchObject({ scope: 'assets:write', organization: { slug: 'default' } })

    const login = await fetch(`${server.url}/app/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    expect(login.status).toBe(200)
    expect(login.headers.get('set-cookie')).toMatch(/al_session=.*HttpOnly/)
    owner = { email: email!, password: password!, cookie: login.headers.get('set-cookie')!.split(';')[0]! }
  })

  it('says at start-up that search runs in text mode without an embedding provider', () => {
    expect(server.output()).toContain('search: text mode (no EMBEDDING_BASE_URL: full-text ranking only)')
  })

  it('never logs the key or the password', () => {
    const logLines = server.output().split('\n').filter((line) => line.startsWith('{'))
    expect(logLines.length).toBeGreaterThan(0)
    expect(logLines.join('\n')).not.toContain(firstKey)
  })

  it('refuses a second process on the same data directory, clearly', async () => {
    const second = await runCli(['serve'])
    expect(second.code).toBe(2)
    expect(second.stderr).toMatch(/data directory is already in use by process \d+/)
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
  })

  it('drains on SIGTERM: /ready turns 503 while a request in flight and new ones are served, then it stops cleanly and releases the data directory', async () => {
    const sha256 = 'ab'.repeat(32)
    const inFlight = slowRequest(`${server.url}/api/v1/assets/check`, firstKey, JSON.stringify({ sha256: [sha256] }))
    await inFlight.headersSent
    const signalled = Date.now()
    server.child.kill('SIGTERM')
    const notReady = await waitFor('/ready to answer 503', async () => {
      const ready = await fetch(`${server.url}/ready`)
      return ready.status === 503 && ((await ready.json()) as { status: string })
    })
    expect(notReady).toEqual({ status: 'shutting_down' })
    const fresh = await fetch(`${server.url}/api/v1/auth/key`, { headers: { authorization: `Bearer ${firstKey}` } })
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get('connection')).toBe('close')
    const answer = await inFlight.finish()
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ missing: [sha256] })
    expect(await server.exited).toBe(0)
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DRAIN_MS)
    expect(server.output()).toContain('"msg":"stopped"')
    expect(existsSync(join(dataDir, 'asset-library.lock'))).toBe(false)
  })

  it('creates keys from the command line, with an expiry', async () => {
    const created = await runCli(['key', 'create', '--org', 'default', '--scope', 'assets:read', '--name', 'ci', '--expires-in', '90d', '--json'])
    expect(created.code).toBe(0)
    const key = JSON.parse(created.stdout)
    expect(key).toMatchObject({ name: 'ci', scope: 'assets:read', token: expect.stringMatching(/^al_[a-z0-9]{8}_[A-Za-z0-9_-]{43}$/) })
    const days = (new Date(key.expires_at).getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(89.9)
    expect(days).toBeLessThanOrEqual(90)

    const bad = await runCli(['key', 'create', '--org', 'default', '--scope', 'assets:admin'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--scope must be one of assets:read, assets:write')

    const listed = await runCli(['key', 'list', '--org', 'default', '--json'])
    expect(JSON.parse(listed.stdout).map((k: { name: string }) => k.name).sort()).toEqual(['ci', 'first-run'])
    expect(listed.stdout).not.toContain('secret_hash')
  })

  it('gives a key limits of its own for a bulk import, and refuses one that is not a whole number from 1 to 10000', async () => {
    const created = await runCli(['key', 'create', '--org', 'default', '--scope', 'assets:write', '--name', 'import', '--limit-expensive', '600', '--limit-cheap', '2000'])
    expect(created.code, created.stderr).toBe(0)
    expect(created.stdout).toContain('limits per window: expensive 600, cheap 2000')
    for (const value of ['10001', '1.5']) {
      const bad = await runCli(['key', 'create', '--org', 'default', '--scope', 'assets:write', '--name', 'bad', `--limit-expensive=${value}`])
      expect(bad.code, value).toBe(2)
      expect(bad.stderr).toContain('--limit-expensive must be a whole number from 1 to 10000')
    }
    const listed = await runCli(['key', 'list', '--org', 'default', '--json'])
    const keys = JSON.parse(listed.stdout) as Array<{ name: string; limit_expensive: number | null; limit_cheap: number | null }>
    expect(keys.find((k) => k.name === 'import')).toMatchObject({ limit_expensive: 600, limit_cheap: 2000 })
    expect(keys.filter((k) => k.name !== 'import').every((k) => k.limit_expensive === null && k.limit_cheap === null)).toBe(true)
    expect(keys.some((k) => k.name === 'bad')).toBe(false)
  })

  let printedPassword: string
  it('user set-password sets a lost password, printing one it made', async () => {
    const generated = await runCli(['user', 'set-password', '--org', 'default', '--email', owner.email.toUpperCase()])
    expect(generated.code, generated.stderr).toBe(0)
    expect(generated.stdout).toContain(`The password of ${owner.email} is changed and their sessions are ended; password: `)
    printedPassword = /; password: (\S+)$/.exec(generated.stdout.trim())![1]!
    expect(printedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/)
  })

  it('user set-password takes the password given', async () => {
    const chosen = await runCli(['user', 'set-password', '--org', 'default', '--email', owner.email, '--password', 'chosen by the operator', '--json'])
    expect(chosen.code, chosen.stderr).toBe(0)
    expect(JSON.parse(chosen.stdout)).toEqual({ id: expect.any(String), email: owner.email })
  })

  it('user set-password refuses someone who is not a member, and a short password', async () => {
    const unknown = await runCli(['user', 'set-password', '--org', 'default', '--email', 'nobody@example.com'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('A member with the email nobody@example.com was not found.')
    const short = await runCli(['user', 'set-password', '--org', 'default', '--email', owner.email, '--password', 'short'])
    expect(short.code).toBe(2)
    expect(short.stderr).toContain('--password must be at least 10 characters')
  })

  it('after user set-password only the new password signs in, and the sessions from before are ended', async () => {
    server = await startServer()
    const signIn = (password: string) =>
      fetch(`${server.url}/app/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: owner.email, password }) })
    expect((await fetch(`${server.url}/app/api/session`, { headers: { cookie: owner.cookie } })).status).toBe(401)
    expect((await signIn(owner.password)).status).toBe(401)
    expect((await signIn(printedPassword)).status).toBe(401)
    expect((await signIn('chosen by the operator')).status).toBe(200)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('does not set up again on the next start, old keys still work, and the start sweeps unreferenced files', async () => {
    const orphan = join(dataDir, 'blobs', 'ef', '01', `ef01${'0'.repeat(60)}`)
    mkdirSync(dirname(orphan), { recursive: true })
    writeFileSync(orphan, 'left by a crash')
    server = await startServer({ BLOB_SWEEP_GRACE_MS: '0' })
    expect(server.output()).not.toContain('shown once')
    const key = await fetch(`${server.url}/api/v1/auth/key`, { headers: { authorization: `Bearer ${firstKey}` } })
    expect(key.status).toBe(200)
    // The sweep logs once it has removed the files: the line can reach the pipe after the file is gone.
    await waitFor('the sweep at start', () => server.output().includes('removed image files no asset refers to'))
    expect(existsSync(orphan)).toBe(false)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('sets nothing up when an operator created an organization first, and a failed start releases the directory', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'al-cli-'))
    try {
      const created = await runCli(['org', 'create', '--name', 'Acme', '--json'], { DATA_DIR: fresh })
      expect(created.code).toBe(0)
      expect(JSON.parse(created.stdout)).toMatchObject({ name: 'Acme', slug: 'acme' })

      const blocker = createServer()
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
      const busyPort = String((blocker.address() as { port: number }).port)
      const failed = await runCli(['serve'], { DATA_DIR: fresh, PORT: busyPort })
      blocker.close()
      expect(failed.code).not.toBe(0)
      expect(failed.stderr + failed.stdout).toContain('EADDRINUSE')
      expect(existsSync(join(fresh, 'asset-library.lock'))).toBe(false)
      expect(failed.stdout).not.toContain('shown once')
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('blobs sweep removes image files no asset refers to and says how many', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'al-sweep-'))
    try {
      const orphan = join(fresh, 'blobs', 'ab', 'cd', `abcd${'0'.repeat(60)}`)
      mkdirSync(dirname(orphan), { recursive: true })
      writeFileSync(orphan, 'left by a crash')
      const kept = await runCli(['blobs', 'sweep', '--json'], { DATA_DIR: fresh })
      expect(JSON.parse(kept.stdout)).toEqual({ removed: 0, recent: 1 })
      const swept = await runCli(['blobs', 'sweep'], { DATA_DIR: fresh, BLOB_SWEEP_GRACE_MS: '0' })
      expect(swept.stdout.trim()).toBe('Removed 1 image file no asset refers to')
      expect(existsSync(orphan)).toBe(false)
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('explains a bad setting and exits non-zero', async () => {
    const result = await runCli(['serve'], { PORT: 'eighty' })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('PORT must be a whole number from 0 to 65535, got "eighty"')
  })
})

/** Works on a data directory in this process (the embedded database allows one process at a time), then lets go. */
async function withApp(directory: string, work: (app: Awaited<ReturnType<typeof buildApp>>, key: string) => Promise<void>) {
  const database = await openDatabase({ databaseUrl: undefined, dataDir: directory, logger: silentLogger })
  await migrate(database.db)
  const app = await buildApp({ config: loadConfig({ DATA_DIR: directory, APP_SECRET: TEST_SECRET, LOG_LEVEL: 'silent' }), database })
  try {
    const org = (await app.services.orgs.listOrganizations())[0] ?? (await app.services.orgs.createOrganization({ name: 'Acme', slug: 'acme' }))
    const { token } = await app.services.keys.create({ organizationId: org.id, name: 'cli', scope: 'assets:write', expiresAt: null, createdBy: null })
    await work(app, token)
  } finally {
    await app.close()
    await database.close()
  }
}

describe('embeddings from the command line, and the worker', () => {
  let directory: string
  let provider: EmbeddingServer
  let providerEnv: Record<string, string>

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'al-cli-embeddings-'))
    provider = await startEmbeddingServer()
    providerEnv = { DATA_DIR: directory, EMBEDDING_BASE_URL: provider.baseUrl, EMBEDDING_MODEL: 'concepts-v1', EMBEDDING_DIMENSIONS: '256' }
    await withApp(directory, async (app, key) => {
      for (const [index, title] of ['Red sports car', 'Sleeping kitten', 'Calm sea'].entries()) {
        const image = await solidPng(4, 4, `#0000${index}${index}`)
        const res = await app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(key), payload: { image_base64: image.toString('base64'), title } })
        expect(res.statusCode).toBe(201)
      }
    })
  })
  afterAll(async () => {
    await provider.close()
    rmSync(directory, { recursive: true, force: true })
  })

  it('status counts what is missing, and says search is in text mode without a provider', async () => {
    const status = await runCli(['embeddings', 'status', '--json'], { DATA_DIR: directory })
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({ mode: 'text', current: 0, stale: 0, missing: 3 })
    const refused = await runCli(['embeddings', 'backfill'], { DATA_DIR: directory })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('backfill needs EMBEDDING_BASE_URL')
  })

  it('jobs prints one row per queue, as JSON too; jobs retry refuses an unknown queue with exit 2 and one line', async () => {
    const listed = await runCli(['jobs', '--json'], { DATA_DIR: directory })
    expect(listed.code, listed.stderr).toBe(0)
    // Nothing ran: the pushes' thumbnails and texts wait (the texts for a provider this server lacks).
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: 'thumbnails', pending: 3, running: 0, failed: 0, oldest_pending_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { name: 'embeddings', pending: 3, running: 0, failed: 0, oldest_pending_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    ])
    const table = await runCli(['jobs', '--org', 'acme'], { DATA_DIR: directory })
    expect(table.stdout.split('\n').slice(0, 4).map((line) => line.trim().split(/\s{2,}/))).toEqual([
      ['Jobs of organization acme'],
      ['queue', 'pending', 'running', 'failed', 'oldest waiting since'],
      ['thumbnails', '3', '0', '0', expect.stringMatching(/^\d{4}-/)],
      ['embeddings', '3', '0', '0', expect.stringMatching(/^\d{4}-/)],
    ])
    const attempts = []
    for (const args of [['jobs', 'retry', 'bogus'], ['jobs', 'bogus']]) {
      const { code, stdout, stderr } = await runCli(args, { DATA_DIR: directory })
      attempts.push({ code, stdout, stderr })
    }
    expect(attempts).toEqual([
      { code: 2, stdout: '', stderr: 'asset-library: no queue named "bogus": the queues are thumbnails, embeddings\n' },
      { code: 2, stdout: '', stderr: 'asset-library: Unknown command "jobs bogus": try `jobs` or `jobs retry NAME`\n' },
    ])
    const retried = await runCli(['jobs', 'retry', 'thumbnails', '--json'], { DATA_DIR: directory })
    expect(retried.code, retried.stderr).toBe(0)
    // Every thumbnail has its job already: none failed, none is missing.
    expect(JSON.parse(retried.stdout)).toEqual({ name: 'thumbnails', queued: 0 })
  })

  it('backfill embeds what is missing in batched requests, with progress and a final count', async () => {
    const backfill = await runCli(['embeddings', 'backfill'], providerEnv)
    expect(backfill.code, backfill.stderr).toBe(0)
    expect(backfill.stdout).toContain('Embedded 3 assets of all organizations')
    expect(backfill.stderr).toMatch(/Embedding \[#+\] 100% 3\/3/)
    expect(provider.inputs).toEqual(expect.arrayContaining(['Red sports car', 'Sleeping kitten', 'Calm sea']))
    const status = await runCli(['embeddings', 'status', '--json'], providerEnv)
    expect(JSON.parse(status.stdout)).toMatchObject({ mode: 'hybrid', current: 3, stale: 0, missing: 0 })
  })

  it('serve with SERVE_BACKGROUND_WORK=false leaves the background work to workers: no provider request at all', async () => {
    const created = await runCli(['key', 'create', '--org', 'acme', '--scope', 'assets:write', '--json'], providerEnv)
    const { token } = JSON.parse(created.stdout)
    const requests = provider.requests()
    const server = await startServer({ ...providerEnv, SERVE_BACKGROUND_WORK: 'false' })
    try {
      const image = await solidPng(4, 4, '#123456')
      const pushed = await fetch(`${server.url}/api/v1/assets`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ image_base64: image.toString('base64'), title: 'Left for the worker' }),
      })
      expect(pushed.status).toBe(201)
      expect(((await (await fetch(`${server.url}/ready`)).json()) as { search: { mode: string } }).search.mode).toBe('hybrid')
      // A process that does no background work leaves nothing to wait for; one that did would have sent
      // its start-up probe at once and the new text within milliseconds, so this watches for either.
      await staysTrue('no provider request', () => provider.requests() === requests, 1_500)
    } finally {
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    }
    const status = await runCli(['embeddings', 'status', '--json'], providerEnv)
    expect(JSON.parse(status.stdout)).toMatchObject({ current: 3, missing: 1 })
  })

  it('the worker embeds a changed text in the background and stops cleanly on SIGTERM', async () => {
    await withApp(directory, async (app, key) => {
      const [asset] = (await app.inject({ method: 'GET', url: '/api/v1/assets?q=kitten', headers: bearer(key) })).json().data
      expect((await app.inject({ method: 'PATCH', url: `/api/v1/assets/${asset.id}`, headers: bearer(key), payload: { title: 'Playful puppy' } })).statusCode).toBe(200)
    })
    const worker = spawn(CLI[0]!, [...CLI.slice(1), 'worker'], { env: env(providerEnv), stdio: ['ignore', 'pipe', 'pipe'] })
    running.push(worker)
    let output = ''
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk))
    worker.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve))
    await waitFor('the worker to embed the new titles', () => provider.inputs.includes('Playful puppy') && provider.inputs.includes('Left for the worker'), 20_000)
    await waitFor('the worker to store it', () => output.includes('worker started'), 5_000)
    worker.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(output).toContain('"msg":"stopped"')
    const status = await runCli(['embeddings', 'status', '--json'], providerEnv)
    expect(JSON.parse(status.stdout)).toMatchObject({ current: 4, stale: 0, missing: 0 })
  })
})

describe('blobs migrate from the command line', () => {
  it('copies the library into a bucket with a progress bar, verified, and a second run copies nothing', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'al-cli-migrate-'))
    const s3 = await startS3Server()
    try {
      await withApp(directory, async (app, key) => {
        for (const colour of ['#102030', '#405060']) {
          const image = await solidPng(4, 4, colour)
          const res = await app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(key), payload: { image_base64: image.toString('base64') } })
          expect(res.statusCode).toBe(201)
        }
        await app.services.thumbnails.drain()
      })
      const env = { DATA_DIR: directory, ...s3Env(s3.endpoint, await createTestBucket(s3.endpoint)), BLOB_STORE: 'file' }
      const first = await runCli(['blobs', 'migrate', '--from', 'file', '--to', 's3', '--json'], env)
      expect(first.code, first.stderr).toBe(0)
      expect(JSON.parse(first.stdout)).toEqual({ copied: 4, already_there: 0, missing: [] })
      expect(first.stderr).toContain('Copying image files from file to s3 [##############################] 100% 2/2')
      const second = await runCli(['blobs', 'migrate', '--from', 'file', '--to', 's3'], env)
      expect(second.stdout.trim()).toBe('Copied 0 image files from file to s3, each read back with its SHA-256; 4 already there')
    } finally {
      await s3.close()
      rmSync(directory, { recursive: true, force: true })
    }
  })
  it('refuses the same store on both sides, or a store it does not know, with exit 2 and one line, before it opens the database', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'al-cli-migrate-usage-'))
    try {
      const attempts = []
      for (const options of [['--from', 's3', '--to', 's3'], ['--from', 'file', '--to', 'gcs'], ['--from', 'file']]) {
        const { code, stdout, stderr } = await runCli(['blobs', 'migrate', ...options], { DATA_DIR: directory })
        attempts.push({ code, stdout, stderr })
      }
      expect(existsSync(join(directory, 'pg'))).toBe(false)
      expect(attempts).toEqual([
        { code: 2, stdout: '', stderr: 'asset-library: --from and --to must name different stores (file, s3)\n' },
        { code: 2, stdout: '', stderr: 'asset-library: --to must be one of file, s3\n' },
        { code: 2, stdout: '', stderr: 'asset-library: --to must be one of file, s3\n' },
      ])
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })
  it('refuses to copy into the S3 store when no bucket is configured, with exit 2 and the settings to set', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'al-cli-migrate-no-bucket-'))
    try {
      const { code, stdout, stderr } = await runCli(['blobs', 'migrate', '--from', 'file', '--to', 's3'], { DATA_DIR: directory })
      expect({ code, stdout, stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: 'asset-library: S3_BUCKET is required to use the S3 store (with S3_ENDPOINT, S3_REGION and the credentials)\n',
      })
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })
})

describe('a server killed mid-request', () => {
  it('loses no acknowledged version of an asset, and leaves no version without its file, when killed -9 among version uploads', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'al-killed-versions-'))
    const settings = { DATA_DIR: fresh, RATE_LIMIT_EXPENSIVE: '100000', RATE_LIMIT_CHEAP: '100000' }
    try {
      const first = await startServer(settings)
      const key = /API key \(assets:write\): (al_\S+)/.exec(first.output())![1]!
      const call = (url: string, path: string, body?: object) =>
        fetch(`${url}${path}`, { method: body ? 'POST' : 'GET', headers: { ...bearer(key), ...(body && { 'content-type': 'application/json' }) }, ...(body && { body: JSON.stringify(body) }) })
      const pushed = await call(first.url, '/api/v1/assets', { image_base64: (await solidPng(16, 16, '#000000')).toString('base64') })
      const assetId = ((await pushed.json()) as { asset_id: string }).asset_id
      // Version uploads from four senders until the server dies; each acknowledged one is remembered with its bytes.
      const acknowledged = new Map<number, Buffer>()
      let shade = 0
      const sender = async () => {
        for (;;) {
          const image = await solidPng(16, 16, `#${(++shade).toString(16).padStart(6, '0')}`)
          const res = await call(first.url, `/api/v1/assets/${assetId}/versions`, { image_base64: image.toString('base64') }).catch(() => null)
          if (!res) return
          if (res.status !== 201) throw new Error(`a version upload answered ${res.status}: ${await res.text()}`)
          acknowledged.set(((await res.json()) as { version: number }).version, image)
        }
      }
      const senders = Promise.all([sender(), sender(), sender(), sender()])
      await waitFor('versions to be acknowledged', () => acknowledged.size >= 12)
      first.child.kill('SIGKILL')
      await first.exited
      await senders

      const second = await startServer(settings)
      const listed = (await (await call(second.url, `/api/v1/assets/${assetId}/versions`)).json()) as { data: Array<{ version: number; original_url: string }> }
      const versions = listed.data
      const numbers = versions.map((version) => version.version)
      // Linear history: 1..n, each acknowledged version among them.
      expect(numbers).toEqual(numbers.map((_, i) => numbers.length - i))
      for (const version of acknowledged.keys()) expect(numbers).toContain(version)
      // Every version's row has its file: the acknowledged ones byte for byte.
      for (const version of versions) {
        const file = await fetch(version.original_url.replace(/^https?:\/\/[^/]+/, second.url))
        expect(file.status, `version ${version.version}`).toBe(200)
        const bytes = Buffer.from(await file.arrayBuffer())
        const sent = acknowledged.get(version.version)
        if (sent) expect(bytes.equals(sent), `version ${version.version}`).toBe(true)
      }
      const asset = (await (await call(second.url, `/api/v1/assets/${assetId}`)).json()) as { version: number }
      expect(asset.version).toBe(numbers[0])
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('lets the request\'s Idempotency-Key go with its process: the retry to the next server runs at once, not 409 for 60 s', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'al-killed-'))
    const poster = await solidPng(8, 8)
    // The push's image comes from here; the first fetch is never answered, so the push is running when its server is killed.
    let fetches = 0
    const images = createHttpServer((_request, response) => {
      fetches += 1
      if (fetches > 1) response.writeHead(200, { 'content-type': 'image/png' }).end(poster)
    })
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
    const imageUrl = `http://127.0.0.1:${(images.address() as { port: number }).port}/poster.png`
    const settings = { DATA_DIR: fresh, OUTBOUND_ALLOWLIST: '127.0.0.1/32' }
    try {
      const first = await startServer(settings)
      const key = /API key \(assets:write\): (al_\S+)/.exec(first.output())![1]!
      const push = (url: string) =>
        fetch(`${url}/api/v1/assets`, {
          method: 'POST',
          headers: { ...bearer(key), 'content-type': 'application/json', 'idempotency-key': 'pushed-as-the-server-died' },
          body: JSON.stringify({ image_url: imageUrl, title: 'Poster' }),
        })
      const lost = push(first.url).catch((error: unknown) => error)
      await waitFor('the push to fetch its image', () => fetches === 1)
      first.child.kill('SIGKILL')
      await first.exited
      await lost

      const second = await startServer(settings)
      const retried = await push(second.url)
      expect(retried.status).toBe(201)
      expect(await retried.json()).toMatchObject({ duplicate: false })
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    } finally {
      images.closeAllConnections()
      images.close()
      rmSync(fresh, { recursive: true, force: true })
    }
  })
})
