import type { App } from '../../platform/http/app-type.js'
import { MAX_LIMIT } from '../../platform/http/pagination.js'
import { okResponse, problemResponses } from '../../platform/http/schemas.js'
import { AssetParams } from '../assets/schemas.js'
import { DEFAULT_SEARCH_LIMIT, SEARCH_EXAMPLE, SearchBody, SearchResponse, SIMILAR_EXAMPLE, SimilarQuery, SimilarResponse } from './schemas.js'
import type { DuplicatesService } from '../duplicates/service.js'
import type { SearchService } from './service.js'

const limitOf = (limit: number | undefined) => Math.min(limit ?? DEFAULT_SEARCH_LIMIT, MAX_LIMIT)

/** POST /api/v1/search and GET /api/v1/assets/{id}/similar. */
export function publicSearchRoutes(app: App, deps: { search: SearchService; duplicates: DuplicatesService }): void {
  const { search, duplicates } = deps

  app.post(
    '/api/v1/search',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'expensive' } },
      schema: {
        operationId: 'searchAssets',
        tags: ['search'],
        summary: 'Hybrid search: full text plus meaning',
        description:
          'Candidates come from full text and from embedding similarity (the top of each, under the same filters as `GET /api/v1/assets`), ranked by `score = 0.4 × text_score + 0.6 × semantic_score`. The meaning compared is what the picture shows when the server has an image model (CLIP: the query\u2019s words against each image\u2019s embedding, so untitled pictures are found by their content), otherwise the meaning of each asset\u2019s title, tags, type, client and product. Each call makes exactly one request to one embedding provider, the image one when configured (which is why it shares the `expensive` bucket with pushes); `mode` says whether it was used. With AI off for the organization, no provider or pgvector configured, or the provider failing or slow, the answer is full-text ranking in `text` mode, never an error. An `assets:read` key may call it.',
        body: SearchBody,
        response: {
          200: okResponse('Hits, best first.', SearchResponse, SEARCH_EXAMPLE),
        },
      },
    },
    async (request) => {
      const { limit, ...rest } = request.body
      return search.search(request.caller!.organizationId, { ...rest, limit: limitOf(limit) })
    },
  )

  app.get(
    '/api/v1/assets/:id/similar',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'similarAssets',
        tags: ['search'],
        summary: 'Assets nearest to one asset by meaning or by appearance',
        description: [
          '`by=meaning` (the default): the organization\u2019s assets nearest to this one by embedding, excluding itself, nearest first, each with its `semantic_score`: picture to picture (CLIP) when the server has an image model and this asset\u2019s picture is embedded, otherwise by the embedding of its text. Uses the stored vectors: no provider call. Empty when AI is off for the organization or the asset has no embedding yet.',
          '',
          '`by=appearance`: the organization\u2019s live assets whose perceptual hash is within 7 bits (of 64) of this one\u2019s, excluding itself, closest first (then by id), each with its `distance`: every such asset, found through the hashes\u2019 bands, not only the near-duplicates within `NEAR_DUPLICATE_DISTANCE`. Needs no AI and no provider. Empty while this asset\u2019s hash is being made (after the push answers; see `near_duplicates`) and for an image that cannot be decoded or is too plain to compare (one flat colour).',
        ].join('\n'),
        params: AssetParams,
        querystring: SimilarQuery,
        response: {
          200: okResponse('The nearest assets.', SimilarResponse, SIMILAR_EXAMPLE),
          ...problemResponses({ not_found: 'no asset with this id in your organization' }),
        },
      },
    },
    async (request) => {
      const { id } = request.params
      const limit = limitOf(request.query.limit)
      const organizationId = request.caller!.organizationId
      return request.query.by === 'appearance' ? duplicates.lookalikes(organizationId, id, limit) : search.similar(organizationId, id, limit)
    },
  )
}
