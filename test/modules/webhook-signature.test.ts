import { readFileSync } from 'node:fs'
import { createHmac } from 'node:crypto'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { nextStep, retryAfterMs } from '../../src/modules/webhooks/delivery.js'
import { signatureHeader, verifyWebhook, WebhookVerificationError } from '../../src/webhooks.js'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/5nTEH3+/Wc='
const BODY = '{"id":"0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55","event":"ping","organization_id":"o","emitted_at":"2026-11-22T10:00:00.000Z","data":{"subscription_id":"s"}}'
const NOW = 1_795_000_000

const headersFor = (signature: string) => ({ 'x-service-signature': signature, 'x-service-timestamp': String(NOW) })
const failure = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError)
    return (error as WebhookVerificationError).code
  }
  throw new Error('expected the verification to fail')
}

describe('verifyWebhook', () => {
  it('accepts the HMAC-SHA256 of "<t>.<body>" and returns the envelope', () => {
    const hex = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex')
    expect(signatureHeader([SECRET], NOW, BODY)).toBe(`t=${NOW},v1=${hex}`)
    const event = verifyWebhook(BODY, headersFor(`t=${NOW},v1=${hex}`), SECRET, { now: NOW })
    expect(event).toEqual(JSON.parse(BODY))
    expect(verifyWebhook(Buffer.from(BODY), new Headers(headersFor(`t=${NOW},v1=${hex}`)), SECRET, { now: NOW }).id).toBe(event.id)
  })

  it('refuses another secret, a changed body, and a missing or malformed header', () => {
    const header = signatureHeader([SECRET], NOW, BODY)
    expect(failure(() => verifyWebhook(BODY, headersFor(header), 'whsec_other', { now: NOW }))).toBe('signature_mismatch')
    expect(failure(() => verifyWebhook(BODY.replace('ping', 'pong'), headersFor(header), SECRET, { now: NOW }))).toBe('signature_mismatch')
    expect(failure(() => verifyWebhook(BODY, {}, SECRET, { now: NOW }))).toBe('missing_signature')
    for (const bad of ['', `t=${NOW}`, 'v1=abc', `t=soon,v1=${'a'.repeat(64)}`, `t=${NOW},v1=${'A'.repeat(64)}`, `t=${NOW},v0=${'a'.repeat(64)}`]) {
      expect(failure(() => verifyWebhook(BODY, headersFor(bad), SECRET, { now: NOW })), bad).toBe('malformed_signature')
    }
  })

  it('refuses a timestamp more than the tolerance away, in the past or the future', () => {
    for (const offset of [-301, 301, -86_400, 86_400]) {
      const header = signatureHeader([SECRET], NOW + offset, BODY)
      expect(failure(() => verifyWebhook(BODY, headersFor(header), SECRET, { now: NOW })), String(offset)).toBe('timestamp_out_of_tolerance')
    }
    for (const offset of [-300, 0, 300]) {
      expect(verifyWebhook(BODY, headersFor(signatureHeader([SECRET], NOW + offset, BODY)), SECRET, { now: NOW }).event).toBe('ping')
    }
    const old = signatureHeader([SECRET], NOW - 600, BODY)
    expect(verifyWebhook(BODY, headersFor(old), SECRET, { now: NOW, toleranceSeconds: 900 }).event).toBe('ping')
  })

  it('accepts any one of several signatures, and any one of several secrets (rotations on either side)', () => {
    const rotating = signatureHeader(['whsec_new', SECRET], NOW, BODY)
    expect(rotating.match(/v1=/g)).toHaveLength(2)
    expect(verifyWebhook(BODY, headersFor(rotating), SECRET, { now: NOW }).event).toBe('ping')
    expect(verifyWebhook(BODY, headersFor(rotating), 'whsec_new', { now: NOW }).event).toBe('ping')
    expect(verifyWebhook(BODY, headersFor(signatureHeader([SECRET], NOW, BODY)), ['whsec_next', SECRET], { now: NOW }).event).toBe('ping')
  })

  it('agrees with Stripe\'s verifyHeader, which checks the same scheme independently', () => {
    const stripe = new Stripe('sk_test_unused')
    const now = Math.floor(Date.now() / 1000)
    const header = signatureHeader(['whsec_new', SECRET], now, BODY)
    expect(stripe.webhooks.signature!.verifyHeader(BODY, header, SECRET, 300)).toBe(true)
    expect(() => stripe.webhooks.signature!.verifyHeader(BODY, header, 'whsec_other', 300)).toThrow()
  })

  it('refuses a body that is not JSON even when signed', () => {
    expect(failure(() => verifyWebhook('not json', headersFor(signatureHeader([SECRET], NOW, 'not json')), SECRET, { now: NOW }))).toBe('malformed_body')
  })

  it('ships as the package export asset-library/webhooks, compiled from src/webhooks.ts', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    expect(pkg.exports['./webhooks']).toEqual({ types: './dist/webhooks.d.ts', 'asset-library-source': './src/webhooks.ts', default: './dist/webhooks.js' })
    expect(readFileSync(new URL('../../src/webhooks.ts', import.meta.url), 'utf8')).toContain('verifyWebhook')
  })
})

describe('retry schedule', () => {
  const config = { maxAttempts: 5, retryScheduleMs: [5_000, 30_000, 300_000, 1_800_000, 7_200_000] }

  it('waits schedule[n-1] after failed attempt n, and fails after the last attempt', () => {
    const failed = { error: 'http_error' }
    expect([1, 2, 3, 4].map((n) => nextStep(n, failed, config))).toEqual(
      [5_000, 30_000, 300_000, 1_800_000].map((retryInMs) => ({ status: 'pending', retryInMs })),
    )
    expect(nextStep(5, failed, config)).toEqual({ status: 'failed', retryInMs: null })
    expect(nextStep(3, { error: null }, config)).toEqual({ status: 'succeeded', retryInMs: null })
    expect(nextStep(7, failed, { maxAttempts: 10, retryScheduleMs: [100, 200] })).toEqual({ status: 'pending', retryInMs: 200 })
  })

  it('honours a longer Retry-After up to the next step, and ignores a shorter one', () => {
    expect(nextStep(1, { error: 'http_error', retryAfterMs: 12_000 }, config).retryInMs).toBe(12_000)
    expect(nextStep(1, { error: 'http_error', retryAfterMs: 3_600_000 }, config).retryInMs).toBe(30_000)
    expect(nextStep(1, { error: 'http_error', retryAfterMs: 1_000 }, config).retryInMs).toBe(5_000)
    expect(retryAfterMs('120')).toBe(120_000)
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 1)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(60_000)
    expect(retryAfterMs('soon')).toBeUndefined()
    expect(retryAfterMs(undefined)).toBeUndefined()
  })
})
