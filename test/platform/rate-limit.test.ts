import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'

const LIMITS = { RATE_LIMIT_CHEAP: '3', RATE_LIMIT_STANDARD: '2', RATE_LIMIT_ANONYMOUS: '4' }

let t: TestApp
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp({ env: LIMITS })
  acme = await seedOrganization(t.app)
})
afterAll(() => t.close())

const getKey = (app: TestApp, key?: string, ip = '127.0.0.1') =>
  app.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: key ? bearer(key) : {}, remoteAddress: ip })

/** A POST in the standard bucket that is refused by validation, so the key survives it. */
const refusedRevoke = (key: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/revoke', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '{"x":1}' })

async function newKey(scope: 'assets:read' | 'assets:write' = 'assets:read') {
  return (await t.app.services.keys.create({ organizationId: acme.org.id, name: 'rl', scope, expiresAt: null, createdBy: null })).token
}

describe('rate limits', () => {
  it('report the remaining budget on every response, then refuse with 429, Retry-After and rate_limited', async () => {
    const key = await newKey()
    const remaining: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await getKey(t, key)
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-ratelimit-limit']).toBe('3')
      remaining.push(String(res.headers['x-ratelimit-remaining']))
    }
    expect(remaining).toEqual(['2', '1', '0'])
    const refused = await getKey(t, key)
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(refused.headers['retry-after']).toMatch(/^\d+$/)
    expect(refused.json()).toMatchObject({ status: 429, code: 'rate_limited' })
  })

  it('count each key on its own', async () => {
    const first = await newKey()
    const second = await newKey()
    for (let i = 0; i < 3; i++) await getKey(t, first)
    expect((await getKey(t, first)).statusCode).toBe(429)
    expect((await getKey(t, second)).statusCode).toBe(200)
  })

  it('keep the cheap (GET) and standard (other writes) buckets apart', async () => {
    const key = await newKey()
    for (let i = 0; i < 2; i++) expect((await refusedRevoke(key)).statusCode).toBe(400)
    const limited = await refusedRevoke(key)
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['x-ratelimit-limit']).toBe('2')
    expect((await getKey(t, key)).statusCode).toBe(200)
  })

  it('limit requests without a valid key per IP, so guessing keys is slowed', async () => {
    const ip = '203.0.113.7'
    for (let i = 0; i < 4; i++) {
      const res = await getKey(t, `al_guessing_${'x'.repeat(43)}`, ip)
      expect(res.statusCode).toBe(401)
      expect(res.headers['x-ratelimit-limit']).toBe('4')
    }
    expect((await getKey(t, undefined, ip)).statusCode).toBe(429)
    expect((await getKey(t, undefined, '203.0.113.8')).statusCode).toBe(401)
    expect((await getKey(t, acme.readKey, ip)).statusCode).toBe(200)
  })

  it('refuse an over-limit request before its body is read', async () => {
    const key = await newKey()
    for (let i = 0; i < 2; i++) await refusedRevoke(key)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/revoke',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: '{ this is not even json',
    })
    expect(res.statusCode).toBe(429)
  })
})

describe('sign-in rate limit', () => {
  it('slows password guessing per IP on login and invitation acceptance together', async () => {
    const app = await startTestApp({ database: t.database, env: { RATE_LIMIT_SIGN_IN: '3' } })
    try {
      const attempt = (url: string, payload: object, ip = '198.51.100.1') =>
        app.app.inject({ method: 'POST', url, payload, remoteAddress: ip })
      const wrong = { email: acme.owner.email, password: 'not the password' }
      expect((await attempt('/app/api/login', wrong)).statusCode).toBe(401)
      expect((await attempt('/app/api/login', wrong)).statusCode).toBe(401)
      expect((await attempt('/app/api/invitations/accept', { token: 'guess', password: 'long enough password' })).statusCode).toBe(404)
      const refused = await attempt('/app/api/login', { email: acme.owner.email, password: acme.owner.password })
      expect(refused.statusCode).toBe(429)
      expect(refused.json().code).toBe('rate_limited')
      expect(refused.headers['retry-after']).toMatch(/^\d+$/)
      expect((await attempt('/app/api/login', { email: acme.owner.email, password: acme.owner.password }, '198.51.100.2')).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})

describe('rate limits with Redis', () => {
  it('fail open, quickly, when Redis is unreachable', async () => {
    const closedPort = await unusedPort()
    const app = await startTestApp({ database: t.database, env: LIMITS, redisUrl: `redis://127.0.0.1:${closedPort}` })
    try {
      const key = await newKey()
      const started = Date.now()
      for (let i = 0; i < 5; i++) expect((await getKey(app, key)).statusCode).toBe(200)
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await app.close()
    }
  })

  it.runIf(process.env.TEST_REDIS_URL)('share one counter across processes', async () => {
    const namespace = `al-test-shared:${Date.now()}:`
    const one = await startTestApp({ database: t.database, env: LIMITS, redisNamespace: namespace })
    const two = await startTestApp({ database: t.database, env: LIMITS, redisNamespace: namespace })
    try {
      const key = await newKey()
      expect((await getKey(one, key)).statusCode).toBe(200)
      expect((await getKey(two, key)).statusCode).toBe(200)
      expect((await getKey(one, key)).statusCode).toBe(200)
      const refused = await getKey(two, key)
      expect(refused.statusCode).toBe(429)
      expect(refused.json().code).toBe('rate_limited')
    } finally {
      await one.close()
      await two.close()
    }
  })
})

describe('rate limits with a Redis that hangs', () => {
  let redis: ChildProcess | undefined
  let app: TestApp | undefined
  afterAll(async () => {
    redis?.kill('SIGCONT')
    await app?.close()
    redis?.kill('SIGKILL')
  })

  it('stop asking it after a few failures, then count again once it answers, with nothing from the hung period', async () => {
    const password = 'redis-password-never-logged'
    const started = await startRedis(password)
    redis = started.process
    const limit = 100
    const lines: string[] = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) })
    app = await startTestApp({ database: t.database, env: { RATE_LIMIT_CHEAP: String(limit) }, redisUrl: started.url, logger })
    const testApp = app
    const remaining = async (key: string) => (await getKey(testApp, key)).headers['x-ratelimit-remaining']
    const key = await newKey()
    expect([await remaining(key), await remaining(key)]).toEqual([String(limit - 1), String(limit - 2)])

    await stopAndWait(redis)
    const durations: number[] = []
    for (let i = 0; i < 15; i++) {
      const sentAt = performance.now()
      const res = await getKey(testApp, key)
      durations.push(performance.now() - sentAt)
      expect(res.statusCode).toBe(200)
      expect(res.headers['x-ratelimit-remaining'], 'uncounted: fails open').toBeUndefined()
    }
    expect(median(durations)).toBeLessThan(100)

    redis.kill('SIGCONT')
    // Another key tells when hits are counted again, so this key's count holds only what follows.
    const watcher = await newKey()
    await vi.waitFor(async () => expect(await remaining(watcher)).toBeDefined(), { timeout: 10_000, interval: 50 })
    const after = [await remaining(key), await remaining(key), await remaining(key)]
    expect(after).toEqual([String(limit - 3), String(limit - 4), String(limit - 5)])
    // One line when the circuit opened and one when it closed, however many requests went by.
    const transitions = lines.map((line) => JSON.parse(line).msg as string).filter((msg) => msg.startsWith('Redis'))
    expect(transitions).toEqual([expect.stringMatching(/^Redis does not answer/), expect.stringMatching(/^Redis answers again/)])
    expect(lines.join('')).not.toContain(password)
  })
})

/** A Redis of the test's own, which it may stop and resume; resolves once it accepts connections. */
async function startRedis(password: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await unusedPort()
  const options = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', password]
  const child = spawn('redis-server', options, { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    let output = ''
    // The listener stays on: its log must keep draining, or a full pipe would block Redis.
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)))
  })
  return { url: `redis://:${password}@127.0.0.1:${port}`, process: child }
}

/** SIGSTOP, then waits until the kernel reports the process stopped (state T in /proc). */
function stopAndWait(child: ChildProcess): Promise<void> {
  child.kill('SIGSTOP')
  return vi.waitFor(() => expect(readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.[0]).toBe('T'), { interval: 5 })
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}
