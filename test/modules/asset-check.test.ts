import { createHash, randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Seeded, TestApp } from '../support/app.js'
import { callApi, expectInvalid, expectProblem, pushImage, startTwoOrganizations } from '../support/fixtures.js'

let t: TestApp
let acme: Seeded
let globex: Seeded

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const unknownHash = () => randomBytes(32).toString('hex')
const check = (sha256: unknown, key = acme.readKey) => callApi(t.app, key, 'POST', '/api/v1/assets/check', { sha256 })

beforeAll(async () => {
  ;({ t, acme, globex } = await startTwoOrganizations())
})
afterAll(async () => {
  await t.close()
})

describe('POST /api/v1/assets/check', () => {
  it('splits the hashes into found, with their asset, and missing, each once and in the order asked', async () => {
    const first = await pushImage(t.app, acme.writeKey)
    const second = await pushImage(t.app, acme.writeKey)
    const absent = unknownHash()
    const [firstHash, secondHash] = [sha256Of(first.image), sha256Of(second.image)]

    const res = await check([secondHash, absent, firstHash, secondHash, absent])

    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      found: [
        { sha256: secondHash, asset_id: second.id },
        { sha256: firstHash, asset_id: first.id },
      ],
      missing: [absent],
    })
  })

  it("answers another organization's identical bytes as missing", async () => {
    const theirs = await pushImage(t.app, globex.writeKey)
    const hash = sha256Of(theirs.image)

    expect((await check([hash])).json()).toEqual({ found: [], missing: [hash] })
    expect((await check([hash], globex.readKey)).json()).toEqual({ found: [{ sha256: hash, asset_id: theirs.id }], missing: [] })
  })

  it('takes 1,000 hashes and refuses none or 1,001', async () => {
    const thousand = Array.from({ length: 1000 }, unknownHash)
    const res = await check(thousand)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<{ missing: string[] }>().missing).toHaveLength(1000)

    expect(expectProblem(await check([]), 400, 'validation_failed').errors).toEqual([{ pointer: '/sha256', detail: expect.stringContaining('fewer than 1') }])
    expect(expectProblem(await check([...thousand, unknownHash()]), 400, 'validation_failed').errors).toEqual([
      { pointer: '/sha256', detail: expect.stringContaining('more than 1000') },
    ])
  })

  it('names each malformed item, and refuses a body without the list', async () => {
    const good = unknownHash()
    const res = await check([good, good, good, good.toUpperCase(), good.slice(1), 42])

    expectInvalid(res, '/sha256/3', '/sha256/4', '/sha256/5')
    expectProblem(await callApi(t.app, acme.readKey, 'POST', '/api/v1/assets/check', {}), 400, 'validation_failed')
    expectProblem(await callApi(t.app, acme.readKey, 'POST', '/api/v1/assets/check', { sha256: [good], extra: 1 }), 400, 'validation_failed')
  })

  it('changes nothing', async () => {
    const count = async () =>
      (await t.database.handle.db.selectFrom('assets').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n
    const before = await count()
    await check([unknownHash()])
    await check(['not a hash'])
    expect(await count()).toBe(before)
  })

  it('lets a read key and a write key call it, and no key not', async () => {
    expect((await check([unknownHash()], acme.readKey)).statusCode).toBe(200)
    expect((await check([unknownHash()], acme.writeKey)).statusCode).toBe(200)
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/assets/check', payload: { sha256: [unknownHash()] } })
    expectProblem(res, 401, 'invalid_api_key')
  })

  it('is counted in the cheap bucket, with the GETs and apart from the pushes', async () => {
    const { token } = await t.app.services.keys.create({ organizationId: acme.org.id, name: 'bucket', scope: 'assets:write', expiresAt: null, createdBy: null })

    const checked = await check([unknownHash()], token)
    expect(checked.headers['x-ratelimit-limit']).toBe('120')
    expect(checked.headers['x-ratelimit-remaining']).toBe('119')
    const listed = await callApi(t.app, token, 'GET', '/api/v1/assets?limit=1')
    expect(listed.headers['x-ratelimit-remaining']).toBe('118')
    const pushed = await pushImage(t.app, token)
    expect(pushed.id).toBeTruthy()
    const afterPush = await check([unknownHash()], token)
    expect(afterPush.headers['x-ratelimit-remaining']).toBe('117')
  })
})
