import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { DIMENSIONS, startEmbeddingServer, type EmbeddingServer } from '../support/embedding-server.js'
import { pushImage } from '../support/fixtures.js'
import { uniquePng } from '../support/images.js'
import { loginOwner } from '../support/sessions.js'

const LIMITS = { RATE_LIMIT_EXPENSIVE: '10000', RATE_LIMIT_STANDARD: '10000' }

async function aiStatus(t: TestApp, seeded: Seeded) {
  const owner = await loginOwner(t.app, seeded)
  const res = await owner.get(`/app/api/orgs/${seeded.org.slug}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ ai_enabled: boolean; ai: unknown }>()
}

describe('the AI status on GET /app/api/orgs/:org', () => {
  it('without EMBEDDING_BASE_URL: not available, for want of a provider, whatever the switch says', async () => {
    const t = await startTestApp({ env: LIMITS })
    try {
      const acme = await seedOrganization(t.app, 'Acme')
      await pushImage(t.app, acme.writeKey, { title: 'Waiting for nothing' })
      const organization = await aiStatus(t, acme)
      expect(organization.ai_enabled).toBe(true)
      expect(organization.ai).toEqual({ available: false, unavailable_reason: 'no_provider', embeddings_pending: 0 })
    } finally {
      await t.close()
    }
  })

  describe('with a provider', () => {
    let provider: EmbeddingServer
    let t: TestApp
    beforeAll(async () => {
      provider = await startEmbeddingServer()
      t = await startTestApp({ env: { EMBEDDING_BASE_URL: provider.baseUrl, EMBEDDING_MODEL: 'concepts-v1', EMBEDDING_DIMENSIONS: String(DIMENSIONS), ...LIMITS } })
    })
    afterAll(async () => {
      await t.close()
      await provider.close()
    })

    it('is available when pgvector is there, and counts the texts still waiting for their embedding', async () => {
      const acme = await seedOrganization(t.app, 'Acme')
      const other = await seedOrganization(t.app, 'Other')
      // The background work is not started: what is pushed stays pending.
      await pushImage(t.app, acme.writeKey, { title: 'First' }, await uniquePng())
      await pushImage(t.app, acme.writeKey, { title: 'Second' }, await uniquePng())
      await pushImage(t.app, other.writeKey, { title: 'Elsewhere' }, await uniquePng())
      const { ai } = await aiStatus(t, acme)
      if (await t.app.services.embeddings.vectorAvailable()) expect(ai).toEqual({ available: true, unavailable_reason: null, embeddings_pending: 2 })
      else expect(ai).toEqual({ available: false, unavailable_reason: 'no_pgvector', embeddings_pending: 0 })
    })
  })
})
