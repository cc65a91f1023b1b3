import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { figmaNodeLink } from '../../src/modules/imports/figma-url.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { expectProblem } from '../support/fixtures.js'
import { assetByExternalId, createImport, FIGMA_TOKEN, figmaLink, IMPORT_TEST_ENV, importEnded } from '../support/imports.js'
import { waitFor } from '../support/wait.js'

/** GET /api/v1/imports/{id}/nodes: each node of the current run with what the run did with it, as the database recorded it. */

let fake: FakeFigma
let t: TestApp
let acme: Seeded
let globex: Seeded

beforeAll(async () => {
  fake = await startFakeFigma()
  fake.addToken(FIGMA_TOKEN)
  t = await startTestApp({ env: { ...IMPORT_TEST_ENV, ...fake.env, FIGMA_API_URL: fake.url } })
  acme = await seedOrganization(t.app, 'Acme')
  globex = await seedOrganization(t.app, 'Globex')
  await t.app.services.importJob.start()
})
afterEach(() => fake.reset())
afterAll(async () => {
  await t.close()
  await fake.close()
})

interface NodeItem {
  node_id: string
  name: string
  page_name: string | null
  component_set_name: string | null
  outcome: string | null
  reason: string | null
  detail: string | null
  asset_id: string | null
  figma_url: string
}
interface NodePage {
  data: NodeItem[]
  total: number
  limit: number
  offset: number
}

async function nodesOf(key: string, id: string, query = ''): Promise<NodePage> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/imports/${id}/nodes${query}`, headers: bearer(key) })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<NodePage>()
}

describe('the nodes of an import', () => {
  it('lists each node of the current run with its outcome, reason and asset, filters by outcome, pages, and is 404 to another organization', async () => {
    const fileKey = `Nodes${process.pid}AbCdEf`
    const file = fake.file(fileKey, 'Brand kit')
    const brand = file.addPage('Brand')
    const hero = file.addFrame(brand, 'Hero')
    const banner = file.addFrame(brand, 'Banner')
    const card = file.addFrame(brand, 'Card')
    const footer = file.addFrame(brand, 'Footer')
    const star = file.addComponent(file.addPage('Icons'), 'Star')

    // While the run works, its nodes are pending.
    fake.latencyMs = 150
    const id = await createImport(t.app, acme.writeKey, { file_url: figmaLink(fileKey) })
    const pending = await waitFor('pending nodes', async () => {
      const page = await nodesOf(acme.readKey, id, '?outcome=pending')
      return page.total > 0 ? page : undefined
    })
    expect(pending.data.every((node) => node.outcome === null)).toBe(true)
    expect(await importEnded(t.app, acme.readKey, id)).toMatchObject({ status: 'done', created: 5 })
    fake.latencyMs = 0
    const first = await nodesOf(acme.readKey, id)
    expect(first.total).toBe(5)
    expect(first.data.map((node) => node.outcome)).toEqual(['created', 'created', 'created', 'created', 'created'])
    expect((await nodesOf(acme.readKey, id, '?outcome=pending')).total).toBe(0)
    const assetOf = async (nodeId: string) => ((await assetByExternalId(t.app, acme.readKey, `figma:${fileKey}:${nodeId}`))!.id as string)
    const [heroAsset, bannerAsset, cardAsset, footerAsset, starAsset] = (await Promise.all([hero, banner, card, footer, star].map(assetOf))) as [string, string, string, string, string]

    // A sync: an edit, a rename, a removal, a node Figma cannot render, and a new one.
    file.edit(hero)
    file.rename(banner, 'Banner, wide')
    file.remove(star)
    file.edit(footer)
    fake.nullRenders([footer])
    const added = file.addFrame(brand, 'New')
    const rerun = await t.app.inject({ method: 'POST', url: `/api/v1/imports/${id}/rerun`, headers: bearer(acme.writeKey), payload: { figma_token: FIGMA_TOKEN } })
    expect(rerun.statusCode, rerun.body).toBe(202)
    expect(await importEnded(t.app, acme.readKey, id)).toMatchObject({ status: 'done', run: 2, created: 1, updated: 2, unchanged: 1, failed: 1, missing: 1 })
    const addedAsset = await assetOf(added)

    const node = (nodeId: string, name: string, pageName: string, outcome: string, assetId: string | null, failure?: { reason: string; detail: string }): NodeItem => ({
      node_id: nodeId,
      name,
      page_name: pageName,
      component_set_name: null,
      outcome,
      reason: failure?.reason ?? null,
      detail: failure?.detail ?? null,
      asset_id: assetId,
      figma_url: figmaNodeLink(fileKey, nodeId),
    })
    // By page, then name: the removed node from the earlier run is listed as missing.
    const all = [
      node(banner, 'Banner, wide', 'Brand', 'updated', bannerAsset),
      node(card, 'Card', 'Brand', 'unchanged', cardAsset),
      node(footer, 'Footer', 'Brand', 'failed', footerAsset, { reason: 'render_failed', detail: 'Figma could not render this node.' }),
      node(hero, 'Hero', 'Brand', 'updated', heroAsset),
      node(added, 'New', 'Brand', 'created', addedAsset),
      node(star, 'Star', 'Icons', 'missing', starAsset),
    ]
    expect(await nodesOf(acme.readKey, id)).toEqual({ data: all, total: 6, limit: 50, offset: 0 })

    // One outcome at a time.
    expect(await nodesOf(acme.readKey, id, '?outcome=updated')).toEqual({ data: [all[0], all[3]], total: 2, limit: 50, offset: 0 })
    expect(await nodesOf(acme.readKey, id, '?outcome=missing')).toEqual({ data: [all[5]], total: 1, limit: 50, offset: 0 })
    expect(await nodesOf(acme.readKey, id, '?outcome=failed')).toMatchObject({ data: [all[2]], total: 1 })
    expect(await nodesOf(acme.readKey, id, '?outcome=pending')).toMatchObject({ data: [], total: 0 })
    expectProblem(await t.app.inject({ method: 'GET', url: `/api/v1/imports/${id}/nodes?outcome=done`, headers: bearer(acme.readKey) }), 400, 'validation_failed')

    // Pages: the same order across them, the total the whole list's.
    expect(await nodesOf(acme.readKey, id, '?limit=4')).toEqual({ data: all.slice(0, 4), total: 6, limit: 4, offset: 0 })
    expect(await nodesOf(acme.readKey, id, '?limit=4&offset=4')).toEqual({ data: all.slice(4), total: 6, limit: 4, offset: 4 })
    expect(await nodesOf(acme.readKey, id, '?offset=10')).toEqual({ data: [], total: 6, limit: 50, offset: 10 })

    // Another organization's import, or none.
    expectProblem(await t.app.inject({ method: 'GET', url: `/api/v1/imports/${id}/nodes`, headers: bearer(globex.readKey) }), 404, 'not_found')
    expectProblem(await t.app.inject({ method: 'GET', url: `/api/v1/imports/0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f/nodes`, headers: bearer(acme.readKey) }), 404, 'not_found')
  })
})
