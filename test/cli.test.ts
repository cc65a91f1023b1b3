import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { runCli, type Server, startServer, useCliDataDir } from './support/cli-process.js'
import { waitFor } from './support/wait.js'

// Each test runs the real executable: tsx compiles it at every start, and a first start runs initdb.
// That takes seconds alone, and several times the default 30 s on a 2-core machine that runs other test
// files beside this one (CI's parallel workers) and other work besides.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

const dataDir = useCliDataDir()
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
    expect(server.output()).toContain('search: text mode (no EMBEDDING_BASE_URL or IMAGE_EMBEDDING_PROVIDER: full-text ranking only)')
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
    expect(existsSync(join(dataDir(), 'asset-library.lock'))).toBe(false)
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
    const orphan = join(dataDir(), 'blobs', 'ef', '01', `ef01${'0'.repeat(60)}`)
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