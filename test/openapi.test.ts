import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from './support/app.js'

const COMMITTED_FILE = fileURLToPath(new URL('../openapi/v1.json', import.meta.url))
const REGENERATE = 'openapi/v1.json is out of date with the route schemas: run `npm run openapi` and commit openapi/v1.json'
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked as plain JSON */
type Json = any

let t: TestApp
let served: Json

beforeAll(async () => {
  t = await startTestApp()
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
  expect(res.statusCode).toBe(200)
  expect(res.headers['content-type']).toContain('application/json')
  served = res.json()
})
afterAll(() => t.close())

function operations(document: Json): Array<{ path: string; method: string; op: Json }> {
  return Object.entries<Json>(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ path, method, op: item[method] })),
  )
}

/** Method and path of every route the app registered, from Fastify's route tree (HEAD twins left out). */
function registeredRoutes(): Array<{ method: string; path: string }> {
  const stack: string[] = []
  const routes: Array<{ method: string; path: string }> = []
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!match) continue
    const depth = match[1]!.length / 4
    stack.length = depth
    const parent = stack[depth - 1] ?? ''
    const full = `${parent.endsWith('/') && match[2]!.startsWith('/') ? parent.slice(0, -1) : parent}${match[2]}`
    stack[depth] = full
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD')) {
      routes.push({ method: method.toLowerCase(), path: full })
    }
  }
  return routes
}

function refs(node: Json, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refs(item, out)
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value)
      else refs(value, out)
    }
  }
  return out
}

describe('the committed document', () => {
  it('is what the routes generate (the drift check)', () => {
    let text: string
    try {
      text = readFileSync(COMMITTED_FILE, 'utf8')
    } catch {
      throw new Error(`openapi/v1.json is missing: run \`npm run openapi\` and commit it`)
    }
    expect(served, REGENERATE).toEqual(JSON.parse(text))
    expect(`${JSON.stringify(served, null, 2)}\n`, `${REGENERATE} (it must be written by the script, 2-space JSON)`).toBe(text)
  })

  it('does not depend on the deployment: its server is relative', () => {
    expect(served.servers).toEqual([{ url: '/', description: expect.any(String) }])
    expect(JSON.stringify(served)).not.toContain('assets.test')
  })
})

describe('GET /api/v1/openapi.json', () => {
  it('is OpenAPI 3.1 with the bearer API key scheme', () => {
    expect(served.openapi).toBe('3.1.0')
    expect(served.info).toMatchObject({ title: 'Asset Library API', version: expect.any(String), license: expect.any(Object) })
    expect(served.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  it('documents every /api/v1 operation and nothing else', () => {
    const documented = operations(served).map(({ method, path }) => `${method} ${path}`)
    expect(documented.length).toBeGreaterThan(0)
    const publicRoutes = registeredRoutes()
      .filter(({ path }) => path.startsWith('/api/v1/') && !path.startsWith('/api/v1/docs') && path !== '/api/v1/openapi.json')
      .map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`)
    expect(publicRoutes).toContain('get /api/v1/auth/key')
    expect(documented.sort()).toEqual(publicRoutes.sort())
    for (const path of Object.keys(served.paths)) {
      expect(path).toMatch(/^\/api\/v1\//)
      expect(path).not.toMatch(/^\/api\/v1\/(docs|openapi\.json)/)
    }
    const text = JSON.stringify(served.paths)
    for (const leak of ['/app/api', '"/health"', '"/ready"']) expect(text).not.toContain(leak)
  })

  it('gives every operation an id, a summary, a description, and its scope', () => {
    const ids = new Set<string>()
    for (const { method, path, op } of operations(served)) {
      const where = `${method.toUpperCase()} ${path}`
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/)
      expect(ids.has(op.operationId), `${where}: duplicate operationId`).toBe(false)
      ids.add(op.operationId)
      expect(op.summary, where).toEqual(expect.any(String))
      expect(op.description, where).toContain(op['x-required-scope'])
      expect(op.tags?.length, `${where}: tags`).toBeGreaterThan(0)
      expect(['assets:read', 'assets:write'], where).toContain(op['x-required-scope'])
      expect(op.security, where).toEqual([{ apiKey: [op['x-required-scope']] }])
      if (method === 'get') expect(op['x-required-scope'], where).toBe('assets:read')
    }
  })

  it('names the scopes the spec gives the key endpoints', () => {
    expect(served.paths['/api/v1/auth/key'].get['x-required-scope']).toBe('assets:read')
    // Any key may revoke itself (spec section 5).
    expect(served.paths['/api/v1/auth/revoke'].post['x-required-scope']).toBe('assets:read')
  })

  it('documents the problem responses every authenticated operation can give', () => {
    for (const { method, path, op } of operations(served)) {
      for (const status of ['400', '401', '403', '429', '500']) {
        const where = `${method.toUpperCase()} ${path} ${status}`
        const response = op.responses[status]
        expect(response, where).toBeDefined()
        expect(response.description, where).toEqual(expect.any(String))
        expect(Object.keys(response.content), where).toEqual(['application/problem+json'])
        expect(response.content['application/problem+json'].schema, where).toEqual({ $ref: '#/components/schemas/Problem' })
        expect(Object.keys(response.content['application/problem+json'].examples ?? {}).length, `${where} examples`).toBeGreaterThan(0)
      }
      expect(op.responses['429'].headers['retry-after'], `${path} 429 retry-after`).toMatchObject({ schema: { type: 'integer' } })
      expect(op.responses['401'].headers['www-authenticate'], `${path} 401 www-authenticate`).toBeDefined()
    }
  })

  it('documents the rate-limit headers and an example on every success response', () => {
    for (const { method, path, op } of operations(served)) {
      const successes = Object.entries<Json>(op.responses).filter(([status]) => status.startsWith('2'))
      expect(successes.length, `${method.toUpperCase()} ${path} success`).toBeGreaterThan(0)
      for (const [status, response] of successes) {
        const where = `${method.toUpperCase()} ${path} ${status}`
        for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          expect(response.headers?.[header], `${where} ${header}`).toMatchObject({ schema: { type: 'integer' } })
        }
        if (status === '204') continue
        const media = response.content?.['application/json']
        expect(media, where).toBeDefined()
        const schemaExamples = media.schema.$ref ? served.components.schemas[media.schema.$ref.split('/').pop()]?.examples : media.schema.examples
        expect(media.example ?? media.examples ?? schemaExamples?.[0], `${where}: no example`).toBeDefined()
      }
    }
  })

  it('names components by their $id, and every $ref resolves', () => {
    const names = Object.keys(served.components.schemas)
    expect(names).toEqual(expect.arrayContaining(['Problem', 'FieldProblem', 'ApiKey', 'CurrentApiKey']))
    for (const name of names) expect(name).not.toMatch(/^def-\d+$/)
    expect(served.components.schemas.Problem.examples?.length).toBeGreaterThan(0)
    for (const ref of refs(served)) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z][A-Za-z0-9]*$/)
      expect(served.components.schemas[ref.split('/').pop()!], ref).toBeDefined()
    }
  })

  it('is served without an API key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
    expect(res.statusCode).toBe(200)
  })
})

describe('GET /api/v1/docs', () => {
  it('redirects to the trailing-slash page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/docs' })
    expect(res.statusCode).toBe(301)
    expect(res.headers.location).toBe('/api/v1/docs/')
  })

  it('is a page that loads only what this server serves', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/v1/docs/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toContain('text/html')
    const html = page.body
    const base = new URL('http://127.0.0.1/api/v1/docs/')
    const sources = [...html.matchAll(/<(?:script|link|img|iframe)\b[^>]*?\s(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!)
    const scripts = [...html.matchAll(/<script\b[^>]*?\ssrc\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!)
    expect(scripts.length).toBeGreaterThan(0)
    for (const source of sources) {
      expect(source, 'a resource from another host').not.toMatch(/^(?:[a-z][a-z0-9+.-]*:)?\/\//i)
      expect(new URL(source, base).host).toBe(base.host)
    }
    // Not even in the inline configuration: nothing on the page may reach the internet.
    expect(html).not.toMatch(/https?:\/\//)

    for (const script of scripts) {
      const url = new URL(script, base).pathname
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type'], url).toMatch(/javascript/)
      expect(res.rawPayload.length, url).toBeGreaterThan(500_000)
    }
  })

  it('points the reference at a copy of this document', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/v1/docs/' })
    const match = /"url":\s*"([^"]+)"/.exec(page.body)
    expect(match).not.toBeNull()
    const res = await t.app.inject({ method: 'GET', url: new URL(match![1]!, 'http://127.0.0.1/api/v1/docs/').pathname })
    expect(res.statusCode).toBe(200)
    const document = res.json()
    expect(document.info.title).toBe('Asset Library API')
    expect(Object.keys(document.paths).sort()).toEqual(Object.keys(served.paths).sort())
  })
})
