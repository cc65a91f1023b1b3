import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateOpenApi, OPENAPI_FILES, serialize } from '../scripts/openapi.js'
import { SESSION_COOKIE } from '../src/modules/auth/session-guard.js'
import { ERROR_CODES, type ErrorCode } from '../src/platform/http/error-codes.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from './support/app.js'

const COMMITTED_FILE = fileURLToPath(new URL('../openapi/v1.json', import.meta.url))
const APP_TAGS = ['app-session', 'app-org', 'app-keys', 'app-catalogue', 'app-presets', 'app-webhooks', 'app-integrations', 'app-collections', 'app-assets']
const REGENERATE = 'openapi/v1.json is out of date with the route schemas: run `npm run openapi` and commit openapi/v1.json'
/** The operations a web-app session may call only as an owner or admin (the deletes: on what someone else created). */
const MANAGED_OPERATIONS = ['shareCollection', 'getCollectionShare', 'unshareCollection', 'deleteAsset', 'deleteCollection', 'purgeTrashedAsset', 'resolveDuplicates']
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked as plain JSON */
type Json = any

let t: TestApp
let served: Json
/** openapi/app.json as the code generates it. */
let appDocument: Json
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp()
  acme = await seedOrganization(t.app, 'Documented')
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
  expect(res.statusCode).toBe(200)
  expect(res.headers['content-type']).toContain('application/json')
  served = res.json()
  appDocument = await generateOpenApi('app')
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

  it('documents what the guard answers, from what each operation needs', () => {
    for (const { method, path, op } of operations(served)) {
      const where = `${method.toUpperCase()} ${path}`
      expect(documentedCodes(op, 400), where).toContain('organization_required')
      expect(documentedCodes(op, 401), where).toEqual(['invalid_api_key', 'not_signed_in'])
      expect(documentedCodes(op, 404), where).toContain('not_found')
      expect(documentedCodes(op, 429), where).toEqual(['rate_limited'])
      expect(documentedCodes(op, 500), where).toEqual(['internal_error'])
      const forbidden = documentedCodes(op, 403)
      expect(forbidden.includes('insufficient_scope'), `${where} insufficient_scope`).toBe(op['x-required-scope'] === 'assets:write')
      expect(forbidden.includes('csrf_token_invalid'), `${where} csrf_token_invalid`).toBe(method !== 'get')
      expect(forbidden.includes('role_required'), `${where} role_required`).toBe(MANAGED_OPERATIONS.includes(op.operationId))
      expect(op.responses['429'].headers['retry-after'], `${where} 429 retry-after`).toMatchObject({ schema: { type: 'integer' } })
      expect(op.responses['401'].headers['www-authenticate'], `${where} 401 www-authenticate`).toBeDefined()
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (Number(status) < 400) continue
        expect(Object.keys(response.content), `${where} ${status}`).toEqual(['application/problem+json'])
        expect(response.content['application/problem+json'].schema, `${where} ${status}`).toEqual({ $ref: '#/components/schemas/Problem' })
        for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id']) {
          expect(response.headers?.[header], `${where} ${status} ${header}`).toBeDefined()
        }
      }
    }
  })

  it('advertises plan_limit_reached on no GET', () => {
    for (const { method, path, op } of operations(served)) {
      if (method === 'get') expect(JSON.stringify(op), path).not.toContain('plan_limit_reached')
    }
    expect(documentedCodes(served.paths['/api/v1/assets'].post, 403)).toContain('plan_limit_reached')
  })

  it('names every code the push answers of its own', () => {
    const push = served.paths['/api/v1/assets'].post
    expect(documentedCodes(push, 422).sort()).toEqual([
      'idempotency_key_reused',
      'image_too_many_pixels',
      'not_an_image',
      'svg_entity',
      'svg_external_reference',
      'svg_script',
      'svg_too_complex',
      'unknown_asset_type',
      'unsupported_image_format',
    ])
    expect(documentedCodes(push, 413).sort()).toEqual(['body_too_large', 'image_too_large'])
    expect(documentedCodes(push, 502).sort()).toEqual(['image_fetch_blocked', 'image_fetch_failed'])
    expect(documentedCodes(push, 409).sort()).toEqual(['concurrent_change', 'content_belongs_to_other_asset', 'idempotency_key_in_use', 'push_conflict', 'restore_conflict', 'smart_collection_immutable'])
  })

  it('documents Idempotency-Key on every write, and Idempotent-Replayed on every answer it may replay', () => {
    for (const { method, path, op } of operations(served)) {
      const where = `${method.toUpperCase()} ${path}`
      const header = (op.parameters ?? []).find((parameter: Json) => parameter.in === 'header' && parameter.name === 'idempotency-key')
      const replayed = Object.entries<Json>(op.responses).filter(([, response]) => response.headers?.['idempotent-replayed']).map(([status]) => status)
      if (method === 'get') {
        expect(header, where).toBeUndefined()
        expect(replayed, where).toEqual([])
        continue
      }
      expect(header, where).toMatchObject({ required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } })
      expect(documentedCodes(op, 409), where).toContain('idempotency_key_in_use')
      expect(documentedCodes(op, 422), where).toContain('idempotency_key_reused')
      const kept = Object.keys(op.responses).filter((status) => /^[24]/.test(status) && !['408', '409', '429'].includes(status))
      expect(replayed.sort(), where).toEqual(kept.sort())
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

/** Both documents, as the code generates them. */
const documents = () => [
  { name: 'v1', document: served },
  { name: 'app', document: appDocument },
]

/** The codes a documented response of `op` gives examples of, for `status`. */
function documentedCodes(op: Json, status: number | string): string[] {
  return Object.keys(op.responses[String(status)]?.content?.['application/problem+json']?.examples ?? {})
}

describe('both documents: error codes from the catalogue', () => {
  it('types Problem.code as the catalogue\u2019s codes', () => {
    for (const { name, document } of documents()) {
      expect(document.components.schemas.Problem.properties.code, name).toMatchObject({ type: 'string', enum: Object.keys(ERROR_CODES) })
    }
  })

  it('documents only codes of the catalogue, each under its status, with an example of it and when it happens', () => {
    for (const { name, document } of documents()) {
      for (const { method, path, op } of operations(document)) {
        for (const [status, response] of Object.entries<Json>(op.responses)) {
          if (Number(status) < 400) continue
          const where = `${name} ${method.toUpperCase()} ${path} ${status}`
          const examples = Object.entries<Json>(response.content['application/problem+json'].examples ?? {})
          expect(examples.length, where).toBeGreaterThan(0)
          for (const [code, example] of examples) {
            expect(Object.keys(ERROR_CODES), where).toContain(code)
            expect(ERROR_CODES[code as ErrorCode].status, `${where} ${code}`).toBe(Number(status))
            expect(example.value, `${where} ${code}`).toMatchObject({ code, status: Number(status) })
          }
          const described = [...String(response.description).matchAll(/^- `([a-z_]+)`: /gm)].map((match) => match[1])
          expect(new Set(described), `${where}: each code says when`).toEqual(new Set(examples.map(([code]) => code)))
        }
      }
    }
  })
})

describe('both documents: what the platform answers before a handler runs', () => {
  it('a 413 and the 415s on every operation that takes a body, the no-body 400 on every other, bad_url everywhere', () => {
    for (const { name, document } of documents()) {
      for (const { method, path, op } of operations(document)) {
        const where = `${name} ${method.toUpperCase()} ${path}`
        expect(documentedCodes(op, 400), where).toEqual(expect.arrayContaining(['bad_url', 'bad_request', 'validation_failed']))
        if (op.requestBody) {
          expect(documentedCodes(op, 413), where).toContain('body_too_large')
          expect(documentedCodes(op, 415), where).toEqual(expect.arrayContaining(['unsupported_media_type', 'unsupported_charset', 'unsupported_content_encoding']))
          expect(documentedCodes(op, 400), where).toContain('malformed_json')
        } else {
          expect(op.responses['400'].description, where).toMatch(/takes none/)
        }
      }
    }
  })

  it('every operation answers a 1.1 MiB body with a status and code it documents', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(1.1 * 1024 * 1024) })
    const fill = (path: string) =>
      path.replace('{org}', acme.org.slug).replace(/\{(id|delivery_id)\}/g, '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55').replace(/\{\w+\}/g, 'x')
    for (const { name, document } of documents()) {
      for (const { method, path, op } of operations(document)) {
        const where = `${name} ${method.toUpperCase()} ${path}`
        const res = await t.app.inject({
          method: method.toUpperCase() as 'POST',
          url: fill(path),
          headers: { 'content-type': 'application/json', ...(name === 'v1' && bearer(acme.writeKey)) },
          payload: body,
        })
        // A push (or a new version) takes 40 MiB: this body is only a wrong one there.
        const expected = !op.requestBody || op.operationId === 'pushAsset' || op.operationId === 'uploadAssetVersion' ? 400 : 413
        expect(res.statusCode, `${where}: ${res.body}`).toBe(expected)
        expect(documentedCodes(op, res.statusCode), where).toContain(res.json().code)
      }
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/key', headers: bearer(acme.writeKey) })).statusCode).toBe(200)
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

describe('openapi/app.json (the app\u2019s own endpoints, internal)', () => {
  it('is what the routes generate (the drift check)', () => {
    let text: string
    try {
      text = readFileSync(OPENAPI_FILES.app, 'utf8')
    } catch {
      throw new Error('openapi/app.json is missing: run `npm run openapi` and commit it')
    }
    expect(serialize(appDocument), 'openapi/app.json is out of date with the route schemas: run `npm run openapi` and commit it').toBe(text)
  })

  it('says it is internal and names the session cookie and the CSRF header', () => {
    expect(appDocument.openapi).toBe('3.1.0')
    expect(appDocument.info.title).toBe('Asset Library app API (internal)')
    expect(appDocument.info.description).toMatch(/not part of the public contract/)
    expect(appDocument.servers).toEqual([{ url: '/', description: expect.any(String) }])
    expect(appDocument.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE })
    expect(appDocument.components.securitySchemes.csrfToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-CSRF-Token' })
  })

  it('documents every /app/api route, each with a schema for its success answer, and nothing else', () => {
    const documented = new Map(operations(appDocument).map((entry) => [`${entry.method} ${entry.path}`, entry.op]))
    const registered = t.app.routes.filter((route) => route.url.startsWith('/app/api/') && route.method !== 'HEAD')
    expect(registered.length).toBeGreaterThan(25)
    expect([...documented.keys()].sort()).toEqual(registered.map((route) => `${route.method.toLowerCase()} ${route.url.replace(/:(\w+)/g, '{$1}')}`).sort())
    for (const route of registered) {
      const where = `${route.method} ${route.url}`
      const op = documented.get(`${route.method.toLowerCase()} ${route.url.replace(/:(\w+)/g, '{$1}')}`)
      const successes = Object.entries<Json>(op.responses).filter(([status]) => status.startsWith('2'))
      expect(successes.length, `${where}: one success answer`).toBe(1)
      const [status, response] = successes[0]!
      expect(response.description, where).toEqual(expect.any(String))
      if (status === '204') expect(response.content, where).toBeUndefined()
      else expect(response.content?.['application/json']?.schema, `${where}: ${status} has no schema`).toBeDefined()
      expect(op['x-session'], where).toBe(route.auth.kind === 'session' ? route.auth.role : 'none')
    }
  })

  it('gives every operation an id, a summary, a tag, a description and its session', () => {
    const ids = new Set<string>()
    for (const { method, path, op } of operations(appDocument)) {
      const where = `${method.toUpperCase()} ${path}`
      expect(op.operationId, where).toMatch(/^app[A-Z][A-Za-z0-9]+$/)
      expect(ids.has(op.operationId), `${where}: duplicate operationId`).toBe(false)
      ids.add(op.operationId)
      expect(op.summary, where).toEqual(expect.any(String))
      expect(op.description, where).toMatch(/Needs (no session|a session)/)
      expect(op.tags, where).toHaveLength(1)
      expect(APP_TAGS, where).toContain(op.tags[0])
      const write = method !== 'get'
      if (op['x-session'] === 'none') expect(op.security, where).toEqual([])
      else expect(op.security, where).toEqual([write ? { session: [], csrfToken: [] } : { session: [] }])
    }
    expect(appDocument.tags.map((tag: Json) => tag.name).sort()).toEqual([...APP_TAGS].sort())
  })

  it('documents the problems the session guard answers', () => {
    for (const { method, path, op } of operations(appDocument)) {
      const where = `${method.toUpperCase()} ${path}`
      const codes = (status: string) => Object.keys(op.responses[status]?.content?.['application/problem+json']?.examples ?? {})
      const session = op['x-session']
      if (session !== 'none') expect(codes('401'), where).toContain('not_signed_in')
      if (session !== 'none' && method !== 'get') expect(codes('403'), where).toContain('csrf_token_invalid')
      if (session === 'member' || session === 'manager') expect(codes('404'), where).toContain('not_found')
      if (session === 'manager') expect(codes('403'), where).toContain('role_required')
      expect(codes('500'), where).toEqual(['internal_error'])
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (Number(status) < 400) continue
        expect(response.content['application/problem+json'].schema, `${where} ${status}`).toEqual({ $ref: '#/components/schemas/Problem' })
      }
    }
  })

  it('names components by their $id, lists only those used, and every $ref resolves', () => {
    const names = Object.keys(appDocument.components.schemas)
    expect(names).toEqual(expect.arrayContaining(['Problem', 'ApiKey', 'AppSession', 'AppOrganization', 'AppWebhookSubscription']))
    expect(names).not.toContain('Asset')
    const used = new Set(refs(appDocument).map((ref) => ref.split('/').pop()))
    for (const name of names) expect(used.has(name), `${name} is unused`).toBe(true)
    for (const ref of refs(appDocument)) expect(appDocument.components.schemas[ref.split('/').pop()!], ref).toBeDefined()
    // And the app's schemas stay out of v1.
    expect(Object.keys(served.components.schemas).filter((name) => name.startsWith('App'))).toEqual([])
  })
})
