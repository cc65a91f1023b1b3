import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { callApi, pushImage } from '../support/fixtures.js'
import { solid } from '../support/images.js'
import { PASSWORD } from '../support/sessions.js'
import { checkScreen, expectAccessible, signIn, startE2E, type E2E } from './support.js'

const run = promisify(execFile)
const CLIENT_BIN = resolve(import.meta.dirname, '..', '..', 'packages', 'client', 'dist', 'cli', 'main.js')

let e2e: E2E
let assetId: string
/** A project where the client package is installed, as `npm install ./asset-library-client-0.1.0.tgz` leaves it. */
let project: string
const MEMBER = 'member@connect.test'

beforeAll(async () => {
  e2e = await startE2E()
  // As `serve` does: the perceptual hashes, which the command line waits for to report near-duplicates.
  await Promise.all(e2e.t.app.services.derivations.filter((derivation) => derivation.name !== 'embeddings').map((derivation) => derivation.start()))
  await e2e.t.app.services.orgs.addMember(e2e.acme.org.id, { email: MEMBER, password: PASSWORD, role: 'member' })
  assetId = (await pushImage(e2e.t.app, e2e.acme.writeKey, { title: 'Spring poster', client: 'Initech' })).id
  project = await mkdtemp(join(tmpdir(), 'connect-e2e-'))
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true })
  await writeFile(join(project, 'package.json'), '{"private": true}')
  // npm links the package's bin there and makes it executable; tsc's output is not, so a shim runs it.
  await writeFile(join(project, 'node_modules', '.bin', 'asset-library-client'), `#!/bin/sh\nexec node ${CLIENT_BIN} "$@"\n`, { mode: 0o755 })
})
afterEach(() => e2e.closeContexts())
afterAll(async () => {
  await e2e.close()
  await rm(project, { recursive: true, force: true })
})

async function signedIn(email: string, password: string): Promise<Page> {
  const page = await (await e2e.context()).newPage()
  await signIn(page, email, password)
  return page
}

const assetField = async (field: 'client' | 'product') => (await callApi(e2e.t.app, e2e.acme.readKey, 'GET', `/api/v1/assets/${assetId}`)).json()[field]

describe('names are free text in the web app', () => {
  it('a member types a client the library has never had, at 1280 and at 375 px, and it saves', async () => {
    const page = await signedIn(MEMBER, PASSWORD)
    let inUse = 'Initech'
    for (const [width, client] of [
      [1280, 'Umbrella Corp'],
      [375, 'Wayne Enterprises'],
    ] as const) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto(`/assets/${assetId}`)
      await page.getByRole('region', { name: 'Record' }).getByRole('button', { name: 'Edit' }).click()
      const field = page.getByRole('combobox', { name: 'Client' })
      // The names in use are offered; the one typed need not be among them.
      // They come with the names query, which may answer after the form opens.
      const suggested = () => field.evaluate((input) => Array.from((input as unknown as { list: { options: ArrayLike<{ value: string }> } }).list.options, (option) => option.value))
      await expect.poll(suggested).toEqual([inUse])
      await field.fill(client)
      await expectAccessible(page)
      await page.getByRole('button', { name: 'Save' }).click()
      await expect.poll(() => page.getByText('Saved.').first().isVisible()).toBe(true)
      expect(await assetField('client')).toBe(client)
      inUse = client
    }
  })
})

describe('the Connect page', () => {
  it('opens from the key-created dialog with that key picked, shows the server’s address, and passes axe at 1280 and 375 px', async () => {
    const page = await signedIn(e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/settings/keys')
    await page.getByLabel('Name', { exact: true }).fill('Website gallery')
    await page.getByRole('button', { name: 'Create key' }).click()
    const token = await page.getByRole('dialog', { name: 'API key created' }).getByLabel('API key').inputValue()
    await page.getByRole('link', { name: 'Connect a client with this key' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Connect a client' }).isVisible()).toBe(true)
    // Its secret is not shown again: the snippets hold its prefix.
    await expect.poll(() => snippet(page, 'Key variable')).toBe(`export ASSET_LIBRARY_KEY='al_${token.split('_')[1]}_…'`)
    expect(await page.getByRole('combobox', { name: 'Key for the snippets' }).locator('option:checked').textContent()).toMatch(/^Website gallery /)
    await expect.poll(() => page.getByText(e2e.url, { exact: true }).first().isVisible()).toBe(true)
    const prefix = e2e.acme.writeKey.split('_')[1]!
    await page.getByRole('combobox', { name: 'Key for the snippets' }).selectOption({ label: `assets:write (al_${prefix}_…, assets:write)` })
    await expect.poll(() => snippet(page, 'Key variable')).toBe(`export ASSET_LIBRARY_KEY='al_${prefix}_…'`)
    await checkScreen(page, 'settings-connect')
  })

  it('runs its snippets for real: curl, the command line pushing a folder, and MCP through the official client', async () => {
    const page = await signedIn(e2e.acme.owner.email, e2e.acme.owner.password)
    await page.goto('/settings/connect')
    // A key created here is shown once and fills the snippets.
    await page.getByText('Create a key').click()
    await page.getByLabel('Name', { exact: true }).fill('Connect test')
    await page.getByLabel('Scope').selectOption('assets:write')
    await page.getByRole('button', { name: 'Create key' }).click()
    const dialog = page.getByRole('dialog', { name: 'API key created' })
    const token = await dialog.getByLabel('API key').inputValue()
    expect(token).toMatch(/^al_/)
    await dialog.getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => snippet(page, 'Key variable')).toBe(`export ASSET_LIBRARY_KEY='${token}'`)
    const shell = async (...labels: string[]) => (await Promise.all(labels.map((label) => snippet(page, label)))).join('\n')

    // curl: the five newest assets.
    const curl = await run('bash', ['-ec', await shell('Key variable', 'curl')], { cwd: project })
    expect(JSON.parse(curl.stdout).data.map((asset: { id: string }) => asset.id)).toContain(assetId)

    // The command line pushes a folder.
    const folder = join(project, 'folder')
    await mkdir(folder)
    await writeFile(join(folder, 'teal.png'), await solid(40, 30, '#0ca678').png().toBuffer())
    const cli = await run('bash', ['-ec', await shell('Key variable', 'Command line')], { cwd: project, env: { ...process.env, CI: '1' } })
    expect(cli.stdout + cli.stderr).toMatch(/1 pushed/)
    const pushed = await callApi(e2e.t.app, e2e.acme.readKey, 'GET', '/api/v1/assets?q=teal')
    expect(pushed.json().data.map((asset: { title: string }) => asset.title)).toEqual(['teal'])

    // MCP over HTTP, with the URL and header of the page's configuration.
    const config = JSON.parse(await snippet(page, 'Cursor')).mcpServers['asset-library'] as { url: string; headers: Record<string, string> }
    const mcp = new Client({ name: 'connect-e2e', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } }))
    try {
      const { tools } = await mcp.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['search_assets', 'push_asset']))
    } finally {
      await mcp.close()
    }
  })
})

const snippet = async (page: Page, label: string) => (await page.getByRole('region', { name: `${label} snippet` }).textContent()) ?? ''
