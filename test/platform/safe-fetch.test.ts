import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'
import { isIP, type AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createSafeFetcher,
  SafeFetchError,
  type HostResolver,
  type SafeFetcher,
  type SafeFetcherOptions,
  type SafeFetchErrorKind,
} from '../../src/platform/net/safe-fetch.js'
import { noisePng } from '../support/images.js'

interface TestServer {
  origin: string
  port: number
  /** TCP connections accepted: zero proves a blocked fetch never reached the server. */
  connections: number
  requests: IncomingMessage[]
  /** Settles when a response is closed, finished or not: shows the client hung up. */
  responseClosed: Promise<void>
}

const servers: Server[] = []
const fetchers: SafeFetcher[] = []

afterEach(async () => {
  await Promise.all(fetchers.splice(0).map((fetcher) => fetcher.close()))
  await Promise.all(servers.splice(0).map(closeServer))
})

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

async function startServer(handler: RequestListener = ok): Promise<TestServer> {
  let onResponseClosed!: () => void
  const state: TestServer = {
    origin: '',
    port: 0,
    connections: 0,
    requests: [],
    responseClosed: new Promise((resolve) => (onResponseClosed = resolve)),
  }
  const server = createServer((req, res) => {
    state.requests.push(req)
    res.on('close', onResponseClosed)
    handler(req, res)
  })
  server.on('connection', () => state.connections++)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.port = (server.address() as AddressInfo).port
  state.origin = `http://127.0.0.1:${state.port}`
  return state
}

function ok(_req: IncomingMessage, res: ServerResponse) {
  res.end('ok')
}

function redirectTo(location: string, status = 302): RequestListener {
  return (_req, res) => res.writeHead(status, { location }).end()
}

/** Offline DNS: names map to fixed addresses, anything else does not exist. */
function fakeDns(records: Record<string, string[]>): HostResolver {
  return async (hostname) => {
    const addresses = records[hostname]
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }))
  }
}

function fetcher(options: SafeFetcherOptions = {}): SafeFetcher {
  const created = createSafeFetcher({ connectTimeoutMs: 1_000, totalTimeoutMs: 5_000, ...options })
  fetchers.push(created)
  return created
}

const loopbackAllowed = () => fetcher({ allowlist: ['127.0.0.1/32'] })

async function expectFailure(promise: Promise<unknown>, kind: SafeFetchErrorKind): Promise<SafeFetchError> {
  const error = await promise.then(
    () => expect.unreachable(`expected a ${kind} failure`),
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SafeFetchError)
  expect((error as SafeFetchError).kind).toBe(kind)
  return error as SafeFetchError
}

/** API clients see these messages: they must not echo addresses or host names back. */
function expectNoInternalDetails(error: SafeFetchError) {
  expect(error.message).not.toMatch(/\d+\.\d+\.\d+|::|localhost|\.test|nip\.io|:\d{2,5}\b/)
}

describe('safe fetch of allowlisted servers', () => {
  it('returns the body as a Buffer with status, headers and final URL', async () => {
    const image = await noisePng(150)
    const server = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(image))

    const response = await loopbackAllowed().fetch(`${server.origin}/cat.png`)

    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('image/png')
    expect(Buffer.isBuffer(response.body)).toBe(true)
    expect(response.body.equals(image)).toBe(true)
    expect(response.url).toBe(`${server.origin}/cat.png`)
    expect(response.redirects).toBe(0)
  })

  it('follows up to 5 redirects within the allowlist, relative and cross-origin', async () => {
    const final = await startServer((_req, res) => res.end('final'))
    const hops = await startServer((req, res) => {
      const step = Number(req.url!.slice(1))
      if (step < 4) res.writeHead(302, { location: `/${step + 1}` }).end()
      else res.writeHead(307, { location: `${final.origin}/done` }).end()
    })

    const response = await loopbackAllowed().fetch(`${hops.origin}/0`, { headers: { authorization: 'Bearer secret' } })

    expect(response.body.toString()).toBe('final')
    expect(response.url).toBe(`${final.origin}/done`)
    expect(response.redirects).toBe(5)
    expect(hops.requests.map((r) => r.url)).toEqual(['/0', '/1', '/2', '/3', '/4'])
    expect(hops.requests[4]!.headers.authorization).toBe('Bearer secret')
    expect(final.requests[0]!.headers.authorization).toBeUndefined()
  })

  it('refuses a sixth redirect with too_many_redirects', async () => {
    const loop = await startServer((req, res) => res.writeHead(301, { location: `${req.url}x` }).end())

    await expectFailure(loopbackAllowed().fetch(`${loop.origin}/`), 'too_many_redirects')
    expect(loop.requests).toHaveLength(6)
  })

  it('treats a redirect as bad_status when redirects are not followed (webhooks)', async () => {
    const target = await startServer()
    const redirecting = await startServer(redirectTo(`${target.origin}/`))

    const error = await expectFailure(loopbackAllowed().fetch(redirecting.origin, { method: 'POST', body: '{}', followRedirects: false }), 'bad_status')
    expect(error.status).toBe(302)
    expect(target.connections).toBe(0)
  })

  it('continues a POST as a body-less GET after a 303, keeping the body on a 307', async () => {
    const seen: string[] = []
    const server = await startServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${body}`)
        if (req.url === '/see-other') res.writeHead(303, { location: '/result' }).end()
        else if (req.url === '/temporary') res.writeHead(307, { location: '/see-other' }).end()
        else res.end('done')
      })
    })

    await loopbackAllowed().fetch(`${server.origin}/temporary`, { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } })
    expect(seen).toEqual(['POST /temporary payload', 'POST /see-other payload', 'GET /result '])
    expect(server.requests[2]!.headers['content-type']).toBeUndefined()
  })

  it('reports a non-2xx answer as bad_status with its status', async () => {
    const server = await startServer((_req, res) => res.writeHead(404).end('nope'))

    const error = await expectFailure(loopbackAllowed().fetch(server.origin), 'bad_status')
    expect(error.status).toBe(404)
    expect(error.message).toBe('The remote server answered with HTTP status 404.')
  })

  it('aborts an endless body as soon as it passes maxBytes', async () => {
    const server = await startServer((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024)
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      }
      res.on('drain', pump)
      pump()
    })
    const started = Date.now()

    await expectFailure(loopbackAllowed().fetch(server.origin, { maxBytes: 1024 * 1024 }), 'too_large')
    await server.responseClosed
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('refuses a Content-Length above maxBytes without reading the body', async () => {
    // Headers and a few bytes, then silence: waiting for the body would end in a timeout instead.
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(100 * 1024 * 1024) })
      res.write('first bytes')
    })
    const started = Date.now()

    await expectFailure(loopbackAllowed().fetch(server.origin, { maxBytes: 1024 * 1024 }), 'too_large')
    await server.responseClosed
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it('refuses a whole small body whose Content-Length is above maxBytes, and nothing throws later', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '2000' })
      res.end(Buffer.alloc(2000))
    })
    const uncaught: unknown[] = []
    const record = (error: unknown) => uncaught.push(error)
    process.on('uncaughtException', record)
    try {
      await expectFailure(loopbackAllowed().fetch(server.origin, { maxBytes: 1000 }), 'too_large')
      await server.responseClosed
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('uncaughtException', record)
    }
    expect(uncaught).toEqual([])
  })

  it('accepts a body of exactly maxBytes', async () => {
    const server = await startServer((_req, res) => res.end(Buffer.alloc(1000)))

    const response = await loopbackAllowed().fetch(server.origin, { maxBytes: 1000 })
    expect(response.body).toHaveLength(1000)
  })

  it('times out a server that accepts but never answers', async () => {
    const server = await startServer(() => undefined)
    const started = Date.now()

    const error = await expectFailure(fetcher({ allowlist: ['127.0.0.1'], totalTimeoutMs: 200 }).fetch(server.origin), 'timeout')
    expect(Date.now() - started).toBeLessThan(1_500)
    expect(error.message).toBe('The remote server did not answer in time.')
  })

  it('applies the connect timeout to a DNS lookup that never answers', async () => {
    const hangingDns: HostResolver = () => new Promise(() => undefined)
    const slow = fetcher({ resolver: hangingDns, connectTimeoutMs: 150, totalTimeoutMs: 5_000 })
    const started = Date.now()

    await expectFailure(slow.fetch('http://hangs.test/'), 'timeout')
    expect(Date.now() - started).toBeLessThan(1_500)
  })

  it('reports a refused connection as unreachable', async () => {
    const closed = await startServer()
    await closeServer(servers.pop()!)

    const error = await expectFailure(loopbackAllowed().fetch(closed.origin), 'unreachable')
    expectNoInternalDetails(error)
  })

  it('reports a name that does not resolve as unreachable', async () => {
    const error = await expectFailure(fetcher({ resolver: fakeDns({}) }).fetch('http://missing.test/'), 'unreachable')
    expectNoInternalDetails(error)
  })

  it('ignores proxy environment variables', async () => {
    const proxy = await startServer()
    const target = await startServer()
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy, ALL_PROXY: process.env.ALL_PROXY }
    Object.assign(process.env, { HTTP_PROXY: proxy.origin, http_proxy: proxy.origin, ALL_PROXY: proxy.origin })
    try {
      await loopbackAllowed().fetch(target.origin)
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
    expect(target.requests).toHaveLength(1)
    expect(proxy.connections).toBe(0)
  })
})

describe('safe fetch blocks what is not public', () => {
  const dns = fakeDns({
    localhost: ['127.0.0.1', '::1'],
    '127.0.0.1.nip.io': ['127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'public-and-private.test': ['93.184.215.14', '127.0.0.1'],
    'private-and-public.test': ['10.0.0.1', '93.184.215.14'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'public.test': ['93.184.215.14'],
  })

  const table = (port: number) => [
    `http://127.0.0.1:${port}/`,
    `http://127.1:${port}/`,
    `http://2130706433:${port}/`,
    `http://0x7f000001:${port}/`,
    `http://0x7f.1:${port}/`,
    `http://017700000001:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::7f00:1]:${port}/`,
    `http://[64:ff9b::7f00:1]:${port}/`,
    `http://[2002:7f00:1::]:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://[::]:${port}/`,
    `http://localhost:${port}/`,
    `http://127.0.0.1.nip.io:${port}/`,
    `http://mapped.test:${port}/`,
    `http://public-and-private.test:${port}/`,
    `http://private-and-public.test:${port}/`,
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://172.31.255.254/',
    'http://192.168.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.test/latest/meta-data/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://192.0.2.1/',
    'https://10.0.0.1/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[2001:db8::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[::ffff:169.254.169.254]/',
    `ftp://127.0.0.1:${port}/`,
    'ftp://public.test/',
    'file:///etc/passwd',
    'gopher://public.test/',
    'http://user:pass@public.test/',
    `http://user@127.0.0.1:${port}/`,
  ]

  it('refuses every spelling of a private destination without reaching it', async () => {
    const target = await startServer()
    const guarded = fetcher({ resolver: dns })

    for (const url of table(target.port)) {
      const error = await expectFailure(guarded.fetch(url), 'blocked').catch((failure: unknown) => {
        throw new Error(`${url}: ${String(failure)}`)
      })
      expectNoInternalDetails(error)
    }
    expect(target.connections).toBe(0)
  })

  it('blocks localhost with the system resolver too', async () => {
    const target = await startServer()

    await expectFailure(fetcher().fetch(`http://localhost:${target.port}/`), 'blocked')
    expect(target.connections).toBe(0)
  })

  it('rejects a string that is not a URL as invalid_url', async () => {
    await expectFailure(fetcher().fetch('not a url'), 'invalid_url')
  })
})

describe('safe fetch re-checks every redirect hop', () => {
  const dns = fakeDns({ 'allowed.test': ['127.0.0.1'], 'internal.test': ['127.0.0.1'], localhost: ['127.0.0.1', '::1'] })
  const allowedHost = () => fetcher({ allowlist: ['allowed.test'], resolver: dns })

  it.each([
    ['a literal loopback IP', (port: number) => `http://127.0.0.1:${port}/`],
    ['a name resolving to loopback', (port: number) => `http://internal.test:${port}/`],
    ['localhost', (port: number) => `http://localhost:${port}/`],
    ['a mapped IPv6 loopback', (port: number) => `http://[::ffff:7f00:1]:${port}/`],
    ['a URL with credentials', (port: number) => `http://user:pass@allowed.test:${port}/`],
    ['another scheme', (port: number) => `ftp://allowed.test:${port}/`],
  ])('blocks a redirect from an allowlisted host to %s', async (_name, location) => {
    const internal = await startServer()
    const allowed = await startServer(redirectTo(location(internal.port)))

    const error = await expectFailure(allowedHost().fetch(`http://allowed.test:${allowed.port}/`), 'blocked')
    expectNoInternalDetails(error)
    expect(allowed.requests).toHaveLength(1)
    expect(internal.connections).toBe(0)
  })

  it('blocks a redirect to a loopback address next to an allowlisted one', async () => {
    const allowed = await startServer(redirectTo('http://127.0.0.2:9/'))

    await expectFailure(loopbackAllowed().fetch(allowed.origin), 'blocked')
  })

  it('lets the allowlisted host through on its own', async () => {
    const allowed = await startServer()

    const response = await allowedHost().fetch(`http://allowed.test:${allowed.port}/`)
    expect(response.body.toString()).toBe('ok')
  })
})
