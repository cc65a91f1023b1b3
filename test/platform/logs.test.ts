import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger, redactUrl } from '../../src/platform/logger.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { pushAndRead } from '../support/fixtures.js'
import { loginOwner } from '../support/sessions.js'

/** A destination that hands what is written to `receive`. */
function sink(receive: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      receive(chunk.toString())
      done()
    },
  })
}

/** Everything the service logs at the default level, as written. */
let written = ''
const capture = sink((text) => (written += text))

let t: TestApp
let acme: Seeded

beforeAll(async () => {
  t = await startTestApp({ logger: createLogger({ logLevel: 'info', logFormat: 'json' }, capture) })
  acme = await seedOrganization(t.app, 'Acme')
})
afterAll(() => t.close())

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers })

describe('request logs at the default level', () => {
  it('never hold a file URL\'s signature, a share token, an invitation token or a key put in a query string', async () => {
    const { record: asset } = await pushAndRead(t.app, acme)
    const collection = await t.app.inject({ method: 'POST', url: '/api/v1/collections', headers: bearer(acme.writeKey), payload: { name: 'Logged' } })
    const shareUrl: string = (await t.app.inject({ method: 'POST', url: `/api/v1/collections/${collection.json().id}/share`, headers: bearer(acme.writeKey) })).json().share_url
    const owner = await loginOwner(t.app, acme)
    const invitation = (await owner.post(`/app/api/orgs/${acme.org.slug}/invitations`, { email: 'logged@example.com', role: 'member' })).json().token

    const thumbnail = new URL(asset.thumbnail_url)
    const secrets = {
      sig: thumbnail.searchParams.get('sig')!,
      share: shareUrl.split('/s/')[1]!,
      invitation,
      apiKey: acme.readKey,
    }
    written = ''
    expect((await get(`${thumbnail.pathname}${thumbnail.search}`)).statusCode).toBe(200)
    expect((await get(`/s/${secrets.share}`)).statusCode).toBe(200)
    expect((await get(`/s/${secrets.share}.json`)).statusCode).toBe(200)
    await get(`/invite/${secrets.invitation}`)
    await get(`/api/v1/assets?api_key=${secrets.apiKey}&limit=1`)
    await get(`/api/v1/assets?limit=1&key=${secrets.apiKey}`)
    await get(`/api/v1/assets?token=${secrets.apiKey}`)

    const urls = written.split('\n').filter(Boolean).map((line) => JSON.parse(line).req?.url).filter(Boolean)
    expect(urls).toEqual([
      `${thumbnail.pathname}?expires=${thumbnail.searchParams.get('expires')}&sig=[redacted]`,
      '/s/[redacted]',
      '/s/[redacted]',
      '/invite/[redacted]',
      '/api/v1/assets?api_key=[redacted]&limit=1',
      '/api/v1/assets?limit=1&key=[redacted]',
      '/api/v1/assets?token=[redacted]',
    ])
    for (const [name, secret] of Object.entries(secrets)) expect(written, name).not.toContain(secret)
  })

  it('keeps the rest of the URL as it was', () => {
    expect(redactUrl('/api/v1/assets?tag=brand&limit=5')).toBe('/api/v1/assets?tag=brand&limit=5')
    expect(redactUrl('/api/v1/assets?monkey=1&SIG=abc#x')).toBe('/api/v1/assets?monkey=1&SIG=[redacted]#x')
    expect(redactUrl('/sessions/abc')).toBe('/sessions/abc')
  })
})

describe('a failed image_url fetch', () => {
  it('is logged at warn with the class of failure, never the address, and not as an unexpected error', async () => {
    written = ''
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/assets', headers: bearer(acme.writeKey), payload: { image_url: 'http://10.20.30.40:8080/logo.png' } })
    expect(res.statusCode).toBe(502)
    const entries = written.split('\n').filter(Boolean).map((line) => JSON.parse(line))
    expect(entries.find((entry) => entry.msg === 'an upstream request failed')).toMatchObject({ level: 40, code: 'image_fetch_blocked', upstream: 'blocked' })
    expect(entries.some((entry) => entry.msg === 'unexpected error')).toBe(false)
    expect(written).not.toContain('10.20.30.40')
  })
})

describe.each(['json', 'pretty'] as const)('%s logs', (logFormat) => {
  it('redact a field that holds a password, a token or a secret', () => {
    let text = ''
    const logger = createLogger({ logLevel: 'info', logFormat }, sink((chunk) => (text += chunk)))
    logger.info({ account: { email: 'ada@example.com', password: 'hunter2-hunter2' }, invitation: { token: 'inv-0123456789' }, webhook: { secret: 'whsec-0123456789' } }, 'signed in')
    expect(text).toContain('ada@example.com')
    expect(text).toContain('[redacted]')
    for (const secret of ['hunter2-hunter2', 'inv-0123456789', 'whsec-0123456789']) expect(text).not.toContain(secret)
  })
})

describe('pretty logs', () => {
  it('give a request one readable line as it comes in and one as it completes, its capabilities redacted', async () => {
    let text = ''
    const pretty = await startTestApp({ database: t.database, logger: createLogger({ logLevel: 'info', logFormat: 'pretty' }, sink((chunk) => (text += chunk))) })
    try {
      expect((await pretty.app.inject({ method: 'GET', url: '/s/a-share-token-0123456789', headers: { 'x-request-id': 'pretty-1' } })).statusCode).toBe(404)
    } finally {
      await pretty.close()
    }
    const lines = text.split('\n').filter((line) => line.includes('pretty-1'))
    expect(lines).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: pretty-1 incoming request GET \/s\/\[redacted\]$/),
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: pretty-1 request completed 404 in \d+ ms$/),
    ])
    expect(text).not.toContain('a-share-token-0123456789')
  })
})
