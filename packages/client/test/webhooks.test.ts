import { describe, expect, it } from 'vitest'
import { signatureHeader, verifyWebhook as verifyOnServer } from '../../../src/webhooks.js'
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationFailure } from '../src/index.js'

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
