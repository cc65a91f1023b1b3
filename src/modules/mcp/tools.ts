import type { ContentBlock, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { Type, type TObject, type TProperties } from 'typebox'
import type { Scope } from '../../platform/db/schema.js'
import { NextCursorProperty } from '../assets/cursor.js'
import { AssetSchema, BulkEditBody, BulkEditResponse, FilterProperties, ListQuery as AssetListQuery, PatchBody, PushBody, PushResponse } from '../assets/schemas.js'
import { EntrySchema, ListQuery as CatalogueListQuery, TagSchema } from '../catalog/routes.js'
import { CollectionQuery, CollectionSchema, ListQuery as CollectionListQuery } from '../collections/schemas.js'
import { DuplicatesQuery } from '../duplicates/schemas.js'
import { CreateImportBody, ImportSchema, type ImportRecord } from '../imports/schemas.js'
import { RenderQuery, RenditionLinkSchema } from '../renditions/schemas.js'
import { SearchBody, SimilarQuery } from '../search/schemas.js'
import { TrashedAssetSchema, TrashQuery } from '../trash/schemas.js'
import type { V1Calls, V1Request } from './v1-calls.js'

export type Arguments = Record<string, unknown>

/** What a tool answers on success: its structured content, and any content beside its JSON rendering. */
export interface ToolAnswer {
  structured: Record<string, unknown>
  media?: ContentBlock[]
}

/**
 * One MCP tool: the v1 endpoint it stands for, how its arguments make that request, and how the answer
 * is shaped for a model. The arguments are checked against `inputSchema` as JSON, then by the endpoint
 * (its own schema and rules), so both its 400s and the schema's errors are the tool's argument errors.
 */
export interface ToolDefinition {
  name: string
  title: string
  description: string
  /** The scope of the endpoint: a key lists only the tools its scope may call. */
  scope: Scope
  annotations: ToolAnnotations
  inputSchema: TObject
  outputSchema: TObject
  /** The v1 endpoint it calls: the other arguments are its query (GET) or its JSON body. */
  endpoint: `${V1Request['method']} /api/v1/${string}`
  /** The argument that fills the endpoint's `{id}`, if it has one: the endpoint's `/params/…` problems are about it. */
  pathArgument?: string
  /** Query parameters the tool always sends (render_asset asks for the link as JSON, never a redirect). */
  fixedQuery?: Record<string, string>
  /** Body fields the tool always sends (import_from_figma's `source`). */
  fixedBody?: Record<string, unknown>
  /** Arguments the tool reads itself, not sent to the endpoint (import_from_figma's `wait`). */
  localArguments?: readonly string[]
  /** What a model should read instead of the endpoint's `detail` for a problem code (the endpoint speaks of fields the tool does not take). */
  problemDetails?: Record<string, string>
  answer(body: unknown, v1: V1Calls, args: Arguments): ToolAnswer | Promise<ToolAnswer>
}

/** The request a call of `tool` with `args` makes. */
export function v1Request(tool: ToolDefinition, args: Arguments): V1Request {
  const [method, template] = tool.endpoint.split(' ') as [V1Request['method'], string]
  const { pathArgument, localArguments = [] } = tool
  const rest = Object.fromEntries(Object.entries(args).filter(([name]) => name !== pathArgument && !localArguments.includes(name)))
  const path = pathArgument ? template.replace(/\{\w+\}/, encodeURIComponent(String(args[pathArgument]))) : template
  if (method === 'GET') return { method, path, query: { ...rest, ...tool.fixedQuery } }
  // A tool whose only argument is the path's (restore_asset) calls an endpoint that takes no body.
  const bodiless = Object.keys(tool.inputSchema.properties).every((name) => name === pathArgument)
  return bodiless ? { method, path } : { method, path, body: { ...tool.fixedBody, ...rest } }
}

type Asset = Record<string, unknown> & { id: string; title: string; thumbnail_url: string; original_url: string; mime_type: string }
/** A group of GET /api/v1/duplicates: an asset and its near-duplicates, closest first. */
interface DuplicateGroup {
  asset: Asset
  duplicates: Array<{ distance: number; asset: Asset }>
}
interface Page<T> {
  data: T[]
  total: number
  limit: number
  offset: number
}

/** A page of assets as the REST lists answer it. */
type AssetPage = Page<Asset> & { total_exact: boolean; next_cursor: string | null }

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false }

const Id = (what: string) => Type.String({ format: 'uuid', description: `The ${what}'s id (a UUID).` })
const NextOffset = Type.Union([Type.Integer(), Type.Null()], { description: 'Pass as `offset` for the next page; null on the last page.' })

/** The fields of an asset a model needs to pick one; get_asset gives the rest. */
const SUMMARY_FIELDS = ['id', 'title', 'asset_type', 'client', 'product', 'tags', 'width', 'height', 'created_at', 'thumbnail_url'] as const
const summaryProperties = Object.fromEntries(SUMMARY_FIELDS.map((field) => [field, AssetSchema.properties[field]])) as Pick<
  typeof AssetSchema.properties,
  (typeof SUMMARY_FIELDS)[number]
>
const AssetSummary = (extra: TProperties = {}) => Type.Object({ ...summaryProperties, ...extra }, { additionalProperties: false })
const summaryOf = (asset: Record<string, unknown>, ...extra: string[]) =>
  Object.fromEntries([...SUMMARY_FIELDS, ...extra].map((field) => [field, asset[field]]))

const PageOf = (item: TObject, description: string) =>
  Type.Object(
    { data: Type.Array(item, { description }), total: Type.Integer({ description: 'Items matching, across all pages.' }), next_offset: NextOffset },
    { additionalProperties: false },
  )

/** A page of assets (list_assets, a collection's): as in the REST lists, its total is the planner's estimate for a `q` of very many matches. */
const AssetPageOf = (description: string) =>
  Type.Object(
    {
      ...PageOf(AssetSummary(), description).properties,
      next_offset: Type.Union([Type.Integer(), Type.Null()], { description: 'When this page was asked for by `offset`: pass as `offset` for the next page; null on the last page.' }),
      total_exact: Type.Boolean({ description: 'False when `total` is an estimate: a `q` matching more than 1,000 assets (say "more than 1,000"). Every other total is exact.' }),
      next_cursor: NextCursorProperty,
    },
    { additionalProperties: false },
  )

/** The next page by offset follows the cursor, not the total: an estimated total can be below the matches. */
function assetPageAnswer(page: AssetPage): Record<string, unknown> {
  const nextOffset = page.next_cursor === null ? null : page.offset + page.data.length
  return { ...pageAnswer(page, (asset) => summaryOf(asset)).structured, next_offset: nextOffset, total_exact: page.total_exact, next_cursor: page.next_cursor }
}

function pageAnswer<T>(page: Page<T>, item: (entry: T) => unknown = (entry) => entry): ToolAnswer {
  const next = page.offset + page.data.length
  return { structured: { data: page.data.map(item), total: page.total, next_offset: next < page.total ? next : null } }
}

const FullAsset = Type.Object(AssetSchema.properties, { additionalProperties: false })
/** What list_trash adds to an asset's summary: when, by whom, and until when it can be restored. */
const TRASH_FIELDS = {
  deleted_at: TrashedAssetSchema.properties.deleted_at,
  purge_at: TrashedAssetSchema.properties.purge_at,
  deleted_by: TrashedAssetSchema.properties.deleted_by,
}
const AssetQuery = Type.Object(
  { ...FilterProperties, sort: AssetListQuery.properties.sort },
  { additionalProperties: false, description: 'The filters of list_assets, and optionally its `sort`: the order the collection lists its assets in.' },
)
const Collection = Type.Object({ ...CollectionSchema.properties, query: Type.Union([Type.Null(), AssetQuery], { description: 'Smart collections only.' }) }, { additionalProperties: false })

const asJson = (body: unknown): ToolAnswer => ({ structured: body as Record<string, unknown> })

/** list_tags, list_asset_types, list_clients and list_products: one catalogue list each. */
function catalogueTool(name: string, path: `/api/v1/${string}`, title: string, description: string, entry: TObject): ToolDefinition {
  return {
    name,
    title,
    description,
    scope: 'assets:read',
    annotations: { title, ...READ },
    inputSchema: CatalogueListQuery,
    outputSchema: PageOf(entry, 'Names, most used first.'),
    endpoint: `GET ${path}`,
    answer: (body) => pageAnswer(body as Page<unknown>),
  }
}

/** The longest side of the image get_asset shows a model: enough to read a layout and its text, far less than most originals. */
const MODEL_IMAGE_SIDE = 1024

/**
 * The image to look at, longest side 1024 px (a rendition, made on the first look; smaller originals as
 * they are), or the 512 px thumbnail when that cannot be had now (too busy); and a link to the original,
 * never its bytes.
 */
async function assetMedia(asset: Asset, v1: V1Calls): Promise<ContentBlock[]> {
  const side = String(MODEL_IMAGE_SIDE)
  const rendition = await v1.call({ method: 'GET', path: `/api/v1/assets/${encodeURIComponent(asset.id)}/render`, query: { width: side, height: side, fit: 'inside', format: 'webp', redirect: 'false' } })
  const picture = (rendition.ok && (await v1.file((rendition.body as { url: string }).url))) || (await v1.file(asset.thumbnail_url))
  const link: ContentBlock = {
    type: 'resource_link',
    uri: asset.original_url,
    name: asset.title || asset.id,
    mimeType: asset.mime_type,
    description: 'The original image (a signed link, valid about 24 hours).',
  }
  if (!picture) return [{ type: 'text', text: 'The image is not available yet; original_url links to the original.' }, link]
  return [{ type: 'image', data: picture.bytes.toString('base64'), mimeType: picture.mimeType }, link]
}

/** How long import_from_figma's `wait` follows an import: under the time an MCP client gives a call. */
const IMPORT_WAIT_MS = 25_000
/** Its looks at the import: soon at first (a small file is done in a second or two), then every 2 s. */
const IMPORT_LOOKS_MS = [250, 500, 1000, 2000]

const ended = (record: ImportRecord) => record.status === 'done' || record.status === 'failed'

/** One sentence on where the import stands and what to do next, beside its record. */
function importSummary(record: ImportRecord, waited: boolean): string {
  const counts = `${record.total} nodes: ${record.created} created, ${record.updated} updated, ${record.unchanged} unchanged, ${record.failed} failed, ${record.missing} missing`
  if (record.status === 'failed') return `The import failed: ${record.error?.code ?? 'unknown'}${record.error ? ` (${record.error.detail})` : ''}. ${counts}.`
  if (record.status === 'done') return `The import is done: ${counts}.${record.failed > 0 ? ' `failures` says why each failed node failed.' : ''}`
  const still = waited ? `Still ${record.status} after ${IMPORT_WAIT_MS / 1000} s` : `The import is ${record.status}`
  return `${still} (${counts} so far): call get_import with id ${record.id} to follow it.`
}

const importAnswer = (record: ImportRecord, waited: boolean): ToolAnswer => ({ structured: { ...record, summary: importSummary(record, waited) } })

/** The import's record now, or (with `wait`) once it ends or IMPORT_WAIT_MS have passed. */
async function importAfter(id: string, v1: V1Calls, wait: boolean): Promise<ToolAnswer> {
  const look = async () => {
    const answer = await v1.call({ method: 'GET', path: `/api/v1/imports/${encodeURIComponent(id)}` })
    if (!answer.ok) throw new Error(`GET /api/v1/imports/${id} answered ${answer.problem.status} ${answer.problem.code}`)
    return answer.body as ImportRecord
  }
  const deadline = Date.now() + IMPORT_WAIT_MS
  let record = await look()
  for (let attempt = 0; wait && !ended(record) && Date.now() < deadline; attempt++) {
    const pause = Math.min(IMPORT_LOOKS_MS[Math.min(attempt, IMPORT_LOOKS_MS.length - 1)]!, deadline - Date.now())
    await new Promise((resolve) => setTimeout(resolve, pause))
    record = await look()
  }
  return importAnswer(record, wait)
}

const ImportOutput = Type.Object(
  { ...ImportSchema.properties, summary: Type.String({ description: 'Where the import stands, and what to do next, in one sentence.' }) },
  { additionalProperties: false },
)

/** import_from_figma's arguments: the import's own, without `source` (always Figma) and without a token (see its description). */
const { file_url, select, node_ids, format, scale, asset_type, client, product, tag_names, collection_name } = CreateImportBody.properties

/** render_asset's arguments: the render endpoint's, the redirect left out (the tool answers the link). */
const renderProperties = Type.Omit(RenderQuery, ['redirect']).properties

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'search_assets',
    title: 'Search assets',
    description:
      'Find design assets (images) by what they show or are about: full text over title, tags, asset type, client and product, combined with similarity of meaning when the organization has AI on: with an image model on the server, the meaning is what each picture shows, so \u201cred car on a beach\u201d finds untitled photos of one; otherwise the meaning of the asset\u2019s texts. Best first, each with its `score`. Narrow with `asset_type`, `client`, `product`, `tag` (exact), `tag_prefix` (a tag starting with it), `color` (a colour name of list_colors\u2019s kind: red, blue, \u2026; what the picture shows) or `provenance` (`ai`, `ai_composite`, `capture`, `edited`, `unknown`: what the file declares). To browse or filter without a query use list_assets; to look at one asset use get_asset.',
    scope: 'assets:read',
    annotations: { title: 'Search assets', ...READ },
    inputSchema: SearchBody,
    outputSchema: Type.Object(
      {
        mode: Type.Union([Type.Literal('hybrid'), Type.Literal('text')], { description: '`hybrid` when meaning was used, `text` for full text only.' }),
        data: Type.Array(AssetSummary({ score: Type.Number({ description: 'Relevance in [0, 1].' }) }), { description: 'Best first.' }),
      },
      { additionalProperties: false },
    ),
    endpoint: 'POST /api/v1/search',
    answer: (body) => {
      const { mode, data } = body as { mode: string; data: Asset[] }
      return { structured: { mode, data: data.map((hit) => summaryOf(hit, 'score')) } }
    },
  },
  {
    name: 'list_assets',
    title: 'List assets',
    description:
      'List the organization\u2019s assets, newest first unless `sort` says otherwise (`created_at`, `title`, `byte_size` or `updated_at`; `-title` for descending), optionally filtered by `asset_type`, `client`, `product` or `tag` (exact, case-insensitive), `tag_prefix` (a tag starting with it), `q` (full text), `color` (a colour name: red, orange, yellow, green, teal, blue, purple, pink, brown, black, gray, white) and `provenance` (`ai`, `ai_composite`, `capture`, `edited`, `unknown`). Compact records; `next_cursor` is the `cursor` of the next page (the same cost at any depth; with the same filters and sort), or `next_offset` its `offset`. The names the filters take come from list_asset_types, list_clients, list_products and list_tags.',
    scope: 'assets:read',
    annotations: { title: 'List assets', ...READ },
    inputSchema: AssetListQuery,
    outputSchema: AssetPageOf('Assets, in the order of `sort` (newest first by default).'),
    endpoint: 'GET /api/v1/assets',
    answer: (body) => ({ structured: assetPageAnswer(body as AssetPage) }),
  },
  {
    name: 'get_asset',
    title: 'Get an asset',
    description:
      'One asset by id: its full record (metadata, tags, dimensions, size, collections) and the image to look at (WebP, longest side 1024 px, or the original\u2019s size when smaller). `original_url` links to the original image (a signed link, valid about 24 hours); the original is never sent inline. For a file at another size or format, use render_asset.',
    scope: 'assets:read',
    annotations: { title: 'Get an asset', ...READ },
    inputSchema: Type.Object({ id: Id('asset') }, { additionalProperties: false }),
    outputSchema: FullAsset,
    endpoint: 'GET /api/v1/assets/{id}',
    pathArgument: 'id',
    answer: async (body, v1) => ({ structured: body as Asset, media: await assetMedia(body as Asset, v1) }),
  },
  {
    name: 'render_asset',
    title: 'Get a link to an asset at a size and format',
    description:
      'A signed link (valid about 24 hours) to one asset\u2019s image at a size and in a format, for a web page, a slide or a download: `width` and/or `height` in pixels (one alone keeps the aspect ratio; clamped to 1..4096), `fit` (`contain` pads to the box, `cover` crops to it, `inside` never enlarges), `format` (`png`, `jpeg`, `webp`, `avif`, or `auto`) and `quality` (20..100); or a `preset` instead: `thumbnail`, `original`, or one of the organization\u2019s. Answers the link with the file\u2019s actual width, height and format; the file is made when the link is first fetched.',
    scope: 'assets:read',
    annotations: { title: 'Get a link to an asset at a size and format', ...READ },
    inputSchema: Type.Object({ id: Id('asset'), ...renderProperties }, { additionalProperties: false }),
    outputSchema: RenditionLinkSchema,
    endpoint: 'GET /api/v1/assets/{id}/render',
    pathArgument: 'id',
    fixedQuery: { redirect: 'false' },
    answer: asJson,
  },
  {
    name: 'similar_assets',
    title: 'Find similar assets',
    description:
      'The assets nearest to one asset, nearest first. `by: "meaning"` (the default): nearest in meaning, each with its `semantic_score`: with an image model on the server, the assets whose pictures show the most alike (by their texts\u2019 meaning while this asset\u2019s picture has no embedding yet); without one, the assets whose texts mean the most alike. Empty when AI is off for the organization or the asset has no embedding yet. `by: "appearance"`: the same picture or nearly (re-encoded, resized), each with its `distance` (bits of the 64-bit perceptual hash that differ: 0 is the same picture, up to 7 listed); needs no AI.',
    scope: 'assets:read',
    annotations: { title: 'Find similar assets', ...READ },
    inputSchema: Type.Object({ id: Id('asset'), ...SimilarQuery.properties }, { additionalProperties: false }),
    outputSchema: Type.Object(
      {
        data: Type.Array(
          AssetSummary({
            semantic_score: Type.Optional(Type.Number({ description: 'By meaning: similarity in [0, 1].' })),
            distance: Type.Optional(Type.Integer({ description: 'By appearance: bits of the perceptual hash that differ.' })),
          }),
          { description: 'Nearest first.' },
        ),
      },
      { additionalProperties: false },
    ),
    endpoint: 'GET /api/v1/assets/{id}/similar',
    pathArgument: 'id',
    answer: (body, _v1, args) => {
      const measure = args.by === 'appearance' ? 'distance' : 'semantic_score'
      return { structured: { data: (body as Page<Asset>).data.map((asset) => summaryOf(asset, measure)) } }
    },
  },
  {
    name: 'find_duplicates',
    title: 'Find duplicate assets',
    description:
      'Groups of assets that are the same picture or nearly (re-encoded, resized, recompressed; found by perceptual hash, no AI needed): each group is one asset and its near-duplicates pushed after it, closest first, with their `distance` (bits that differ; 0 is the same picture). Newest group first; `next_offset` pages on. For one asset\u2019s near-duplicates use similar_assets with `by: "appearance"`. Nothing is changed: a person decides which to keep.',
    scope: 'assets:read',
    annotations: { title: 'Find duplicate assets', ...READ },
    inputSchema: DuplicatesQuery,
    outputSchema: PageOf(
      Type.Object(
        {
          asset: AssetSummary(),
          duplicates: Type.Array(Type.Object({ distance: Type.Integer(), asset: AssetSummary() }, { additionalProperties: false }), { description: 'Closest first.' }),
        },
        { additionalProperties: false },
      ),
      'Groups, the newest first.',
    ),
    endpoint: 'GET /api/v1/duplicates',
    answer: (body) =>
      pageAnswer(body as Page<DuplicateGroup>, (group) => ({
        asset: summaryOf(group.asset),
        duplicates: group.duplicates.map((duplicate) => ({ distance: duplicate.distance, asset: summaryOf(duplicate.asset) })),
      })),
  },
  {
    name: 'list_collections',
    title: 'List collections',
    description:
      'List collections, newest first: manual ones (assets added by hand, with add_to_collection) and smart ones (a saved list_assets query, always holding whatever matches). Filter by `kind` or by a part of the name (`q`).',
    scope: 'assets:read',
    annotations: { title: 'List collections', ...READ },
    inputSchema: CollectionListQuery,
    outputSchema: PageOf(Collection, 'Collections, newest first.'),
    endpoint: 'GET /api/v1/collections',
    answer: (body) => pageAnswer(body as Page<unknown>),
  },
  {
    name: 'get_collection',
    title: 'Get a collection',
    description:
      'One collection by id, with a page of its assets (compact records; `next_cursor` or `next_offset` pages on), newest first unless `sort` or a smart collection\u2019s `query.sort` says otherwise (`sort` as list_assets takes it).',
    scope: 'assets:read',
    annotations: { title: 'Get a collection', ...READ },
    inputSchema: Type.Object({ id: Id('collection'), ...CollectionQuery.properties }, { additionalProperties: false }),
    outputSchema: Type.Object({ ...Collection.properties, assets: AssetPageOf('The collection\u2019s assets, in its order.') }, { additionalProperties: false }),
    endpoint: 'GET /api/v1/collections/{id}',
    pathArgument: 'id',
    answer: (body) => {
      const { assets, ...collection } = body as { assets: AssetPage }
      return { structured: { ...collection, assets: assetPageAnswer(assets) } }
    },
  },
  catalogueTool(
    'list_tags',
    '/api/v1/tags',
    'List tags',
    'The organization\u2019s tags with how many assets carry each, most used first; `q` keeps the names starting with it. The names are what the `tag` filter of list_assets and search_assets takes.',
    TagSchema,
  ),
  catalogueTool(
    'list_asset_types',
    '/api/v1/asset-types',
    'List asset types',
    'The asset-type catalogue: the values `asset_type` may take on push_asset and update_asset, and as a filter, with how many assets use each.',
    EntrySchema,
  ),
  catalogueTool(
    'list_clients',
    '/api/v1/clients',
    'List clients',
    'Client names registered in the organization or used by assets, most used first: what the `client` field and filter take.',
    EntrySchema,
  ),
  catalogueTool(
    'list_products',
    '/api/v1/products',
    'List products',
    'Product names registered in the organization or used by assets, most used first: what the `product` field and filter take.',
    EntrySchema,
  ),
  {
    name: 'list_trash',
    title: 'List the trash',
    description:
      'Deleted assets, last deleted first: each stays restorable with restore_asset until its `purge_at`, when it is removed for good. Compact records with `deleted_at`, `purge_at` and `deleted_by` (an API key or a user, by name); `next_offset` is the `offset` of the next page.',
    scope: 'assets:read',
    annotations: { title: 'List the trash', ...READ },
    inputSchema: TrashQuery,
    outputSchema: PageOf(AssetSummary(TRASH_FIELDS), 'Trashed assets, last deleted first.'),
    endpoint: 'GET /api/v1/trash',
    answer: (body) => pageAnswer(body as Page<Asset>, (asset) => summaryOf(asset, ...Object.keys(TRASH_FIELDS))),
  },
  {
    name: 'push_asset',
    title: 'Add an image',
    description:
      'Add an image to the library, from a public `image_url` (the service fetches it) or from `image_base64` (the bytes in base64, at most 25 MiB decoded): exactly one of the two. Optional metadata: `title`, `asset_type` (one of list_asset_types), `client`, `product`, `tag_names`, `collection_name` (an existing manual collection to add it to), `source_url`, `external_id` (its id where it comes from, such as `figma:KEY:1-23`) and `created_by_ai` (true unless you say false for human-made work). The same bytes pushed again change nothing and answer `duplicate: true` with the existing `asset_id`; new bytes with the `external_id` of an asset already here make a new version of that asset (the answer\u2019s `version`).',
    scope: 'assets:write',
    // `image_url` reaches out to the web.
    annotations: { title: 'Add an image', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    inputSchema: PushBody,
    outputSchema: PushResponse,
    endpoint: 'POST /api/v1/assets',
    answer: asJson,
  },
  {
    name: 'update_asset',
    title: 'Update an asset',
    description:
      'Change an asset\u2019s metadata; only the fields given change, and null clears `asset_type`, `client`, `product` or `source_url`. `tag_names` replaces all the tags ([] removes them): read the current ones with get_asset first to add or remove one.',
    scope: 'assets:write',
    // Overwrites fields, all its tags included; the same call twice leaves the same asset.
    annotations: { title: 'Update an asset', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: Type.Object({ id: Id('asset'), ...PatchBody.properties }, { additionalProperties: false }),
    outputSchema: FullAsset,
    endpoint: 'PATCH /api/v1/assets/{id}',
    pathArgument: 'id',
    answer: asJson,
  },
  {
    name: 'update_assets',
    title: 'Update many assets',
    description:
      'Change up to 500 assets at once (their `ids`, from list_assets or search_assets): `set` gives every one the same `asset_type` (one of list_asset_types), `client`, `product` or `created_by_ai` (null clears a name); `add_tags` and `remove_tags` add or remove tags, leaving the others (matched without case). Give at least one change. Answers each id: `updated`, `unchanged` (it had those values already), `not_found` (not in this library, or in the trash) or `forbidden`, with a `reason` for the last two.',
    scope: 'assets:write',
    // Overwrites fields of many assets; the same call twice leaves them the same.
    annotations: { title: 'Update many assets', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: BulkEditBody,
    outputSchema: BulkEditResponse,
    endpoint: 'POST /api/v1/assets/bulk',
    answer: asJson,
  },
  {
    name: 'restore_asset',
    title: 'Restore an asset from the trash',
    description:
      'Put a deleted asset back, as it was: its id, metadata, tags, manual collections and version history. Its id comes from list_trash. Answers the asset\u2019s full record; an asset no longer in the trash (restored already, or purged) is not found.',
    scope: 'assets:write',
    // Undoes a delete; a second call finds nothing to restore.
    annotations: { title: 'Restore an asset from the trash', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: Type.Object({ id: Id('trashed asset') }, { additionalProperties: false }),
    outputSchema: FullAsset,
    endpoint: 'POST /api/v1/trash/{id}/restore',
    pathArgument: 'id',
    answer: asJson,
  },
  {
    name: 'create_collection',
    title: 'Create a collection',
    description:
      'Create a collection: a manual one (`name`, optionally `description`), which assets are added to with add_to_collection, or a smart one (`kind: "smart"` and a `query` of list_assets filters), which always holds whatever matches. Names are unique in the organization, compared without case.',
    scope: 'assets:write',
    annotations: { title: 'Create a collection', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: Type.Object(
      {
        name: CollectionSchema.properties.name,
        description: Type.Optional(Type.String({ maxLength: 2000 })),
        kind: Type.Optional(Type.Union([Type.Literal('manual'), Type.Literal('smart')], { description: 'manual unless a query is given.' })),
        query: Type.Optional(AssetQuery),
      },
      { additionalProperties: false },
    ),
    outputSchema: Collection,
    endpoint: 'POST /api/v1/collections',
    answer: asJson,
  },
  {
    name: 'add_to_collection',
    title: 'Add assets to a collection',
    description:
      'Add one asset (`asset_id`) or up to 100 (`asset_ids`) to a manual collection; assets already in it stay as they are. A smart collection cannot be added to: its query decides what it holds.',
    scope: 'assets:write',
    annotations: { title: 'Add assets to a collection', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    inputSchema: Type.Object(
      {
        collection_id: Id('collection'),
        asset_id: Type.Optional(Id('asset')),
        asset_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100, uniqueItems: true, description: 'Up to 100 asset ids.' })),
      },
      { additionalProperties: false },
    ),
    outputSchema: Type.Object(
      {
        changed: Type.Integer({ description: 'Assets actually added (those already there are not counted).' }),
        asset_count: Type.Integer({ description: 'Assets in the collection now.' }),
      },
      { additionalProperties: false },
    ),
    endpoint: 'POST /api/v1/collections/{id}/assets',
    pathArgument: 'collection_id',
    answer: asJson,
  },
  {
    name: 'import_from_figma',
    title: 'Import from Figma',
    description:
      'Import a Figma file\u2019s top-level frames (`select: "frames"`, the default), its components and variants (`components`), or some nodes (`nodes` with `node_ids`, as Figma writes them: `1:2`) as assets: each gets the node\u2019s name as title, its page as a tag, a link back to Figma, and the `external_id` `figma:FILEKEY:NODEID`. A `node-id` in `file_url` narrows the import to that node\u2019s subtree. `format` is `png` (default), `svg` or `jpg`; `scale` 1 to 4. The metadata arguments (`asset_type`, `client`, `product`, `tag_names`, `collection_name`) go on every asset. Importing a file again is a sync: changed nodes become new versions, removed ones are reported as missing, never deleted. It uses the organization\u2019s stored Figma token (an owner or admin connects Figma in Settings \u2192 Integrations); it never takes a token as an argument, because tool arguments are kept in chat transcripts, where a token would leak. The import runs on the server: it answers the import at once, or with `wait: true` once it ends (at most about 25 s; a longer one is answered still running: follow it with get_import).',
    scope: 'assets:write',
    // Reaches Figma; a second call imports again (a sync), making new versions of what changed.
    annotations: { title: 'Import from Figma', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    inputSchema: Type.Object(
      {
        file_url,
        select,
        node_ids,
        format,
        scale,
        asset_type,
        client,
        product,
        tag_names,
        collection_name,
        wait: Type.Optional(Type.Boolean({ description: 'Answer once the import ends (at most about 25 s) instead of at once. Default false.' })),
      },
      { additionalProperties: false },
    ),
    outputSchema: ImportOutput,
    endpoint: 'POST /api/v1/imports',
    fixedBody: { source: 'figma' },
    localArguments: ['wait'],
    problemDetails: {
      figma_not_connected:
        'The organization has no stored Figma token. An owner or admin connects Figma in the web app (Settings \u2192 Integrations); this tool never takes a token itself.',
    },
    answer: (body, v1, args) => importAfter((body as { import_id: string }).import_id, v1, args.wait === true),
  },
  {
    name: 'get_import',
    title: 'Follow an import',
    description:
      'One import by id (from import_from_figma): its `status` (`queued`, `running`, `done`, `failed`), the counts of its current run (`total`, `created`, `updated`, `unchanged`, `failed`, `missing`) with each failed node\u2019s reason and each missing node, the Figma file\u2019s name and version, and `error` when it failed as a whole. The counts grow while it runs.',
    scope: 'assets:read',
    annotations: { title: 'Follow an import', ...READ },
    inputSchema: Type.Object({ id: Id('import') }, { additionalProperties: false }),
    outputSchema: ImportOutput,
    endpoint: 'GET /api/v1/imports/{id}',
    pathArgument: 'id',
    answer: (body) => importAnswer(body as ImportRecord, false),
  },
]
