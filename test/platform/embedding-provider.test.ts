import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createEmbeddingProvider, type EmbeddingProvider } from '../../src/platform/embeddings/provider.js'
import { startServer, type TestServer } from '../support/http-server.js'
import { embeddingFailure } from '../support/embedding-failure.js'

/** The provider against a real HTTP server whose next answer each test sets. */
let server: TestServer
let answer: (body: { model: string; input: string[] }) => { status: number; body: string } | 'hang'
let seen: Array<{ headers: Record<string, unknown>; body: { model: string; input: string[] } }>
const providers: EmbeddingProvider[] = []

beforeAll(async () => {
  server = await startServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      seen.push({ headers: req.headers, body })
      const reply = answer(body)
      if (reply !== 'hang') res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body)
    })
  })
})
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.close()))
})
afterAll(() => server.close())

function provider(overrides: { apiKey?: string; dimensions?: number } = {}) {
  const created = createEmbeddingProvider({ baseUrl: `${server.url}/v1`, model: 'm1', apiKey: overrides.apiKey, dimensions: overrides.dimensions, timeoutMs: 1000 })
  providers.push(created)
  return created
}

const ok = (data: unknown) => () => ({ status: 200, body: JSON.stringify({ data }) })

describe('the OpenAI-compatible embedding provider', () => {
  it('POSTs {model, input} to <base>/embeddings with the key as a bearer token, and orders vectors by index', async () => {
    seen = []
    answer = ok([
      { index: 1, embedding: [0, 1] },
      { index: 0, embedding: [1, 0] },
    ])
    const vectors = await provider({ apiKey: 'sk-secret' }).embed(['first', 'second'], { timeoutMs: 1000 })
    expect(vectors).toEqual([
      [1, 0],
      [0, 1],
    ])
    expect(server.hits.at(-1)).toBe('/v1/embeddings')
    expect(seen[0]!.body).toEqual({ model: 'm1', input: ['first', 'second'] })
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-secret')
    await provider().embed(['x'], { timeoutMs: 1000 }).catch(() => undefined)
    expect(seen[1]!.headers.authorization).toBeUndefined()
  })

  it.each([
    ['a 4xx is rejected', () => ({ status: 400, body: '{"error":"input too long"}' }), 'rejected', /answered 400$/],
    ['a 429 is unavailable, for retry', () => ({ status: 429, body: '' }), 'unavailable', /answered 429/],
    ['a 5xx is unavailable', () => ({ status: 502, body: 'bad gateway' }), 'unavailable', /answered 502/],
    ['not JSON', () => ({ status: 200, body: '<html>' }), 'bad_response', /not JSON/],
    ['too few vectors', ok([{ embedding: [1] }]), 'bad_response', /returned 1 vectors for 2 texts/],
    ['a vector of strings', ok([{ embedding: ['1'] }, { embedding: [1] }]), 'bad_response', /not a list of numbers/],
    ['vectors of different lengths', ok([{ embedding: [1, 2] }, { embedding: [1] }]), 'dimension_mismatch', /returned 1 dimensions/],
    ['a zero vector', ok([{ embedding: [0, 0] }, { embedding: [1, 0] }]), 'bad_response', /zero vector/],
  ] as const)('fails clearly when %s', async (_name, reply, kind, message) => {
    answer = reply
    const error = await embeddingFailure(provider().embed(['a', 'b'], { timeoutMs: 1000 }))
    expect(error.kind).toBe(kind)
    expect(error.message).toMatch(message)
  })

  it('keeps what the provider said out of the message, and the API key out of the excerpt kept for the log', async () => {
    answer = (body) => ({ status: 401, body: JSON.stringify({ error: `Invalid token: Bearer sk-live-SECRET for ${body.input[0]}` }) })
    const error = await embeddingFailure(provider({ apiKey: 'sk-live-SECRET' }).embed(['private text'], { timeoutMs: 1000 }))
    expect(error.message).toBe('the embedding provider answered 401')
    expect(error.providerSaid).toContain('Invalid token: Bearer [redacted]')
    expect(error.providerSaid).not.toContain('sk-live-SECRET')
  })

  it('checks the configured dimension and says what to set', async () => {
    answer = ok([{ embedding: [1, 2, 3] }])
    const error = await embeddingFailure(provider({ dimensions: 384 }).embed(['a'], { timeoutMs: 1000 }))
    expect(error).toMatchObject({ kind: 'dimension_mismatch' })
    expect(error.message).toContain('returned 3 dimensions where EMBEDDING_DIMENSIONS is 384')
  })

  it('gives up at the deadline, and when the provider cannot be reached', async () => {
    answer = () => 'hang'
    const started = Date.now()
    expect(await embeddingFailure(provider().embed(['a'], { timeoutMs: 150 }))).toMatchObject({ kind: 'timeout' })
    expect(Date.now() - started).toBeLessThan(1000)
    const unreachable = createEmbeddingProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: undefined, dimensions: undefined, timeoutMs: 1000 })
    providers.push(unreachable)
    expect(await embeddingFailure(unreachable.embed(['a'], { timeoutMs: 1000 }))).toMatchObject({ kind: 'unavailable' })
  })
})
