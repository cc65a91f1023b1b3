/**
 * Checks that the API reference at /api/v1/docs renders in a headless browser that cannot reach the internet.
 *
 *   npx tsx scripts/check-docs.ts [--screenshot PATH]
 *
 * Starts the app on 127.0.0.1 (embedded database in a temporary directory), opens the reference in headless
 * Chromium (CHROMIUM_PATH, default /usr/bin/chromium) with every request to another host refused, and waits
 * for the title and an operation to be visible, then sends that operation from the reference's built-in client
 * (no key, so it must show our 401 problem). Any attempt to reach another host is a failure, even when the
 * page renders anyway. Exits 0 when the reference rendered and worked offline, 1 otherwise.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, type BrowserContext } from 'playwright-core'
import pino from 'pino'
import { buildApp, type BuiltApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase, type DatabaseHandle } from '../src/platform/db/index.js'
import { migrate } from '../src/platform/db/migrate.js'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.js'

const LOCAL_HOST = '127.0.0.1'
const EXPECTED_TEXTS = ['Asset Library API', 'Describe the calling API key']
const RENDER_TIMEOUT_MS = 60_000

const CHROMIUM_ARGS = [
  '--headless',
  ...CHROMIUM_FLAGS,
  // Belt and braces beside the request routing below: no host name but ours resolves at all.
  `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${LOCAL_HOST}`,
]

function log(message: string): void {
  console.log(`check-docs: ${message}`)
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { screenshot: { type: 'string' } } })
  const executablePath = process.env.CHROMIUM_PATH || CHROMIUM_PATH
  if (!existsSync(executablePath)) {
    console.error(`check-docs: FAIL: no Chromium at ${executablePath}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`)
    return 1
  }

  const workDir = mkdtempSync(join(tmpdir(), 'al-check-docs-'))
  const screenshot = values.screenshot ?? join(tmpdir(), `al-docs-${Date.now()}.png`)
  const logger = pino({ level: 'silent' })
  let database: DatabaseHandle | undefined
  let app: BuiltApp | undefined
  let context: BrowserContext | undefined
  try {
    const config = loadConfig({
      DATA_DIR: join(workDir, 'data'),
      APP_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      HOST: LOCAL_HOST,
      PORT: '0',
    })
    database = await openDatabase({ databaseUrl: undefined, dataDir: config.dataDir, logger })
    await migrate(database.db)
    app = await buildApp({ config, database, logger })
    await app.listen({ host: LOCAL_HOST, port: 0 })
    const address = app.server.address()
    if (!address || typeof address === 'string') throw new Error('the app did not report a TCP address')
    const origin = `http://${LOCAL_HOST}:${address.port}`
    log(`app listening on ${origin}`)

    context = await chromium.launchPersistentContext(join(workDir, 'chromium-profile'), {
      executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
      serviceWorkers: 'block',
    })

    const blocked: string[] = []
    const local: string[] = []
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url())
      if (url.hostname === LOCAL_HOST && url.port === String(address.port)) {
        local.push(`${route.request().method()} ${url.pathname}`)
        await route.continue()
      } else {
        blocked.push(route.request().url())
        await route.abort('blockedbyclient')
      }
    })
    await context.routeWebSocket(/.*/, (socket) => {
      blocked.push(socket.url())
      void socket.close()
    })
    // Redirect hops are not routed, so watch every request too: none may name another host.
    context.on('request', (request) => {
      const url = new URL(request.url())
      const isNetwork = ['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)
      if (isNetwork && !(url.hostname === LOCAL_HOST && url.port === String(address.port)) && !blocked.includes(request.url())) {
        blocked.push(request.url())
      }
    })

    const page = context.pages()[0] ?? (await context.newPage())
    const pageErrors: string[] = []
    const consoleErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('console', (message) => {
      // The 401 that the client step provokes on purpose is expected noise.
      if (message.type() === 'error' && !message.text().includes('status of 401')) consoleErrors.push(message.text())
    })

    const started = Date.now()
    const response = await page.goto(`${origin}/api/v1/docs`, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS })
    if (!response?.ok()) throw new Error(`GET /api/v1/docs answered ${response?.status() ?? 'nothing'}`)
    if (new URL(page.url()).pathname !== '/api/v1/docs/') throw new Error(`expected a redirect to /api/v1/docs/, landed on ${page.url()}`)

    const missing: string[] = []
    for (const text of EXPECTED_TEXTS) {
      try {
        await page.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS })
      } catch {
        missing.push(text)
      }
    }
    const took = Date.now() - started
    // Give late requests (fonts, lazy chunks, telemetry) a moment to show up before judging.
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {})
    await page.screenshot({ path: screenshot, fullPage: false })

    // The reference is interactive: its built-in client sends a request to this server (no key: a 401 problem).
    let tryIt: string | undefined
    if (missing.length === 0) {
      try {
        await page.getByText(EXPECTED_TEXTS[1]!).first().click()
        await page.getByRole('button', { name: /Test Request/ }).first().click({ timeout: 15_000 })
        const answer = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/v1/auth/'), { timeout: 15_000 })
        await page.getByRole('button', { name: /^Send/ }).first().click({ timeout: 15_000 })
        const response = await answer
        const type = (await response.headerValue('content-type')) ?? ''
        if (response.status() !== 401 || !type.includes('application/problem+json')) {
          throw new Error(`expected a 401 problem, got ${response.status()} ${type}`)
        }
        await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {})
      } catch (error) {
        tryIt = `the "Test Request" client did not show this server's 401 answer: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`
      }
    }

    log(`requests served by the app: ${local.length} (${[...new Set(local)].join(', ')})`)
    if (consoleErrors.length > 0) log(`browser console errors (not fatal):\n  ${consoleErrors.join('\n  ')}`)
    log(`screenshot: ${screenshot}`)

    const failures: string[] = []
    if (missing.length > 0) failures.push(`not visible within ${RENDER_TIMEOUT_MS / 1000} s: ${missing.map((t) => `"${t}"`).join(', ')}`)
    if (blocked.length > 0) failures.push(`${blocked.length} request(s) tried to leave ${LOCAL_HOST}:\n  ${blocked.join('\n  ')}`)
    if (tryIt) failures.push(tryIt)
    if (pageErrors.length > 0) failures.push(`uncaught errors in the page:\n  ${pageErrors.join('\n  ')}`)
    if (failures.length > 0) {
      console.error(`check-docs: FAIL: /api/v1/docs did not render offline.\n- ${failures.join('\n- ')}`)
      return 1
    }
    log(`OK: /api/v1/docs rendered "${EXPECTED_TEXTS.join('" and "')}" in ${took} ms, its client reached this server, and nothing tried another host.`)
    return 0
  } catch (error) {
    console.error(`check-docs: FAIL: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  } finally {
    await context?.close().catch(() => {})
    await app?.close().catch(() => {})
    await database?.close().catch(() => {})
    rmSync(workDir, { recursive: true, force: true })
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
