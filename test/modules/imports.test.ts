import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { figmaNodeLink } from '../../src/modules/imports/figma-url.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { expectProblem, outboxEvents, pushImage } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { assetByExternalId, createImport, FIGMA_TOKEN, figmaLink, getImport, IMPORT_TEST_ENV, importEnded, renderedIds } from '../support/imports.js'
import { loginOwner } from '../support/sessions.js'
import { startReceiver, WEBHOOK_TEST_ENV, type WebhookReceiver } from '../support/webhook-receiver.js'

/** The Figma import (issue 35): POST /api/v1/imports against the fake Figma API, over real sockets. */

let fake: FakeFigma
let t: TestApp
let acme: Seeded
let globex: Seeded
let receiver: WebhookReceiver

beforeAll(async () => {
  fake = await startFakeFigma()
  fake.addToken(FIGMA_TOKEN)
  receiver = await startReceiver()
  t = await startTestApp({ env: { ...IMPORT_TEST_ENV, ...WEBHOOK_TEST_ENV, FIGMA_API_URL: fake.url, PLAN_LIMITS: '{"tiny":{"max_assets":2}}' } })
  globex = await seedOrganization(t.app, 'Globex')
  await t.app.services.importJob.start()
})
// An organization per test: the fake renders the same nodes of two files as the same bytes, which one
// organization's library would take for duplicates.
beforeEach(async () => {
  acme = await seedOrganization(t.app, 'Acme')
})
afterEach(() => fake.reset())
afterAll(async () => {
  await t.close()
  await receiver.close()
  await fake.close()
})

let files = 0
/** A file key of its own for each test (Figma's keys are 10 or more letters and digits). */
const newFileKey = () => `File${process.pid}x${++files}AbCdEf`
const db = () => t.database.handle.db
const externalId = (fileKey: string, nodeId: string) => `figma:${fileKey}:${nodeId}`
const sorted = (values: readonly string[]) => [...values].sort()

/** A file with two frames on "Brand" and a component on "Icons". */
function brandFile(fileKey = newFileKey()) {
  const file = fake.file(fileKey, 'Brand kit')
  const brand = file.addPage('Brand')
  const hero = file.addFrame(brand, 'Hero')
  const banner = file.addFrame(brand, 'Banner')
  const icons = file.addPage('Icons')
  const star = file.addComponent(icons, 'Star')
  return { fileKey, file, brand, hero, banner, star }
}

const importRow = (id: string) => db().selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe('a first import', () => {
  it('makes an asset of each top-level frame, named, tagged and linked after its node, and fires asset.created with its source', async () => {
    // Delivery runs in this test only: the others read the events in the outbox, which delivery empties.
    await t.app.services.webhookDelivery.start()
    const owner = await loginOwner(t.app, acme)
    const subscribed = await owner.post(`/app/api/orgs/${acme.org.slug}/webhooks`, { url: receiver.url, events: ['asset.created'] })
    expect(subscribed.statusCode, subscribed.body).toBe(201)
    const { fileKey, file, hero, banner, star } = brandFile()

    const id = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey), tag_names: ['brand-kit'], client: 'Initech', scale: 2 })
    const record = await importEnded(t.app, acme.writeKey, id)
    expect(record).toMatchObject({
      status: 'done',
      file_key: fileKey,
      node_id: null,
      select: 'frames',
      format: 'png',
      scale: 2,
      file_name: 'Brand kit',
      file_version: file.version,
      run: 1,
      total: 3,
      created: 3,
      updated: 0,
      unchanged: 0,
      failed: 0,
      missing: 0,
      failures: [],
      missing_nodes: [],
      error: null,
      created_by: { kind: 'key', name: 'assets:write' },
      metadata: { asset_type: null, client: 'Initech', product: null, tag_names: ['brand-kit'], collection_name: null, created_by_ai: false },
    })
    expect(Date.parse(record.finished_at!)).toBeGreaterThanOrEqual(Date.parse(record.started_at!))
    // The import's own token is erased once its run has ended.
    expect((await importRow(id)).token_sealed).toBeNull()

    const expected = [
      { nodeId: hero, title: 'Hero', page: 'Brand' },
      { nodeId: banner, title: 'Banner', page: 'Brand' },
      { nodeId: star, title: 'Star', page: 'Icons' },
    ]
    const assetIds: string[] = []
    for (const { nodeId, title, page } of expected) {
      const asset = await assetByExternalId(t.app, acme.readKey, externalId(fileKey, nodeId))
      expect(asset, title).toMatchObject({ title, client: 'Initech', source_url: figmaNodeLink(fileKey, nodeId), created_by_ai: false, mime_type: 'image/png', version: 1 })
      expect(sorted(asset!.tags as string[])).toEqual(sorted([page, 'brand-kit']))
      assetIds.push(asset!.id as string)
    }

    const deliveries = await receiver.waitForCount(3)
    const created = deliveries.map((delivery) => JSON.parse(delivery.body) as { event: string; data: { id: string; source: unknown } })
    expect(created.every((body) => body.event === 'asset.created')).toBe(true)
    expect(sorted(created.map((body) => body.data.id))).toEqual(sorted(assetIds))
    for (const [i, { nodeId }] of expected.entries()) {
      expect(created.find((body) => body.data.id === assetIds[i])!.data.source).toEqual({ kind: 'figma', file_key: fileKey, node_id: nodeId, import_id: id })
    }
    await t.app.services.webhookDelivery.stop(1000)
  })

  it('imports components and the variants of component sets, each variant tagged with its set', async () => {
    const fileKey = newFileKey()
    const file = fake.file(fileKey, 'Library')
    const page = file.addPage('Components')
    const button = file.addComponentSet(page, 'Button', ['Size=Small', 'Size=Large'])
    const star = file.addComponent(page, 'Star')
    file.addFrame(page, 'Not a component')

    const record = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey), select: 'components' }))
    expect(record).toMatchObject({ status: 'done', total: 3, created: 3 })
    for (const [i, variant] of button.variantIds.entries()) {
      const asset = await assetByExternalId(t.app, acme.readKey, externalId(fileKey, variant))
      expect(asset).toMatchObject({ title: ['Size=Small', 'Size=Large'][i] })
      expect(sorted(asset!.tags as string[])).toEqual(['Button', 'Components'])
    }
    expect(await assetByExternalId(t.app, acme.readKey, externalId(fileKey, star))).toMatchObject({ title: 'Star', tags: ['Components'] })
  })

  it('narrows the import to the node of the link, and imports the nodes of node_ids, a missing one failing alone', async () => {
    const { fileKey, hero, banner, star } = brandFile()
    const linked = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey, banner) }))
    expect(linked).toMatchObject({ status: 'done', node_id: banner, total: 1, created: 1 })
    expect(await assetByExternalId(t.app, acme.readKey, externalId(fileKey, banner))).toBeDefined()
    expect(await assetByExternalId(t.app, acme.readKey, externalId(fileKey, hero))).toBeUndefined()

    const picked = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey), select: 'nodes', node_ids: [star, '999:1'] }))
    expect(picked).toMatchObject({ status: 'done', total: 2, created: 1, failed: 1, failures: [{ node_id: '999:1', name: '999:1', reason: 'node_not_found' }] })
  })

  it('renders again an image whose URL expired before its download, once', async () => {
    const { fileKey } = brandFile()
    fake.failNext(1, 403, { on: 'download' })
    const record = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) }))
    expect(record).toMatchObject({ status: 'done', created: 3, failed: 0 })
    expect(fake.calls.images).toBe(2)

    // One node (the link's), whose download fails again after its second render.
    const other = brandFile()
    fake.failNext(2, 410, { on: 'download' })
    const expired = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink(other.fileKey, other.hero) }))
    expect(expired).toMatchObject({ status: 'done', total: 1, created: 0, failed: 1, failures: [{ node_id: other.hero, reason: 'render_expired' }] })
  })

  it('fails only the node Figma could not render', async () => {
    const { fileKey, hero, banner } = brandFile()
    fake.nullRenders([banner])
    const record = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) }))
    expect(record).toMatchObject({ status: 'done', total: 3, created: 2, failed: 1 })
    expect(record.failures).toEqual([{ node_id: banner, name: 'Banner', reason: 'render_failed', detail: expect.any(String) }])
    expect(await assetByExternalId(t.app, acme.readKey, externalId(fileKey, hero))).toBeDefined()
    expect(await assetByExternalId(t.app, acme.readKey, externalId(fileKey, banner))).toBeUndefined()
  })
})

describe('a push refused', () => {
  it('fails that node with the push\u2019s problem code, the others imported', async () => {
    await db().updateTable('organizations').set({ plan: 'tiny' }).where('id', '=', acme.org.id).execute()
    const { fileKey } = brandFile()
    const record = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) }))
    expect(record).toMatchObject({ status: 'done', total: 3, created: 2, failed: 1, failures: [{ reason: 'plan_limit_reached', detail: expect.stringContaining('at most 2 assets') }] })
  })
})

describe('who imports, and how', () => {
  it('imports as the web app\u2019s user, with no body needed for a rerun, and renders SVG when asked', async () => {
    const { fileKey, hero } = brandFile()
    const owner = await loginOwner(t.app, acme)
    const res = await owner.post('/api/v1/imports', { source: 'figma', file_url: figmaLink(fileKey, hero), format: 'svg', figma_token: FIGMA_TOKEN })
    expect(res.statusCode, res.body).toBe(202)
    const id = res.json<{ import_id: string }>().import_id
    expect(await importEnded(t.app, acme.readKey, id)).toMatchObject({ status: 'done', format: 'svg', created: 1, created_by: { kind: 'user', name: acme.owner.email } })
    expect(await assetByExternalId(t.app, acme.readKey, externalId(fileKey, hero))).toMatchObject({ mime_type: 'image/svg+xml', title: 'Hero' })
    const [created] = await outboxEvents(db(), acme.org.id, 'asset.created')
    expect(created!.source).toEqual({ kind: 'figma', file_key: fileKey, node_id: hero, import_id: id })

    // No body at all: the organization has no stored token, so the token is asked for.
    expectProblem(await t.app.inject({ method: 'POST', url: `/api/v1/imports/${id}/rerun`, headers: bearer(acme.writeKey) }), 422, 'figma_not_connected')
  })

  it('uses the organization\u2019s stored token when the import carries none, for a rerun with no body too', async () => {
    const { fileKey, file, hero } = brandFile()
    const owner = await loginOwner(t.app, acme)
    const stored = await owner.put(`/app/api/orgs/${acme.org.slug}/integrations/figma`, { token: FIGMA_TOKEN })
    expect(stored.statusCode, stored.body).toBe(200)
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/imports', headers: bearer(acme.writeKey), payload: { source: 'figma', file_url: figmaLink(fileKey) } })
    expect(res.statusCode, res.body).toBe(202)
    const id = res.json<{ import_id: string }>().import_id
    expect((await importRow(id)).token_sealed).toBeNull()
    expect(await importEnded(t.app, acme.readKey, id)).toMatchObject({ status: 'done', created: 3 })

    file.edit(hero)
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/imports/${id}/rerun`, headers: bearer(acme.writeKey) })).statusCode).toBe(202)
    expect(await importEnded(t.app, acme.readKey, id)).toMatchObject({ status: 'done', run: 2, updated: 1, unchanged: 2 })
  })

  it('says in asset.created where a pushed asset came from: a key\u2019s push is the API\u2019s, a session\u2019s the web app\u2019s upload', async () => {
    const viaKey = await pushImage(t.app, acme.writeKey, { title: 'By key' })
    const owner = await loginOwner(t.app, acme)
    const viaSession = await owner.post('/api/v1/assets', { image_base64: (await uniquePng()).toString('base64'), title: 'By session' })
    expect(viaSession.statusCode, viaSession.body).toBe(201)
    const created = await outboxEvents(db(), acme.org.id, 'asset.created')
    expect(created.find((data) => data.id === viaKey.id)!.source).toEqual({ kind: 'api' })
    expect(created.find((data) => data.id === viaSession.json<{ asset_id: string }>().asset_id)!.source).toEqual({ kind: 'upload' })
  })
})

describe('a sync', () => {
  it('makes a new version of what changed, renders nothing unchanged, and reports what is gone without deleting it', async () => {
    const { fileKey, file, brand, hero, banner, star } = brandFile()
    const footer = file.addFrame(brand, 'Footer')
    const id = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) })
    expect(await importEnded(t.app, acme.writeKey, id)).toMatchObject({ status: 'done', created: 4 })
    const heroAsset = (await assetByExternalId(t.app, acme.readKey, externalId(fileKey, hero)))!
    const bannerAsset = (await assetByExternalId(t.app, acme.readKey, externalId(fileKey, banner)))!
    const starAsset = (await assetByExternalId(t.app, acme.readKey, externalId(fileKey, star)))!

    file.edit(hero)
    file.rename(banner, 'Banner, wide')
    file.remove(star)
    const added = file.addFrame(brand, 'New')
    fake.reset()
    const rerun = await t.app.inject({ method: 'POST', url: `/api/v1/imports/${id}/rerun`, headers: bearer(acme.writeKey), payload: { figma_token: FIGMA_TOKEN } })
    expect(rerun.statusCode, rerun.body).toBe(202)
    expect(rerun.json()).toEqual({ import_id: id, status: 'queued' })
    expect(rerun.headers.location).toBe(`/api/v1/imports/${id}`)

    const synced = await importEnded(t.app, acme.writeKey, id)
    expect(synced).toMatchObject({ status: 'done', run: 2, total: 4, created: 1, updated: 2, unchanged: 1, failed: 0, missing: 1, file_version: file.version })
    expect(synced.missing_nodes).toEqual([{ node_id: star, name: 'Star', asset_id: starAsset.id }])
    // Only what changed was rendered: the footer was not.
    expect(sorted(renderedIds(fake.requests))).toEqual(sorted([hero, banner, added]))
    expect(renderedIds(fake.requests)).not.toContain(footer)

    const heroNow = (await assetByExternalId(t.app, acme.readKey, externalId(fileKey, hero)))!
    expect(heroNow).toMatchObject({ id: heroAsset.id, version: 2, title: 'Hero' })
    expect(heroNow.sha256).not.toBe(heroAsset.sha256)
    expect(await assetByExternalId(t.app, acme.readKey, externalId(fileKey, banner))).toMatchObject({ id: bannerAsset.id, version: 1, title: 'Banner, wide' })
    const starNow = await t.app.inject({ method: 'GET', url: `/api/v1/assets/${starAsset.id as string}`, headers: bearer(acme.readKey) })
    expect(starNow.statusCode).toBe(200)

    const updates = await outboxEvents(db(), acme.org.id, 'asset.updated')
    expect(updates.filter((data) => data.id === heroAsset.id).map((data) => data.changes)).toEqual([['file']])
    expect(updates.filter((data) => data.id === bannerAsset.id).map((data) => data.changes)).toEqual([['title']])

    // Nothing changed since: nothing is rendered, and the gone node is still reported.
    fake.reset()
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/imports/${id}/rerun`, headers: bearer(acme.writeKey), payload: { figma_token: FIGMA_TOKEN } })).statusCode).toBe(202)
    expect(await importEnded(t.app, acme.writeKey, id)).toMatchObject({ status: 'done', run: 3, total: 4, created: 0, updated: 0, unchanged: 4, missing: 1 })
    expect(fake.calls.images).toBe(0)
  })

  it('answers 409 import_in_progress to a rerun while the import is queued or running, and wants a token again', async () => {
    const { fileKey } = brandFile()
    fake.latencyMs = 100
    const id = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) })
    const rerun = (payload: object) => t.app.inject({ method: 'POST', url: `/api/v1/imports/${id}/rerun`, headers: bearer(acme.writeKey), payload })
    expectProblem(await rerun({ figma_token: FIGMA_TOKEN }), 409, 'import_in_progress')
    expect((await getImport(t.app, acme.readKey, id)).status).toMatch(/queued|running/)
    await importEnded(t.app, acme.writeKey, id)
    expectProblem(await rerun({}), 422, 'figma_not_connected')
    expect((await rerun({ figma_token: FIGMA_TOKEN })).statusCode).toBe(202)
    expect(await importEnded(t.app, acme.writeKey, id)).toMatchObject({ status: 'done', run: 2, unchanged: 3 })
  })
})

describe('Figma failing', () => {
  it('fails the import with figma_token_invalid when the token is revoked mid-import, erasing it', async () => {
    const fileKey = newFileKey()
    const file = fake.file(fileKey, 'Big')
    file.addFrames(file.addPage('Page'), 60)
    const token = 'figd_revoked-mid-import-token'
    fake.addToken(token)
    let imagesCalls = 0
    fake.onRequest = (endpoint) => {
      if (endpoint === 'images' && ++imagesCalls === 2) fake.revokeToken(token)
    }
    const id = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey), figma_token: token })
    const record = await importEnded(t.app, acme.writeKey, id)
    expect(record).toMatchObject({ status: 'failed', error: { code: 'figma_token_invalid', detail: expect.any(String) }, total: 60, created: 50 })
    expect((await importRow(id)).token_sealed).toBeNull()
  })

  it('fails with figma_file_not_found for a file the token cannot open', async () => {
    const record = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink('NoSuchFile0123456789') }))
    expect(record).toMatchObject({ status: 'failed', error: { code: 'figma_file_not_found' }, total: 0 })
  })

  it('retries a storm of 429s and 500s and completes; past FIGMA_MAX_RETRY_WAIT_MS it fails figma_unavailable', async () => {
    const { fileKey } = brandFile()
    fake.failNext(3, 429, { retryAfterSec: 0 })
    fake.failNext(1, 500)
    const record = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) }))
    expect(record).toMatchObject({ status: 'done', created: 3 })
    expect(fake.calls.file).toBeGreaterThan(1)

    const other = brandFile()
    fake.failNext(1000, 429, { retryAfterSec: 1 })
    const failed = await importEnded(t.app, acme.writeKey, await createImport(t.app, acme.writeKey, { file_url: figmaLink(other.fileKey) }))
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'figma_unavailable' } })
  })
})

describe('refusals', () => {
  const post = (key: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/imports', headers: bearer(key), payload: { source: 'figma', figma_token: FIGMA_TOKEN, ...payload } })
  const importCount = async () => (await db().selectFrom('imports').select(db().fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n

  it('refuses a link that is not a Figma file link with 400 invalid_figma_url, storing nothing', async () => {
    const before = await importCount()
    expectProblem(await post(acme.writeKey, { file_url: 'https://example.com/design/AbCdEf1234567890/Kit' }), 400, 'invalid_figma_url')
    expectProblem(await post(acme.writeKey, { file_url: 'https://www.figma.com/files/team/1234567890/Team' }), 400, 'invalid_figma_url')
    expectProblem(await post(acme.writeKey, { file_url: 'https://www.figma.com/design/' }), 400, 'invalid_figma_url')
    expect(await importCount()).toBe(before)
  })

  it('refuses a bad selection, an unknown asset type or collection, and a missing token before queueing anything', async () => {
    const before = await importCount()
    const file_url = figmaLink(newFileKey())
    expectProblem(await post(acme.writeKey, { file_url, select: 'nodes' }), 400, 'validation_failed')
    expectProblem(await post(acme.writeKey, { file_url, node_ids: ['1:2'] }), 400, 'validation_failed')
    expectProblem(await post(acme.writeKey, { file_url, asset_type: 'Hologram' }), 422, 'unknown_asset_type')
    expectProblem(await post(acme.writeKey, { file_url, collection_name: 'No such collection' }), 404, 'not_found')
    expectProblem(await t.app.inject({ method: 'POST', url: '/api/v1/imports', headers: bearer(acme.writeKey), payload: { source: 'figma', file_url } }), 422, 'figma_not_connected')
    expectProblem(await post(acme.readKey, { file_url }), 403, 'insufficient_scope')
    expect(await importCount()).toBe(before)
  })

  it('answers 404 for another organization\u2019s import, and lists only the caller\u2019s', async () => {
    const { fileKey } = brandFile()
    const id = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) })
    await importEnded(t.app, acme.writeKey, id)
    expectProblem(await t.app.inject({ method: 'GET', url: `/api/v1/imports/${id}`, headers: bearer(globex.readKey) }), 404, 'not_found')
    expectProblem(await t.app.inject({ method: 'POST', url: `/api/v1/imports/${id}/rerun`, headers: bearer(globex.writeKey), payload: { figma_token: FIGMA_TOKEN } }), 404, 'not_found')
    const theirs = await t.app.inject({ method: 'GET', url: `/api/v1/imports?file_key=${fileKey}`, headers: bearer(globex.readKey) })
    expect(theirs.json()).toMatchObject({ data: [], total: 0 })
    const ours = await t.app.inject({ method: 'GET', url: `/api/v1/imports?file_key=${fileKey}`, headers: bearer(acme.readKey) })
    expect(ours.json()).toMatchObject({ data: [{ id, file_key: fileKey }], total: 1, limit: 50, offset: 0 })
  })
})
