import { Writable } from 'node:stream'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { uuidv7 } from '../../src/platform/ids.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectInvalid, expectProblem, organizationApi, startTwoOrganizations, type OrganizationApi } from '../support/fixtures.js'
import { DIMENSIONS, startEmbeddingServer, type EmbeddingServer } from '../support/embedding-server.js'
import { signedInMember } from '../support/sessions.js'
import { waitFor } from '../support/wait.js'

let t: TestApp
let provider: EmbeddingServer
let acme: Seeded
let globex: Seeded
let push: OrganizationApi['push']
/** Debian's PostgreSQL 15 has no pgvector: there search is text mode whatever the configuration. */
let vector: boolean

const LIMITS = { RATE_LIMIT_EXPENSIVE: '5000', RATE_LIMIT_CHEAP: '5000', RATE_LIMIT_STANDARD: '5000' }

const search = (body: object, key = acme.readKey) => t.app.inject({ method: 'POST', url: '/api/v1/search', headers: bearer(key), payload: body })
const list = (query: string, key = acme.readKey) => t.app.inject({ method: 'GET', url: `/api/v1/assets?${query}`, headers: bearer(key) })
const titles = (res: { json(): { data: Array<{ title: string }> } }) => res.json().data.map((hit) => hit.title)
const db = () => t.database.handle.db

/** Every text of the organization has a vector made from it. */
async function embedded(organizationId = acme.org.id, timeoutMs = 10_000) {
  return waitFor('the background embeddings', async () => {
    const pending = await db()
      .selectFrom('asset_embeddings')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('organization_id', '=', organizationId)
      .where('source_text', '<>', '')
      .where((eb) => eb.or([eb('embedded_hash', 'is', null), eb('embedded_hash', '<>', eb.ref('text_hash'))]))
      .executeTakeFirstOrThrow()
    return pending.n === 0
  }, timeoutMs)
}

async function setAi(seeded: Seeded, enabled: boolean) {
  const owner = await signedInMember(t.app, seeded.org.id, 'owner')
  expect((await owner.patch(`/app/api/orgs/${seeded.org.slug}`, { ai_enabled: enabled })).statusCode).toBe(200)
}

let ids: Record<string, string>

/** Rows written straight to the table, for volume: as pushes would leave them, without the images. */
async function insertAssets(organizationId: string, count: number, title: string) {
  const rows = Array.from({ length: count }, (_, i) => {
    const id = uuidv7()
    return { id, organization_id: organizationId, title: `${title} ${i}`, mime_type: 'image/png', width: 1, height: 1, byte_size: 1, sha256: id, blob_key: id, thumbnail_key: id, updated_at: new Date() }
  })
  await db().insertInto('assets').values(rows).execute()
}

beforeAll(async () => {
  provider = await startEmbeddingServer()
  ;({ t, acme, globex } = await startTwoOrganizations({
    env: { EMBEDDING_BASE_URL: provider.baseUrl, EMBEDDING_MODEL: 'concepts-v1', EMBEDDING_DIMENSIONS: String(DIMENSIONS), EMBEDDING_TIMEOUT_MS: '400', ...LIMITS },
  }))
  ;({ push } = organizationApi(t.app, acme))
  vector = await t.app.services.embeddings.vectorAvailable()
  await t.app.services.embeddings.prepare()
  await t.app.services.embeddings.start()
  ids = {
    springBanner: await push({ title: 'Banner for the spring sale', client: 'Acme-2', tag_names: ['promo'] }),
    blueBanner: await push({ title: 'Blue banner', client: 'Initech' }),
    creme: await push({ title: 'Crème brûlée close-up', asset_type: 'Photo' }),
    car: await push({ title: 'Red sports car', tag_names: ['red'] }),
    truck: await push({ title: 'Delivery truck at dawn' }),
    initechTitle: await push({ title: 'Initech headquarters' }),
    kitten: await push({ title: 'Sleeping kitten', tag_names: ['cute'] }),
  }
  await push({ title: 'Red sports car' }, globex.writeKey)
  if (vector) await embedded()
})
afterAll(async () => {
  await t?.close()
  await provider?.close()
})

describe('full text, shared by GET /api/v1/assets?q= and search', () => {
  it.each([
    ['stemming: a plural finds the singular', 'banners', ['Banner for the spring sale', 'Blue banner']],
    ['exact words survive stemming', 'Acme-2', ['Banner for the spring sale']],
    ['accents and case are ignored', 'CREME brulee', ['Crème brûlée close-up']],
    ['a quoted phrase keeps its order', '"spring sale"', ['Banner for the spring sale']],
    ['a phrase out of order does not match', '"sale spring"', []],
    ['a phrase never spans the end of the title and its repeat', '"sale banner"', []],
    ['-word excludes', 'banner -blue', ['Banner for the spring sale']],
    ['the last word matches as a prefix', 'spri', ['Banner for the spring sale']],
    ['a finished word is not a prefix', 'spri ', []],
    ['or widens', 'kitten or truck', ['Sleeping kitten', 'Delivery truck at dawn']],
    ['tags are searched', 'cute', ['Sleeping kitten']],
    ['type, client and product are searched', 'photo', ['Crème brûlée close-up']],
  ])('%s (%s)', async (_name, q, expected) => {
    const listed = await list(`q=${encodeURIComponent(q)}`)
    expect(listed.statusCode).toBe(200)
    expect(titles(listed).sort()).toEqual([...expected].sort())
    const searched = await t.app.inject({ method: 'POST', url: '/api/v1/search', headers: bearer(acme.readKey), payload: { q } })
    const textHits = searched.json().data.filter((hit: { text_score: number }) => hit.text_score > 0)
    expect(textHits.map((hit: { title: string }) => hit.title).sort()).toEqual([...expected].sort())
  })

  it('finds an accented title from a plain query and the other way round', async () => {
    const id = await push({ title: 'Creme fraiche jar' })
    expect(titles(await list('q=cr%C3%A8me%20fra%C3%AEche'))).toEqual(['Creme fraiche jar'])
    expect((await list(`q=creme`)).json().data.map((a: { id: string }) => a.id)).toContain(id)
  })

  it('ranks a match in the title above the same word as client, with text_score in [0, 1)', async () => {
    const res = await search({ q: 'initech' })
    const hits = res.json().data as Array<{ id: string; text_score: number }>
    const byId = Object.fromEntries(hits.map((hit) => [hit.id, hit.text_score]))
    expect(byId[ids.blueBanner!]).toBeGreaterThan(0)
    expect(byId[ids.initechTitle!]).toBeGreaterThan(byId[ids.blueBanner!]!)
    expect(byId[ids.initechTitle!]).toBeLessThan(1)
  })
})

describe('text candidates', () => {
  it('are the best ranked of the matches, ties newest first, with many more matches than candidates', async () => {
    const initrode = await seedOrganization(t.app, 'Initrode')
    await setAi(initrode, false)
    // 301 matches, more than the pool of 200 (5 × the 40 candidates of a small limit): 150 weaker ones
    // older than the strong one and 150 newer.
    await insertAssets(initrode.org.id, 150, 'Zeppelin older')
    const strong = await push({ title: 'Zeppelin over the bay', client: 'Zeppelin', tag_names: ['zeppelin'] }, initrode.writeKey)
    await insertAssets(initrode.org.id, 150, 'Zeppelin newer')
    const res = await search({ q: 'zeppelin', limit: 3 }, initrode.readKey)
    expect(res.json().mode).toBe('text')
    expect(res.json().data[0].id).toBe(strong)
    expect(titles(res)).toEqual(['Zeppelin over the bay', 'Zeppelin newer 149', 'Zeppelin newer 148'])
  })

  it('are found among older assets when none of the 5,000 newest match', async () => {
    const archive = await seedOrganization(t.app, 'Archive')
    await setAi(archive, false)
    await insertAssets(archive.org.id, 250, 'Origami crane')
    for (let batch = 0; batch < 5; batch++) await insertAssets(archive.org.id, 1000, `Filler ${batch}`)
    const res = await search({ q: 'origami', limit: 3 }, archive.readKey)
    expect(titles(res)).toEqual(['Origami crane 249', 'Origami crane 248', 'Origami crane 247'])
  })
})

describe('POST /api/v1/search', () => {
  it.each([
    ['a missing q', {}, ['/q']],
    ['a blank q', { q: '   ' }, ['/q']],
    ['a zero limit', { q: 'car', limit: 0 }, ['/limit']],
    ['an unknown field', { q: 'car', colour: 'red' }, ['/colour']],
    ['a q that is not a string', { q: 7 }, ['/q']],
  ])('refuses %s with 400', async (_name, body, pointers) => {
    expectInvalid(await search(body), ...pointers)
  })

  it('says a blank q must not be blank, in words', async () => {
    expect(expectProblem(await search({ q: ' \t' }), 400, 'validation_failed').errors).toEqual([{ pointer: '/q', detail: 'must not be blank' }])
  })

  it('caps limit at 100 and defaults it to 20', async () => {
    const other = await seedOrganization(t.app, 'Posters')
    await insertAssets(other.org.id, 105, 'Poster')
    const hits = async (body: object) => (await search(body, other.readKey)).json().data.length
    expect(await hits({ q: 'poster', limit: 1000 })).toBe(100)
    expect(await hits({ q: 'poster' })).toBe(20)
    expect(await hits({ q: 'poster', limit: 7 })).toBe(7)
  })

  it('may be called with an assets:read key, in the expensive bucket shared with pushes', async () => {
    const first = await search({ q: 'banner' })
    expect(first.statusCode).toBe(200)
    expect(first.headers['x-ratelimit-limit']).toBe(LIMITS.RATE_LIMIT_EXPENSIVE)
    const before = Number((await search({ q: 'banner' }, acme.writeKey)).headers['x-ratelimit-remaining'])
    await push({ title: 'Counted' })
    const after = Number((await search({ q: 'banner' }, acme.writeKey)).headers['x-ratelimit-remaining'])
    expect(after).toBe(before - 2)
  })

  it('applies the list filters and never shows another organization\u2019s assets', async () => {
    const res = await search({ q: 'banner', client: 'initech' })
    expect(titles(res)).toEqual(['Blue banner'])
    const car = await search({ q: 'car' }, globex.readKey)
    expect(car.json().data.every((hit: { id: string }) => !Object.values(ids).includes(hit.id))).toBe(true)
  })

  it('answers in text mode, ranked by text alone, when the organization has AI off, and asks the provider nothing', async () => {
    const other = await seedOrganization(t.app, 'Textco')
    await push({ title: 'Banner one' }, other.writeKey)
    await push({ title: 'Banner banner banner' }, other.writeKey)
    await setAi(other, false)
    const requests = provider.requests()
    const res = await search({ q: 'banner' }, other.readKey)
    expect(res.json().mode).toBe('text')
    const hits = res.json().data as Array<{ title: string; score: number; text_score: number; semantic_score: number }>
    expect(hits.map((hit) => hit.title)).toEqual(['Banner banner banner', 'Banner one'])
    for (const hit of hits) expect(hit).toMatchObject({ score: hit.text_score, semantic_score: 0 })
    expect(provider.requests()).toBe(requests)
  })
})

describe.runIf(!process.env.TEST_DATABASE_URL)('hybrid search (pgvector, on the embedded database)', () => {
  it('has pgvector, and says so at /ready', async () => {
    expect(vector).toBe(true)
    const ready = (await t.app.inject({ method: 'GET', url: '/ready' })).json()
    expect(ready.search).toMatchObject({ mode: 'hybrid', model: 'concepts-v1', dimensions: DIMENSIONS, index: 'ready', provider: { status: 'ok' } })
  })

  it('finds by meaning with no word in common, making exactly one provider request: the query', async () => {
    const requests = provider.requests()
    const inputs = provider.inputs.length
    const res = await search({ q: 'automobile' })
    expect(provider.requests()).toBe(requests + 1)
    expect(provider.inputs.slice(inputs)).toEqual(['automobile'])
    const body = res.json()
    expect(body.mode).toBe('hybrid')
    // Both vehicles, and nothing else: the rest of the library is unrelated, by text and by meaning.
    expect(titles(res).sort()).toEqual(['Delivery truck at dawn', 'Red sports car'])
    const car = body.data.find((hit: { id: string }) => hit.id === ids.car)
    expect(car).toMatchObject({ text_score: 0 })
    expect(car.semantic_score).toBeGreaterThan(0.3)
    expect(car.score).toBeCloseTo(0.6 * car.semantic_score, 9)
  })

  it('sends the query to the model as typed, without operators or excluded words', async () => {
    await search({ q: 'Crème "brûlée tart" -blue or 한국어' })
    expect(provider.inputs.at(-1)).toBe('Crème brûlée tart 한국어')
  })

  it('scores every hit as 0.4 × text_score + 0.6 × semantic_score, best first', async () => {
    const hits = (await search({ q: 'red car' })).json().data as Array<{ title: string; score: number; text_score: number; semantic_score: number }>
    expect(hits[0]!.title).toBe('Red sports car')
    expect(hits[0]!.text_score).toBeGreaterThan(0)
    expect(hits[0]!.semantic_score).toBeGreaterThan(0)
    for (const hit of hits) {
      expect(hit.score).toBeCloseTo(0.4 * hit.text_score + 0.6 * hit.semantic_score, 9)
      for (const value of [hit.score, hit.text_score, hit.semantic_score]) {
        expect(value).toBeGreaterThanOrEqual(0)
        expect(value).toBeLessThanOrEqual(1)
      }
    }
    expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a))
  })

  it('filters semantic candidates too', async () => {
    expect(titles(await search({ q: 'automobile', tag: 'red' }))).toEqual(['Red sports car'])
    expect(titles(await search({ q: 'automobile', client: 'Initech' }))).toEqual([])
  })

  it.each([
    ['fails', 503],
    ['hangs past EMBEDDING_TIMEOUT_MS', 'hang' as const],
  ])('falls back to text mode, never an error, when the provider %s', async (_name, failure) => {
    provider.fail(failure)
    try {
      const started = Date.now()
      const res = await search({ q: 'banner' })
      expect(res.statusCode).toBe(200)
      expect(res.json().mode).toBe('text')
      expect(titles(res).sort()).toEqual(['Banner for the spring sale', 'Blue banner'])
      expect(Date.now() - started).toBeLessThan(2_000)
    } finally {
      provider.fail(null)
    }
  })

  it('re-embeds after a PATCH changes the text, and not after one that leaves it alone', async () => {
    const id = await push({ title: 'Calm sea at noon' })
    await embedded()
    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: `/api/v1/assets/${id}`, headers: bearer(acme.writeKey), payload })
    const requests = provider.requests()
    const row = () => db().selectFrom('asset_embeddings').select(['text_hash', 'next_attempt_at']).where('asset_id', '=', id).executeTakeFirstOrThrow()
    const before = await row()
    expect((await patch({ source_url: 'https://example.com/sea' })).statusCode).toBe(200)
    expect(await row()).toEqual({ ...before, next_attempt_at: null })
    expect((await patch({ title: 'Playful puppy' })).statusCode).toBe(200)
    await embedded()
    expect(provider.inputs.at(-1)).toBe('Playful puppy')
    expect(provider.requests()).toBe(requests + 1)
    const hits = (await search({ q: 'dog' })).json().data as Array<{ id: string; semantic_score: number }>
    expect(hits[0]).toMatchObject({ id })
  })

  describe('GET /api/v1/assets/{id}/similar', () => {
    const similar = (id: string, key = acme.readKey, query = '') => t.app.inject({ method: 'GET', url: `/api/v1/assets/${id}/similar${query}`, headers: bearer(key) })

    it('lists the nearest assets by stored vector, without itself, asking the provider nothing', async () => {
      const requests = provider.requests()
      const res = await similar(ids.kitten!, acme.readKey, '?limit=3')
      expect(res.statusCode).toBe(200)
      const body = res.json()
      // Only neighbours with something in common: the puppy (a pet), not the unrelated rest.
      expect(body).toMatchObject({ total: 1, limit: 3, offset: 0, data: [{ title: 'Playful puppy' }] })
      expect(body.data[0].semantic_score).toBeGreaterThan(0)
      const car = (await similar(ids.car!)).json()
      expect(car.data.map((a: { id: string }) => a.id)).toEqual([ids.truck])
      expect(provider.requests()).toBe(requests)
    })

    it('caps limit at 100', async () => {
      expect((await similar(ids.car!, acme.readKey, '?limit=1000')).json().limit).toBe(100)
    })

    it('is empty for an asset without an embedding yet', async () => {
      provider.refuseTextsWith('Not embedded')
      try {
        const id = await push({ title: 'Not embedded yet' })
        await waitFor('the refused attempt', async () => (await db().selectFrom('asset_embeddings').select('attempts').where('asset_id', '=', id).executeTakeFirstOrThrow()).attempts > 0)
        expect((await similar(id)).json()).toMatchObject({ data: [], total: 0 })
      } finally {
        provider.refuseTextsWith(null)
      }
    })

    it('answers 404 for an unknown asset and for another organization\u2019s', async () => {
      expectProblem(await similar('0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55'), 404, 'not_found')
      expectProblem(await similar(ids.car!, globex.readKey), 404, 'not_found')
    })
  })

  it('records a failed background attempt, backs off, and retries it to success', async () => {
    const other = await seedOrganization(t.app, 'Flaky')
    provider.fail(503)
    let failed
    const row = (id: string) => db().selectFrom('asset_embeddings').selectAll().where('asset_id', '=', id).executeTakeFirstOrThrow()
    const id = await push({ title: 'Vintage automobile' }, other.writeKey)
    try {
      failed = await waitFor('the failed attempt', async () => ((await row(id)).attempts === 1 ? row(id) : undefined))
    } finally {
      provider.fail(null)
    }
    expect(failed).toMatchObject({ embedded_hash: null, locked_by: null, last_error: 'the embedding provider answered 503' })
    const wait = failed.next_attempt_at!.getTime() - Date.now()
    expect(wait).toBeGreaterThan(2_500)
    expect(wait).toBeLessThanOrEqual(6_000)
    // Due after the backoff, then claimed by the next poll (every 5 s).
    await embedded(other.org.id, 20_000)
    expect(await row(id)).toMatchObject({ attempts: 0, last_error: null, next_attempt_at: null })
    expect((await t.app.inject({ method: 'GET', url: '/ready' })).json().search.provider.status).toBe('ok')
  })

  it('splits a batch the provider refuses until the refused text is alone, so the others go through', async () => {
    const other = await seedOrganization(t.app, 'Picky')
    await setAi(other, false)
    const good = [await push({ title: 'Green sedan at noon' }, other.writeKey), await push({ title: 'Orange kitten' }, other.writeKey)]
    const poisoned = await push({ title: 'Poisoned text' }, other.writeKey)
    provider.refuseTextsWith('Poisoned')
    try {
      await setAi(other, true)
      const rows = () => db().selectFrom('asset_embeddings').select(['asset_id', 'embedded_hash', 'attempts', 'last_error']).where('organization_id', '=', other.org.id).execute()
      const settled = await waitFor('the batch to settle', async () => {
        const all = await rows()
        return all.every((row) => row.embedded_hash !== null || row.attempts > 0) && all
      })
      const byId = new Map(settled.map((row) => [row.asset_id, row]))
      for (const id of good) expect(byId.get(id)!.embedded_hash).not.toBeNull()
      expect(byId.get(poisoned)).toMatchObject({ embedded_hash: null, attempts: 1, last_error: 'the embedding provider answered 400' })
    } finally {
      provider.refuseTextsWith(null)
      // Parks the refused text's retry, due a few seconds on: it would reach the provider during a later test that counts requests.
      await setAi(other, false)
    }
  })

  it('embeds in the background 64 texts to a request', async () => {
    const other = await seedOrganization(t.app, 'Bulk')
    await setAi(other, false)
    await Promise.all(Array.from({ length: 70 }, (_, i) => push({ title: `Bulk item ${i}` }, other.writeKey)))
    const batches = provider.batches.length
    await setAi(other, true)
    t.app.services.embeddings.afterCommit()
    await embedded(other.org.id)
    expect(provider.batches.slice(batches).sort((a, b) => b - a)).toEqual([64, 6])
  })

  it('reports a provider whose vectors do not have EMBEDDING_DIMENSIONS in the log and /ready, and searches by text', async () => {
    const lines: string[] = []
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => done(void lines.push(String(chunk))) }))
    const wrong = await startTestApp({
      env: { EMBEDDING_BASE_URL: provider.baseUrl, EMBEDDING_MODEL: 'concepts-v1', EMBEDDING_DIMENSIONS: '384', ...LIMITS },
      logger,
    })
    try {
      await wrong.app.services.embeddings.start()
      const org = await seedOrganization(wrong.app, 'Wrong')
      const ready = await waitFor('the start-up check', async () => {
        const body = (await wrong.app.inject({ method: 'GET', url: '/ready' })).json()
        return body.search.provider.status === 'failing' && body
      })
      expect(ready.status).toBe('ready')
      expect(ready.search.provider.error).toContain(`returned ${DIMENSIONS} dimensions where EMBEDDING_DIMENSIONS is 384`)
      expect(lines.some((line) => line.includes('"level":50') && line.includes('EMBEDDING_DIMENSIONS is 384'))).toBe(true)
      const res = await wrong.app.inject({ method: 'POST', url: '/api/v1/search', headers: bearer(org.readKey), payload: { q: 'car' } })
      expect(res.statusCode).toBe(200)
      expect(res.json().mode).toBe('text')
    } finally {
      await wrong.close()
    }
  })

  it('with AI off sends no text of the organization to the provider, and similar is empty; back on, it catches up', async () => {
    const other = await seedOrganization(t.app, 'Quiet')
    const first = await push({ title: 'Green sedan' }, other.writeKey)
    await embedded(other.org.id)
    await setAi(other, false)
    const requests = provider.requests()
    const second = await push({ title: 'Secret vehicle prototype' }, other.writeKey)
    const parked = await db().selectFrom('asset_embeddings').select('next_attempt_at').where('organization_id', '=', other.org.id).execute()
    expect(parked.map((row) => row.next_attempt_at)).toEqual([null, null])
    expect((await search({ q: 'vehicle' }, other.readKey)).json().mode).toBe('text')
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/assets/${first}/similar`, headers: bearer(other.readKey) })).json().data).toEqual([])
    expect((await t.app.services.embeddings.backfill({ organizationId: other.org.id })).embedded).toBe(0)
    expect(provider.requests()).toBe(requests)
    expect(provider.inputs.some((text) => text.includes('Secret vehicle'))).toBe(false)

    await setAi(other, true)
    await embedded(other.org.id)
    expect(provider.inputs.some((text) => text.includes('Secret vehicle'))).toBe(true)
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/assets/${first}/similar`, headers: bearer(other.readKey) })
    expect(res.json().data.map((a: { id: string }) => a.id)).toEqual([second])
  })
})

describe('text mode by configuration', () => {
  it('without EMBEDDING_BASE_URL: text mode in search and /ready', async () => {
    const plain = await startTestApp({ env: LIMITS })
    try {
      const org = await seedOrganization(plain.app, 'Plain')
      const res = await plain.app.inject({ method: 'POST', url: '/api/v1/search', headers: bearer(org.readKey), payload: { q: 'anything' } })
      expect(res.json()).toEqual({ mode: 'text', data: [] })
      expect((await plain.app.inject({ method: 'GET', url: '/ready' })).json().search).toEqual({ mode: 'text', reason: 'no_provider' })
    } finally {
      await plain.close()
    }
  })

  it.runIf(process.env.TEST_DATABASE_URL)('without pgvector (PostgreSQL 15 here): text mode with a provider configured, and no request', async () => {
    expect(vector).toBe(false)
    const requests = provider.requests()
    const res = await search({ q: 'banner' })
    expect(res.json().mode).toBe('text')
    expect(titles(res).sort()).toEqual(['Banner for the spring sale', 'Blue banner'])
    expect(provider.requests()).toBe(requests)
    expect((await t.app.inject({ method: 'GET', url: '/ready' })).json().search).toMatchObject({ mode: 'text', reason: 'no_pgvector' })
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/assets/${ids.car}/similar`, headers: bearer(acme.readKey) })).json().data).toEqual([])
  })
})
