import type { IncomingMessage, ServerResponse } from 'node:http'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../../../test/support/http-server.js'
import { ApiError, createClient, NetworkError, type ClientOptions, type RetryInfo } from '../src/index.js'
import { createClient as createNodeClient } from '../src/node.js'

interface Received {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: Buffer
}

type Answer = (response: ServerResponse, request: IncomingMessage) => void

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => (response) =>
  response.writeHead(status, { 'content-type': status < 400 ? 'application/json' : 'application/problem+json', ...headers }).end(JSON.stringify(body))
const problem = (status: number, code: string, headers: Record<string, string> = {}) => json(status, { type: `urn:asset-library:problem:${code}`, title: code, status, code, detail: `${code} here` }, headers)
const drop: Answer = (_response, request) => request.socket.destroy()
const hang: Answer = () => {}

let server: TestServer | undefined
let scratch: string | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  if (scratch) await rm(scratch, { recursive: true, force: true })
  scratch = undefined
})

/** A real HTTP server that gives these answers in turn (the last one forever), recording each request. */
async function answering(...answers: Answer[]): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = []
  server = await startServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks) })
      answers[Math.min(received.length, answers.length) - 1]!(response, request)
    })
  })
  return { url: server.url, received }
}

function clientOf(url: string, options: Partial<ClientOptions> = {}) {
  const retries: RetryInfo[] = []
  const client = createClient({ baseUrl: url, apiKey: 'al_test_key', retryBaseDelayMs: 5, onRetry: (retry) => retries.push(retry), ...options })
  return { client, retries }
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  )
}

const asset = { asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55', duplicate: false }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('retries', () => {
  it('retries a GET after a 503 and tells onRetry', async () => {
    const { url, received } = await answering(problem(503, 'internal_error'), json(200, { data: [], total: 0, limit: 100, offset: 0 }))
    const { client, retries } = clientOf(url)
    expect(await client.tags.list()).toEqual({ data: [], total: 0, limit: 100, offset: 0 })
    expect(received).toHaveLength(2)
    expect(received[0]!.headers.authorization).toBe('Bearer al_test_key')
    expect(received[0]!.headers['idempotency-key']).toBeUndefined()
    expect(retries).toEqual([{ attempt: 1, delayMs: expect.any(Number), reason: 'server_unavailable', method: 'GET', path: '/api/v1/tags', status: 503, idempotencyKey: undefined }])
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(5)
  })

  it('retries a push with the Idempotency-Key it made up, the same on every attempt, and the same multipart body', async () => {
    const { url, received } = await answering(problem(502, 'internal_error'), problem(504, 'internal_error'), json(201, asset))
    const { client, retries } = clientOf(url)
    expect(await client.assets.push(new Uint8Array([1, 2, 3]), { title: 'Logo', tag_names: ['a', '[b]'] })).toEqual(asset)
    expect(received).toHaveLength(3)
    const key = received[0]!.headers['idempotency-key']
    expect(key).toMatch(UUID)
    expect(received.map((request) => request.headers['idempotency-key'])).toEqual([key, key, key])
    expect(retries.map((retry) => [retry.attempt, retry.reason, retry.status, retry.idempotencyKey])).toEqual([
      [1, 'server_unavailable', 502, key],
      [2, 'server_unavailable', 504, key],
    ])
    const form = received[2]!.body.toString('latin1')
    expect(form).toContain('name="title"\r\n\r\nLogo')
    expect(form).toContain('name="tag_names"\r\n\r\n["a","[b]"]')
    expect(form).toContain('\x01\x02\x03')
    // A new logical call gets a new key.
    await client.assets.push(new Uint8Array([1, 2, 3]))
    expect(received[3]!.headers['idempotency-key']).toMatch(UUID)
    expect(received[3]!.headers['idempotency-key']).not.toBe(key)
  })

  it('sends the caller\'s Idempotency-Key on every attempt, on PATCH and DELETE too', async () => {
    const { url, received } = await answering(problem(503, 'internal_error'), json(200, {}), problem(503, 'internal_error'), (response) => response.writeHead(204).end())
    const { client } = clientOf(url)
    await client.assets.update('a1', { title: 'x' }, { idempotencyKey: 'my-key-1' })
    expect(await client.assets.delete('a1')).toBeUndefined()
    expect(received.map((request) => [request.method, request.headers['idempotency-key']])).toEqual([
      ['PATCH', 'my-key-1'],
      ['PATCH', 'my-key-1'],
      ['DELETE', received[2]!.headers['idempotency-key']],
      ['DELETE', received[2]!.headers['idempotency-key']],
    ])
    expect(received[2]!.headers['idempotency-key']).toMatch(UUID)
  })

  it('retries while the server still runs the first request with the key (409 idempotency_key_in_use)', async () => {
    const { url, received } = await answering(problem(409, 'idempotency_key_in_use'), json(201, { id: 'c1' }))
    const { client, retries } = clientOf(url)
    expect(await client.collections.create({ name: 'x' })).toEqual({ id: 'c1' })
    expect(received[1]!.headers['idempotency-key']).toBe(received[0]!.headers['idempotency-key'])
    expect(retries.map((retry) => [retry.reason, retry.status])).toEqual([['key_in_use', 409]])
  })

  it('makes its keys from getRandomValues where randomUUID is missing (a browser page over http)', async () => {
    const { url, received } = await answering(json(201, asset))
    const { client } = clientOf(url)
    const randomUUID = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(crypto), 'randomUUID')!
    Object.defineProperty(Object.getPrototypeOf(crypto), 'randomUUID', { value: undefined, configurable: true })
    try {
      expect(crypto.randomUUID).toBeUndefined()
      await client.assets.push(new Uint8Array([1]))
    } finally {
      Object.defineProperty(Object.getPrototypeOf(crypto), 'randomUUID', randomUUID)
    }
    expect(received[0]!.headers['idempotency-key']).toMatch(UUID)
  })

  it('never retries a POST without a key when automatic keys are off, but still retries its 429', async () => {
    const { url, received } = await answering(problem(503, 'internal_error'), json(201, asset))
    const { client, retries } = clientOf(url, { autoIdempotencyKeys: false })
    expect(await thrown(client.collections.create({ name: 'x' }))).toMatchObject({ status: 503, code: 'internal_error' })
    expect(received).toHaveLength(1)
    expect(received[0]!.headers['idempotency-key']).toBeUndefined()
    expect(retries).toEqual([])

    const limited = await answering(problem(429, 'rate_limited', { 'retry-after': '0' }), json(201, asset))
    const second = clientOf(limited.url, { autoIdempotencyKeys: false })
    expect(await second.client.assets.push(new Uint8Array([1]))).toEqual(asset)
    expect(second.retries.map((retry) => retry.reason)).toEqual(['rate_limited'])
  })

  it('waits for Retry-After on a 429', async () => {
    const { url, received } = await answering(problem(429, 'rate_limited', { 'retry-after': '1' }), json(200, { scope: 'assets:read' }))
    const { client, retries } = clientOf(url)
    const started = Date.now()
    await client.auth.key()
    expect(Date.now() - started).toBeGreaterThanOrEqual(990)
    expect(received).toHaveLength(2)
    expect(retries).toEqual([expect.objectContaining({ reason: 'rate_limited', delayMs: 1000, status: 429 })])
  })

  it('throws a 429 whose Retry-After is over the cap, with retryAfter, without waiting', async () => {
    const { url, received } = await answering(problem(429, 'rate_limited', { 'retry-after': '120' }))
    const { client, retries } = clientOf(url, { maxRetryAfterSeconds: 30 })
    const error = await thrown(client.search({ q: 'x' }))
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 120, detail: 'rate_limited here' })
    expect(received).toHaveLength(1)
    expect(retries).toEqual([])
  })

  it('retries a dropped connection, and gives a NetworkError when every attempt drops', async () => {
    const { url, received } = await answering(drop, json(200, { scope: 'assets:read' }))
    const { client, retries } = clientOf(url)
    expect(await client.auth.key()).toEqual({ scope: 'assets:read' })
    expect(received).toHaveLength(2)
    expect(retries.map((retry) => [retry.reason, retry.status])).toEqual([['network_error', undefined]])

    const dead = await answering(drop)
    const failing = clientOf(dead.url, { maxAttempts: 4 })
    const error = await thrown(failing.client.collections.create({ name: 'x' }))
    expect(error).toBeInstanceOf(NetworkError)
    expect(error).toMatchObject({ method: 'POST', path: '/api/v1/collections', timedOut: false })
    expect(dead.received).toHaveLength(4)
    expect(failing.retries.map((retry) => retry.attempt)).toEqual([1, 2, 3])
  })

  it('gives up on an attempt after timeoutMs and retries it', async () => {
    const { url, received } = await answering(hang, json(200, { scope: 'assets:read' }))
    const { client, retries } = clientOf(url, { timeoutMs: 300 })
    expect(await client.auth.key()).toEqual({ scope: 'assets:read' })
    expect(received).toHaveLength(2)
    expect(retries.map((retry) => retry.reason)).toEqual(['timeout'])
  })

  it('stops after maxAttempts, and does not retry a client error or a failed image fetch', async () => {
    const { url, received } = await answering(problem(503, 'internal_error'))
    const { client } = clientOf(url, { maxAttempts: 2 })
    expect(await thrown(client.tags.list())).toMatchObject({ status: 503 })
    expect(received).toHaveLength(2)

    for (const answer of [problem(400, 'validation_failed'), problem(502, 'image_fetch_failed')]) {
      const once = await answering(answer)
      const { client: single, retries } = clientOf(once.url)
      await thrown(single.assets.push(new URL('https://example.com/a.png')))
      expect(once.received).toHaveLength(1)
      expect(JSON.parse(once.received[0]!.body.toString())).toEqual({ image_url: 'https://example.com/a.png' })
      expect(retries).toEqual([])
      await server!.close()
    }
  })

  it('reads an error that is not a problem (a proxy page) with no code', async () => {
    const { url } = await answering((response) => response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'))
    const { client } = clientOf(url, { maxAttempts: 1 })
    expect(await thrown(client.tags.list())).toMatchObject({ status: 502, code: undefined, fieldProblems: [] })
  })

  it('stops waiting when the caller aborts', async () => {
    const { url, received } = await answering(problem(429, 'rate_limited', { 'retry-after': '30' }))
    const { client } = clientOf(url)
    const controller = new AbortController()
    const call = client.tags.list(undefined, { signal: controller.signal })
    await expect.poll(() => received.length).toBe(1)
    controller.abort(new Error('stop'))
    expect(await thrown(call)).toEqual(new Error('stop'))
    expect(received).toHaveLength(1)
  })

  it('re-opens a file pushed by path on each attempt', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'client-retries-'))
    const path = join(scratch, 'logo.png')
    await writeFile(path, 'first bytes')
    const { url, received } = await answering(
      (response) => {
        void writeFile(path, 'second bytes').then(() => problem(503, 'internal_error')(response, undefined as never))
      },
      json(201, asset),
    )
    const client = createNodeClient({ baseUrl: url, apiKey: 'al_test_key', retryBaseDelayMs: 5 })
    expect(await client.assets.push(path)).toEqual(asset)
    expect(received.map((request) => request.body.toString('latin1'))).toEqual([
      expect.stringContaining('filename="logo.png"\r\nContent-Type: application/octet-stream\r\n\r\nfirst bytes'),
      expect.stringContaining('second bytes'),
    ])
    expect(received[0]!.headers['content-length']).toBe(String(received[0]!.body.length))
  })
})

describe('rate-limit state', () => {
  it('keeps what each bucket last said, and reports every answer', async () => {
    const headers = { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '42', 'idempotent-replayed': 'true', 'x-request-id': 'req-1' }
    const { url } = await answering(json(201, asset, headers))
    const seen: unknown[] = []
    const { client } = clientOf(url, { onResponse: (response) => seen.push(response) })
    expect(client.rateLimit('expensive')).toBeUndefined()
    const before = Date.now()
    await client.assets.push(new Uint8Array([1]))
    const state = client.rateLimit('expensive')!
    expect(state).toMatchObject({ bucket: 'expensive', limit: 30, remaining: 7 })
    expect(state.resetAt - state.observedAt).toBe(42_000)
    expect(state.observedAt).toBeGreaterThanOrEqual(before)
    expect(client.rateLimit('cheap')).toBeUndefined()
    expect(seen).toEqual([{ method: 'POST', path: '/api/v1/assets', status: 201, attempt: 1, bucket: 'expensive', rateLimit: state, requestId: 'req-1', replayed: true }])
  })
})
