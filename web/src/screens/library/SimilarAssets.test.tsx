import { describe, expect, it } from 'vitest'
import { whyNone } from './SimilarAssets'

const ai = (available: boolean, embeddings_pending = 0) => ({ available, unavailable_reason: available ? null : ('no_provider' as const), embeddings_pending })

describe('why an asset shows no similar assets', () => {
  it('names the server first, then the organization’s switch, then the embeddings still coming', () => {
    expect(whyNone({ ai: ai(false), ai_enabled: true })).toMatch(/none is configured on this server/)
    expect(whyNone({ ai: { ...ai(false), unavailable_reason: 'no_pgvector' }, ai_enabled: true })).toMatch(/pgvector/)
    expect(whyNone({ ai: ai(true), ai_enabled: false })).toMatch(/AI is off for this organization/)
    expect(whyNone({ ai: ai(true, 1), ai_enabled: true })).toMatch(/no embedding yet: 1 asset in the organization is waiting/)
    expect(whyNone({ ai: ai(true, 3), ai_enabled: true })).toMatch(/3 assets in the organization are waiting/)
    expect(whyNone({ ai: ai(true, 0), ai_enabled: true })).toBe('No other asset has an embedding yet.')
  })
})
