import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/app.js'
import { expectProblem } from '../support/fixtures.js'

/** The web app's build served at /: hashed files under /static/ and index.html for the client's routes. */
let t: TestApp
const INDEX = '<!doctype html><title>Asset Library</title><script type="module" src="/static/index-Ab12Cd.js"></script>'
const page = (url: string, accept = 'text/html,application/xhtml+xml') => t.app.inject({ url, headers: { accept } })

beforeAll(async () => {
  const webDir = mkdtempSync(join(tmpdir(), 'web-build-'))
  mkdirSync(join(webDir, 'static'))
  writeFileSync(join(webDir, 'index.html'), INDEX)
  writeFileSync(join(webDir, 'static', 'index-Ab12Cd.js'), 'console.log("app")')
  t = await startTestApp({ env: { WEB_DIR: webDir } })
})
afterAll(() => t.close())

describe('the web app', () => {
  it('answers / and client routes with index.html, never cached, under a strict CSP', async () => {
    for (const url of ['/', '/assets/0192f0c4-0000-7000-8000-000000000000', '/settings/keys?x=1', '/invite/abc']) {
      const res = await page(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.body).toBe(INDEX)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      const csp = String(res.headers['content-security-policy'])
      expect(csp).toContain("script-src 'self';")
      expect(csp).toContain("style-src 'self';")
      expect(csp).toContain("frame-ancestors 'none'")
      // Signed image links are built on the public base URL.
      expect(csp).toContain('img-src \'self\' http://assets.test')
    }
  })

  it('serves hashed files for a year', async () => {
    const res = await t.app.inject({ url: '/static/index-Ab12Cd.js' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('console.log("app")')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  it('keeps 404 problems for what is not a page', async () => {
    expectProblem(await page('/static/gone-123.js'), 404, 'not_found')
    expectProblem(await page('/api/v1/nowhere'), 404, 'not_found')
    expectProblem(await page('/app/api/nowhere'), 404, 'not_found')
    expectProblem(await page('/files/nowhere'), 404, 'not_found')
    expectProblem(await page('/somewhere', 'application/json'), 404, 'not_found')
    expectProblem(await t.app.inject({ method: 'POST', url: '/', headers: { accept: 'text/html' } }), 404, 'not_found')
  })
})

describe('without a build', () => {
  it('has no page at /, only the 404 problem', async () => {
    const bare = await startTestApp({ database: t.database })
    try {
      expectProblem(await bare.app.inject({ url: '/', headers: { accept: 'text/html' } }), 404, 'not_found')
    } finally {
      await bare.close()
    }
  })
})
