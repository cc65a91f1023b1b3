import { connect, type AddressInfo, type Socket } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_IMAGE_BYTES } from '../../src/modules/assets/push.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { pushAndRead } from '../support/fixtures.js'
import { gaussianNoise } from '../support/images.js'
import { waitFor } from '../support/wait.js'

/**
 * Slow clients, over real sockets: headers and bodies that stop arriving lose their connection (408
 * problem+json), while slow but steady uploads and slow readers keep theirs. The app runs with the
 * timeouts shrunk; the literal 25 MiB upload at 200 KiB/s runs with the defaults.
 */

const HEADERS_MS = 3_000
const BODY_IDLE_MS = 1_000
const KEEP_ALIVE_MS = 4_000
const SHRUNK = {
  HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
  HTTP_BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_MS),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
  RATE_LIMIT_STANDARD: '10000',
  RATE_LIMIT_ANONYMOUS: '10000',
}

let t: TestApp
let acme: Seeded
let port: number

/** The socket's 'timeout' (the idle timer expired) on a test route's connection, seen from the route. */
const idleTimerFired = (socket: Socket) => new Promise((resolve) => socket.once('timeout', resolve))

beforeAll(async () => {
  t = await startTestApp({
    env: SHRUNK,
    routes: (app) => {
      // Answers only after the connection's idle timer went off while the answer was being prepared.
      app.post('/test/slow-answer', { config: { auth: { kind: 'public' } }, schema: { body: {} } }, async (request) => {
        await idleTimerFired(request.raw.socket)
        return { answered: true }
      })
      // Reads its body only after the idle timer went off while the client was held back by the server.
      app.addContentTypeParser('application/x-late', (request, payload, done) => {
        void idleTimerFired(request.raw.socket).then(async () => {
          let length = 0
          for await (const chunk of payload) length += (chunk as Buffer).length
          done(null, length)
        })
      })
      app.post('/test/late-reader', { config: { auth: { kind: 'public' } }, schema: { body: {} } }, async (request) => ({ read: request.body }))
    },
  })
  acme = await seedOrganization(t.app)
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  port = (t.app.server.address() as AddressInfo).port
})
afterAll(() => t.close())

interface Closed {
  /** Everything the server sent, as text. */
  text: string
  /** Whether the server closed the connection (rather than the test, at its bound). */
  byServer: boolean
  afterMs: number
}

/** A raw connection recording what the server sends until it closes, or the test gives up at `boundMs`. */
function rawConnection(boundMs: number, to = port): { socket: Socket; closed: Promise<Closed> } {
  const socket = connect(to, '127.0.0.1')
  const started = Date.now()
  let text = ''
  let byServer = true
  socket.on('data', (data: Buffer) => (text += data.toString('latin1')))
  // A reset is a close too.
  socket.on('error', () => undefined)
  const bound = setTimeout(() => {
    byServer = false
    socket.destroy()
  }, boundMs)
  const closed = new Promise<Closed>((resolve) =>
    socket.once('close', () => {
      clearTimeout(bound)
      resolve({ text, byServer, afterMs: Date.now() - started })
    }),
  )
  return { socket, closed }
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
}

function parseAnswer(text: string): Answer {
  const end = text.indexOf('\r\n\r\n')
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) }
}

function expectRequestTimeout(closed: Closed): Answer {
  expect(closed.byServer).toBe(true)
  const answer = parseAnswer(closed.text)
  expect(answer.status).toBe(408)
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(answer.headers.connection).toBe('close')
  expect(JSON.parse(answer.body)).toMatchObject({ status: 408, code: 'request_timeout', type: 'urn:asset-library:problem:request_timeout' })
  return answer
}

const head = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`

/** Writes `body` at `bytesPerSecond`, a tenth of a second's worth at a time, waiting for 'drain' when the socket is full. */
async function paced(socket: Socket, body: Buffer, bytesPerSecond: number): Promise<void> {
  const step = Math.ceil(bytesPerSecond / 10)
  const started = Date.now()
  for (let sent = 0; sent < body.length && !socket.destroyed; ) {
    const chunk = body.subarray(sent, sent + step)
    sent += chunk.length
    if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve))
    await delay(Math.max(0, started + (sent / bytesPerSecond) * 1000 - Date.now()))
  }
}

describe('a request body that stops arriving', () => {
  it('is answered 408 request_timeout after the idle timeout and its connection closed, with an API key', async () => {
    const { socket, closed } = rawConnection(10 * BODY_IDLE_MS)
    socket.write(head('POST', '/api/v1/collections', { ...bearer(acme.writeKey), 'content-type': 'application/json', 'content-length': 200 }))
    socket.write('{"name":"Sta')
    const result = await closed
    const answer = expectRequestTimeout(result)
    expect(answer.headers['x-request-id']).toBeTruthy()
    expect(result.afterMs).toBeGreaterThanOrEqual(BODY_IDLE_MS - 50)
  })

  it('is answered the same without credentials, on a route that reads the body first (sign-in)', async () => {
    const { socket, closed } = rawConnection(10 * BODY_IDLE_MS)
    socket.write(head('POST', '/app/api/login', { 'content-type': 'application/json', 'content-length': 200 }))
    socket.write('{"email":"a')
    expectRequestTimeout(await closed)
  })

  it('answered before it was read (401 without a key), loses its connection when the rest does not come', async () => {
    const { socket, closed } = rawConnection(10 * (BODY_IDLE_MS + KEEP_ALIVE_MS))
    socket.write(head('POST', '/api/v1/collections', { 'content-type': 'application/json', 'content-length': 200 }))
    socket.write('{"name":"Sta')
    const result = await closed
    expect(result.byServer).toBe(true)
    expect(parseAnswer(result.text).status).toBe(401)
    // At the body's idle timeout, not at the longer keep-alive timeout that follows an answer.
    expect(result.afterMs).toBeLessThan(KEEP_ALIVE_MS)
  })

  it('goes through when it arrives slowly but steadily: each byte restarts the idle timer', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'Steady', description: 'x'.repeat(100) }))
    const { socket, closed } = rawConnection(20 * BODY_IDLE_MS)
    socket.write(head('POST', '/api/v1/collections', { ...bearer(acme.writeKey), 'content-type': 'application/json', 'content-length': body.length, connection: 'close' }))
    // About four seconds for the body, four times the idle timeout, a few bytes every tenth of a second.
    await paced(socket, body, Math.ceil(body.length / 4))
    const answer = parseAnswer((await closed).text)
    expect(answer.status, answer.body).toBe(201)
    expect(JSON.parse(answer.body)).toMatchObject({ name: 'Steady' })
  })

  it('is not blamed on the client while the server is the one not reading it', async () => {
    const body = Buffer.alloc(8 * 1024 * 1024, 1)
    const { socket, closed } = rawConnection(30 * BODY_IDLE_MS)
    socket.write(head('POST', '/test/late-reader', { 'content-type': 'application/x-late', 'content-length': body.length, connection: 'close' }))
    socket.write(body)
    const answer = parseAnswer((await closed).text)
    expect(answer.status, answer.body).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ read: body.length })
  })
})

describe('answers that take their time', () => {
  it('an answer prepared for longer than the body idle timeout still arrives', async () => {
    const { socket, closed } = rawConnection(20 * BODY_IDLE_MS)
    socket.write(head('POST', '/test/slow-answer', { 'content-type': 'application/json', 'content-length': 2, connection: 'close' }))
    socket.write('{}')
    const answer = parseAnswer((await closed).text)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ answered: true })
  })

  it('a slow reader of a large file gets all of it', async () => {
    // Noise does not compress: the file is larger than what the sockets buffer, so the server has to wait for the reader.
    const image = await gaussianNoise(2000, 2000)
      .png({ compressionLevel: 0 })
      .toBuffer()
    const { record } = await pushAndRead(t.app, acme, {}, image)
    const file = new URL(record.original_url)
    const { socket, closed } = rawConnection(30 * BODY_IDLE_MS)
    socket.pause()
    socket.write(head('GET', `${file.pathname}${file.search}`, { connection: 'close' }))
    // The reader stops for three idle timeouts, then reads the rest.
    await delay(3 * BODY_IDLE_MS)
    socket.resume()
    const answer = parseAnswer((await closed).text)
    expect(answer.status).toBe(200)
    expect(Buffer.from(answer.body, 'latin1').equals(image)).toBe(true)
  })
})

describe('a keep-alive connection', () => {
  it('outlives the body idle timeout between requests, serves the next one, and closes at the keep-alive timeout', async () => {
    const body = JSON.stringify({ name: 'Kept alive' })
    const { socket, closed } = rawConnection(10 * KEEP_ALIVE_MS)
    let text = ''
    socket.on('data', (data: Buffer) => (text += data.toString('latin1')))
    const answers = () => text.split('HTTP/1.1 ').length - 1
    socket.write(head('POST', '/api/v1/collections', { ...bearer(acme.writeKey), 'content-type': 'application/json', 'content-length': body.length }) + body)
    await waitFor('the first answer', () => answers() === 1 || undefined)
    // Idle between requests for longer than a body may be: that is the keep-alive timeout's to judge.
    await delay(2 * BODY_IDLE_MS)
    socket.write(head('GET', '/health', {}))
    await waitFor('the second answer', () => answers() === 2 || undefined)
    const secondAt = Date.now()
    const result = await closed
    expect(result.byServer).toBe(true)
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 201', 'HTTP/1.1 200'])
    expect(Date.now() - secondAt).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 100)
  })
})

describe('headers that never finish', () => {
  it('300 connections with half-sent headers are all answered 408 and closed at the headers timeout; /health answers meanwhile', async () => {
    const connections = Array.from({ length: 300 }, () => rawConnection(HEADERS_MS + 20_000))
    let closedCount = 0
    for (const { closed } of connections) void closed.then(() => closedCount++)
    await Promise.all(connections.map(({ socket }) => new Promise((resolve) => socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', resolve))))
    const health = await fetch(`http://127.0.0.1:${port}/health`)
    expect(health.status).toBe(200)
    expect(closedCount).toBe(0)
    for (const result of await Promise.all(connections.map(({ closed }) => closed))) {
      expectRequestTimeout(result)
      expect(result.afterMs).toBeGreaterThanOrEqual(HEADERS_MS - 50)
    }
  })
})

describe('a whole request', () => {
  let limited: TestApp
  let limitedPort: number
  beforeAll(async () => {
    limited = await startTestApp({
      database: t.database,
      env: { ...SHRUNK, HTTP_HEADERS_TIMEOUT_MS: '500', HTTP_REQUEST_TIMEOUT_MS: '2000' },
      // Starts its answer before the body is read (onRequest) and never finishes it.
      routes: (app) =>
        app.post('/test/early-answer', {
          config: { auth: { kind: 'public' } },
          onRequest: (_request, reply) => {
            reply.hijack()
            reply.raw.writeHead(200, { 'content-type': 'text/plain' }).write('started')
          },
          handler: () => undefined,
        }),
    })
    await limited.app.listen({ host: '127.0.0.1', port: 0 })
    limitedPort = (limited.app.server.address() as AddressInfo).port
  })
  afterAll(() => limited.close())

  /** A body ten times longer in coming than the request timeout, a little every tenth of a second: never idle. */
  async function endlessRequest(path: string) {
    const body = Buffer.from(JSON.stringify({ name: 'Endless', description: 'x'.repeat(400) }))
    const { socket, closed } = rawConnection(20_000, limitedPort)
    socket.write(head('POST', path, { ...bearer(acme.writeKey), 'content-type': 'application/json', 'content-length': body.length }))
    await paced(socket, body, Math.ceil(body.length / 10))
    return closed
  }

  it('that takes longer than the request timeout is answered 408, however steadily it arrives', async () => {
    const result = await endlessRequest('/api/v1/collections')
    expectRequestTimeout(result)
    expect(result.afterMs).toBeLessThan(6_000)
  })

  it('that takes longer than the request timeout after its answer started loses its connection, with no second answer', async () => {
    const result = await endlessRequest('/test/early-answer')
    expect(result.byServer).toBe(true)
    expect(result.afterMs).toBeLessThan(6_000)
    expect(result.text).toMatch(/^HTTP\/1\.1 200 /)
    expect(result.text).toContain('started')
    expect(result.text).not.toContain('HTTP/1.1 408')
  })
})

// Two minutes of a socket trickling bytes: what it proves belongs to the HTTP layer, which no database
// changes, so it runs once, in the embedded pass.
describe.runIf(!process.env.TEST_DATABASE_URL)('a legitimate slow upload under the default timeouts', () => {
  it('pushes a 24 MiB image at 200 KiB/s (about two minutes)', { timeout: 240_000 }, async () => {
    const defaults = await startTestApp({ database: t.database })
    try {
      await defaults.app.listen({ host: '127.0.0.1', port: 0 })
      // Uncompressed noise: 2896 x 2950 pixels of RGB is 24.4 MiB of PNG, just under the 25 MiB cap.
      const image = await gaussianNoise(2896, 2950)
        .png({ compressionLevel: 0 })
        .toBuffer()
      expect(image.length).toBeGreaterThan(24 * 1024 * 1024)
      expect(image.length).toBeLessThan(MAX_IMAGE_BYTES)
      const boundary = 'slow-upload-boundary'
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nSlow link\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`),
        image,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      const { socket, closed } = rawConnection(230_000, (defaults.app.server.address() as AddressInfo).port)
      socket.write(
        head('POST', '/api/v1/assets', { ...bearer(acme.writeKey), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length, connection: 'close' }),
      )
      const started = Date.now()
      await paced(socket, body, 200 * 1024)
      expect(Date.now() - started).toBeGreaterThan(100_000)
      const answer = parseAnswer((await closed).text)
      expect(answer.status, answer.body).toBe(201)
      const id = JSON.parse(answer.body).asset_id as string
      const record = await defaults.app.inject({ method: 'GET', url: `/api/v1/assets/${id}`, headers: bearer(acme.readKey) })
      expect(record.json()).toMatchObject({ title: 'Slow link', byte_size: image.length, width: 2896, height: 2950 })
    } finally {
      await defaults.close()
    }
  })
})
