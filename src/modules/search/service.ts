import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../platform/db/index.js'
import { EmbeddingError } from '../../platform/embeddings/provider.js'
import { vectorParam } from '../../platform/embeddings/vector.js'
import { problems } from '../../platform/http/errors.js'
import { parseQuery, tsqueryOf, type Term } from '../assets/full-text.js'
import type { AssetService } from '../assets/service.js'
import type { AssetFilter } from '../assets/store.js'
import type { OrgService } from '../orgs/service.js'
import type { Embeddings } from './embeddings.js'
import * as store from './store.js'

export interface SearchInput extends Omit<AssetFilter, 'q'> {
  q: string
  limit: number
}

/** Fewer candidates of each kind than this would let a strong match of one kind crowd out the mix. */
const MIN_CANDIDATES = 40

export interface SearchServiceDeps {
  db: Db
  logger: FastifyBaseLogger
  assets: AssetService
  orgs: OrgService
  embeddings: Embeddings
  /** HNSW candidates examined per vector scan; raised to the candidate count when that is larger. */
  efSearch: number
}

/** Hybrid search (full text plus semantic similarity) and similar assets. */
export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  /**
   * Text mode, never an error, when the organization has AI off, no provider or no pgvector is there, or
   * the provider fails or runs out of time for this call. Otherwise one provider request: the query's.
   */
  async search(organizationId: string, input: SearchInput) {
    const { q, limit, ...filter } = input
    const terms = parseQuery(q)
    const tsquery = tsqueryOf(terms)
    const candidates = Math.max(MIN_CANDIDATES, 2 * limit)
    const vector = await this.queryVector(organizationId, semanticText(terms))
    const request = { organizationId, filter, tsquery, vector, candidates, limit }
    const settings = vector && (await this.deps.embeddings.scanSettings(candidates, this.deps.efSearch))
    const rows = settings
      ? await store.withVectorScan(this.deps.db, settings, (tx) => store.searchAssets(tx, request))
      : await store.searchAssets(this.deps.db, request)
    const record = await this.deps.assets.recorder(organizationId)
    return {
      mode: vector ? ('hybrid' as const) : ('text' as const),
      data: rows.map((row) => ({
        ...record(row),
        score: row.score,
        text_score: row.text_score,
        semantic_score: row.semantic_score,
      })),
    }
  }

  /** Nearest assets by stored vector; no provider call. Empty with AI off or before the asset has a vector. */
  async similar(organizationId: string, assetId: string, limit: number) {
    const asset = await store.assetAi(this.deps.db, organizationId, assetId)
    if (!asset) throw problems.notFound('Asset')
    const rows = asset.ai_enabled && (await this.deps.embeddings.vectorAvailable()) ? await this.nearest(organizationId, assetId, limit) : []
    const record = await this.deps.assets.recorder(organizationId)
    const data = rows.map((row) => ({ ...record(row), semantic_score: row.semantic_score }))
    return { data, total: data.length, limit, offset: 0 }
  }

  private async nearest(organizationId: string, assetId: string, limit: number) {
    const request = { organizationId, assetId, limit, index: await this.deps.embeddings.index() }
    const settings = await this.deps.embeddings.scanSettings(limit, this.deps.efSearch)
    return store.withVectorScan(this.deps.db, settings, (tx) => store.similarAssets(tx, request))
  }

  /** The embedding of `text` (the query's meaning), or undefined for text mode. */
  private async queryVector(organizationId: string, text: string): Promise<store.QueryVector | undefined> {
    const { embeddings } = this.deps
    const provider = embeddings.provider
    if (!text || !provider || !(await embeddings.enabled()) || !(await this.aiEnabled(organizationId))) return undefined
    try {
      const [values] = await provider.embed([text], { timeoutMs: embeddings.searchTimeoutMs })
      embeddings.recordSuccess()
      const dimensions = values!.length
      const index = await embeddings.index()
      return { value: vectorParam(values!), model: provider.model, dimensions, index: index?.dimensions === dimensions ? index.type : undefined }
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error
      embeddings.recordFailure(error, 'a search fell back to text mode')
      this.deps.logger.warn({ kind: error.kind }, 'search fell back to text mode: the embedding provider failed')
      return undefined
    }
  }

  private async aiEnabled(organizationId: string): Promise<boolean> {
    return (await this.deps.orgs.organizationById(organizationId)).ai_enabled
  }
}

/** What the query means, for the embedding model: its wanted words as typed, without operators or excluded words. */
export function semanticText(terms: Term[][]): string {
  return terms
    .flat()
    .filter((term) => !term.negated)
    .map((term) => term.text)
    .join(' ')
}
