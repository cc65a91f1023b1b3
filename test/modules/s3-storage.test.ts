import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { migrateBlobs } from '../../src/modules/assets/blob-migration.js'
import { sweepBlobs } from '../../src/modules/assets/blob-sweep.js'
import { FileBlobStore, variantKey, type PutResult } from '../../src/platform/blobs/blob-store.js'
import { S3BlobStore } from '../../src/platform/blobs/s3-blob-store.js'
import { createLogger } from '../../src/platform/logger.js'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { callApi, expectProblem, pushAndRead, pushImage, type AssetRecord } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { startProxy } from '../support/http-server.js'
import { createTestBucket, s3Env, startS3Server, type S3Server } from '../support/s3-server.js'
import { waitFor } from '../support/wait.js'

const endpoint = inject('s3Endpoint')
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search

/** Everything the S3 app logs, one JSON object a line. */
let logged = ''
let t: TestApp
let acme: Seeded
let blobs: S3BlobStore

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString()
      done()
    },
  })
  t = await startTestApp({ env: s3Env(endpoint, await createTestBucket(endpoint)), logger: createLogger({ logLevel: 'info', logFormat: 'json' }, sink) })
  acme = await seedOrganization(t.app, 'Acme')
  blobs = new S3BlobStore(t.config.s3!)
})
afterAll(async () => {
  blobs.close()
  await t.close()
})

const assetCount = async (app: TestApp) => Number((await app.database.handle.db.selectFrom('assets').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)

describe('BLOB_STORE=s3 end to end', () => {
  it('serves pushed files from the bucket with ETag, 304 and ranges, says so on /ready, and deletes them with the asset', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/ready' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json().storage).toEqual({ kind: 's3', reachable: true })

    const { image, record } = await pushAndRead(t.app, acme, {}, await uniquePng(300, 200))
    const thumbnailKey = variantKey(record.sha256, 'thumb.webp')
    expect((await blobs.get(record.sha256))!.equals(image)).toBe(true)
    await t.app.services.thumbnails.drain()
    expect(await blobs.exists(thumbnailKey)).toBe(true)

    const original = await t.app.inject({ method: 'GET', url: pathOf(record.original_url) })
    expect(original.statusCode).toBe(200)
    expect(original.rawPayload.equals(image)).toBe(true)
    expect(original.headers.etag).toBe(`"${record.sha256}"`)
    const again = await t.app.inject({ method: 'GET', url: pathOf(record.original_url), headers: { 'if-none-match': original.headers.etag! } })
    expect(again.statusCode).toBe(304)
    const part = await t.app.inject({ method: 'GET', url: pathOf(record.original_url), headers: { range: 'bytes=10-19' } })
    expect(part.statusCode).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 10-19/${image.length}`)
    expect(part.rawPayload.equals(image.subarray(10, 20))).toBe(true)
    const tail = await t.app.inject({ method: 'GET', url: pathOf(record.original_url), headers: { range: 'bytes=-5' } })
    expect(tail.rawPayload.equals(image.subarray(-5))).toBe(true)
    expectProblem(await t.app.inject({ method: 'GET', url: pathOf(record.original_url), headers: { range: `bytes=${image.length}-` } }), 416, 'range_not_satisfiable')
    const thumbnail = await t.app.inject({ method: 'GET', url: pathOf(record.thumbnail_url) })
    expect(thumbnail.statusCode).toBe(200)
    expect(thumbnail.rawPayload.equals((await blobs.get(thumbnailKey))!)).toBe(true)

    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/assets/${record.id}`)).statusCode).toBe(204)
    expect(await blobs.exists(record.sha256)).toBe(true)
    expect((await callApi(t.app, acme.writeKey, 'DELETE', `/api/v1/trash/${record.id}`)).statusCode).toBe(204)
    expect(await blobs.exists(record.sha256)).toBe(false)
    expect(await blobs.exists(thumbnailKey)).toBe(false)
  })

  it('answers 404 problem+json for a row whose file is missing from the bucket, and logs the key', async () => {
    const { record } = await pushAndRead(t.app, acme)
    await blobs.delete(record.sha256)
    expectProblem(await t.app.inject({ method: 'GET', url: pathOf(record.original_url) }), 404, 'not_found')
    const line = logged.split('\n').find((entry) => entry.includes('missing from the blob store'))
    expect(JSON.parse(line!)).toMatchObject({ key: record.sha256, asset_id: record.id })
  })

  it('with FILES_REDIRECT=presigned, answers a valid link with a short-lived presigned URL of the bucket, and a bad one still with 403', async () => {
    const redirecting = await startTestApp({ database: t.database, env: { ...s3Env(endpoint, t.config.s3!.bucket), FILES_REDIRECT: 'presigned' } })
    try {
      const { image, record } = await pushAndRead(redirecting.app, acme)
      const answer = await redirecting.app.inject({ method: 'GET', url: `${pathOf(record.original_url)}&download=logo.png` })
      expect(answer.statusCode).toBe(302)
      expect(answer.headers['cache-control']).toBe('no-store')
      const location = new URL(answer.headers.location!)
      expect(`${location.origin}${location.pathname}`).toBe(`${endpoint}/${t.config.s3!.bucket}/${record.sha256}`)
      expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300)
      expect(location.searchParams.get('response-content-disposition')).toContain('logo.png')
      expect(location.searchParams.get('response-content-type')).toBe('image/png')
      const fetched = await fetch(location)
      expect(Buffer.from(await fetched.arrayBuffer()).equals(image)).toBe(true)
      const tampered = pathOf(record.original_url).replace('/original', '/thumbnail')
      expectProblem(await redirecting.app.inject({ method: 'GET', url: tampered }), 403, 'invalid_signature')

      // A thumbnail whose file is missing is made again before the client is sent to the bucket for it.
      await blobs.delete(variantKey(record.sha256, 'thumb.webp'))
      const thumbnail = await redirecting.app.inject({ method: 'GET', url: pathOf(record.thumbnail_url) })
      expect(thumbnail.statusCode).toBe(302)
      const made = await fetch(thumbnail.headers.location!)
      expect(made.status).toBe(200)
      expect((await sharp(Buffer.from(await made.arrayBuffer())).metadata()).format).toBe('webp')
      // An original missing from the bucket is a 404 here, not a link to the bucket's own error.
      await blobs.delete(record.sha256)
      expectProblem(await redirecting.app.inject({ method: 'GET', url: pathOf(record.original_url) }), 404, 'not_found')
    } finally {
      await redirecting.close()
    }
  })
})

describe('the sweep on S3', () => {
  it('removes unreferenced blobs and never one a row refers to, even under a concurrent push of the same bytes', async () => {
    const { record } = await pushAndRead(t.app, acme)
    await t.app.services.thumbnails.drain()
    const orphan = await blobs.put(await uniquePng())
    expect(await blobs.exists(orphan.key)).toBe(true)
    const outcome = await sweepBlobs(t.database.handle.db, blobs, 0)
    expect(outcome.removed).toBeGreaterThanOrEqual(1)
    expect(await blobs.exists(orphan.key)).toBe(false)
    expect(await blobs.exists(record.sha256)).toBe(true)
    expect(await blobs.exists(variantKey(record.sha256, 'thumb.webp'))).toBe(true)

    // The files of bytes no row refers to yet, swept while a push of those very bytes commits its row.
    for (let round = 0; round < 6; round++) {
      const image = await uniquePng()
      await blobs.put(image)
      await blobs.putAs(variantKey(sha256(image), 'thumb.webp'), Buffer.from('an earlier, crashed push'))
      const [, pushed] = await Promise.all([sweepBlobs(t.database.handle.db, blobs, 0), pushImage(t.app, acme.writeKey, {}, image)])
      expect((await blobs.get(sha256(image)))?.equals(image), `round ${round}`).toBe(true)
      const file = (await callApi(t.app, acme.readKey, 'GET', `/api/v1/assets/${pushed.id}`)).json<AssetRecord>()
      expect((await t.app.inject({ method: 'GET', url: pathOf(file.original_url) })).statusCode).toBe(200)
      expect((await t.app.inject({ method: 'GET', url: pathOf(file.thumbnail_url) })).statusCode, `round ${round}`).toBe(200)
    }
  })
})

/** An S3 store that counts what it writes, and fails the write after `failAfter` of them (a run cut short). */
class CountingStore extends S3BlobStore {
  writes: string[] = []
  failAfter = Infinity

  override async put(bytes: Buffer, hash?: string): Promise<PutResult> {
    this.count(hash ?? sha256(bytes))
    return super.put(bytes, hash)
  }

  override async putAs(key: string, bytes: Buffer): Promise<{ key: string; created: boolean }> {
    this.count(key)
    return super.putAs(key, bytes)
  }

  private count(key: string): void {
    if (this.writes.length >= this.failAfter) throw new Error('the copy was cut short')
    this.writes.push(key)
  }
}

describe('blobs migrate', () => {
  it('copies every file rows refer to from disk to a bucket and back, resuming after an interruption without copying anything twice', { timeout: 90_000 }, async () => {
    const onDisk = await startTestApp({ env: { BLOB_STORE: 'file', RATE_LIMIT_EXPENSIVE: '1000' } })
    const files = new FileBlobStore(onDisk.config.blobDir)
    const bucket = new CountingStore({ ...t.config.s3!, bucket: await createTestBucket(endpoint) })
    try {
      const org = await seedOrganization(onDisk.app, 'Moving')
      const pushed = await Promise.all(Array.from({ length: 4 }, async () => (await pushAndRead(onDisk.app, org)).record))
      await onDisk.app.services.thumbnails.drain()
      const keys = pushed.flatMap((asset) => [asset.sha256, variantKey(asset.sha256, 'thumb.webp')]).sort()
      const db = onDisk.database.handle.db

      bucket.failAfter = 5
      await expect(migrateBlobs(db, { from: files, to: bucket })).rejects.toThrow('cut short')
      const copiedBefore = bucket.writes.length
      expect(copiedBefore).toBe(5)
      bucket.failAfter = Infinity
      const progress: Array<[number, number]> = []
      const resumed = await migrateBlobs(db, { from: files, to: bucket }, (done, total) => progress.push([done, total]))
      expect(resumed).toEqual({ copied: keys.length - copiedBefore, alreadyThere: copiedBefore, missing: [] })
      expect(bucket.writes.sort()).toEqual(keys)
      expect(progress.at(-1)).toEqual([4, 4])
      for (const key of keys) expect((await bucket.get(key))!.equals((await files.get(key))!), key).toBe(true)
      expect(await migrateBlobs(db, { from: files, to: bucket })).toEqual({ copied: 0, alreadyThere: keys.length, missing: [] })

      // Back to disk, where one file was lost meanwhile: only that one is copied.
      await files.delete(keys[0]!)
      const back = await migrateBlobs(db, { from: bucket, to: files })
      expect(back).toEqual({ copied: 1, alreadyThere: keys.length - 1, missing: [] })
      expect((await files.get(keys[0]!))!.equals((await bucket.get(keys[0]!))!)).toBe(true)
    } finally {
      bucket.close()
      await onDisk.close()
    }
  })

  it('reports the originals rows refer to that the source lacks, not the thumbnails it lacks, and copies the rest', async () => {
    const bucket = new S3BlobStore({ ...t.config.s3!, bucket: await createTestBucket(endpoint) })
    const source = new S3BlobStore({ ...t.config.s3!, bucket: await createTestBucket(endpoint) })
    try {
      await pushAndRead(t.app, acme)
      const listed = await t.database.handle.db.selectFrom('assets').select('blob_key').execute()
      const held: string[] = []
      for (const key of new Set(listed.map((row) => row.blob_key))) if (await blobs.exists(key)) held.push(key)
      // The source has every original but one, and no thumbnail: those are made when first asked for.
      const [lost, ...kept] = held
      for (const key of kept) await source.put((await blobs.get(key))!, key)
      const outcome = await migrateBlobs(t.database.handle.db, { from: source, to: bucket })
      expect(outcome.missing).toContain(lost)
      expect(outcome.missing.filter((key) => key.includes('.'))).toEqual([])
      expect(outcome.copied).toBe(kept.length)
    } finally {
      bucket.close()
      source.close()
    }
  })
})

describe('/ready on S3', () => {
  it('asks the bucket at most once in 2 s, however often it is polled, and again after', async () => {
    const proxy = await startProxy(endpoint)
    const polled = await startTestApp({ database: t.database, env: s3Env(proxy.url, t.config.s3!.bucket) })
    const bucketChecks = () => proxy.hits.filter((path) => path === `/${t.config.s3!.bucket}/`).length
    try {
      const before = bucketChecks()
      const answers = await Promise.all(Array.from({ length: 5 }, () => polled.app.inject({ method: 'GET', url: '/ready' })))
      expect(answers.map((answer) => answer.json().storage)).toEqual(Array(5).fill({ kind: 's3', reachable: true }))
      expect(bucketChecks() - before).toBe(1)
      await waitFor('a look at the bucket once the last one is 2 s old', async () => {
        expect((await polled.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200)
        return bucketChecks() - before === 2
      })
    } finally {
      await polled.close()
      await proxy.close()
    }
  })
})

describe('when S3 fails', () => {
  let server: S3Server
  let failing: TestApp
  let org: Seeded

  beforeAll(async () => {
    server = await startS3Server()
    failing = await startTestApp({ env: s3Env(server.endpoint, await createTestBucket(server.endpoint), { S3_TIMEOUT_MS: '1000', S3_MAX_ATTEMPTS: '2' }) })
    org = await seedOrganization(failing.app, 'Failing')
  })
  afterAll(() => failing.close())

  it('answers a push 503 storage_unavailable and keeps no row, a download 503 at once, and /ready 503', async () => {
    const { record } = await pushAndRead(failing.app, org)
    await server.close()
    const before = await assetCount(failing)
    const push = await callApi(failing.app, org.writeKey, 'POST', '/api/v1/assets', { image_base64: (await uniquePng()).toString('base64') })
    expectProblem(push, 503, 'storage_unavailable')
    expect(await assetCount(failing)).toBe(before)
    const started = Date.now()
    expectProblem(await failing.app.inject({ method: 'GET', url: pathOf(record.original_url) }), 503, 'storage_unavailable')
    expect(Date.now() - started).toBeLessThan(5_000)
    const ready = await failing.app.inject({ method: 'GET', url: '/ready' })
    expect(ready.statusCode).toBe(503)
    expect(ready.json()).toMatchObject({ status: 'storage_unreachable', storage: { kind: 's3', reachable: false } })
  })

  it('answers a download 503 within its timeout when S3 accepts the connection and never answers', async () => {
    const silent: Server = createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { record } = await pushAndRead(t.app, acme)
    const hung = await startTestApp({
      database: t.database,
      env: s3Env(`http://127.0.0.1:${(silent.address() as { port: number }).port}`, t.config.s3!.bucket, { S3_TIMEOUT_MS: '500', S3_MAX_ATTEMPTS: '1' }),
    })
    try {
      const started = Date.now()
      expectProblem(await hung.app.inject({ method: 'GET', url: pathOf(record.original_url) }), 503, 'storage_unavailable')
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      await hung.close()
      silent.close()
    }
  })
})

describe('asset-library serve with a bucket it cannot use', () => {
  /** The real executable, stopped at start-up: its exit code and what it wrote to stderr. */
  function serve(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'al-s3-start-'))
    const { DATABASE_URL: _db, REDIS_URL: _redis, ...rest } = process.env
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], { env: { ...rest, DATA_DIR: dataDir, PORT: '0', ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    return new Promise((resolve) => {
      child.once('exit', (code) => {
        rmSync(dataDir, { recursive: true, force: true })
        resolve({ code, stderr })
      })
    })
  }

  /** Our own lines; Node prints the AWS SDK's warning about Node 20 (see docs/decisions.md) besides. */
  const ownLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('asset-library:'))

  it('stops with one line naming a missing bucket, or refused credentials', { timeout: 120_000 }, async () => {
    const [missing, refused] = await Promise.all([
      serve(s3Env(endpoint, 'no-such-bucket')),
      serve(s3Env(endpoint, t.config.s3!.bucket, { S3_ACCESS_KEY_ID: 'WRONG', S3_SECRET_ACCESS_KEY: 'not-the-secret' })),
    ])
    expect(missing.code).toBe(1)
    expect(ownLines(missing.stderr)).toEqual([`asset-library: S3 bucket no-such-bucket at ${endpoint} does not exist: create it, or correct S3_BUCKET (or S3_ENDPOINT)`])
    expect(refused.code).toBe(1)
    expect(ownLines(refused.stderr)).toHaveLength(1)
    expect(refused.stderr).toContain('refused our credentials (HTTP 403)')
    expect(refused.stderr).not.toContain('not-the-secret')
  })
})
