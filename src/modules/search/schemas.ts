import { Type } from 'typebox'
import { ListSchema, MAX_LIMIT } from '../../platform/http/pagination.js'
import { ref } from '../../platform/http/schemas.js'
import { ASSET_EXAMPLE, AssetSchema, FilterProperties } from '../assets/schemas.js'
import { LookalikeAssetSchema } from '../duplicates/schemas.js'

export const DEFAULT_SEARCH_LIMIT = 20

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 1, description })

export const SearchBody = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: 500,
      pattern: '\\S',
      description:
        'What to look for. Matched as full text (English stemming and exact words, accents and case ignored; web-search syntax: "quoted phrase", -excluded, or; the last word also as a prefix) and, in hybrid mode, by meaning.',
    }),
    limit: Type.Optional(Type.Integer({ minimum: 1, default: DEFAULT_SEARCH_LIMIT, description: `How many hits; values above ${MAX_LIMIT} are capped to ${MAX_LIMIT}.` })),
    asset_type: FilterProperties.asset_type,
    client: FilterProperties.client,
    product: FilterProperties.product,
    tag: FilterProperties.tag,
    tag_prefix: FilterProperties.tag_prefix,
    color: FilterProperties.color,
    provenance: FilterProperties.provenance,
  },
  { additionalProperties: false },
)

export const SearchHitSchema = Type.Object(
  {
    ...AssetSchema.properties,
    score: Score('0.4 × text_score + 0.6 × semantic_score; hits are sorted by it.'),
    text_score: Score('Full-text rank (ts_rank_cd, normalised into [0, 1)); 0 when the text does not match.'),
    semantic_score: Score(
      'Cosine similarity of the query and the asset (its picture\u2019s embedding with an image model, else its text\u2019s), clamped to [0, 1]; 0 in text mode or when the asset has no embedding yet.',
    ),
  },
  { $id: 'SearchHit', additionalProperties: false },
)

export const SearchResponse = Type.Object(
  {
    mode: Type.Union([Type.Literal('hybrid'), Type.Literal('text')], {
      description:
        '`hybrid` when the query was embedded; `text` when the organization has AI off, no embedding provider or no pgvector is configured, or the provider failed or timed out for this call.',
    }),
    data: Type.Array(ref(SearchHitSchema), { description: 'Best first.' }),
  },
  { additionalProperties: false },
)

export const SimilarAssetSchema = Type.Object(
  { ...AssetSchema.properties, semantic_score: Score('Cosine similarity with the asset asked about, clamped to [0, 1].') },
  { $id: 'SimilarAsset', additionalProperties: false },
)

export const SimilarQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, default: DEFAULT_SEARCH_LIMIT, description: `Values above ${MAX_LIMIT} are capped to ${MAX_LIMIT}.` })),
    by: Type.Optional(
      Type.Union([Type.Literal('meaning'), Type.Literal('appearance')], {
        default: 'meaning',
        description:
          '`meaning`: by embedding (the pictures\u2019 with an image model), items with `semantic_score`. `appearance`: by perceptual hash, items with `distance`, no AI or provider needed.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const SimilarResponse = ListSchema(
  Type.Union([ref(SimilarAssetSchema), ref(LookalikeAssetSchema)]),
  'The nearest assets, nearest first (`SimilarAsset` items by meaning, `LookalikeAsset` by appearance); `total` is the number returned.',
)

export const SEARCH_EXAMPLE = {
  mode: 'hybrid' as const,
  data: [{ ...ASSET_EXAMPLE, score: 0.71, text_score: 0.5, semantic_score: 0.85 }],
}

export const SIMILAR_EXAMPLE = { data: [{ ...ASSET_EXAMPLE, semantic_score: 0.91 }], total: 1, limit: 20, offset: 0 }

export const OrganizationAiStatusSchema = Type.Object(
  {
    available: Type.Boolean({ description: 'Whether this server can embed at all: an embedding provider is configured and pgvector is installed.' }),
    unavailable_reason: Type.Union([Type.Null(), Type.Literal('no_provider'), Type.Literal('no_pgvector')], {
      description: 'Why not, when it cannot: no `EMBEDDING_BASE_URL` set, or no pgvector in the database.',
    }),
    embeddings_pending: Type.Integer({ minimum: 0, description: 'The organization\u2019s assets whose text waits for its embedding (0 when unavailable).' }),
  },
  { additionalProperties: false, description: 'What the server can do for the organization\u2019s AI setting.' },
)
