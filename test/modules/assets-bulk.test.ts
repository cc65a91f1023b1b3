import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uuidv7 } from '../../src/platform/ids.js'
import { bearer, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, organizationApi, outboxEvents, startTwoOrganizations, type OrganizationApi } from '../support/fixtures.js'
import { signedInMember } from '../support/sessions.js'
import { statementsDuring } from '../support/statements.js'

let t: TestApp
let acme: Seeded
let globex: Seeded
let acmeApi: OrganizationApi

const db = () => t.database.handle.db
const bulk = (payload: object, key = acme.writeKey, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/v1/assets/bulk', headers: { ...bearer(key), ...headers }, payload })
const read = async (id: string, key = acme.readKey) => (await acmeApi.get(`/api/v1/assets/${id}`, key)).json()
const updatedEvents = async (organizationId = acme.org.id) => outboxEvents(db(), organizationId, 'asset.updated')

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_STANDARD: '10000' } }))
  acmeApi = organizationApi(t.app, acme)
})
afterAll(() => t.close())

describe('POST /api/v1/assets/bulk', () => {
  it('sets fields and edits tags on each asset, answering each id in order, once', async () => {
    const [a, b, c] = [await acmeApi.push({ tag_names: ['Draft', 'keep'] }), await acmeApi.push({ client: 'Acme', tag_names: ['keep'] }), await acmeApi.push()]
    const res = await bulk({ ids: [c, a, b, a], set: { client: ' Acme ', asset_type: 'icon' }, add_tags: [' Campaign '], remove_tags: ['draft'] })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ results: [c, a, b].map((id) => ({ id, result: 'updated' })) })
    expect(await read(a)).toMatchObject({ client: 'Acme', asset_type: 'Icon', tags: ['Campaign', 'keep'] })
    expect(await read(b)).toMatchObject({ client: 'Acme', asset_type: 'Icon', tags: ['Campaign', 'keep'] })
    expect(await read(c)).toMatchObject({ tags: ['Campaign'] })
    // The catalogue's spelling of a tag wins, and the list finds the edited assets by their new tag.
    const d = await acmeApi.push()
    await bulk({ ids: [d], add_tags: ['CAMPAIGN'], set: { created_by_ai: true } })
    expect(await read(d)).toMatchObject({ tags: ['Campaign'], created_by_ai: true })
    const tagged = (await acmeApi.get('/api/v1/assets?tag=campaign')).json().data.map((asset: { id: string }) => asset.id)
    expect(tagged.sort()).toEqual([a, b, c, d].sort())
  })

  it('emits one asset.updated per asset changed, naming what changed, and none for an asset left as it was', async () => {
    const changed = await acmeApi.push({ client: 'Initech', tag_names: ['old'] })
    const already = await acmeApi.push({ client: 'Hooli', tag_names: ['new'] })
    const before = (await updatedEvents()).length
    const res = await bulk({ ids: [changed, already], set: { client: 'Hooli' }, add_tags: ['new'], remove_tags: ['old'] })
    expect(res.json().results).toEqual([
      { id: changed, result: 'updated' },
      { id: already, result: 'unchanged' },
    ])
    const events = (await updatedEvents()).slice(before)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ id: changed, client: 'Hooli', tags: ['new'], changes: ['client', 'tags'] })
    // The payload is the record, as PATCH's asset.updated carries it.
    expect(Object.keys(events[0]!).sort()).toEqual([...Object.keys(await read(changed)), 'changes'].sort())
    expect((await read(already)).updated_at).toBe((await read(already)).created_at)
  })

  it('reports another organization\u2019s ids, trashed assets and unknown ids as not_found, changing none of them', async () => {
    const mine = await acmeApi.push()
    const theirs = await organizationApi(t.app, globex).push({ client: 'Globex' })
    const trashed = await acmeApi.push({ client: 'Trashed' })
    expect((await acmeApi.call('DELETE', `/api/v1/assets/${trashed}`)).statusCode).toBe(204)
    const unknown = uuidv7()
    const globexBefore = (await updatedEvents(globex.org.id)).length
    const res = await bulk({ ids: [theirs, mine, trashed, unknown], set: { client: 'Acme' } })
    expect(res.statusCode).toBe(200)
    const results = res.json().results
    expect(results.map((r: { id: string; result: string }) => [r.id, r.result])).toEqual([
      [theirs, 'not_found'],
      [mine, 'updated'],
      [trashed, 'not_found'],
      [unknown, 'not_found'],
    ])
    expect(results[0].reason).toMatch(/no asset of your organization/i)
    expect((await read(theirs, globex.readKey)).client).toBe('Globex')
    expect(await updatedEvents(globex.org.id)).toHaveLength(globexBefore)
    const restored = await acmeApi.call('POST', `/api/v1/trash/${trashed}/restore`)
    expect(restored.json().client).toBe('Trashed')
  })

  it('refuses bad requests with 400 and an unknown asset type with 422, changing nothing', async () => {
    const id = await acmeApi.push({ client: 'Before' })
    const before = (await updatedEvents()).length
    const ids = (n: number) => Array.from({ length: n }, () => uuidv7())
    expectInvalid(await bulk({ ids: ids(501), add_tags: ['x'] }), '/ids')
    expectInvalid(await bulk({ ids: [], add_tags: ['x'] }), '/ids')
    expectInvalid(await bulk({ ids: [id] }), '/')
    expectInvalid(await bulk({ ids: [id], set: {} }), '/set')
    expectInvalid(await bulk({ ids: [id], add_tags: ['x'], colour: 'red' }), '/colour')
    expectInvalid(await bulk({ ids: [id], set: { title: 'no' } }), '/set/title')
    expectInvalid(await bulk({ ids: ['not-a-uuid'], add_tags: ['x'] }), '/ids/0')
    expectInvalid(await bulk({ ids: [id], add_tags: ['x', 'Same '], remove_tags: ['same'] }), '/add_tags/1')
    const problem = expectProblem(await bulk({ ids: [id], set: { asset_type: 'Hologram', client: 'After' }, add_tags: ['x'] }), 422, 'unknown_asset_type')
    expect(problem.errors).toEqual([{ pointer: '/set/asset_type', detail: expect.stringContaining('Icon') }])
    expect(await read(id)).toMatchObject({ client: 'Before', tags: [] })
    expect(await updatedEvents()).toHaveLength(before)
    // 500 ids are taken.
    expect((await bulk({ ids: ids(500), add_tags: ['x'] })).statusCode).toBe(200)
  })

  it('needs assets:write: a read key is 403; a member\u2019s session edits what a member edits one by one (any asset)', async () => {
    const id = await acmeApi.push()
    expectProblem(await bulk({ ids: [id], add_tags: ['x'] }, acme.readKey), 403, 'insufficient_scope')
    const member = await signedInMember(t.app, acme.org.id, 'member')
    const res = await member.post('/api/v1/assets/bulk', { ids: [id], add_tags: ['by-member'] })
    expect(res.json()).toEqual({ results: [{ id, result: 'updated' }] })
    expect((await read(id)).tags).toEqual(['by-member'])
  })

  it('honours Idempotency-Key: a retry is replayed, another body under the same key is 422', async () => {
    const id = await acmeApi.push()
    const headers = { 'idempotency-key': `bulk-${uuidv7()}` }
    const first = await bulk({ ids: [id], add_tags: ['once'] }, acme.writeKey, headers)
    const before = (await updatedEvents()).length
    const again = await bulk({ ids: [id], add_tags: ['once'] }, acme.writeKey, headers)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    expect(await updatedEvents()).toHaveLength(before)
    expectProblem(await bulk({ ids: [id], add_tags: ['twice'] }, acme.writeKey, headers), 422, 'idempotency_key_reused')
    expect((await read(id)).tags).toEqual(['once'])
  })

  it('edits 40 assets in a few statements, not a round trip per asset', async () => {
    const ids: string[] = []
    for (let i = 0; i < 40; i += 1) ids.push(await acmeApi.push())
    const before = (await updatedEvents()).length
    let res: Awaited<ReturnType<typeof bulk>> | undefined
    const statements = await statementsDuring(async () => {
      res = await bulk({ ids, set: { product: 'Batch' }, add_tags: ['batched'] })
    })
    expect(res!.json().results.every((r: { result: string }) => r.result === 'updated')).toBe(true)
    expect(await updatedEvents()).toHaveLength(before + 40)
    expect(statements).toBeLessThan(20)
  })
})
