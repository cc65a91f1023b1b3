import { describe, expect, expectTypeOf, it } from 'vitest'
import { signatureHeader, verifyWebhook as verifyOnServer } from '../../../src/webhooks.js'
import {
  verifyWebhook,
  WebhookVerificationError,
  type Asset,
  type AssetSource,
  type Collection,
  type KnownWebhookEvent,
  type WebhookEvent,
  type WebhookEventKind,
  type WebhookEventOf,
  type WebhookVerificationFailure,
} from '../src/index.js'
import { EVENT_NAMES } from '../../../src/platform/events/names.js'

const secret = 'whsec_current'
const oldSecret = 'whsec_previous'
const now = 1_800_000_000
const body = JSON.stringify({ id: 'delivery-1', event: 'asset.created', organization_id: 'org', emitted_at: '2027-01-15T08:00:00.000Z', data: { id: 'a1' } })

/** Headers as the service signs a delivery (the server's own signing code). */
const signed = (secrets: string[], timestamp = now, payload: string | Uint8Array = body) => ({
  'X-Service-Signature': signatureHeader(secrets, timestamp, payload),
})

async function failure(promise: Promise<unknown>): Promise<WebhookVerificationFailure> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(WebhookVerificationError)
  return (error as WebhookVerificationError).code
}

describe('verifyWebhook (Web Crypto)', () => {
  it('accepts what the service signs, from a string, bytes, a Fetch Headers or Node headers', async () => {
    const event = await verifyWebhook(body, signed([secret]), secret, { now })
    expect(event).toEqual(JSON.parse(body))
    const bytes = new TextEncoder().encode(body)
    expect(await verifyWebhook(bytes, new Headers(signed([secret])), secret, { now })).toEqual(event)
    expect(await verifyWebhook(bytes.buffer, { 'x-service-signature': [signed([secret])['X-Service-Signature']] }, secret, { now })).toEqual(event)
  })

  it('accepts either signature during a rotation, and either secret the receiver holds', async () => {
    const headers = signed([secret, oldSecret])
    expect((await verifyWebhook(body, headers, oldSecret, { now })).id).toBe('delivery-1')
    expect((await verifyWebhook(body, signed([oldSecret]), [secret, oldSecret], { now })).id).toBe('delivery-1')
  })

  it('refuses what the server refuses, with the same code', async () => {
    const cases: [string, string | Uint8Array, Record<string, string>, WebhookVerificationFailure][] = [
      ['no header', body, {}, 'missing_signature'],
      ['no v1', body, { 'x-service-signature': `t=${now}` }, 'malformed_signature'],
      ['short hex', body, { 'x-service-signature': `t=${now},v1=abcd` }, 'malformed_signature'],
      ['another secret', body, signed(['whsec_other']), 'signature_mismatch'],
      ['a changed body', body.replace('a1', 'a2'), signed([secret]), 'signature_mismatch'],
      ['six minutes old', body, signed([secret], now - 301), 'timestamp_out_of_tolerance'],
      ['from the future', body, signed([secret], now + 301), 'timestamp_out_of_tolerance'],
      ['not JSON', 'not json', signed([secret], now, 'not json'), 'malformed_body'],
    ]
    for (const [, payload, headers, code] of cases) {
      expect(await failure(verifyWebhook(payload, headers, secret, { now }))).toBe(code)
      expect(() => verifyOnServer(payload, headers, secret, { now })).toThrow(expect.objectContaining({ code }))
    }
  })

  it('takes a tolerance', async () => {
    const old = signed([secret], now - 1000)
    expect(await failure(verifyWebhook(body, old, secret, { now }))).toBe('timestamp_out_of_tolerance')
    expect((await verifyWebhook(body, old, secret, { now, toleranceSeconds: 1000 })).id).toBe('delivery-1')
  })
})

describe('typed events', () => {
  const restored = JSON.stringify({ id: 'delivery-2', event: 'asset.restored', organization_id: 'org', emitted_at: '2027-01-15T08:00:00.000Z', data: { id: 'a1', title: 'Logo' } })

  it('resolves to an event discriminated on its kind, `data` typed by it', async () => {
    const event = await verifyWebhook(restored, signed([secret], now, restored), secret, { now })
    expectTypeOf(event).toEqualTypeOf<KnownWebhookEvent>()
    expect(event.event).toBe('asset.restored')
    switch (event.event) {
      case 'asset.restored':
        expectTypeOf(event.data).toEqualTypeOf<Asset>()
        expect(event.data.title).toBe('Logo')
        break
      case 'asset.created':
        // The record, and where the asset came from (only on this event: the record itself does not keep it).
        expectTypeOf<Omit<typeof event.data, 'source'>>().toEqualTypeOf<Asset>()
        expectTypeOf(event.data.source).toEqualTypeOf<AssetSource>()
        break
      case 'asset.updated':
        expectTypeOf(event.data).toExtend<Asset>()
        expectTypeOf(event.data.changes).toEqualTypeOf<string[]>()
        break
      case 'asset.deleted':
        expectTypeOf(event.data).toEqualTypeOf<{ id: string }>()
        break
      case 'collection.shared':
        expectTypeOf(event.data.collection).toEqualTypeOf<Collection>()
        break
      default:
        expectTypeOf(event.event).toEqualTypeOf<'ping' | 'collection.created' | 'member.invited' | 'member.joined'>()
    }
    expectTypeOf<WebhookEventOf<'member.joined'>['data']['role']>().toEqualTypeOf<'owner' | 'admin' | 'member'>()
  })

  it('types asset.created\'s `source`, discriminated on its kind: a Figma import names the file, the node and the import', async () => {
    const source = { kind: 'figma', file_key: 'AbCdEf1234567890', node_id: '1:2', import_id: '0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f' }
    const created = JSON.stringify({ id: 'delivery-3', event: 'asset.created', organization_id: 'org', emitted_at: '2027-01-15T08:00:00.000Z', data: { id: 'a1', title: 'Hero', source } })
    const event = await verifyWebhook(created, signed([secret], now, created), secret, { now })
    if (event.event !== 'asset.created') throw new Error(`expected asset.created, got ${event.event}`)
    expectTypeOf(event.data.source.kind).toEqualTypeOf<'api' | 'upload' | 'figma'>()
    expect(event.data.source).toEqual(source)
    if (event.data.source.kind !== 'figma') throw new Error('expected a Figma source')
    expectTypeOf(event.data.source).toEqualTypeOf<{ kind: 'figma'; file_key: string; node_id: string; import_id: string }>()
    expect(event.data.source.node_id).toBe('1:2')
  })

  it('knows every event kind the server emits', () => {
    expectTypeOf<WebhookEventKind>().toEqualTypeOf<(typeof EVENT_NAMES)[number]>()
  })

  it('types `data` as asked when given a type, as before', async () => {
    const event = await verifyWebhook<{ id: string }>(body, signed([secret]), secret, { now })
    expectTypeOf(event).toEqualTypeOf<WebhookEvent<{ id: string }>>()
    expect(event.data.id).toBe('a1')
    // A receiver that declared its own shape still compiles without a type argument.
    const loose: { event?: string; data?: { seq?: number } } = await verifyWebhook(body, signed([secret]), secret, { now })
    expect(loose.event).toBe('asset.created')
  })
})
