import { Type } from 'typebox'
import { PaginationQuery } from '../../platform/http/pagination.js'
import { ref } from '../../platform/http/schemas.js'
import { AssetListSchema, FilterProperties } from '../assets/schemas.js'
import { CursorProperty } from '../assets/cursor.js'
import { SortProperty } from '../assets/sort.js'

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique in the organization, compared without case.' })
const Description = Type.String({ maxLength: 2000 })

export const QuerySchema = Type.Object(
  { ...FilterProperties, sort: Type.Optional(SortProperty) },
  {
    $id: 'AssetQuery',
    additionalProperties: false,
    description:
      'The filters of GET /api/v1/assets, and optionally the order (`sort`) the collection lists its assets in; the collection holds whatever matches, evaluated when read.',
    examples: [{ tag: 'summer', client: 'Initech' }],
  },
)

export const CollectionSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Type.String(),
    kind: Type.Union([Type.Literal('manual'), Type.Literal('smart')]),
    query: Type.Union([Type.Null(), ref(QuerySchema)], { description: 'Smart collections only.' }),
    asset_count: Type.Integer(),
    shared: Type.Boolean({ description: 'Has a public link.' }),
    shared_at: Type.Union([Type.Null(), Type.String({ format: 'date-time' })]),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Collection', additionalProperties: false },
)

export const COLLECTION_EXAMPLE = {
  id: '0193a5b2-6b00-7000-8000-000000000002',
  name: 'Summer for Initech',
  description: 'Everything tagged summer for Initech',
  kind: 'smart' as const,
  query: { tag: 'summer', client: 'Initech' },
  asset_count: 12,
  shared: false,
  shared_at: null,
  created_at: '2026-11-21T19:00:00.000Z',
  updated_at: '2026-11-21T19:00:00.000Z',
}

export const CollectionWithAssetsSchema = Type.Object(
  { ...CollectionSchema.properties, assets: AssetListSchema('A page of the collection\u2019s assets, in the order of `sort`, else of a smart collection\u2019s `query.sort`, else newest first.') },
  { additionalProperties: false },
)

export const CreateBody = Type.Union(
  [
    Type.Object(
      { name: Name, description: Type.Optional(Description), kind: Type.Optional(Type.Literal('manual')) },
      { additionalProperties: false, title: 'Manual collection', examples: [{ name: 'Q3 launch', description: 'Picked by hand' }] },
    ),
    Type.Object(
      { name: Name, description: Type.Optional(Description), kind: Type.Optional(Type.Literal('smart')), query: ref(QuerySchema) },
      { additionalProperties: false, title: 'Smart collection', examples: [{ name: 'Summer for Initech', query: { tag: 'summer', client: 'Initech' } }] },
    ),
  ],
  { description: 'A manual collection (assets added through the API), or a smart one (a `query`).' },
)

export const PatchBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    kind: Type.Optional(Type.Union([Type.Literal('manual'), Type.Literal('smart')], { description: 'Cannot change; sending another kind is 422.' })),
    query: Type.Optional(ref(QuerySchema)),
  },
  { additionalProperties: false, minProperties: 1 },
)

export const MembersBody = Type.Union(
  [
    Type.Object({ asset_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false, title: 'One asset' }),
    Type.Object(
      { asset_ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100, uniqueItems: true }) },
      { additionalProperties: false, title: 'Up to 100 assets' },
    ),
  ],
  { description: '`{asset_id}` or `{asset_ids: [...]}` (at most 100).' },
)

export const MembersResponse = Type.Object(
  { changed: Type.Integer({ description: 'Assets actually added or removed (repeats are no-ops).' }), asset_count: Type.Integer() },
  { additionalProperties: false },
)

export const ListQuery = Type.Object(
  {
    kind: Type.Optional(Type.Union([Type.Literal('manual'), Type.Literal('smart')])),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Name contains this, without case.' })),
    ...PaginationQuery,
  },
  { additionalProperties: false },
)

export const CollectionParams = Type.Object({ id: Type.String({ format: 'uuid' }) })
/** A collection's read: a page of its assets, in an order that overrides a smart collection's own. */
export const CollectionQuery = Type.Object({ sort: Type.Optional(SortProperty), ...PaginationQuery, cursor: Type.Optional(CursorProperty) }, { additionalProperties: false })

/** A page of the list's collections, whose covers the web app shows. */
export const CoversQuery = Type.Object(
  {
    ids: Type.Array(Type.String({ format: 'uuid' }), {
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      description: 'Collection ids, `ids=…&ids=…`: a page of GET /api/v1/collections (at most 100).',
    }),
  },
  { additionalProperties: false },
)

export const CoverSchema = Type.Object(
  {
    collection_id: Type.String({ format: 'uuid' }),
    asset_id: Type.String({ format: 'uuid', description: 'The first asset the collection lists (newest first).' }),
    thumbnail_url: Type.String({ description: 'Signed, valid about 24 hours, as an asset record\u2019s.' }),
    width: Type.Integer(),
    height: Type.Integer(),
  },
  { additionalProperties: false },
)
