import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { openDatabase } from '../../src/platform/db/index.js'
import { migrate } from '../../src/platform/db/migrate.js'
import { bearer, TEST_SECRET } from '../support/app.js'
import { CLI, env, running, useCliDataDir } from '../support/cli-process.js'
import { silentLogger } from '../support/database.js'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { FIGMA_TOKEN, figmaLink } from '../support/imports.js'
import { waitFor } from '../support/wait.js'

/** The `worker` command runs imports too: it builds a push pipeline of its own. */

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
})
