import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ERROR_CODES } from '../../src/platform/http/error-codes.js'
import { bearer, seedOrganization, startTestApp, type TestApp } from '../support/app.js'

let t: TestApp

beforeAll(async () => {
  t = await startTestApp({
    routes: (app) => {
      app.get('/test/boom', { config: { auth: { kind: 'public' } } }, async () => {
        throw new Error('connect ECONNREFUSED 10.1.2.3:5432 at secret-host.internal')
      })
    },
  })
})
afterAll(() => t.close())

const login = (payload: string, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url: '/app/api/login', headers: { 'content-type': contentType }, payload })

function expectProblem(res: Awaited<ReturnType<typeof login>>, status: number, code: string) {
  expect(res.statusCode).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  const body = res.json()
  expect(body).toMatchObject({ type: `urn:asset-library:problem:${code}`, status, code, title: expect.any(String) })
  return body
}

describe('every error is problem+json', () => {
  it('malformed JSON is 400 malformed_json', async () => {
    const body = expectProblem(await login('{"email": '), 400, 'malformed_json')
    expect(body.detail).not.toMatch(/Unexpected|position/)
  })

  it('an empty JSON body is no body: 400 where one is required, accepted where none is', async () => {
    expectProblem(await login(''), 400, 'validation_failed')
    const acme = await seedOrganization(t.app, 'Acme')
    const revoke = await t.app.inject({ method: 'POST', url: '/api/v1/auth/revoke', headers: { ...bearer(acme.readKey), 'content-type': 'application/json' }, payload: '' })
    expect(revoke.statusCode, revoke.body).toBe(200)
    const collection = await t.app.inject({ method: 'POST', url: '/api/v1/collections', headers: bearer(acme.writeKey), payload: { name: 'Shared' } })
    const share = await t.app.inject({ method: 'POST', url: `/api/v1/collections/${collection.json().id}/share`, headers: { ...bearer(acme.writeKey), 'content-type': 'application/json' }, payload: '' })
    expect(share.statusCode, share.body).toBe(201)
  })

  it('a JSON body declared in another charset than UTF-8 is 415 unsupported_charset', async () => {
    const body = JSON.stringify({ email: 'a@example.com', password: 'x' })
    expectProblem(await login(body, 'application/json; charset=iso-8859-1'), 415, 'unsupported_charset')
    expectProblem(await login(body, 'application/json;charset="utf-16"'), 415, 'unsupported_charset')
    expect((await login(body, 'application/json; charset=UTF-8')).statusCode).toBe(401)
    expect((await login(body, 'application/json; charset=utf8')).statusCode).toBe(401)
  })

  it('a path part over the router\'s limit is 414 and an unreadable URL 400, both problem+json', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: `/api/v1/assets/${'a'.repeat(300)}` }), 414, 'uri_too_long')
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/v1/assets/%E0%A4%A' }), 400, 'bad_url')
  })

  it('headers too large for the HTTP parser are 431 problem+json, on a real socket', async () => {
    const server = await startTestApp({ database: t.database })
    try {
      await server.app.listen({ host: '127.0.0.1', port: 0 })
      const { port } = server.app.server.address() as AddressInfo
      const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/health', headers: { 'x-big': 'a'.repeat(20_000) } }, (res) => {
          let body = ''
          res.on('data', (chunk: Buffer) => (body += chunk))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }))
        })
        req.on('error', reject)
        req.end()
      })
      expect(answer.status).toBe(431)
      expect(answer.type).toBe('application/problem+json')
      expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'headers_too_large' })
    } finally {
      await server.close()
    }
  })

  it('a body that is not JSON is 415 unsupported_media_type', async () => {
    expectProblem(await login('email=a@b.c', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type')
  })

  it('an unknown field is 400 with a pointer to it, not silently dropped', async () => {
    const body = expectProblem(await login(JSON.stringify({ email: 'a@example.com', password: 'x', remember_me: true })), 400, 'validation_failed')
    expect(body.errors).toContainEqual({ pointer: '/remember_me', detail: 'is not a known field' })
  })

  it('a wrong type is 400 and is not coerced', async () => {
    const body = expectProblem(await login(JSON.stringify({ email: 'a@example.com', password: 12345 })), 400, 'validation_failed')
    expect(body.errors).toContainEqual(expect.objectContaining({ pointer: '/password' }))
  })

  it('null is not turned into an empty string', async () => {
    const body = expectProblem(await login(JSON.stringify({ email: 'a@example.com', password: null })), 400, 'validation_failed')
    expect(body.errors).toContainEqual(expect.objectContaining({ pointer: '/password' }))
  })

  it('an empty string where text is required is 400', async () => {
    const body = expectProblem(await login(JSON.stringify({ email: 'a@example.com', password: '' })), 400, 'validation_failed')
    expect(body.errors).toContainEqual(expect.objectContaining({ pointer: '/password' }))
  })

  it('a body nesting arrays or objects past 32 levels is 400 at the field that does, before validation walks it', async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}"x"${']'.repeat(depth)}`
    const body = expectProblem(await login(`{"email": "a@example.com", "password": ${nested(5000)}}`), 400, 'validation_failed')
    expect(body.errors).toEqual([{ pointer: '/password', detail: 'nests arrays or objects deeper than 32 levels' }])
    // 32 levels in all, the body's own object counted, still reach validation.
    const deepest = expectProblem(await login(`{"email": "a@example.com", "password": ${nested(31)}}`), 400, 'validation_failed')
    expect(deepest.errors).toEqual([{ pointer: '/password', detail: expect.stringMatching(/^must be/) }])
  })

  it('missing fields are listed, each with its pointer', async () => {
    const body = expectProblem(await login('{}'), 400, 'validation_failed')
    expect(body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/email', '/password'])
  })

  it('a body over the limit is 413 body_too_large', async () => {
    const huge = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1_100_000) })
    expectProblem(await login(huge), 413, 'body_too_large')
  })

  it('a bad path parameter is 400 pointing into /params, once the caller is known', async () => {
    const { readKey } = await seedOrganization(t.app, 'Params')
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/assets/not-a-uuid', headers: bearer(readKey) })
    const body = expectProblem(res, 400, 'validation_failed')
    expect(body.errors[0].pointer).toBe('/params/id')
    // Before that, a stranger learns nothing from validation.
    expectProblem(await t.app.inject({ method: 'DELETE', url: '/app/api/orgs/acme/keys/not-a-uuid' }), 401, 'not_signed_in')
  })

  it('an unknown route is 404 not_found', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' }), 404, 'not_found')
  })

  it('an unexpected exception is 500 with no internals, and carries the request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/boom', headers: { 'x-request-id': 'trace-me-123' } })
    const body = expectProblem(res, 500, 'internal_error')
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|10\.1\.2\.3|secret-host|at |stack/)
    expect(res.headers['x-request-id']).toBe('trace-me-123')
  })

  it('every response carries a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' })
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('schema errors read as a person\u2019s', () => {
  const errorsOf = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
    const acme = await seedOrganization(t.app, 'Schema errors')
    const collection = await t.app.inject({ method: 'POST', url: '/api/v1/collections', headers: bearer(acme.writeKey), payload: { name: 'Picked' } })
    const res = await t.app.inject({ method, url: url.replace('{collection}', collection.json().id), headers: bearer(acme.writeKey), payload })
    return expectProblem(res, 400, 'validation_failed').errors
  }

  it.each([
    ['a smart collection without its query', { name: 'x', kind: 'smart' }, [{ pointer: '/query', detail: 'is required for a smart collection' }]],
    ['a manual collection with a query', { name: 'x', kind: 'manual', query: { tag: 'summer' } }, [{ pointer: '/query', detail: 'is not a field of a manual collection' }]],
    ['a wrong type inside a smart collection\u2019s query', { name: 'x', kind: 'smart', query: { tag: 5 } }, [{ pointer: '/query/tag', detail: 'must be a string' }]],
    ['a kind no branch has', { name: 'x', kind: 'dynamic' }, [{ pointer: '/kind', detail: 'must be one of: manual, smart' }]],
    ['a name that is not a string', { name: 5 }, [{ pointer: '/name', detail: 'must be a string' }]],
  ])('a union of shapes answers for the shape meant: %s', async (_label, body, errors) => {
    expect(await errorsOf('POST', '/api/v1/collections', body)).toEqual(errors)
  })

  it('a union of shapes none of which is meant more than another names each, with what it needs', async () => {
    expect(await errorsOf('POST', '/api/v1/collections/{collection}/assets', {})).toEqual([
      { pointer: '/', detail: 'must be one asset (asset_id) or up to 100 assets (asset_ids)' },
    ])
  })

  it('a field that takes one of several constants names them', async () => {
    expect(await errorsOf('PATCH', '/api/v1/collections/{collection}', { name: 'x', kind: 'other' })).toEqual([{ pointer: '/kind', detail: 'must be one of: manual, smart' }])
  })

  it('a nullable field of the wrong type names both what it may be', async () => {
    // Validation comes before the asset is looked up: no asset needs to exist.
    const errors = await errorsOf('PATCH', '/api/v1/assets/0193a5b2-7c1e-7d3a-9f10-000000000000', { asset_type: 5, tag_names: 'poster' })
    expect(errors).toEqual([
      { pointer: '/tag_names', detail: 'must be an array' },
      { pointer: '/asset_type', detail: 'must be null or a string' },
    ])
  })
})

describe('the error catalogue', () => {
  it('is what docs/api-conventions.md lists: every code with its status, one row each', () => {
    const docs = readFileSync(new URL('../../docs/api-conventions.md', import.meta.url), 'utf8')
    const rows = [...docs.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map(([, status, code]) => `${status} ${code}`)
    const catalogue = Object.entries(ERROR_CODES).map(([code, { status }]) => `${status} ${code}`)
    expect(rows).toEqual(catalogue)
  })
})
