import { describe, expect, it } from 'vitest'
import { describeAnswer, describeDisabledReason, KNOWN_FAILURES } from './answers'

describe('a receiver’s answer, in words', () => {
  it('reads each failure class the server records', () => {
    const failed = (error: string, statusCode = 0, durationMs?: number) => describeAnswer({ statusCode, error, durationMs })
    expect(failed('http_error', 500)).toBe('Answered 500')
    expect(failed('bad_status', 502)).toBe('Answered 502')
    expect(failed('redirect_not_followed', 301)).toBe('Answered 301, a redirect, which is not followed: use the final address')
    expect(failed('timeout', 0, 10_012)).toBe('Timed out after 10 s')
    expect(failed('timeout')).toBe('Timed out: no answer in time')
    expect(failed('tls_error')).toBe('TLS certificate not trusted')
    expect(failed('connection_refused')).toBe('Connection refused')
    expect(failed('connection_reset')).toBe('Connection broken off')
    expect(failed('dns_error')).toBe('Host name not found')
    expect(failed('network_error')).toBe('Network error: the receiver could not be reached')
    expect(failed('unreachable')).toBe('The receiver could not be reached')
    expect(failed('blocked')).toBe('Address not allowed: it is private or blocked')
    expect(failed('invalid_url')).toBe('Not a valid address')
    expect(failed('too_large')).toBe('Answer too large')
    expect(failed('too_many_redirects')).toBe('Too many redirects')
    expect(failed('secret_unreadable')).toBe('The signing secret cannot be read: rotate it')
    expect(failed('interrupted')).toBe('Interrupted before an answer came: the receiver may have got it')
    // Every known class is above, and none reads as its code.
    for (const error of KNOWN_FAILURES) expect(failed(error, 500)).not.toMatch(/_|\bcode\b/)
    expect(KNOWN_FAILURES).toHaveLength(16)
  })

  it('says a success, a delivery not tried yet, and an unknown class readably', () => {
    expect(describeAnswer({ statusCode: 204, error: null })).toBe('Answered 204')
    expect(describeAnswer({ statusCode: null, error: null })).toBe('Not tried yet')
    expect(describeAnswer({ statusCode: 0, error: 'quantum_flux' })).toBe('Quantum flux')
    expect(describeAnswer({ statusCode: 418, error: 'teapot_error' })).toBe('Teapot error (answered 418)')
  })
})

describe('why an endpoint was disabled', () => {
  it('ends with the last answer in words', () => {
    const reason = 'Every delivery attempt failed for 5 days.'
    expect(describeDisabledReason(`${reason} The last error: http_error (HTTP 500).`)).toBe(`${reason} The last answer: Answered 500.`)
    expect(describeDisabledReason(`${reason} The last error: tls_error.`)).toBe(`${reason} The last answer: TLS certificate not trusted.`)
    expect(describeDisabledReason('Disabled by hand.')).toBe('Disabled by hand.')
  })
})
