import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envelope } from '../../src/modules/webhooks/envelope.js'
import { EVENT_NAMES, type EventName } from '../../src/platform/events/names.js'
import { uuidv7 } from '../../src/platform/ids.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { outboxEvents, pushImage } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { loginOwner, type Client } from '../support/sessions.js'

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked as plain JSON */
type Json = any

let t: TestApp
let acme: Seeded
let owner: Client
let served: Json
let ajv: Ajv2020
// ajv-formats is CommonJS: its default export is the module object under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

beforeAll(async () => {
  t = await startTestApp()
  acme = await seedOrganization(t.app, 'Hooked')
  owner = await loginOwner(t.app, acme)
  served = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  // The section's schemas, with the document's components they refer to.
  ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: 'https://asset-library.test/v1.json', components: served.components })
})
afterAll(() => t.close())

const webhook = (event: string) => served.webhooks[event]?.post

/** The documented body of a delivery of `event`, its `$ref`s into the document's components. */
function bodySchema(event: EventName) {
  const schema = JSON.parse(JSON.stringify(webhook(event).requestBody.content['application/json'].schema).replaceAll('"#/components/', '"https://asset-library.test/v1.json#/components/'))
  return ajv.compile(schema)
}

/** The delivery body the outbox's newest `event` of the organization makes, as the sender writes it. */
async function delivered(event: EventName): Promise<unknown> {
  const payloads = await outboxEvents(t.database.handle.db, acme.org.id, event)
  expect(payloads.length, `no ${event} was emitted`).toBeGreaterThan(0)
  return JSON.parse(envelope(uuidv7(), event, acme.org.id, new Date(), JSON.stringify(payloads.at(-1))))
}

function expectDocumented(event: EventName, body: unknown) {
  const validate = bodySchema(event)
  expect(validate(body), `${event}: ${ajv.errorsText(validate.errors)}`).toBe(true)
}

describe('the webhooks section of the v1 document', () => {
  it('holds every event kind, and nothing else', () => {
    expect(Object.keys(served.webhooks)).toEqual([...EVENT_NAMES])
  })

  it('gives each its envelope, its headers and what its answer means', () => {
    for (const event of EVENT_NAMES) {
      const operation = webhook(event)
      expect(operation.operationId, event).toMatch(/^[a-z][A-Za-z]+Event$/)
      expect(operation.summary, event).toContain(event)
      const schema = operation.requestBody.content['application/json'].schema
      expect(schema.required, event).toEqual(['id', 'event', 'organization_id', 'emitted_at', 'data'])
      expect(schema.properties.event, event).toEqual({ type: 'string', const: event })
      const headers = operation.parameters.map((parameter: Json) => [parameter.in, parameter.name, parameter.required])
      expect(headers, event).toEqual(['Event', 'Delivery-Id', 'Timestamp', 'Signature'].map((name) => ['header', `X-Service-${name}`, true]))
      expect(Object.keys(operation.responses), event).toEqual(['2XX', '4XX'])
    }
  })

  it('describes the data each change emits', async () => {
    const { id: assetId } = await pushImage(t.app, acme.writeKey, { title: 'Logo', tag_names: ['brand'] })
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/v1/assets/${assetId}`, headers: bearer(acme.writeKey), payload: { title: 'Logo, redrawn' } })
    expect(patched.statusCode).toBe(200)
    const collection = await t.app.inject({ method: 'POST', url: '/api/v1/collections', headers: bearer(acme.writeKey), payload: { name: 'Brand' } })
    expect(collection.statusCode).toBe(201)
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/collections/${collection.json().id}/share`, headers: bearer(acme.writeKey) })).statusCode).toBe(201)
    const invited = await owner.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email: 'new@example.com', role: 'member' })
    expect(invited.statusCode).toBe(201)
    const accepted = await t.app.inject({ method: 'POST', url: '/app/api/invitations/accept', payload: { token: invited.json().token, password: 'a long enough password' } })
    expect(accepted.statusCode).toBe(200)
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/assets/${assetId}`, headers: bearer(acme.writeKey) })).statusCode).toBe(204)
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/trash/${assetId}/restore`, headers: bearer(acme.writeKey) })).statusCode).toBe(200)

    for (const event of ['asset.created', 'asset.updated', 'asset.deleted', 'asset.restored', 'collection.created', 'collection.shared', 'member.invited', 'member.joined'] as const) {
      expectDocumented(event, await delivered(event))
    }
  })

  it('describes asset.updated for a new version, `changes` naming the file', async () => {
    const { id } = await pushImage(t.app, acme.writeKey, { title: 'Banner' })
    const version = await t.app.inject({ method: 'POST', url: `/api/v1/assets/${id}/versions`, headers: bearer(acme.writeKey), payload: { image_base64: (await uniquePng()).toString('base64') } })
    expect(version.statusCode, version.body).toBe(201)
    const body = (await delivered('asset.updated')) as { data: { id: string; version: number; changes: string[] } }
    expect(body.data).toMatchObject({ id, version: 2, changes: ['file'] })
    expectDocumented('asset.updated', body)
  })

  it('refuses data that is not what the kind carries', () => {
    const body = (event: EventName, data: unknown) => ({ id: uuidv7(), event, organization_id: uuidv7(), emitted_at: new Date().toISOString(), data })
    expect(bodySchema('asset.deleted')(body('asset.deleted', { id: uuidv7() }))).toBe(true)
    expect(bodySchema('asset.deleted')(body('asset.deleted', { id: uuidv7(), title: 'x' }))).toBe(false)
    expect(bodySchema('asset.deleted')(body('asset.created', { id: uuidv7() }))).toBe(false)
    expect(bodySchema('ping')(body('ping', { subscription_id: uuidv7() }))).toBe(true)
    expect(bodySchema('asset.restored')(body('asset.restored', { id: uuidv7() }))).toBe(false)
  })
})
