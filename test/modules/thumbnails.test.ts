import { existsSync, rmSync } from 'node:fs'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { sql } from 'kysely'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { variantKey } from '../../src/platform/blobs/blob-store.js'
import { ImageProcessor } from '../../src/platform/images/images.js'
import { createLogger } from '../../src/platform/logger.js'
import { bearer, FILES_ON_DISK, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem, outboxEvents, pushAndRead, type AssetRecord } from '../support/fixtures.js'
import { noisePng, undecodablePng } from '../support/images.js'
import { loginOwner, signedInMember } from '../support/sessions.js'
import { staysTrue, waitFor } from '../support/wait.js'

const BASE_URL = 'http://assets.test'

/** Every line the app logs, as JSON. */
let logged: Array<{ msg: string; asset_ids?: string[] }> = []
let t: TestApp
let acme: Seeded

beforeAll(async () => {
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string }))
      done()
    },
  })
  t = await startTestApp({ env: FILES_ON_DISK, logger: createLogger({ logLevel: 'info', logFormat: 'json' }, capture) })
  acme = await seedOrganization(t.app, 'Acme')
})
afterAll(() => t.close())
afterEach(() => {
  vi.restoreAllMocks()
  logged = []
})

const thumbnailPath = (sha256: string) => {
  const key = variantKey(sha256, 'thumb.webp')
  return join(t.config.blobDir, key.slice(0, 2), key.slice(2, 4), key)
}
const fetchFile = (url: string) => t.app.inject({ method: 'GET', url: url.replace(BASE_URL, '') })
const read = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/assets/${id}`, headers: bearer(acme.readKey) })).json<AssetRecord & { thumbnail_status: string; thumbnail_failure: string | null }>()
const queuedJobs = async () => (await sql<{ n: number }>`select count(*)::int as n from thumbnail_jobs`.execute(t.database.handle.db)).rows[0]!.n
/** A request whose body is still coming, over a real socket: resolves once the server has its headers. */
async function requestInFlight(requestLine: string, key: string): Promise<Socket> {
  if (!t.app.server.listening) await t.app.listen({ host: '127.0.0.1', port: 0 })
  const headersRead = new Promise((resolve) => t.app.server.once('request', resolve))
  const socket = connect((t.app.server.address() as AddressInfo).port, '127.0.0.1')
  socket.on('error', () => {})
  socket.write(`${requestLine} HTTP/1.1\r\nHost: assets.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"`)
  await headersRead
  return socket
}

/** Each thumbnail decoded in this process (every ImageProcessor's) with when it started and ended, calling through. */
function timeDecodes(): Array<{ start: number; end?: number }> {
  const decodes: Array<{ start: number; end?: number }> = []
  const thumbnail = ImageProcessor.prototype.thumbnail
  vi.spyOn(ImageProcessor.prototype, 'thumbnail').mockImplementation(async function (this: ImageProcessor, ...args) {
    const decode: { start: number; end?: number } = { start: performance.now() }
    decodes.push(decode)
    try {
      return await thumbnail.apply(this, args)
    } finally {
      decode.end = performance.now()
    }
  })
  return decodes
}

/** Counts the thumbnails decoded in this process (every ImageProcessor's), calling through. */
const countDecodes = () => vi.spyOn(ImageProcessor.prototype, 'thumbnail')

describe('thumbnails off the push', () => {
  it('answers the push before any thumbnail is made, and makes it when its URL is asked for first', async () => {
    const { record } = await pushAndRead(t.app, acme, {}, await noisePng())
    expect(record).toMatchObject({ thumbnail_status: 'available', thumbnail_failure: null, width: 300, height: 300 })
    expect(existsSync(thumbnailPath(record.sha256))).toBe(false)

    // The record asset.created carried at the commit links to a thumbnail that is served from that moment.
    const [created] = (await outboxEvents(t.database.handle.db, acme.org.id, 'asset.created')).filter((event) => event.id === record.id)
    const res = await fetchFile(created!.thumbnail_url as string)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/webp')
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 300, height: 300 })
    expect(existsSync(thumbnailPath(record.sha256))).toBe(true)
  })

  it('decodes each image once under 50 concurrent first requests, the background runner racing them', async () => {
    const grid = await Promise.all(Array.from({ length: 10 }, async () => (await pushAndRead(t.app, acme, {}, await noisePng(200))).record))
    const one = (await pushAndRead(t.app, acme, {}, await noisePng(400))).record
    const decodes = countDecodes()

    const requests = [...Array.from({ length: 50 }, () => one), ...grid.flatMap((asset) => [asset, asset, asset])].map((asset) => fetchFile(asset.thumbnail_url))
    const [answers] = await Promise.all([Promise.all(requests), t.app.services.thumbnails.drain()])

    expect(answers.map((res) => res.statusCode)).toEqual(answers.map(() => 200))
    const oneAnswers = answers.slice(0, 50)
    expect(new Set(oneAnswers.map((res) => res.rawPayload.toString('base64'))).size).toBe(1)
    expect(decodes).toHaveBeenCalledTimes(11)
    expect(await queuedJobs()).toBe(0)
  })

  it('regenerates a thumbnail whose file went missing, with the same ETag', async () => {
    const { record } = await pushAndRead(t.app, acme, {}, await noisePng())
    const first = await fetchFile(record.thumbnail_url)
    expect(first.statusCode).toBe(200)
    rmSync(thumbnailPath(record.sha256))

    const decodes = countDecodes()
    const again = await fetchFile(record.thumbnail_url)
    expect(again.statusCode).toBe(200)
    expect(again.headers.etag).toBe(first.headers.etag)
    expect(await sharp(again.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 300, height: 300 })
    expect(existsSync(thumbnailPath(record.sha256))).toBe(true)
    expect(decodes).toHaveBeenCalledTimes(1)
  })

  it('leaves the CPU to a push in flight: the runner waits, and a thumbnail asked for meanwhile is made on demand', async () => {
    await t.app.services.thumbnails.drain()
    const push = await requestInFlight('POST /api/v1/assets', acme.writeKey)
    const waiting = (await pushAndRead(t.app, acme, {}, await noisePng(200))).record
    const asked = (await pushAndRead(t.app, acme, {}, await noisePng(200))).record
    await t.app.services.thumbnails.start()
    try {
      await staysTrue('no thumbnail made in the background while a push is in flight', () => !existsSync(thumbnailPath(waiting.sha256)), 1_000)
      expect((await fetchFile(asked.thumbnail_url)).statusCode).toBe(200)
      push.destroy()
      await waitFor('the waiting thumbnail made once the push has ended', () => existsSync(thumbnailPath(waiting.sha256)))
    } finally {
      await t.app.services.thumbnails.stop(5_000)
    }
  })

  it('beside a read in flight, makes the queued thumbnails one at a time, resting four times as long as each took', async () => {
    await t.app.services.thumbnails.drain()
    const queued = await Promise.all(Array.from({ length: 3 }, async () => (await pushAndRead(t.app, acme, {}, await noisePng(400))).record))
    const readInFlight = await requestInFlight(`PATCH /api/v1/assets/${queued[0]!.id}`, acme.writeKey)
    const decodes = timeDecodes()
    await t.app.services.thumbnails.start()
    try {
      await waitFor('every queued thumbnail made beside the read', async () => (await queuedJobs()) === 0)
    } finally {
      readInFlight.destroy()
      await t.app.services.thumbnails.stop(5_000)
    }
    expect(decodes).toHaveLength(3)
    // The rest is four times the whole job, which is longer than its decode.
    for (const [i, decode] of decodes.slice(1).entries()) {
      const before = decodes[i]!
      expect(decode.start - before.end!).toBeGreaterThanOrEqual(4 * (before.end! - before.start))
    }
  })

  it('makes the queued thumbnails in the background once its runner is started, and forgets the job of a deleted asset', async () => {
    await t.app.services.thumbnails.drain()
    const pushed = await Promise.all(Array.from({ length: 3 }, async () => (await pushAndRead(t.app, acme, {}, await noisePng(200))).record))
    const gone = (await pushAndRead(t.app, acme, {}, await noisePng(200))).record
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${gone.id}`, headers: bearer(acme.writeKey) })).statusCode).toBe(204)
    expect(await queuedJobs()).toBe(3)

    await t.app.services.thumbnails.start()
    try {
      await waitFor('every queued thumbnail made', async () => (await queuedJobs()) === 0)
    } finally {
      await t.app.services.thumbnails.stop(5_000)
    }
    for (const asset of pushed) expect(existsSync(thumbnailPath(asset.sha256)), asset.id).toBe(true)
    expect(existsSync(thumbnailPath(gone.sha256))).toBe(false)
  })
})

describe('an image that passes its header but fails to decode', () => {
  it('is kept; its record says so, its thumbnail URL is 404 thumbnail_unavailable, and it is logged once', async () => {
    const bytes = await undecodablePng()
    const { record } = await pushAndRead(t.app, acme, {}, bytes)
    expect(record.thumbnail_status).toBe('available')

    const decodes = countDecodes()
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetchFile(record.thumbnail_url)))
    for (const res of answers) {
      const problem = expectProblem(res, 404, 'thumbnail_unavailable')
      expect(problem.detail).toContain('could not be decoded')
    }
    // Asked again once the failure is recorded: answered from the record, without decoding.
    expectProblem(await fetchFile(record.thumbnail_url), 404, 'thumbnail_unavailable')
    expect(decodes).toHaveBeenCalledTimes(1)

    const after = await read(record.id)
    expect(after).toMatchObject({ thumbnail_status: 'failed', thumbnail_failure: expect.stringContaining('could not be decoded') })
    const original = await fetchFile(after.original_url)
    expect(original.statusCode).toBe(200)
    expect(original.rawPayload.equals(bytes)).toBe(true)
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/assets?limit=100', headers: bearer(acme.readKey) })).json<{ data: Array<{ id: string; thumbnail_status: string }> }>()
    expect(listed.data.find((asset) => asset.id === record.id)?.thumbnail_status).toBe('failed')
    expect(logged.filter((line) => line.asset_ids?.includes(record.id))).toHaveLength(1)
  })

  it('is found out by the background runner too, which drops its job', async () => {
    const { record } = await pushAndRead(t.app, acme, {}, await undecodablePng())
    await t.app.services.thumbnails.drain()
    expect(await read(record.id)).toMatchObject({ thumbnail_status: 'failed' })
    expect(await queuedJobs()).toBe(0)
    expectProblem(await fetchFile(record.thumbnail_url), 404, 'thumbnail_unavailable')
    await waitFor('the failure logged', () => logged.some((line) => line.asset_ids?.includes(record.id)))
  })
})

describe('the thumbnail runner wakes on a commit, not on a poll', () => {
  it('makes a thumbnail pushed by another process (PostgreSQL: LISTEN/NOTIFY) or by this one (embedded) at once', async () => {
    // On PostgreSQL a second app on the same database and files, listening on its own connection, stands
    // for a worker: the pushing app runs no runner.
    const url = t.database.url
    const worker = url ? await startTestApp({ database: t.database, env: { ...FILES_ON_DISK, DATABASE_URL: url } }) : undefined
    const runnerApp = worker?.app ?? t.app
    await runnerApp.services.thumbnails.start()
    try {
      await waitFor('the runner to have made what was queued before', async () => (await queuedJobs()) === 0)
      const { record } = await pushAndRead(t.app, acme, {}, await noisePng())
      // The runner's fallback poll is a minute away: only the wake-up makes the thumbnail this soon.
      await waitFor('the thumbnail made by the runner', () => existsSync(thumbnailPath(record.sha256)), 5_000)
      // The file is written before the job's row goes, in the runner's commit just after.
      await waitFor('its job to be done', async () => (await queuedJobs()) === 0, 5_000)
    } finally {
      await runnerApp.services.thumbnails.stop(5_000)
      await worker?.close()
    }
  })
})

describe('the thumbnail queue as owners and admins see it', () => {
  interface Counts {
    name: string
    pending: number
    running: number
    failed: number
    oldest_pending_at: string | null
    unavailable_reason: string | null
  }

  it('counts the organization\u2019s jobs only, and a retry queues again the undecodable images, the failed jobs and the missing files', async () => {
    const studio = await seedOrganization(t.app, 'Queue Studio')
    const owner = await loginOwner(t.app, studio)
    const jobs = async (seeded: Seeded = studio, client = owner) => {
      const res = await client.get(`/app/api/orgs/${seeded.org.slug}/jobs`)
      expect(res.statusCode, res.body).toBe(200)
      return res.json<{ data: Counts[] }>().data
    }
    const thumbnailsOf = async () => (await jobs()).find((row) => row.name === 'thumbnails')!
    await t.app.services.thumbnails.drain()

    const good = await Promise.all([noisePng(64), noisePng(65)].map(async (png) => (await pushAndRead(t.app, studio, {}, await png)).record))
    const broken = (await pushAndRead(t.app, studio, {}, await undecodablePng())).record
    const queued = await jobs()
    expect(queued.map((row) => row.name)).toEqual(['thumbnails', 'embeddings', 'image_embeddings', 'perceptual_hash', 'palette', 'metadata', 'provenance'])
    expect(queued[0]).toEqual({ name: 'thumbnails', pending: 3, running: 0, failed: 0, oldest_pending_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), unavailable_reason: null })
    // This server has no embedding provider: the texts wait, and the queue says why.
    expect(queued[1]).toMatchObject({ name: 'embeddings', unavailable_reason: 'no_provider' })
    // Another organization sees none of them.
    const other = await seedOrganization(t.app, 'Quiet Studio')
    expect((await jobs(other, await loginOwner(t.app, other)))[0]).toMatchObject({ pending: 0, failed: 0, oldest_pending_at: null })

    await t.app.services.thumbnails.drain()
    expect(await thumbnailsOf()).toEqual({ name: 'thumbnails', pending: 0, running: 0, failed: 1, oldest_pending_at: null, unavailable_reason: null })
    // Files lost (restored from a backup without their thumbnails), and a job whose attempt failed on the files.
    rmSync(thumbnailPath(good[0]!.sha256))
    await sql`insert into thumbnail_jobs (asset_id, attempts, last_error, next_attempt_at) values (${good[1]!.id}, 1, 'disk full', now() + interval '1 hour')`.execute(
      t.database.handle.db,
    )
    expect(await thumbnailsOf()).toMatchObject({ pending: 0, failed: 2 })

    const retried = await owner.post(`/app/api/orgs/${studio.org.slug}/jobs/thumbnails/retry`)
    expect(retried.statusCode, retried.body).toBe(200)
    expect(retried.json()).toEqual({ name: 'thumbnails', queued: 3 })
    expect(await thumbnailsOf()).toMatchObject({ pending: 3, failed: 0 })
    await t.app.services.thumbnails.drain()
    expect(existsSync(thumbnailPath(good[0]!.sha256))).toBe(true)
    // An undecodable image is tried again (a newer decoder may read it) and recorded again.
    const record = await t.app.inject({ method: 'GET', url: `/api/v1/assets/${broken.id}`, headers: bearer(studio.readKey) })
    expect(record.json()).toMatchObject({ thumbnail_status: 'failed' })
    expect(await thumbnailsOf()).toEqual({ name: 'thumbnails', pending: 0, running: 0, failed: 1, oldest_pending_at: null, unavailable_reason: null })
  })

  it('is for owners and admins: a member is 403 role_required, an unknown queue 404', async () => {
    const studio = await seedOrganization(t.app, 'Guarded Studio')
    const admin = await signedInMember(t.app, studio.org.id, 'admin')
    const member = await signedInMember(t.app, studio.org.id, 'member')
    const url = `/app/api/orgs/${studio.org.slug}/jobs`
    expect((await admin.get(url)).statusCode).toBe(200)
    expectProblem(await member.get(url), 403, 'role_required')
    expectProblem(await member.post(`${url}/thumbnails/retry`), 403, 'role_required')
    expectProblem(await admin.post(`${url}/bogus/retry`), 404, 'not_found')
  })
})
