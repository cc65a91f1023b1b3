import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { openDatabase } from '../../src/platform/db/index.js'
import { migrate } from '../../src/platform/db/migrate.js'
import { bearer, TEST_SECRET } from '../support/app.js'
import { CLI, env, running, startServer, useCliDataDir } from '../support/cli-process.js'
import { silentLogger } from '../support/database.js'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { FIGMA_TOKEN, figmaLink } from '../support/imports.js'
import { waitFor } from '../support/wait.js'

/** The `serve` (with its background work) and `worker` commands both run imports; a worker builds a push pipeline of its own. */

// The real executable: tsx compiles it at every start (see cli-commands.test.ts).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

const dataDir = useCliDataDir()
let fake: FakeFigma

beforeAll(async () => {
  fake = await startFakeFigma()
  fake.addToken(FIGMA_TOKEN)
})
afterAll(() => fake.close())

/** An app over the data directory's embedded database (which one process opens at a time). */
async function withApp<T>(work: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: undefined, dataDir: dataDir(), logger: silentLogger })
  await migrate(database.db)
  const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir(), APP_SECRET: TEST_SECRET, LOG_LEVEL: 'silent', ...fake.env }), database })
  try {
    return await work(app)
  } finally {
    await app.close()
    await database.close()
  }
}

describe('the worker', () => {
  it('runs a queued import to its end, pushing each frame', async () => {
    const fileKey = 'WorkerFile0123456789'
    const file = fake.file(fileKey, 'Worker')
    file.addFrames(file.addPage('Page'), 3)
    const { id, key } = await withApp(async (app) => {
      const org = await app.services.orgs.createOrganization({ name: 'Acme', slug: 'acme' })
      const { token } = await app.services.keys.create({ organizationId: org.id, name: 'ci', scope: 'assets:write', expiresAt: null, createdBy: null })
      const res = await app.inject({ method: 'POST', url: '/api/v1/imports', headers: bearer(token), payload: { source: 'figma', file_url: figmaLink(fileKey), figma_token: FIGMA_TOKEN } })
      expect(res.statusCode, res.body).toBe(202)
      return { id: res.json<{ import_id: string }>().import_id, key: token }
    })

    const worker = spawn(CLI[0]!, [...CLI.slice(1), 'worker'], { env: env({ APP_SECRET: TEST_SECRET, ...fake.env }), stdio: ['ignore', 'pipe', 'pipe'] })
    running.push(worker)
    let output = ''
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk))
    worker.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve))
    await waitFor('the worker to download the three renders', () => fake.calls.download >= 3, 60_000)
    // A stop lets the import in flight finish within the shutdown budget.
    worker.kill('SIGTERM')
    expect(await exited, output).toBe(0)

    await withApp(async (app) => {
      const record = (await app.inject({ method: 'GET', url: `/api/v1/imports/${id}`, headers: bearer(key) })).json()
      expect(record, output).toMatchObject({ status: 'done', total: 3, created: 3 })
    })
  })

  it('is not needed by serve, which runs imports itself', async () => {
    const fileKey = 'ServeFile01234567890'
    const file = fake.file(fileKey, 'Served')
    file.addFrames(file.addPage('Page'), 2)
    const key = await withApp(async (app) => {
      // An organization of its own: the fake renders this file's frames as the other test's, which would be duplicates.
      const org = await app.services.orgs.createOrganization({ name: 'Served', slug: 'served' })
      return (await app.services.keys.create({ organizationId: org.id, name: 'serve', scope: 'assets:write', expiresAt: null, createdBy: null })).token
    })
    const server = await startServer({ APP_SECRET: TEST_SECRET, ...fake.env })
    try {
      const created = await fetch(`${server.url}/api/v1/imports`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body: JSON.stringify({ source: 'figma', file_url: figmaLink(fileKey), figma_token: FIGMA_TOKEN }),
      })
      expect(created.status).toBe(202)
      const { import_id: id } = (await created.json()) as { import_id: string }
      const record = await waitFor(
        'the import to end',
        async () => {
          const body = (await (await fetch(`${server.url}/api/v1/imports/${id}`, { headers: bearer(key) })).json()) as { status: string }
          return body.status === 'done' || body.status === 'failed' ? body : undefined
        },
        60_000,
        200,
      )
      expect(record).toMatchObject({ status: 'done', total: 2, created: 2 })
    } finally {
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    }
  })
})
