import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, pushImage, type Method } from '../support/fixtures.js'
import { signedInMember, type Client } from '../support/sessions.js'

let t: TestApp
let acme: Seeded
let owner: Client
let port: number

beforeAll(async () => {
  t = await startTestApp()
  acme = await seedOrganization(t.app, 'Rules')
  owner = await signedInMember(t.app, acme.org.id, 'owner')
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  port = (t.app.server.address() as AddressInfo).port
})
afterAll(() => t.close())

type Headers = Record<string, string | string[]>

const call = (method: Method, url: string, headers: Headers = {}, payload?: string) =>
  t.app.inject({ method, url, headers: { ...bearer(acme.writeKey), ...headers }, ...(payload !== undefined && { payload }) })

const newAsset = async () => (await pushImage(t.app, acme.writeKey, { title: 'Rule' })).id

let names = 0
async function newCollection(): Promise<string> {
  const res = await call('POST', '/api/v1/collections', { 'content-type': 'application/json' }, JSON.stringify({ name: `Rules ${names++}` }))
  expect(res.statusCode, res.body).toBe(201)
  return res.json().id
}

/** One request written on a socket as given, its answer's status line and body (the server closes: Connection: close). */
async function rawRequest(head: string, body = ''): Promise<{ status: number; body: string }> {
  const socket = connect(port, '127.0.0.1')
  socket.write(`${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n${body}`)
  let text = ''
  for await (const chunk of socket) text += String(chunk)
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) }
}

const chunked = (...chunks: string[]) => [...chunks.filter((c) => c).map((c) => `${c.length.toString(16)}\r\n${c}\r\n`), '0\r\n\r\n'].join('')

describe('a route that takes no body', () => {
  const BODIES: Array<[string, string]> = [
    ['application/json', '{"a":1}'],
    ['application/json', '[]'],
    ['application/json', '{}'],
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'a=1'],
  ]

  it('refuses any non-empty body with 400 and does nothing: share, unshare, deletes and revoke', async () => {
    const collection = await newCollection()
    const asset = await newAsset()
    for (const [type, body] of BODIES) {
      const where = `${type} ${body}`
      const headers = { 'content-type': type }
      const share = await call('POST', `/api/v1/collections/${collection}/share`, headers, body)
      expect(share.json().errors, where).toEqual([{ pointer: '/', detail: 'this endpoint takes no body' }])
      expectInvalid(share, '/')
      expectInvalid(await call('DELETE', `/api/v1/collections/${collection}/share`, headers, body), '/')
      expectInvalid(await call('DELETE', `/api/v1/collections/${collection}`, headers, body), '/')
      expectInvalid(await call('DELETE', `/api/v1/assets/${asset}`, headers, body), '/')
      expectInvalid(await call('POST', '/api/v1/auth/revoke', { ...headers, ...bearer(acme.readKey) }, body), '/')
      expectInvalid(await call('GET', `/api/v1/assets/${asset}`, headers, body), '/')
    }
    expect((await call('GET', `/api/v1/collections/${collection}`)).json().shared).toBe(false)
    expect((await call('GET', `/api/v1/assets/${asset}`)).statusCode).toBe(200)
    expect((await call('GET', '/api/v1/auth/key', bearer(acme.readKey))).statusCode).toBe(200)
  })

  it('refuses a body on the app\u2019s own endpoints alike', async () => {
    const key = await owner.post(`/app/api/orgs/${acme.org.slug}/keys`, { name: 'kept', scope: 'assets:read' })
    const url = `/app/api/orgs/${acme.org.slug}/keys/${key.json().id}`
    const headers = { cookie: owner.cookie, 'x-csrf-token': owner.csrf, 'content-type': 'application/json' }
    expectInvalid(await t.app.inject({ method: 'DELETE', url, headers, payload: '{"a":1}' }), '/')
    expectInvalid(await t.app.inject({ method: 'POST', url: '/app/api/logout', headers, payload: '[]' }), '/')
    expect((await owner.get('/app/api/session')).statusCode).toBe(200)
    expect((await owner.delete(url)).statusCode).toBe(204)
  })

  it('takes an empty body with any content type, or none, declared or chunked', async () => {
    const collection = await newCollection()
    const url = `/api/v1/collections/${collection}/share`
    const types: Headers[] = [{}, { 'content-type': 'application/json' }, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }]
    for (const headers of types) {
      expect((await call('POST', url, headers)).statusCode, JSON.stringify(headers)).toBe(201)
      expect((await call('POST', url, { ...headers, 'content-length': '0' }, '')).statusCode, JSON.stringify(headers)).toBe(201)
    }
    const auth = `Authorization: Bearer ${acme.writeKey}`
    for (const type of ['application/json', 'text/plain']) {
      const empty = await rawRequest(`POST ${url} HTTP/1.1\r\n${auth}\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked`, chunked())
      expect(empty.status, `${type} ${empty.body}`).toBe(201)
      const sent = await rawRequest(`POST ${url} HTTP/1.1\r\n${auth}\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked`, chunked('{"a":', '1}'))
      expect(sent.status, sent.body).toBe(400)
      expect(JSON.parse(sent.body)).toMatchObject({ code: 'validation_failed', errors: [{ pointer: '/' }] })
    }
  })
})

describe('bodies', () => {
  it('text/plain on a JSON endpoint is 415 unsupported_media_type', async () => {
    expectProblem(await call('POST', '/api/v1/collections', { 'content-type': 'text/plain' }, '{"name":"Plain"}'), 415, 'unsupported_media_type')
    expectProblem(await call('POST', '/api/v1/search', { 'content-type': 'text/plain' }, '{"q":"x"}'), 415, 'unsupported_media_type')
    expectProblem(await t.app.inject({ method: 'POST', url: '/app/api/login', headers: { 'content-type': 'text/plain' }, payload: '{}' }), 415, 'unsupported_media_type')
  })

  it('a content-coded body is 415 unsupported_content_encoding with Accept-Encoding: identity; identity is plain', async () => {
    const body = JSON.stringify({ name: `Coded ${names++}` })
    for (const coding of ['gzip', 'br', 'deflate, gzip']) {
      const res = await call('POST', '/api/v1/collections', { 'content-type': 'application/json', 'content-encoding': coding }, body)
      expectProblem(res, 415, 'unsupported_content_encoding')
      expect(res.headers['accept-encoding']).toBe('identity')
    }
    const asset = await newAsset()
    expectProblem(await call('PATCH', `/api/v1/assets/${asset}`, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, '{"title":"x"}'), 415, 'unsupported_content_encoding')
    expect((await call('GET', '/api/v1/collections')).json().data.map((c: { name: string }) => c.name)).not.toContain(JSON.parse(body).name)
    expect((await call('POST', '/api/v1/collections', { 'content-type': 'application/json', 'content-encoding': 'identity' }, body)).statusCode).toBe(201)
  })
})

describe('the URL', () => {
  it('an integer query parameter is decimal digits: 0x10, 1e1, Infinity, +5 or " 16" are 400', async () => {
    for (const [name, value] of [['limit', '0x10'], ['limit', 'Infinity'], ['limit', '1e1'], ['limit', '+5'], ['limit', '%2016'], ['offset', '0x1'], ['offset', '1.0']]) {
      expectInvalid(await call('GET', `/api/v1/assets?${name}=${value}`), `/query/${name}`)
    }
    expectInvalid(await call('GET', '/api/v1/collections?limit=0x10&offset=Infinity'), '/query/limit', '/query/offset')
    expectInvalid(await call('GET', `/api/v1/assets/${await newAsset()}/similar?limit=0x10`), '/query/limit')
    const page = await call('GET', '/api/v1/assets?limit=016&offset=0')
    expect(page.statusCode, page.body).toBe(200)
    expect(page.json()).toMatchObject({ limit: 16, offset: 0 })
  })

  it('a bad percent-encoding in the query is 400 bad_url, as in the path', async () => {
    for (const query of ['q=%ZZ', 'q=%E0%A4%A', 'tag=%', 'q=a&%ZZ=b']) {
      expectProblem(await call('GET', `/api/v1/assets?${query}`), 400, 'bad_url')
    }
    expectProblem(await call('GET', '/api/v1/assets/%ZZ'), 400, 'bad_url')
    expectProblem(await t.app.inject({ method: 'GET', url: `/app/api/orgs/${acme.org.slug}/members?x=%ZZ` }), 400, 'bad_url')
    expect((await call('GET', '/api/v1/assets?q=caf%C3%A9%20bar%2B')).statusCode).toBe(200)
  })
})

describe('headers that may appear once', () => {
  // On a socket: app.inject (light-my-request 6.6, pinned for Node 20) joins a repeated header into one.
  it('two Authorization headers are 400 bad_request, whichever comes first, and change nothing', async () => {
    const twice = (first: string, second: string) => `Authorization: Bearer ${first}\r\nAuthorization: Bearer ${second}`
    for (const [first, second] of [[acme.writeKey, 'al_nope'], ['al_nope', acme.writeKey], [acme.readKey, acme.writeKey]] as const) {
      const res = await rawRequest(`GET /api/v1/auth/key HTTP/1.1\r\n${twice(first, second)}`)
      expect(res.status, res.body).toBe(400)
      expect(JSON.parse(res.body)).toMatchObject({ code: 'bad_request' })
    }
    const collection = await newCollection()
    const deleted = await rawRequest(`DELETE /api/v1/collections/${collection} HTTP/1.1\r\n${twice(acme.readKey, acme.writeKey)}`)
    expect(deleted.status, deleted.body).toBe(400)
    expect((await call('GET', `/api/v1/collections/${collection}`)).statusCode).toBe(200)
  })

  it('for Content-Type and Host too', async () => {
    const body = JSON.stringify({ name: 'Twice typed' })
    const typed = await rawRequest(
      `POST /api/v1/collections HTTP/1.1\r\nAuthorization: Bearer ${acme.writeKey}\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}`,
      body,
    )
    expect(typed.status, typed.body).toBe(400)
    const hosts = await rawRequest(`GET /api/v1/auth/key HTTP/1.1\r\nAuthorization: Bearer ${acme.writeKey}\r\nHost: elsewhere.example`)
    expect(hosts.status, hosts.body).toBe(400)
    expect(JSON.parse(hosts.body)).toMatchObject({ code: 'bad_request' })
    const once = await rawRequest(`GET /api/v1/auth/key HTTP/1.1\r\nAuthorization: Bearer ${acme.writeKey}`)
    expect(once.status, once.body).toBe(200)
  })
})
