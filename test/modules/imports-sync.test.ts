import { createServer, request as httpRequest, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { createImport, FIGMA_TOKEN, figmaLink, getImport, IMPORT_TEST_ENV, importEnded, renderedIds } from '../support/imports.js'
import { waitFor } from '../support/wait.js'

/** The import job across runs and processes: one file's imports one after the other, a killed worker, Figma's webhook syncs. */

let fake: FakeFigma
/** The first process's way to Figma, which a test can freeze as a killed process stops. */
let proxy: FreezingProxy
let t: TestApp
/** A second process on the same database, which reaches the fake directly. */
let other: TestApp
let acme: Seeded

beforeAll(async () => {
  fake = await startFakeFigma()
  fake.addToken(FIGMA_TOKEN)
  proxy = await startFreezingProxy(fake.url)
  t = await startTestApp({ env: { ...IMPORT_TEST_ENV, ...fake.env, FIGMA_API_URL: proxy.url } })
  other = await startTestApp({ env: { ...IMPORT_TEST_ENV, ...fake.env }, database: t.database })
  await t.app.services.importJob.start()
})
// An organization per test: the fake renders the same nodes of two files as the same bytes.
beforeEach(async () => {
  acme = await seedOrganization(t.app, 'Acme')
})
afterEach(() => fake.reset())
afterAll(async () => {
  proxy.close()
  await other.close()
  await t.close()
  await fake.close()
})

interface FreezingProxy {
  url: string
  /** From now on, requests (API calls and image downloads alike) are held, never answered. */
  freeze(): void
  /** Cuts the held requests and answers again. */
  thaw(): void
  close(): void
}

/** A proxy to the fake that links rendered images through itself too, so that freezing it stops a process's every call to Figma. */
async function startFreezingProxy(target: string): Promise<FreezingProxy> {
  let frozen = false
  const held: ServerResponse[] = []
  let url = ''
  const server = createServer((req, res) => {
    if (frozen) return void held.push(res)
    const upstream = httpRequest(`${target}${req.url ?? '/'}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () => {
        const raw = Buffer.concat(chunks)
        const body = String(answer.headers['content-type']).includes('json') ? Buffer.from(raw.toString().replaceAll(target, url)) : raw
        if (frozen) return void held.push(res)
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) }).end(body)
      })
    })
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    freeze: () => (frozen = true),
    thaw: () => {
      frozen = false
      for (const res of held.splice(0)) res.destroy()
    },
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

let files = 0
const newFileKey = () => `Sync${process.pid}x${++files}AbCdEf`
const db = () => t.database.handle.db

/** A file of `count` frames on one page; returns its key. */
function framesFile(count: number): string {
  const fileKey = newFileKey()
  const file = fake.file(fileKey, 'Frames')
  file.addFrames(file.addPage('Page'), count)
  return fileKey
}

/** The organization's assets of the file, and how many assets each of its external ids has. */
async function assetsOf(fileKey: string) {
  const { rows } = await sql<{ external_id: string; count: number }>`
    select external_id, count(*)::int as count from assets
    where organization_id = ${acme.org.id} and external_id like ${`figma:${fileKey}:%`}
    group by external_id
  `.execute(db())
  return { externalIds: rows.length, most: Math.max(0, ...rows.map((row) => row.count)) }
}

describe('imports of one file', () => {
  it('run one after the other, in one process or two: one set of assets, the second a sync', async () => {
    const fileKey = framesFile(6)
    fake.latencyMs = 20
    await other.app.services.importJob.start()
    try {
      const first = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) })
      const second = await createImport(other.app, acme.writeKey, { file_url: figmaLink(fileKey) })
      const third = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) })
      const ended = await Promise.all([first, second, third].map((id) => importEnded(t.app, acme.readKey, id)))
      expect(ended.map((record) => record.status)).toEqual(['done', 'done', 'done'])
      expect(ended.reduce((sum, record) => sum + record.created, 0)).toBe(6)
      expect(ended.reduce((sum, record) => sum + record.unchanged, 0)).toBe(12)
      expect(await assetsOf(fileKey)).toEqual({ externalIds: 6, most: 1 })
      // Never two runs of the file at once.
      const runs = ended.map((record) => [Date.parse(record.started_at!), Date.parse(record.finished_at!)] as const).sort((a, b) => a[0] - b[0])
      for (let i = 1; i < runs.length; i++) expect(runs[i]![0]).toBeGreaterThanOrEqual(runs[i - 1]![1])
    } finally {
      await other.app.services.importJob.stop(1000)
    }
  })
})

describe('a worker killed mid-import', () => {
  it('leaves the import to another process once its lease runs out, which finishes it: no duplicate, no missing asset', async () => {
    const fileKey = framesFile(12)
    fake.latencyMs = 40
    const id = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) })
    await waitFor('some nodes to be done', async () => {
      const { rows } = await sql<{ done: number }>`select count(*)::int as done from import_nodes where import_id = ${id} and outcome is not null`.execute(db())
      return rows[0]!.done >= 3
    })
    // The first process stops (as a killed one does: no call to Figma answered, nothing given back), and its lease runs out.
    proxy.freeze()
    fake.requests.length = 0
    await db().updateTable('imports').set({ locked_until: new Date(Date.now() - 1000) }).where('id', '=', id).execute()
    await other.app.services.importJob.start()
    try {
      const record = await importEnded(other.app, acme.readKey, id)
      expect(record).toMatchObject({ status: 'done', run: 1, total: 12, created: 12, failed: 0 })
      expect(await assetsOf(fileKey)).toEqual({ externalIds: 12, most: 1 })
      const row = await db().selectFrom('imports').select(['locked_by', 'token_sealed']).where('id', '=', id).executeTakeFirstOrThrow()
      expect(row).toEqual({ locked_by: null, token_sealed: null })
      // The second process rendered only what the first had not done.
      const rendered = renderedIds(fake.requests).length
      expect(rendered).toBeGreaterThan(0)
      expect(rendered).toBeLessThan(12)
    } finally {
      await other.app.services.importJob.stop(1000)
      proxy.thaw()
    }
  })
})

describe('requestSync (Figma webhooks)', () => {
  it('queues an ended import again after the delay, a later call pushing it out, and runs a running one again when it ends', async () => {
    const fileKey = framesFile(3)
    const id = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) })
    await importEnded(t.app, acme.readKey, id)
    const { imports } = t.app.services
    const dueAt = async () => (await db().selectFrom('imports').select('next_attempt_at').where('id', '=', id).executeTakeFirstOrThrow()).next_attempt_at!.getTime()

    // The import's own token is gone: a sync uses the organization's, which this one lacks.
    expect(await imports.requestSync(acme.org.id, fileKey, 60_000)).toBe(1)
    expect(await getImport(t.app, acme.readKey, id)).toMatchObject({ status: 'queued', run: 2, total: 0 })
    const firstDue = await dueAt()
    expect(await imports.requestSync(acme.org.id, fileKey, 120_000)).toBe(1)
    expect(await dueAt()).toBeGreaterThan(firstDue)
    expect(await imports.requestSync(acme.org.id, 'SomeOtherFile123', 0)).toBe(0)
    expect(await imports.requestSync(acme.org.id, fileKey, 0)).toBe(1)
    // A later call never brings the sync forward: many saves make one sync, after the last.
    expect(await dueAt()).toBeGreaterThan(firstDue)

    const running = framesFile(4)
    fake.latencyMs = 40
    const runningId = await createImport(t.app, acme.writeKey, { file_url: figmaLink(running) })
    await waitFor('the import to run', async () => (await getImport(t.app, acme.readKey, runningId)).status === 'running')
    expect(await imports.requestSync(acme.org.id, running, 0)).toBe(1)
    const synced = await waitFor('the pending sync to run', async () => {
      const record = await getImport(t.app, acme.readKey, runningId)
      return record.run === 2 && (record.status === 'done' || record.status === 'failed') ? record : undefined
    })
    // No stored token and the import's own one erased: the sync fails, saying so.
    expect(synced).toMatchObject({ status: 'failed', error: { code: 'figma_not_connected' } })
  })
})
