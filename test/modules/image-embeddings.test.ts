import { createHash } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { createTestDatabase, type TestDatabase } from '../support/database.js'
import { startEmbeddingServer, type EmbeddingServer } from '../support/embedding-server.js'
import { IMMICH_DIMENSIONS, startFakeImmichMl, type FakeImmichMl } from '../support/fake-immich-ml.js'
import { pushImage } from '../support/fixtures.js'
import { bandedPicture } from '../support/images.js'
import { createTinyClipModelDir, TINY_CLIP_DIMENSIONS } from '../support/tiny-clip.js'

/** Image embeddings with the fake Immich-ML service: vectors from pixels, so "red" finds red pictures. pgvector: embedded only. */
const LIMITS = { RATE_LIMIT_EXPENSIVE: '5000', RATE_LIMIT_CHEAP: '5000', RATE_LIMIT_STANDARD: '5000' }
let service: FakeImmichMl
const env = (extra: Record<string, string> = {}) => ({ IMAGE_EMBEDDING_PROVIDER: 'immich-ml', IMAGE_EMBEDDING_URL: service.url, ...LIMITS, ...extra })

const rows = (database: TestDatabase) =>
  database.handle.db.selectFrom('asset_image_embeddings').select(['asset_id', 'model', 'dimensions', 'next_attempt_at', 'attempts', 'last_error', 'embedded_sha256']).execute()

interface Hit {
  id: string
  title: string
  semantic_score: number
}

async function search(t: TestApp, org: Seeded, q: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/search', headers: bearer(org.readKey), payload: { q } })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ mode: string; data: Hit[] }>()
}

let database: TestDatabase
let t: TestApp | undefined

beforeAll(async () => {
  service = await startFakeImmichMl()
})
afterEach(async () => {
  service.reset()
  await t?.close()
  t = undefined
  await database?.dispose()
})
afterAll(() => service.close())

async function start(extra: Record<string, string> = {}): Promise<TestApp> {
  database = await createTestDatabase(inject('templateDir'))
  t = await startTestApp({ database, env: env(extra) })
  await t.app.services.imageEmbeddings.prepare()
  return t
}

const drainImages = (app: TestApp) => app.app.services.imageEmbeddings.drain()

describe.runIf(!process.env.TEST_DATABASE_URL)('search that sees the pictures (Immich ML, on the embedded database)', () => {
  it('finds untitled pictures by what they show, and `similar` returns look-alikes', async () => {
    const app = await start()
    const org = await seedOrganization(app.app, 'Acme')
    const red = (await pushImage(app.app, org.writeKey, { title: 'IMG_0001' }, await bandedPicture('#d42020'))).id
    const blue = (await pushImage(app.app, org.writeKey, { title: 'IMG_0002' }, await bandedPicture('#2050d4'))).id
    const crimson = (await pushImage(app.app, org.writeKey, { title: 'IMG_0003' }, await bandedPicture('#c01818', '#2050d4'))).id
    await drainImages(app)
    expect((await rows(database)).every((row) => row.model === 'ViT-B-32__openai' && row.dimensions === IMMICH_DIMENSIONS && row.next_attempt_at === null)).toBe(true)
    // Each image went as CLIP's 224 × 224 square, not as the original.
    const images = service.predictions.filter((p) => p.kind === 'image')
    expect(images.length).toBeGreaterThanOrEqual(3)
    expect(images.every((p) => p.image!.width === 224 && p.image!.height === 224 && p.image!.format === 'jpeg')).toBe(true)

    const before = service.predictions.length
    const found = await search(app, org, 'red')
    expect(service.predictions.length - before).toBe(1)
    expect(service.predictions.at(-1)).toMatchObject({ kind: 'text', text: 'red' })
    expect(found.mode).toBe('hybrid')
    expect(found.data.slice(0, 2).map((hit) => hit.id).sort()).toEqual([red, crimson].sort())
    expect(found.data.find((hit) => hit.id === blue)?.semantic_score ?? 0).toBeLessThan(found.data[0]!.semantic_score)

    const similar = await app.app.inject({ method: 'GET', url: `/api/v1/assets/${red}/similar`, headers: bearer(org.readKey) })
    expect(similar.statusCode, similar.body).toBe(200)
    expect(similar.json().data[0].id).toBe(crimson)

    const ready = await app.app.inject({ method: 'GET', url: '/ready' })
    expect(ready.json().search).toMatchObject({ mode: 'hybrid', images: { provider: 'immich-ml', model: 'ViT-B-32__openai', dimensions: IMMICH_DIMENSIONS, status: { status: 'ok' } } })
  })

  it('falls back to text mode when the service is down, and the push still answers; the image waits for its retry', async () => {
    const app = await start()
    const org = await seedOrganization(app.app, 'Acme')
    service.fail('down')
    const red = (await pushImage(app.app, org.writeKey, { title: 'Red poster' }, await bandedPicture('#d42020'))).id
    await drainImages(app)
    const [row] = await rows(database)
    expect(row).toMatchObject({ asset_id: red, attempts: 1, dimensions: null })
    expect(row!.last_error).toMatch(/503/)
    expect(row!.next_attempt_at!.getTime()).toBeGreaterThan(Date.now() + 2_000)
    const found = await search(app, org, 'red poster')
    expect(found.mode).toBe('text')
    expect(found.data.map((hit) => hit.id)).toEqual([red])
    const ready = await app.app.inject({ method: 'GET', url: '/ready' })
    expect(ready.json().search.images.status).toMatchObject({ status: 'failing', error: 'the embedding provider answered 503' })

    // The service back, a retry (the Processing panel's, `jobs retry`) makes it due now, and search sees it.
    service.reset()
    expect(await app.app.services.imageEmbeddings.retry()).toBe(1)
    await drainImages(app)
    expect((await rows(database))[0]).toMatchObject({ attempts: 0, last_error: null, dimensions: IMMICH_DIMENSIONS, next_attempt_at: null })
    expect(await search(app, org, 'red')).toMatchObject({ mode: 'hybrid', data: [{ id: red }] })
  })

  it('embeds a new version from its own file, and search follows the picture', async () => {
    const app = await start()
    const org = await seedOrganization(app.app, 'Acme')
    const asset = (await pushImage(app.app, org.writeKey, { title: 'IMG_0042' }, await bandedPicture('#d42020'))).id
    await pushImage(app.app, org.writeKey, { title: 'IMG_0043' }, await bandedPicture('#20a040'))
    await drainImages(app)
    expect((await search(app, org, 'red')).data[0]!.id).toBe(asset)

    const blue = await bandedPicture('#2050d4')
    const version = await app.app.inject({ method: 'POST', url: `/api/v1/assets/${asset}/versions`, headers: bearer(org.writeKey), payload: { image_base64: blue.toString('base64') } })
    expect(version.statusCode, version.body).toBe(201)
    const [due] = (await rows(database)).filter((row) => row.asset_id === asset)
    expect(due!.next_attempt_at).not.toBeNull()
    await drainImages(app)
    const [made] = (await rows(database)).filter((row) => row.asset_id === asset)
    expect(made).toMatchObject({ next_attempt_at: null, embedded_sha256: createHash('sha256').update(blue).digest('hex') })
    expect((await search(app, org, 'blue')).data[0]!.id).toBe(asset)
    // The red vector went with the red file: "red" now finds nothing red in it.
    const red = (await search(app, org, 'red')).data.find((hit) => hit.id === asset)
    expect(red?.semantic_score ?? 0).toBeLessThan(0.1)
  })

  it('retries with backoff an image the service is too slow for, and refuses a 200 whose vector is malformed', async () => {
    const app = await start({ IMAGE_EMBEDDING_JOB_TIMEOUT_MS: '300', EMBEDDING_TIMEOUT_MS: '300' })
    const org = await seedOrganization(app.app, 'Acme')
    service.delay(1_000)
    await pushImage(app.app, org.writeKey, { title: 'Slow' }, await bandedPicture('#20a040'))
    await drainImages(app)
    expect((await rows(database))[0]).toMatchObject({ attempts: 1, dimensions: null, last_error: 'the embedding provider did not answer within 300 ms' })
    expect((await search(app, org, 'green')).mode).toBe('text')

    service.delay(0)
    service.fail('malformed')
    const second = (await pushImage(app.app, org.writeKey, { title: 'Malformed' }, await bandedPicture('#2050d4'))).id
    await drainImages(app)
    const malformed = (await rows(database)).find((row) => row.asset_id === second)
    expect(malformed).toMatchObject({ attempts: 1, dimensions: null })
    expect(malformed!.last_error).toMatch(/not a JSON array/)
    expect((await search(app, org, 'blue')).mode).toBe('text')
  })

  it('re-embeds every image when the model changes to another dimension, and never compares the two', async () => {
    const first = await start()
    const org = await seedOrganization(first.app, 'Acme')
    const red = (await pushImage(first.app, org.writeKey, { title: 'IMG_1' }, await bandedPicture('#d42020'))).id
    await pushImage(first.app, org.writeKey, { title: 'IMG_2' }, await bandedPicture('#2050d4'))
    await drainImages(first)
    await first.close()

    service.answerDimensions(IMMICH_DIMENSIONS * 2)
    t = await startTestApp({ database, env: env({ IMAGE_EMBEDDING_MODEL: 'ViT-L-14__openai' }) })
    await t.app.services.imageEmbeddings.prepare()
    expect((await rows(database)).every((row) => row.next_attempt_at !== null && row.model === 'ViT-B-32__openai')).toBe(true)
    // Meanwhile the query's 32 numbers meet no 16-number vector: no semantic match, the text still ranks.
    const meanwhile = await search(t, org, 'IMG_1')
    expect(meanwhile.data.map((hit) => hit.id)).toEqual([red])
    expect(meanwhile.data[0]!.semantic_score).toBe(0)

    await drainImages(t)
    expect((await rows(database)).every((row) => row.model === 'ViT-L-14__openai' && row.dimensions === IMMICH_DIMENSIONS * 2)).toBe(true)
    expect((await search(t, org, 'red')).data[0]!.id).toBe(red)
  })

  it('with AI off makes no call to the service: text mode, and the images wait until AI is on again', async () => {
    const app = await start()
    const org = await seedOrganization(app.app, 'Acme')
    await app.app.services.orgs.updateSettings(org.org.id, { ai_enabled: false })
    const before = service.predictions.length
    const red = (await pushImage(app.app, org.writeKey, { title: 'IMG_9' }, await bandedPicture('#d42020'))).id
    await drainImages(app)
    const found = await search(app, org, 'red')
    expect(found.mode).toBe('text')
    expect(service.predictions.length).toBe(before)
    expect((await rows(database))[0]).toMatchObject({ asset_id: red, next_attempt_at: null, dimensions: null })

    await app.app.services.orgs.updateSettings(org.org.id, { ai_enabled: true })
    await drainImages(app)
    expect((await rows(database))[0]).toMatchObject({ dimensions: IMMICH_DIMENSIONS, next_attempt_at: null })
  })
})

describe.runIf(!process.env.TEST_DATABASE_URL)('the onnx provider, in this process', () => {
  let modelDir: string
  beforeAll(async () => {
    modelDir = await createTinyClipModelDir()
  })
  afterAll(() => rm(dirname(modelDir), { recursive: true, force: true }))

  it('finds the red picture by the word through the real runtime, and names its vectors after the model folder', async () => {
    const app = await start({ IMAGE_EMBEDDING_PROVIDER: 'onnx', IMAGE_EMBEDDING_MODEL_DIR: modelDir })
    const org = await seedOrganization(app.app, 'Acme')
    const red = (await pushImage(app.app, org.writeKey, { title: 'IMG_0001' }, await bandedPicture('#d42020'))).id
    await pushImage(app.app, org.writeKey, { title: 'IMG_0002' }, await bandedPicture('#2050d4'))
    await drainImages(app)
    expect((await rows(database)).every((row) => row.model === 'tiny-clip' && row.dimensions === TINY_CLIP_DIMENSIONS)).toBe(true)
    const found = await search(app, org, 'red')
    expect(found.mode).toBe('hybrid')
    expect(found.data[0]!.id).toBe(red)
  })
})

describe.runIf(!process.env.TEST_DATABASE_URL)('both providers configured', () => {
  let text: EmbeddingServer
  beforeAll(async () => {
    text = await startEmbeddingServer()
  })
  afterAll(() => text.close())

  it("asks the image provider for the query's meaning, and the text provider only for the assets' texts", async () => {
    const app = await start({ EMBEDDING_BASE_URL: text.baseUrl, EMBEDDING_MODEL: 'concepts-v1' })
    const org = await seedOrganization(app.app, 'Acme')
    const red = (await pushImage(app.app, org.writeKey, { title: 'Untitled' }, await bandedPicture('#d42020'))).id
    await drainImages(app)
    const textRequests = text.requests()
    const found = await search(app, org, 'red')
    expect(text.requests()).toBe(textRequests)
    expect(found).toMatchObject({ mode: 'hybrid' })
    expect(found.data[0]!.id).toBe(red)
  })
})
