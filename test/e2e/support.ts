import { mkdirSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import axe, { type AxeResults } from 'axe-core'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { expect, inject } from 'vitest'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../scripts/chromium.js'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { createEmbeddedTestDatabase } from '../support/database.js'

/**
 * A real server on 127.0.0.1 (port chosen by the OS) serving the freshly built web app, and Debian's
 * Chromium driving it. The socket listens before the app is built, so PUBLIC_BASE_URL (which signs
 * image links) is the very address the browser uses.
 */
export interface E2E {
  t: TestApp
  url: string
  acme: Seeded
  browser: Browser
  /** A new browser profile (cookies of its own) at 1280 px. */
  context(): Promise<BrowserContext>
  /** Closes every profile `context()` opened so far: after each test, so none carries its cookies into the next. */
  closeContexts(): Promise<void>
  close(): Promise<void>
}

/**
 * `embeddedDatabase`: the app's database is the embedded one (PGlite, which ships pgvector) even when the
 * run is on PostgreSQL (CI's end-to-end pass, whose PostgreSQL may have no pgvector), for the screens of
 * vector search.
 */
export async function startE2E(env: Record<string, string> = {}, options: { embeddedDatabase?: boolean } = {}): Promise<E2E> {
  const socket = createServer()
  await new Promise<void>((resolve) => socket.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(socket.address() as AddressInfo).port}`
  const database = options.embeddedDatabase ? await createEmbeddedTestDatabase(inject('templateDir')) : undefined
  const t = await startTestApp({ env: { WEB_DIR: inject('webDir'), PUBLIC_BASE_URL: url, ...env }, ...(database && { database }) })
  socket.on('request', (request, response) => t.app.routing(request, response))
  // As `serve` does: webhook deliveries and embeddings run beside the API.
  await Promise.all([t.app.services.embeddings.start(), t.app.services.webhookDelivery.start()])
  const acme = await seedOrganization(t.app, 'Acme Design')
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
  const contexts: BrowserContext[] = []
  return {
    t,
    url,
    acme,
    browser,
    async context() {
      const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } })
      // A click on something that never appears fails at that line, not at the test's timeout.
      context.setDefaultTimeout(15_000)
      contexts.push(context)
      return context
    },
    closeContexts: async () => void (await Promise.all(contexts.splice(0).map((context) => context.close()))),
    async close() {
      await browser.close()
      socket.closeAllConnections()
      await new Promise<void>((resolve) => socket.close(() => resolve()))
      await t.close()
      await database?.dispose()
    },
  }
}

/** Signs in through the form, as a person would, and waits for the library. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true)
}

export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-results', 'screens')

/**
 * One screen as it is now, at 1280 and at 375 px wide: axe finds no serious or critical violation at
 * either width, and the page is saved full height as test-results/screens/<name>-<width>.png.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const original = page.viewportSize() ?? { width: 1280, height: 800 }
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 })
    // Two frames: the layout at the new width is painted before it is checked.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))')
    await expectAccessible(page)
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize(original)
}

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/**
 * No serious or critical axe violations (WCAG 2.x A and AA) on the page as it is now. axe is loaded into
 * the page once and stays until the next navigation (the app is one page), then runs in place:
 * @axe-core/playwright loaded it again for every check and finished each run in a new blank page, a
 * second or more of every check on this machine, which made axe most of the end-to-end tests' time.
 */
export async function expectAccessible(page: Page): Promise<void> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source)
  const results = await page.evaluate<AxeResults>(`window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} } })`)
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect(serious).toEqual([])
}
