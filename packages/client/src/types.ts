import type { components, operations, webhooks } from './generated/v1.js'

type Schemas = components['schemas']
type SuccessStatus = 200 | 201 | 202

/** The JSON a successful answer of operation O carries. */
export type Success<O extends keyof operations> = {
  [S in keyof operations[O]['responses']]: S extends SuccessStatus
    ? operations[O]['responses'][S] extends { content: { 'application/json': infer Body } }
      ? Body
      : never
    : never
}[keyof operations[O]['responses']]

export type QueryOf<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>

export type JsonBodyOf<O extends keyof operations> =
  NonNullable<operations[O]['requestBody']> extends { content: { 'application/json': infer Body } } ? Body : never

export type Asset = Schemas['Asset']
export type AssetQuery = Schemas['AssetQuery']
export type Collection = Schemas['Collection']
export type SearchHit = Schemas['SearchHit']
export type SimilarAsset = Schemas['SimilarAsset']
export type CurrentApiKey = Schemas['CurrentApiKey']

export type TrashedAsset = Schemas['TrashedAsset']

export type AssetListQuery = QueryOf<'listAssets'>
/** The push fields other than the image (given as the push's source). */
export type PushFields = Omit<JsonBodyOf<'pushAsset'>, 'image_url' | 'image_base64'>
export type PushResult = Success<'pushAsset'>
export type AssetUpdate = JsonBodyOf<'updateAsset'>
/** `{ids, set?, add_tags?, remove_tags?}`: 1 to 500 assets, at least one change. */
export type BulkEdit = JsonBodyOf<'bulkEditAssets'>
/** `{results: [{id, result, reason?}]}`, one per distinct id in the order sent. */
export type BulkEditResult = Success<'bulkEditAssets'>
export type AssetPage = Success<'listAssets'>
export type SimilarQuery = QueryOf<'similarAssets'>
/** What `assets.render` asks for: a size and format, or a `preset`; `redirect` is the client's own (always false). */
export type RenderQuery = Omit<QueryOf<'renderAsset'>, 'redirect'>
export type RenditionLink = Success<'renderAsset'>
export type SimilarPage = Success<'similarAssets'>
/** `{found: [{sha256, asset_id}], missing}`: each hash asked, once. */
export type CheckResult = Success<'checkAssets'>

/** Every version of an asset, newest first: `{data: [{version, sha256, …, created_by, original_url, thumbnail_url}]}`. */
export type VersionList = Success<'listAssetVersions'>
export type AssetVersion = VersionList['data'][number]
/** `{asset_id, version, duplicate}`: the version now, `duplicate` when the bytes were already the current file. */
export type VersionResult = Success<'uploadAssetVersion'>
export type VersionRestoreResult = Success<'restoreAssetVersion'>

export type DuplicatesQuery = QueryOf<'listDuplicates'>
/** `{data: [{asset, duplicates: [{distance, asset}]}], total, limit, offset}`. */
export type DuplicateGroupPage = Success<'listDuplicates'>
export type DuplicateGroup = DuplicateGroupPage['data'][number]
/** `{kept, trashed}`: the kept asset's record after the merge, and the ids moved to the trash. */
export type DuplicatesResolved = Success<'resolveDuplicates'>

export type TrashQuery = QueryOf<'listTrash'>
export type TrashPage = Success<'listTrash'>

export type SearchRequest = JsonBodyOf<'searchAssets'>
export type SearchResult = Success<'searchAssets'>

export type CollectionListQuery = QueryOf<'listCollections'>
export type CollectionPage = Success<'listCollections'>
export type CollectionCreate = JsonBodyOf<'createCollection'>
export type CollectionUpdate = JsonBodyOf<'updateCollection'>
/** A collection with one page of its assets. */
export type CollectionWithAssets = Success<'getCollection'>
export type CollectionAssetsQuery = QueryOf<'getCollection'>
/** `{ asset_id }` or `{ asset_ids }` (1 to 100). */
export type CollectionMembers = JsonBodyOf<'addCollectionAssets'>
export type MembershipChange = Success<'addCollectionAssets'>
export type ShareLink = Success<'shareCollection'>
export type LiveShareLink = Success<'getCollectionShare'>

export type CatalogQuery = QueryOf<'listTags'>
export type TagPage = Success<'listTags'>
export type AssetTypePage = Success<'listAssetTypes'>
export type ClientPage = Success<'listClients'>
export type ProductPage = Success<'listProducts'>
/** `{data}`: the colour names (`color=` takes them), each with its swatch's hex. */
export type ColorList = Success<'listColors'>

/** `{data}`: every rendition preset, the built-ins first. */
export type PresetList = Success<'listPresets'>
/** A rendition preset and its parameters (`format` null for the built-in `original`). */
export type Preset = PresetList['data'][number]

/** `POST /api/v1/imports`: a Figma file (or a node's subtree) to import, with the push's metadata for every asset. */
export type ImportCreate = JsonBodyOf<'createImport'>
/** `{import_id, status: 'queued'}`: follow it with `imports.get` (or `imports.wait`). */
export type ImportAccepted = Success<'createImport'>
/** An import: its status, the file's name and version, and the counts of its current run with each failure and missing node. */
export type Import = Schemas['Import']
export type ImportStatus = Import['status']
export type ImportQuery = QueryOf<'listImports'>
export type ImportPage = Success<'listImports'>
/** A node of an import's current run: its `outcome` (`created`, `updated`, `unchanged`, `failed`, `missing`; null while pending), a failure's `reason` and `detail`, its `asset_id` and `figma_url`. */
export type ImportNode = Schemas['ImportNode']
export type ImportNodeOutcome = NonNullable<ImportNode['outcome']>
/** `{limit?, offset?, outcome?}`: `outcome` also takes `pending` (not yet done in this run). */
export type ImportNodeQuery = QueryOf<'listImportNodes'>
export type ImportNodePage = Success<'listImportNodes'>
/** `{figma_token?}`: a rerun carries its token again unless the organization has a stored one. */
export type ImportRerun = JsonBodyOf<'rerunImport'>

/** Where an `asset.created` event's asset came from: a push with an API key, the web app, or a Figma import. */
export type AssetSource = WebhookAssetCreated['data']['source']
type WebhookAssetCreated = webhooks['asset.created']['post']['requestBody']['content']['application/json']

/** A page in the API's list envelope. */
export interface Page<Item> {
  data: Item[]
  total: number
  limit: number
  offset: number
  /** False when `total` is an estimate (a full-text list of many matches), which can be below the true count. */
  total_exact?: boolean
}
