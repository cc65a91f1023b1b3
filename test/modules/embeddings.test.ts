import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { uuidv7 } from '../../src/platform/ids.js'
import { bearer, seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { createTestDatabase, type TestDatabase } from '../support/database.js'
import { DIMENSIONS, startEmbeddingServer, type EmbeddingServer } from '../support/embedding-server.js'
import { pushImage } from '../support/fixtures.js'
import { staysTrue, waitFor } from '../support/wait.js'

/** Background embeddings where each case needs an app, a provider or a database of its own. pgvector: embedded only. */
const LIMITS = { RATE_LIMIT_EXPENSIVE: '5000', RATE_LIMIT_CHEAP: '5000', RATE_LIMIT_STANDARD: '5000' }
let provider: EmbeddingServer
const env = (extra: Record<string, string> = {}) => ({
  EMBEDDING_BASE_URL: provider.baseUrl,
  EMBEDDING_MODEL: 'concepts-v1',
  EMBEDDING_DIMENSIONS: String(DIMENSIONS),
  ...LIMITS,
  ...extra,
})

const push = async (t: TestApp, seeded: Seeded, title: string) => (await pushImage(t.app, seeded.writeKey, { title })).id

const rows = (database: TestDatabase) =>
  database.handle.db.selectFrom('asset_embeddings').select(['asset_id', 'model', 'dimensions', 'next_attempt_at', 'locked_by', 'embedded_hash', 'text_hash']).execute()

beforeAll(async () => {
  provider = await startEmbeddingServer()
})
afterAll(() => provider.close())

describe.runIf(!process.env.TEST_DATABASE_URL)('background embeddings (pgvector, on the embedded database)', () => {
  it('re-embeds with a new model, and search keeps working meanwhile', async () => {
    const database = await createTestDatabase(inject('templateDir'))
    try {
      const first = await startTestApp({ database, env: env() })
      await first.app.services.embeddings.start()
      const org = await seedOrganization(first.app, 'Acme')
      const car = await push(first, org, 'Red sports car')
      await push(first, org, 'Delivery truck')
      await waitFor('the first model', async () => (await rows(database)).every((row) => row.model === 'concepts-v1'))
      await first.close()

      const second = await startTestApp({ database, env: env({ EMBEDDING_MODEL: 'concepts-v2' }) })
      try {
        await second.app.services.embeddings.prepare()
        expect((await rows(database)).every((row) => row.next_attempt_at !== null && row.model === 'concepts-v1')).toBe(true)
        const meanwhile = await second.app.inject({ method: 'POST', url: '/api/v1/search', headers: bearer(org.readKey), payload: { q: 'car' } })
        expect(meanwhile.json().data.map((hit: { id: string }) => hit.id)).toEqual([car])
        expect(meanwhile.json().data[0]).toMatchObject({ semantic_score: 0 })

        await second.app.services.embeddings.start()
        await waitFor('the new model', async () => (await rows(database)).every((row) => row.model === 'concepts-v2' && row.next_attempt_at === null))
        const after = await second.app.inject({ method: 'POST', url: '/api/v1/search', headers: bearer(org.readKey), payload: { q: 'automobile' } })
        expect(after.json().data.map((hit: { title: string }) => hit.title).sort()).toEqual(['Delivery truck', 'Red sports car'])
      } finally {
        await second.close()
      }
    } finally {
      await database.dispose()
    }
  })

  it('indexes more than 2,000 dimensions as halfvec (text-embedding-3-large has 3,072)', async () => {
    const wide = await startEmbeddingServer()
    wide.answerDimensions(3072)
    const t = await startTestApp({ env: { ...env(), EMBEDDING_BASE_URL: wide.baseUrl, EMBEDDING_DIMENSIONS: '3072' } })
    try {
      await t.app.services.embeddings.prepare()
      await t.app.services.embeddings.start()
      const index = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'asset_embeddings_hnsw_3072'`.execute(t.database.handle.db)
      expect(index.rows[0]!.indexdef).toContain('halfvec(3072)')
      expect((await t.app.inject({ method: 'GET', url: '/ready' })).json().search).toMatchObject({ mode: 'hybrid', dimensions: 3072, index: 'ready' })
      const org = await seedOrganization(t.app, 'Wide')
      await push(t, org, 'Red sports car')
      await push(t, org, 'Sleeping kitten')
      await waitFor('the embeddings', async () => (await rows(t.database)).every((row) => row.dimensions === 3072))
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/search', headers: bearer(org.readKey), payload: { q: 'automobile' } })
      expect(res.json()).toMatchObject({ mode: 'hybrid', data: [{ title: 'Red sports car' }] })
    } finally {
      await t.close()
      await wide.close()
    }
  })

  it('gives back the batch in flight when it stops, within its share of the shutdown budget', async () => {
    const stuck = await startEmbeddingServer()
    stuck.fail('hang')
    const database = await createTestDatabase(inject('templateDir'))
    const t = await startTestApp({ database, env: { ...env(), EMBEDDING_BASE_URL: stuck.baseUrl, SHUTDOWN_TIMEOUT_MS: '1000' } })
    try {
      await t.app.services.embeddings.start()
      const org = await seedOrganization(t.app, 'Stuck')
      await push(t, org, 'Red sports car')
      await waitFor('the batch to be in flight', async () => (await rows(database)).some((row) => row.locked_by !== null) && stuck.requests() >= 2)
      const started = Date.now()
      await t.close()
      expect(Date.now() - started).toBeLessThan(1_500)
      expect((await rows(database)).map((row) => row.locked_by)).toEqual([null])
    } finally {
      await database.dispose()
      await stuck.close()
    }
  })

  it('counts each organization\u2019s queue, the texts the provider refused as failed, and a retry makes them and the missing ones due again', async () => {
    const t = await startTestApp({ env: env() })
    provider.refuseTextsWith('Refused')
    try {
      const org = await seedOrganization(t.app, 'Counted')
      const other = await seedOrganization(t.app, 'Elsewhere')
      await push(t, org, 'Refused poster')
      const calm = await push(t, org, 'Calm sea')
      await push(t, other, 'Red sports car')
      const embeddings = t.app.services.embeddings
      expect(await embeddings.counts(org.org.id)).toEqual({ name: 'embeddings', pending: 2, running: 0, failed: 0, oldest_pending_at: expect.any(String) })
      // With a provider and pgvector the work can be done: the Processing panel offers its retry.
      expect(await embeddings.unavailableReason()).toBeNull()
      await embeddings.drain()
      expect(await embeddings.counts(org.org.id)).toEqual({ name: 'embeddings', pending: 0, running: 0, failed: 1, oldest_pending_at: null })
      expect(await embeddings.counts(other.org.id)).toMatchObject({ pending: 0, failed: 0 })
      // A vector lost with nothing to make it again (restored from an older backup, say): missing.
      await sql`update asset_embeddings set embedded_hash = null, next_attempt_at = null where asset_id = ${calm}`.execute(t.database.handle.db)

      provider.refuseTextsWith(null)
      expect(await embeddings.retry(org.org.id)).toBe(2)
      expect(await embeddings.counts(org.org.id)).toMatchObject({ pending: 2, failed: 0 })
      await embeddings.drain()
      expect(await embeddings.counts()).toEqual({ name: 'embeddings', pending: 0, running: 0, failed: 0, oldest_pending_at: null })
      expect(await embeddings.retry()).toBe(0)
    } finally {
      provider.refuseTextsWith(null)
      await t.close()
    }
  })

  it('pauses the queue while the provider rate-limits, instead of working through the backlog', async () => {
    const limited = await startEmbeddingServer()
    limited.fail(429)
    const t = await startTestApp({ env: { ...env(), EMBEDDING_BASE_URL: limited.baseUrl } })
    try {
      const org = await seedOrganization(t.app, 'Backlog')
      const ids = Array.from({ length: 200 }, () => uuidv7())
      const db = t.database.handle.db
      await db
        .insertInto('assets')
        .values(ids.map((id, i) => ({ id, organization_id: org.org.id, title: `Item ${i}`, mime_type: 'image/png', width: 1, height: 1, byte_size: 1, sha256: id, blob_key: id, thumbnail_key: id, tag_text: '', updated_at: new Date() })))
        .execute()
      await db
        .insertInto('asset_embeddings')
        .values(ids.map((id, i) => ({ asset_id: id, organization_id: org.org.id, source_text: `Item ${i}`, text_hash: id, next_attempt_at: sql<Date>`now()` })))
        .execute()
      await t.app.services.embeddings.start()
      await waitFor('the failed batches to be given back for a retry', async () => {
        const { claimed, failed } = await db
          .selectFrom('asset_embeddings')
          .select([sql<number>`count(*) filter (where locked_by is not null)::int`.as('claimed'), sql<number>`count(*) filter (where attempts > 0)::int`.as('failed')])
          .executeTakeFirstOrThrow()
        return claimed === 0 && failed > 0
      })
      // The start-up check, then at most one batch per slot: no request for the rest of the backlog. A
      // paused queue claims nothing, which leaves nothing to wait for; an unpaused one would have sent its
      // next batch as soon as the failures were written, so this watches for that request.
      await staysTrue('no request for the rest of the backlog', () => limited.requests() <= 3, 1_500)
      const untouched = await db.selectFrom('asset_embeddings').select(sql<number>`count(*)::int`.as('n')).where('attempts', '=', 0).executeTakeFirstOrThrow()
      expect(untouched.n).toBeGreaterThanOrEqual(200 - 128)
    } finally {
      await t.close()
      await limited.close()
    }
  })
})
