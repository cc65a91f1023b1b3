import { describe, expect, it } from 'vitest'
import { UrlSigner } from '../../src/platform/signed-urls.js'

const HOUR = 3_600_000
const signer = () => new UrlSigner('a secret of some length for the test', 'http://assets.test')

function query(url: string) {
  const params = new URL(url).searchParams
  return { expires: Number(params.get('expires')), sig: params.get('sig')! }
}

describe('signed file URLs (cached per path for their hour)', () => {
  it('give the same link within an hour, a new one in the next, and never an expiry from another hour', () => {
    const urls = signer()
    const start = Math.ceil(Date.now() / HOUR) * HOUR + 60_000
    const first = urls.sign('/files/assets/a/original', start)
    expect(urls.sign('/files/assets/a/original', start + 30 * 60_000)).toEqual(first)
    const next = urls.sign('/files/assets/a/original', start + HOUR)
    expect(next.url).not.toBe(first.url)
    expect(next.expiresAt.getTime() - first.expiresAt.getTime()).toBe(HOUR)
    // Back in the first hour (another process's clock, a test's `now`): the first hour's link again.
    expect(urls.sign('/files/assets/a/original', start)).toEqual(first)
    for (const link of [first, next]) expect(urls.verify('/files/assets/a/original', query(link.url), start)).toBeGreaterThan(0)
  })

  it('sign each path for itself', () => {
    const urls = signer()
    const original = urls.sign('/files/assets/a/original')
    const thumbnail = urls.sign('/files/assets/a/thumbnail')
    expect(urls.verify('/files/assets/a/thumbnail', query(original.url))).toBeNull()
    expect(urls.verify('/files/assets/a/thumbnail', query(thumbnail.url))).toBeGreaterThan(0)
  })
})
