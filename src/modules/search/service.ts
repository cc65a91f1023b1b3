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
import type { ImageEmbeddings } from './image-embeddings.js'
import type { PgVector } from './vector-index.js'
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
  /** CLIP's vectors of the pictures: when configured, the meaning search compares with. */
  images: ImageEmbeddings
  pgvector: PgVector
  /** HNSW candidates examined per vector scan; raised to the candidate count when that is larger. */
  efSearch: number
}

/** Hybrid search (full text plus semantic similarity) and similar assets. */
export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  /**
   * Text mode, never an error, when the organization has AI off, no provider or no pgvector is there, or
   * the provider fails or runs out of time for this call. Otherwise one provider request: the query's,
   * to the image provider when there is one (CLIP: the words against the pictures), else to the text one.
   */
  async search(organizationId: string, input: SearchInput) {
    const { q, limit, ...filter } = input
    const terms = parseQuery(q)
    const tsquery = tsqueryOf(terms)
    const candidates = Math.max(MIN_CANDIDATES, 2 * limit)
    const vector = await this.queryVector(organizationId, semanticText(terms))
    const request = { organizationId, filter, tsquery, vector, candidates, limit }
    const settings = vector && (await this.deps.pgvector.scanSettings(candidates, this.deps.efSearch))
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

  /**
   * Nearest assets by stored vector, no provider call: by the picture's (CLIP) when the asset has one of
   * the current image model, otherwise by its text's. Empty with AI off or before the asset has a vector.
   */
  async similar(organizationId: string, assetId: string, limit: number) {
    const asset = await store.assetAi(this.deps.db, organizationId, assetId)
    if (!asset) throw problems.notFound('Asset')
    const rows = asset.ai_enabled && (await this.deps.pgvector.installed()) ? await this.nearest(organizationId, assetId, limit) : []
    const record = await this.deps.assets.recorder(organizationId)
    const data = rows.map((row) => ({ ...record(row), semantic_score: row.semantic_score }))
    return { data, total: data.length, limit, offset: 0 }
  }

  private async nearest(organizationId: string, assetId: string, limit: number) {
    const { db, embeddings, images, pgvector } = this.deps
    const asset = { organizationId, assetId }
    const image = images.model === undefined ? undefined : await store.storedVectorOf(db, 'asset_image_embeddings', { ...asset, model: images.model })
    const stored = image ? { table: 'asset_image_embeddings' as const, ...image } : { table: 'asset_embeddings' as const, ...(await store.storedVectorOf(db, 'asset_embeddings', asset)) }
    if (stored.model === undefined || stored.dimensions === undefined) return []
    const index = image ? await pgvector.indexFor(stored.dimensions) : await embeddings.index()
    const request = { ...asset, limit, table: stored.table, model: stored.model, dimensions: stored.dimensions, index: index?.dimensions === stored.dimensions ? index.type : undefined }
    const settings = await pgvector.scanSettings(limit, this.deps.efSearch)
    return store.withVectorScan(db, settings, (tx) => store.similarAssets(tx, request))
  }

  /**
   * The embedding of `text` (the query's meaning), or undefined for text mode. Each provider records its
   * own failures; here a failure only means text mode for this search.
   */
  private async queryVector(organizationId: string, text: string): Promise<store.QueryVector | undefined> {
    if (!text || !(await this.aiEnabled(organizationId))) return undefined
    const source = await this.meaningSource()
    if (!source) return undefined
    try {
      const values = await source.embed(text)
      const dimensions = values.length
      const index = await source.index(dimensions)
      return { table: source.table, value: vectorParam(values), model: source.model, dimensions, index: index?.dimensions === dimensions ? index.type : undefined }
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error
      this.deps.logger.warn({ kind: error.kind }, 'search fell back to text mode: the embedding provider failed')
      return undefined
    }
  }

  /** Where a query's meaning comes from: the image provider when there is one (CLIP: the words against the pictures), else the text one. */
  private async meaningSource() {
    const { embeddings, images, pgvector } = this.deps
    if (await images.enabled()) {
      return { table: 'asset_image_embeddings' as const, model: images.model!, embed: (text: string) => images.embedQuery(text), index: (dimensions: number) => pgvector.indexFor(dimensions) }
    }
    if (await embeddings.enabled()) {
      return { table: 'asset_embeddings' as const, model: embeddings.provider!.model, embed: (text: string) => embeddings.embedQuery(text), index: () => embeddings.index() }
    }
    return undefined
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
