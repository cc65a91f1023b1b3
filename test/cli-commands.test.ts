import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase } from '../src/platform/db/index.js'
import { migrate } from '../src/platform/db/migrate.js'
import { bearer, TEST_SECRET } from './support/app.js'
import { silentLogger } from './support/database.js'
import { startEmbeddingServer, type EmbeddingServer } from './support/embedding-server.js'
import { startFakeImmichMl } from './support/fake-immich-ml.js'
import { solidPng } from './support/images.js'
import { createTestBucket, s3Env, startS3Server } from './support/s3-server.js'
import { CLI, env, running, runCli, startServer, useCliDataDir } from './support/cli-process.js'
import { staysTrue, waitFor } from './support/wait.js'

/** The queues of issue 36's analyses, after the thumbnails and the embeddings, in the order `jobs` lists them. */
const ANALYSES = ['perceptual_hash', 'palette', 'metadata', 'provenance']

// Each test runs the real executable: tsx compiles it at every start, and a first start runs initdb.
// That takes seconds alone, and several times the default 30 s on a 2-core machine that runs other test
// files beside this one (CI's parallel workers) and other work besides.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

useCliDataDir()

async function withApp(directory: string, work: (app: Awaited<ReturnType<typeof buildApp>>, key: string) => Promise<void>) {
  const database = await openDatabase({ databaseUrl: undefined, dataDir: directory, logger: silentLogger })
  await migrate(database.db)
  const app = await buildApp({ config: loadConfig({ DATA_DIR: directory, APP_SECRET: TEST_SECRET, LOG_LEVEL: 'silent' }), database })
  try {
    const org = (await app.services.orgs.listOrganizations())[0] ?? (await app.services.orgs.createOrganization({ name: 'Acme', slug: 'acme' }))
    const { token } = await app.services.keys.create({ organizationId: org.id, name: 'cli', scope: 'assets:write', expiresAt: null, createdBy: null })
    await work(app, token)
  } finally {
    await app.close()
    await database.close()
  }
}

describe('embeddings from the command line, and the worker', () => {
  let directory: string
  let provider: EmbeddingServer
  let providerEnv: Record<string, string>

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'al-cli-embeddings-'))
    provider = await startEmbeddingServer()
    providerEnv = { DATA_DIR: directory, EMBEDDING_BASE_URL: provider.baseUrl, EMBEDDING_MODEL: 'concepts-v1', EMBEDDING_DIMENSIONS: '256' }
    await withApp(directory, async (app, key) => {
      for (const [index, title] of ['Red sports car', 'Sleeping kitten', 'Calm sea'].entries()) {
        const image = await solidPng(4, 4, `#0000${index}${index}`)
        const res = await app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(key), payload: { image_base64: image.toString('base64'), title } })
        expect(res.statusCode).toBe(201)
      }
    })
  })
  afterAll(async () => {
    await provider.close()
    rmSync(directory, { recursive: true, force: true })
  })

  it('status counts what is missing, and says search is in text mode without a provider', async () => {
    const status = await runCli(['embeddings', 'status', '--json'], { DATA_DIR: directory })
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({ mode: 'text', current: 0, stale: 0, missing: 3 })
    const refused = await runCli(['embeddings', 'backfill'], { DATA_DIR: directory })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('backfill needs EMBEDDING_BASE_URL')
    const noImageProvider = await runCli(['embeddings', 'backfill', '--images'], providerEnv)
    expect({ code: noImageProvider.code, stdout: noImageProvider.stdout, stderr: noImageProvider.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: 'asset-library: backfill --images needs IMAGE_EMBEDDING_PROVIDER (immich-ml or onnx), and pgvector in the database\n',
    })
  })

  it('jobs prints one row per queue, as JSON too; jobs retry refuses an unknown queue with exit 2 and one line', async () => {
    const listed = await runCli(['jobs', '--json'], { DATA_DIR: directory })
    expect(listed.code, listed.stderr).toBe(0)
    // Nothing ran: the pushes' thumbnails, texts and analyses wait (the texts for a provider this server lacks).
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: 'thumbnails', pending: 3, running: 0, failed: 0, oldest_pending_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { name: 'embeddings', pending: 3, running: 0, failed: 0, oldest_pending_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      // No image provider: the pushes queued no picture for it.
      { name: 'image_embeddings', pending: 0, running: 0, failed: 0, oldest_pending_at: null },
      ...ANALYSES.map((name) => ({ name, pending: 3, running: 0, failed: 0, oldest_pending_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })),
    ])
    const table = await runCli(['jobs', '--org', 'acme'], { DATA_DIR: directory })
    expect(table.stdout.split('\n').slice(0, 5 + ANALYSES.length).map((line) => line.trim().split(/\s{2,}/))).toEqual([
      ['Jobs of organization acme'],
      ['queue', 'pending', 'running', 'failed', 'oldest waiting since'],
      ['thumbnails', '3', '0', '0', expect.stringMatching(/^\d{4}-/)],
      ['embeddings', '3', '0', '0', expect.stringMatching(/^\d{4}-/)],
      ['image_embeddings', '0', '0', '0', '-'],
      ...ANALYSES.map((name) => [name, '3', '0', '0', expect.stringMatching(/^\d{4}-/)]),
    ])
    const attempts = []
    for (const args of [['jobs', 'retry', 'bogus'], ['jobs', 'bogus']]) {
      const { code, stdout, stderr } = await runCli(args, { DATA_DIR: directory })
      attempts.push({ code, stdout, stderr })
    }
    expect(attempts).toEqual([
      { code: 2, stdout: '', stderr: `asset-library: no queue named "bogus": the queues are ${['thumbnails', 'embeddings', 'image_embeddings', ...ANALYSES].join(', ')}\n` },
      { code: 2, stdout: '', stderr: 'asset-library: Unknown command "jobs bogus": try `jobs` or `jobs retry NAME`\n' },
    ])
    const retried = await runCli(['jobs', 'retry', 'thumbnails', '--json'], { DATA_DIR: directory })
    expect(retried.code, retried.stderr).toBe(0)
    // Every thumbnail has its job already: none failed, none is missing.
    expect(JSON.parse(retried.stdout)).toEqual({ name: 'thumbnails', queued: 0 })
  })

  it('backfill embeds what is missing in batched requests, with progress and a final count', async () => {
    const backfill = await runCli(['embeddings', 'backfill'], providerEnv)
    expect(backfill.code, backfill.stderr).toBe(0)
    expect(backfill.stdout).toContain('Embedded 3 assets of all organizations')
    expect(backfill.stderr).toMatch(/Embedding \[#+\] 100% 3\/3/)
    expect(provider.inputs).toEqual(expect.arrayContaining(['Red sports car', 'Sleeping kitten', 'Calm sea']))
    const status = await runCli(['embeddings', 'status', '--json'], providerEnv)
    expect(JSON.parse(status.stdout)).toMatchObject({ mode: 'hybrid', current: 3, stale: 0, missing: 0 })
  })

  it('serve with SERVE_BACKGROUND_WORK=false leaves the background work to workers: no provider request at all', async () => {
    const created = await runCli(['key', 'create', '--org', 'acme', '--scope', 'assets:write', '--json'], providerEnv)
    const { token } = JSON.parse(created.stdout)
    const requests = provider.requests()
    const server = await startServer({ ...providerEnv, SERVE_BACKGROUND_WORK: 'false' })
    try {
      const image = await solidPng(4, 4, '#123456')
      const pushed = await fetch(`${server.url}/api/v1/assets`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ image_base64: image.toString('base64'), title: 'Left for the worker' }),
      })
      expect(pushed.status).toBe(201)
      expect(((await (await fetch(`${server.url}/ready`)).json()) as { search: { mode: string } }).search.mode).toBe('hybrid')
      // A process that does no background work leaves nothing to wait for; one that did would have sent
      // its start-up probe at once and the new text within milliseconds, so this watches for either.
      await staysTrue('no provider request', () => provider.requests() === requests, 1_500)
    } finally {
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    }
    const status = await runCli(['embeddings', 'status', '--json'], providerEnv)
    expect(JSON.parse(status.stdout)).toMatchObject({ current: 3, missing: 1 })
  })

  it('the worker embeds a changed text in the background and stops cleanly on SIGTERM', async () => {
    await withApp(directory, async (app, key) => {
      const [asset] = (await app.inject({ method: 'GET', url: '/api/v1/assets?q=kitten', headers: bearer(key) })).json().data
      expect((await app.inject({ method: 'PATCH', url: `/api/v1/assets/${asset.id}`, headers: bearer(key), payload: { title: 'Playful puppy' } })).statusCode).toBe(200)
    })
    const worker = spawn(CLI[0]!, [...CLI.slice(1), 'worker'], { env: env(providerEnv), stdio: ['ignore', 'pipe', 'pipe'] })
    running.push(worker)
    let output = ''
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk))
    worker.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve))
    await waitFor('the worker to embed the new titles', () => provider.inputs.includes('Playful puppy') && provider.inputs.includes('Left for the worker'), 20_000)
    await waitFor('the worker to store it', () => output.includes('worker started'), 5_000)
    worker.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(output).toContain('"msg":"stopped"')
    const status = await runCli(['embeddings', 'status', '--json'], providerEnv)
    expect(JSON.parse(status.stdout)).toMatchObject({ current: 4, stale: 0, missing: 0 })
  })

  it('backfill --images embeds the pictures pushed before the image service was configured, with progress; a second run redoes nothing', async () => {
    const service = await startFakeImmichMl()
    try {
      const imageEnv = { ...providerEnv, IMAGE_EMBEDDING_PROVIDER: 'immich-ml', IMAGE_EMBEDDING_URL: service.url }
      const backfill = await runCli(['embeddings', 'backfill', '--images'], imageEnv)
      expect(backfill.code, backfill.stderr).toBe(0)
      expect(backfill.stdout).toBe('Embedded the images of 4 assets of all organizations\n')
      expect(backfill.stderr).toMatch(/Embedding images \[#+\] 100% 4\/4/)
      // One request per picture, each CLIP's 224 px square of it; no text was sent.
      expect(service.predictions.map((prediction) => [prediction.kind, prediction.image?.width])).toEqual(Array(4).fill(['image', 224]))

      const again = await runCli(['embeddings', 'backfill', '--images', '--json'], imageEnv)
      expect(again.code, again.stderr).toBe(0)
      expect(JSON.parse(again.stdout)).toEqual({ embedded: 0, failed: 0 })
      expect(service.predictions).toHaveLength(4)

      const status = await runCli(['embeddings', 'status', '--json'], imageEnv)
      expect(JSON.parse(status.stdout)).toMatchObject({ mode: 'hybrid', images: { current: 4, stale: 0, missing: 0, failing: 0 } })
    } finally {
      await service.close()
    }
  })
})

describe('blobs migrate from the command line', () => {
  it('copies the library into a bucket with a progress bar, verified, and a second run copies nothing', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'al-cli-migrate-'))
    const s3 = await startS3Server()
    try {
      await withApp(directory, async (app, key) => {
        for (const colour of ['#102030', '#405060']) {
          const image = await solidPng(4, 4, colour)
          const res = await app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(key), payload: { image_base64: image.toString('base64') } })
          expect(res.statusCode).toBe(201)
        }
        await app.services.thumbnails.drain()
      })
      const env = { DATA_DIR: directory, ...s3Env(s3.endpoint, await createTestBucket(s3.endpoint)), BLOB_STORE: 'file' }
      const first = await runCli(['blobs', 'migrate', '--from', 'file', '--to', 's3', '--json'], env)
      expect(first.code, first.stderr).toBe(0)
      expect(JSON.parse(first.stdout)).toEqual({ copied: 4, already_there: 0, missing: [] })
      expect(first.stderr).toContain('Copying image files from file to s3 [##############################] 100% 2/2')
      const second = await runCli(['blobs', 'migrate', '--from', 'file', '--to', 's3'], env)
      expect(second.stdout.trim()).toBe('Copied 0 image files from file to s3, each read back with its SHA-256; 4 already there')
    } finally {
      await s3.close()
      rmSync(directory, { recursive: true, force: true })
    }
  })
  it('refuses the same store on both sides, or a store it does not know, with exit 2 and one line, before it opens the database', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'al-cli-migrate-usage-'))
    try {
      const attempts = []
      for (const options of [['--from', 's3', '--to', 's3'], ['--from', 'file', '--to', 'gcs'], ['--from', 'file']]) {
        const { code, stdout, stderr } = await runCli(['blobs', 'migrate', ...options], { DATA_DIR: directory })
        attempts.push({ code, stdout, stderr })
      }
      expect(existsSync(join(directory, 'pg'))).toBe(false)
      expect(attempts).toEqual([
        { code: 2, stdout: '', stderr: 'asset-library: --from and --to must name different stores (file, s3)\n' },
        { code: 2, stdout: '', stderr: 'asset-library: --to must be one of file, s3\n' },
        { code: 2, stdout: '', stderr: 'asset-library: --to must be one of file, s3\n' },
      ])
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })
  it('refuses to copy into the S3 store when no bucket is configured, with exit 2 and the settings to set', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'al-cli-migrate-no-bucket-'))
    try {
      const { code, stdout, stderr } = await runCli(['blobs', 'migrate', '--from', 'file', '--to', 's3'], { DATA_DIR: directory })
      expect({ code, stdout, stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: 'asset-library: S3_BUCKET is required to use the S3 store (with S3_ENDPOINT, S3_REGION and the credentials)\n',
      })
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })
})

describe('a server killed mid-request', () => {
  it('loses no acknowledged version of an asset, and leaves no version without its file, when killed -9 among version uploads', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'al-killed-versions-'))
    const settings = { DATA_DIR: fresh, RATE_LIMIT_EXPENSIVE: '100000', RATE_LIMIT_CHEAP: '100000' }
    try {
      const first = await startServer(settings)
      const key = /API key \(assets:write\): (al_\S+)/.exec(first.output())![1]!
      const call = (url: string, path: string, body?: object) =>
        fetch(`${url}${path}`, { method: body ? 'POST' : 'GET', headers: { ...bearer(key), ...(body && { 'content-type': 'application/json' }) }, ...(body && { body: JSON.stringify(body) }) })
      const pushed = await call(first.url, '/api/v1/assets', { image_base64: (await solidPng(16, 16, '#000000')).toString('base64') })
      const assetId = ((await pushed.json()) as { asset_id: string }).asset_id
      // Version uploads from four senders until the server dies; each acknowledged one is remembered with its bytes.
      const acknowledged = new Map<number, Buffer>()
      let shade = 0
      const sender = async () => {
        for (;;) {
          const image = await solidPng(16, 16, `#${(++shade).toString(16).padStart(6, '0')}`)
          const res = await call(first.url, `/api/v1/assets/${assetId}/versions`, { image_base64: image.toString('base64') }).catch(() => null)
          if (!res) return
          // Four senders race for one asset: a sender that loses every retry is told to send again, which is
          // no acknowledgement (it happened once on a loaded CI machine), so the sender goes on.
          if (res.status === 409 && ((await res.clone().json()) as { code: string }).code === 'concurrent_change') continue
          if (res.status !== 201) throw new Error(`a version upload answered ${res.status}: ${await res.text()}`)
          acknowledged.set(((await res.json()) as { version: number }).version, image)
        }
      }
      const senders = Promise.all([sender(), sender(), sender(), sender()])
      await waitFor('versions to be acknowledged', () => acknowledged.size >= 12)
      first.child.kill('SIGKILL')
      await first.exited
      await senders

      const second = await startServer(settings)
      const listed = (await (await call(second.url, `/api/v1/assets/${assetId}/versions`)).json()) as { data: Array<{ version: number; original_url: string }> }
      const versions = listed.data
      const numbers = versions.map((version) => version.version)
      // Linear history: 1..n, each acknowledged version among them.
      expect(numbers).toEqual(numbers.map((_, i) => numbers.length - i))
      for (const version of acknowledged.keys()) expect(numbers).toContain(version)
      // Every version's row has its file: the acknowledged ones byte for byte.
      for (const version of versions) {
        const file = await fetch(version.original_url.replace(/^https?:\/\/[^/]+/, second.url))
        expect(file.status, `version ${version.version}`).toBe(200)
        const bytes = Buffer.from(await file.arrayBuffer())
        const sent = acknowledged.get(version.version)
        if (sent) expect(bytes.equals(sent), `version ${version.version}`).toBe(true)
      }
      const asset = (await (await call(second.url, `/api/v1/assets/${assetId}`)).json()) as { version: number }
      expect(asset.version).toBe(numbers[0])
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('lets the request\'s Idempotency-Key go with its process: the retry to the next server runs at once, not 409 for 60 s', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'al-killed-'))
    const poster = await solidPng(8, 8)
    // The push's image comes from here; the first fetch is never answered, so the push is running when its server is killed.
    let fetches = 0
    const images = createHttpServer((_request, response) => {
      fetches += 1
      if (fetches > 1) response.writeHead(200, { 'content-type': 'image/png' }).end(poster)
    })
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
    const imageUrl = `http://127.0.0.1:${(images.address() as { port: number }).port}/poster.png`
    const settings = { DATA_DIR: fresh, OUTBOUND_ALLOWLIST: '127.0.0.1/32' }
    try {
      const first = await startServer(settings)
      const key = /API key \(assets:write\): (al_\S+)/.exec(first.output())![1]!
      const push = (url: string) =>
        fetch(`${url}/api/v1/assets`, {
          method: 'POST',
          headers: { ...bearer(key), 'content-type': 'application/json', 'idempotency-key': 'pushed-as-the-server-died' },
          body: JSON.stringify({ image_url: imageUrl, title: 'Poster' }),
        })
      const lost = push(first.url).catch((error: unknown) => error)
      await waitFor('the push to fetch its image', () => fetches === 1)
      first.child.kill('SIGKILL')
      await first.exited
      await lost

      const second = await startServer(settings)
      const retried = await push(second.url)
      expect(retried.status).toBe(201)
      expect(await retried.json()).toMatchObject({ duplicate: false })
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    } finally {
      images.closeAllConnections()
      images.close()
      rmSync(fresh, { recursive: true, force: true })
    }
  })
})
