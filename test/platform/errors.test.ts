import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/app.js'

let t: TestApp

beforeAll(async () => {
  t = await startTestApp({
    routes: (app) => {
      app.get('/test/boom', async () => {
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

  it('an empty JSON body is 400 malformed_json', async () => {
    expectProblem(await login(''), 400, 'malformed_json')
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

  it('missing fields are listed, each with its pointer', async () => {
    const body = expectProblem(await login('{}'), 400, 'validation_failed')
    expect(body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/email', '/password'])
  })

  it('a body over the limit is 413 body_too_large', async () => {
    const huge = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1_100_000) })
    expectProblem(await login(huge), 413, 'body_too_large')
  })

  it('a bad path parameter is 400 pointing into /params', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/app/api/orgs/acme/keys/not-a-uuid' })
    const body = expectProblem(res, 400, 'validation_failed')
    expect(body.errors[0].pointer).toBe('/params/id')
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
