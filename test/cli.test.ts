import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

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
  return { ...rest, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', ...extra }
}

interface Server {
  child: ChildProcess
  url: string
  output: () => string
  exited: Promise<number | null>
}

async function startServer(): Promise<Server> {
  const child = spawn(CLI[0]!, [...CLI.slice(1), 'serve'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] })
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

  it('prints a working assets:write key and the owner login, once', async () => {
    server = await startServer()
    const output = server.output()
    expect(output).toContain('shown once')
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

  it('stops cleanly on SIGTERM and releases the data directory', async () => {
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
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

  it('does not set up again on the next start, and old keys still work', async () => {
    server = await startServer()
    expect(server.output()).not.toContain('shown once')
    const key = await fetch(`${server.url}/api/v1/auth/key`, { headers: { authorization: `Bearer ${firstKey}` } })
    expect(key.status).toBe(200)
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

  it('explains a bad setting and exits non-zero', async () => {
    const result = await runCli(['serve'], { PORT: 'eighty' })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('PORT must be a whole number from 0 to 65535, got "eighty"')
  })
})
