import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DeclaredRoute, RouteAuth } from '../src/platform/http/route-auth.js'
import { startTestApp, type TestApp } from './support/app.js'

/**
 * docs/routes.md, generated from the route table of the real app (the web app's static files included):
 * the test fails when the committed page differs.
 *
 *   npm run routes    regenerates it (UPDATE_ROUTES_MAP=1 on this test)
 */
const ROUTES_MAP = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'routes.md')

let t: TestApp
let webDir: string

beforeAll(async () => {
  webDir = mkdtempSync(join(tmpdir(), 'routes-map-web-'))
  mkdirSync(join(webDir, 'static'))
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Asset Library</title>')
  t = await startTestApp({ env: { WEB_DIR: webDir } })
})
afterAll(async () => {
  await t.close()
  rmSync(webDir, { recursive: true, force: true })
})

describe('docs/routes.md', () => {
  it('is what the route table generates', () => {
    const generated = routesMap(t.app.routes, t.app.swagger() as OpenApi)
    if (process.env.UPDATE_ROUTES_MAP) writeFileSync(ROUTES_MAP, generated)
    let committed: string
    try {
      committed = readFileSync(ROUTES_MAP, 'utf8')
    } catch {
      throw new Error('docs/routes.md is missing: run `npm run routes` and commit it')
    }
    expect(generated, 'docs/routes.md is out of date with the routes: run `npm run routes` and commit it').toBe(committed)
  })
})

interface OpenApi {
  paths: Record<string, Record<string, unknown>>
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

function routesMap(routes: readonly DeclaredRoute[], v1: OpenApi): string {
  const gets = new Set(routes.filter((route) => route.method === 'GET').map((route) => route.url))
  const listed = routes
    // Fastify answers HEAD beside every GET; the GET stands for both.
    .filter((route) => !(route.method === 'HEAD' && gets.has(route.url)))
    .sort((a, b) => a.url.localeCompare(b.url) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method))
  const inV1 = (route: DeclaredRoute) => v1.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()] !== undefined
  return [
    '# Routes',
    '',
    'Every route of the server: who may call it, how it is rate limited, and the file that registers it.',
    'Generated from the app\u2019s route table by `test/routes-map.test.ts`; do not edit it, run `npm run routes`.',
    '',
    '- Every route declares `config.auth` (`RouteAuth` in `src/platform/http/route-auth.ts`, which enforces it);',
    '  the server refuses to start when one does not.',
    '- **key**: an API key with that scope (`assets:write` may call everything), or the web app\u2019s session,',
    '  which acts as `assets:write` in the organization of `X-Organization`. Counted per key (per user for a',
    '  session) in the bucket shown; a request without a valid key is counted per IP in `anonymous`.',
    '- **session**: the `al_session` cookie, with `X-CSRF-Token` on writes; `:org` is the organization\u2019s slug.',
    '- **signed URL**: anyone holding a link the server signed; the handler verifies the signature.',
    '- **same origin**: a browser\u2019s `Origin` must be the application\u2019s own.',
    '- A GET also answers HEAD. Pages of the web app are no routes: the not-found handler answers them.',
    '',
    '| Method | URL | Who may call it | Rate limit | In v1 OpenAPI | Registered in |',
    '|---|---|---|---|---|---|',
    ...listed.map((route) => {
      const cells = [route.method, `\`${route.url}\``, caller(route.auth), rateLimit(route.auth), inV1(route) ? 'yes' : 'no', link(route.file)]
      return `| ${cells.join(' | ')} |`
    }),
    '',
  ].join('\n')
}

function caller(auth: RouteAuth): string {
  switch (auth.kind) {
    case 'key':
      return `key \`${auth.scope}\`${auth.role === 'manager' ? '; a session only of an owner or admin' : ''}`
    case 'session':
      return { user: 'session', member: 'session of a member of `:org`', manager: 'session of an owner or admin of `:org`' }[auth.role]
    case 'signed-url':
      return 'signed URL'
    case 'public':
      return auth.sameOrigin ? 'anyone, same origin' : 'anyone'
  }
}

function rateLimit(auth: RouteAuth): string {
  if (auth.kind === 'key' && auth.bucket === null) return 'none (the v1 calls it makes are counted)'
  if (auth.kind === 'key' && typeof auth.bucket === 'object' && auth.bucket !== null) return `${auth.bucket.among.map((bucket) => `\`${bucket}\``).join(' or ')} per key`
  if (auth.kind === 'key') return `\`${auth.bucket}\` per key`
  if ((auth.kind === 'public' || auth.kind === 'signed-url') && auth.bucket) return `\`${auth.bucket}\` per IP`
  return 'none'
}

/** The registering file as a link from docs/; a plugin's routes link the file that registers the plugin. */
function link(file: string): string {
  return file.replace(/src\/[\w/.-]+\.ts/, (path) => `[${path}](../${path})`)
}
