import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drainDerivations, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, organizationApi, outboxEvents, startTwoOrganizations, type OrganizationApi } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { digitalSourceType, imageWithXmp, jpegWithLyingJumbf, jpegWithTruncatedManifest, signedJpeg, tamperedJpeg, xmpDeclaring } from '../support/provenance.js'

/** Issue 36, part 4: what the file says of who made it, as the record's `provenance` and the `provenance=` filter. */

let t: TestApp
let acme: Seeded
let globex: Seeded
let call: OrganizationApi['call']
let get: OrganizationApi['get']

let colour = 0
/** A PNG (of its own colour, so its bytes are new) whose XMP declares this IPTC digital source type. */
const declaring = (name: string) => imageWithXmp('png', xmpDeclaring(digitalSourceType(name)), `#${(++colour).toString(16).padStart(6, '0')}`)

async function push(image: Buffer, fields: object = {}, key = acme.writeKey): Promise<string> {
  const res = await call('POST', '/api/v1/assets', { image_base64: image.toString('base64'), ...fields }, key)
  expect(res.statusCode, res.body).toBe(201)
  return res.json().asset_id
}
const record = async (id: string, key = acme.readKey) => (await get(`/api/v1/assets/${id}`, key)).json()
const ids = (page: { data: Array<{ id: string }> }) => page.data.map((asset) => asset.id)

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations({ env: { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_STANDARD: '10000', RATE_LIMIT_CHEAP: '10000' } }))
  ;({ call, get } = organizationApi(t.app, acme))
})
afterAll(() => t.close())

describe('the record’s provenance', () => {
  it('is null until read, then says what the XMP declares; created_by_ai and updated_at stay as pushed, and no event is sent', async () => {
    const id = await push(await declaring('trainedAlgorithmicMedia'), { title: 'Generated hero', created_by_ai: false })
    const pushed = await record(id)
    expect(pushed.provenance).toBeNull()
    await drainDerivations(t.app, 'provenance')
    const read = await record(id)
    expect(read).toMatchObject({ provenance: { source: 'ai', c2pa: null }, created_by_ai: false, updated_at: pushed.updated_at })
    expect((await outboxEvents(t.database.handle.db, acme.org.id, 'asset.updated')).filter((event) => event.id === id)).toEqual([])
  })

  it('shows a C2PA manifest’s generator, signer and validity, and the source type its actions declare', async () => {
    const signed = await push(signedJpeg())
    const tampered = await push(tamperedJpeg())
    await drainDerivations(t.app, 'provenance')
    const generator = { claim_generator: 'make_test_images/0.33.1 c2pa-rs/0.33.1', signed_by: 'C2PA Test Signing Cert' }
    expect((await record(signed)).provenance).toEqual({ source: 'edited', c2pa: { ...generator, valid: true } })
    expect((await record(tampered)).provenance).toEqual({ source: 'unknown', c2pa: { ...generator, valid: false } })
  })

  it('shows a manifest cut short or with a box lying about its size as invalid, and a file without anything as unknown', async () => {
    const truncated = await push(jpegWithTruncatedManifest())
    const lying = await push(jpegWithLyingJumbf())
    const plain = await push(await uniquePng())
    await drainDerivations(t.app, 'provenance')
    const broken = { source: 'unknown', c2pa: { claim_generator: null, signed_by: null, valid: false } }
    expect((await record(truncated)).provenance).toEqual(broken)
    expect((await record(lying)).provenance).toEqual(broken)
    expect((await record(plain)).provenance).toEqual({ source: 'unknown', c2pa: null })
  })

  it('is read again for a new version', async () => {
    const id = await push(await declaring('digitalCapture'))
    await drainDerivations(t.app, 'provenance')
    expect((await record(id)).provenance.source).toBe('capture')
    const res = await call('POST', `/api/v1/assets/${id}/versions`, { image_base64: (await declaring('compositeWithTrainedAlgorithmicMedia')).toString('base64') })
    expect(res.statusCode, res.body).toBe(201)
    expect((await record(id)).provenance).toBeNull()
    await drainDerivations(t.app, 'provenance')
    expect((await record(id)).provenance).toEqual({ source: 'ai_composite', c2pa: null })
  })
})

describe('provenance=', () => {
  let ai: string
  let capture: string
  let otherOrganizationsAi: string

  beforeAll(async () => {
    ai = await push(await declaring('trainedAlgorithmicMedia'), { title: 'Filtered banner' })
    capture = await push(await declaring('digitalCapture'), { title: 'Filtered banner' })
    otherOrganizationsAi = await push(await declaring('trainedAlgorithmicMedia'), { title: 'Filtered banner' }, globex.writeKey)
  })

  it('filters the list, on a page cached before the files were read too', async () => {
    const before = (await get('/api/v1/assets?provenance=ai&limit=100')).json()
    expect(ids(before)).not.toContain(ai)
    await drainDerivations(t.app, 'provenance')
    const listed = ids((await get('/api/v1/assets?provenance=ai&limit=100')).json())
    expect(listed).toContain(ai)
    expect(listed).not.toContain(capture)
    expect(listed).not.toContain(otherOrganizationsAi)
    // Another filter's page: not the page cached for `provenance=ai`.
    expect(ids((await get('/api/v1/assets?provenance=capture&limit=100')).json())).toContain(capture)
    // A lone origin's total is the count kept per origin, which matches a count over the assets.
    const { rows } = await sql<{ kept: number; counted: number }>`
      select
        (select coalesce(sum(asset_count), 0)::int from asset_name_counts where organization_id = ${acme.org.id} and field = 'provenance' and key = 'ai') as kept,
        (select count(*)::int from assets where organization_id = ${acme.org.id} and provenance_source = 'ai') as counted
    `.execute(t.database.handle.db)
    expect(rows[0]!.kept).toBe(rows[0]!.counted)
    expect((await get('/api/v1/assets?provenance=ai&limit=1')).json().total).toBe(rows[0]!.counted)
  })

  it('filters smart collections', async () => {
    await drainDerivations(t.app, 'provenance')
    const res = await call('POST', '/api/v1/collections', { name: 'Made by AI', query: { provenance: 'ai' } })
    expect(res.statusCode, res.body).toBe(201)
    const shown = (await get(`/api/v1/collections/${res.json().id}`)).json()
    expect(ids(shown.assets)).toContain(ai)
    expect(ids(shown.assets)).not.toContain(capture)
  })

  it('filters search', async () => {
    await drainDerivations(t.app, 'provenance')
    const res = await call('POST', '/api/v1/search', { q: 'filtered banner', provenance: 'ai' }, acme.readKey)
    expect(res.statusCode, res.body).toBe(200)
    expect(ids(res.json())).toEqual([ai])
  })

  it('refuses a value that is not an origin', async () => {
    expectInvalid(await get('/api/v1/assets?provenance=robot'), '/query/provenance')
    expectInvalid(await call('POST', '/api/v1/search', { q: 'banner', provenance: 'robot' }, acme.readKey), '/provenance')
  })
})
