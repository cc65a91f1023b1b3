import { OPERATIONS, type OperationId } from './generated/operations.js'
import { everyItem, everyItemByCursor } from './pages.js'
import { pushBody, resolveSource, type PushSource, type SourceResolver } from './push.js'
import { jsonBody, sleep, Transport, type Bucket, type ClientOptions, type RateLimitState, type RequestBody, type RequestOptions } from './transport.js'
import type * as T from './types.js'

const byId = (item: { id: string }) => item.id
const byNodeId = (item: { node_id: string }) => item.node_id
/** How often `imports.wait` asks by default: the counts move node by node, and `getImport` is in the cheap bucket. */
const IMPORT_POLL_MS = 1000

/** What `imports.wait` takes besides the id. */
export interface ImportWaitOptions {
  /** Called with the record after each look, the last (ended) one included: its counts grow while it runs. */
  onProgress?: (record: T.Import) => void
  /** Ends the wait (rejecting with the signal's reason); the import itself goes on. */
  signal?: AbortSignal
  /** Between looks; default 1000 ms. */
  intervalMs?: number
}

const ended = (record: T.Import) => record.status === 'done' || record.status === 'failed'
const byName = (item: { name: string }) => item.name

/** One call of an operation: its path parameters (`{id}`, `{version}`), query, body and options. */
interface OperationCall {
  id?: string
  version?: number
  query?: object | undefined
  body?: RequestBody
  options?: RequestOptions | undefined
}

/** The client of `createClient`, whose `assets.push` takes `Source` (the Node entry adds file paths). */
export function clientWith<Source>(options: ClientOptions, resolve: SourceResolver<Source>) {
  const transport = new Transport(options)
  /** Calls an operation with the method, path and rate-limit bucket that openapi/v1.json gives it (src/generated/operations.ts). */
  const call = <Result>(operation: OperationId, { query, body, options, ...params }: OperationCall = {}) => {
    const { method, path, bucket } = OPERATIONS[operation]
    const resolved = path.replace(/\{(\w+)\}/g, (_, name: keyof typeof params) => encodeURIComponent(String(params[name])))
    return transport.request<Result>({ method, path: resolved, bucket, query, body, options })
  }
  const json = (value: unknown) => (value === undefined ? undefined : jsonBody(value))

  const catalogue = <Page extends T.Page<{ name: string }>>(operation: OperationId) => ({
    list: (query?: T.CatalogQuery, options?: RequestOptions) => call<Page>(operation, { query, options }),
    iterate: (query: Omit<T.CatalogQuery, 'offset' | 'limit'> = {}, options?: RequestOptions) =>
      everyItem<Page['data'][number]>((offset, limit) => call<Page>(operation, { query: { ...query, offset, limit }, options }), byName),
  })

  const collectionAssets = (id: string, query?: T.CollectionAssetsQuery, options?: RequestOptions) =>
    call<T.CollectionWithAssets>('getCollection', { id, query, options })

  return {
    /** The last rate-limit state the server reported for a bucket, to pace bulk work; undefined before any answer. */
    rateLimit: (bucket: Bucket): RateLimitState | undefined => transport.rateLimit(bucket),

    auth: {
      /** The calling key: its scope, expiry and limits. */
      key: (options?: RequestOptions) => call<T.CurrentApiKey>('getCurrentKey', { options }),
      /** Revokes the calling key; every later call with it is 401. */
      revoke: (options?: RequestOptions) => call<T.Success<'revokeCurrentKey'>>('revokeCurrentKey', { options }),
    },

    assets: {
      /**
       * Pushes an image with its metadata: 201 `{asset_id, duplicate: false}` for new bytes, 200
       * `{asset_id, duplicate: true}` for bytes the library already has.
       */
      push: async (source: Source, fields: T.PushFields = {}, options?: RequestOptions) =>
        call<T.PushResult>('pushAsset', { body: pushBody(await resolve(source), fields), options }),
      list: (query?: T.AssetListQuery, options?: RequestOptions) => call<T.AssetPage>('listAssets', { query, options }),
      /**
       * Every asset matching the filters, fetching pages (of `limit`, default 100) by cursor as the loop
       * goes, from `offset` or `cursor` if given: to the end even when a full-text total is an estimate.
       */
      iterate: (query: Omit<T.AssetListQuery, 'limit'> & { limit?: number } = {}, options?: RequestOptions) =>
        everyItemByCursor<T.Asset>((from, limit) => call<T.AssetPage>('listAssets', { query: { ...query, ...from, limit }, options }), byId, query),
      get: (id: string, options?: RequestOptions) => call<T.Asset>('getAsset', { id, options }),
      /** Changes metadata; `tag_names` replaces every tag, `null` clears a field. */
      update: (id: string, changes: T.AssetUpdate, options?: RequestOptions) => call<T.Asset>('updateAsset', { id, body: json(changes), options }),
      delete: (id: string, options?: RequestOptions) => call<void>('deleteAsset', { id, options }),
      /**
       * Edits up to 500 assets in one request and one transaction: `set` fields on each, `add_tags` and
       * `remove_tags` (the other tags stay). Answers each distinct id in order: `updated`, `unchanged`,
       * `not_found` or `forbidden` (with a `reason`); an unknown asset type is 422 and changes nothing.
       */
      bulkEdit: (edit: T.BulkEdit, options?: RequestOptions) => call<T.BulkEditResult>('bulkEditAssets', { body: json(edit), options }),
      /**
       * The nearest assets by meaning (the default; empty when AI is off for the organization), or with
       * `{by: 'appearance'}` every asset within 7 bits of its perceptual hash, closest first, with `distance`.
       */
      similar: (id: string, query?: T.SimilarQuery, options?: RequestOptions) => call<T.SimilarPage>('similarAssets', { id, query, options }),
      /** Which of these SHA-256 hashes (1 to 1,000, lowercase hex) the library already has. In the cheap bucket. */
      check: (sha256: string[], options?: RequestOptions) =>
        call<T.CheckResult>('checkAssets', { body: json({ sha256 } satisfies T.JsonBodyOf<'checkAssets'>), options }),
      /**
       * A signed link to the asset's image at a size and in a format (or a `preset`), with the file's size:
       * `{url, width, height, format, expires_at}`. Nothing is rendered until the link is fetched; values out
       * of range are clamped. In the cheap bucket when the rendition is stored, else the expensive one.
       */
      render: (id: string, query: T.RenderQuery = {}, options?: RequestOptions) =>
        call<T.RenditionLink>('renderAsset', { id, query: { ...query, redirect: false }, options }),
      /** Every version of the asset, newest first, each with its file facts, who added it and signed links. */
      versions: (id: string, options?: RequestOptions) => call<T.VersionList>('listAssetVersions', { id, options }),
      /**
       * A new file for the asset (the push's sources): 201 `{asset_id, version, duplicate: false}`; its current
       * bytes again 200 `duplicate: true`; another asset's bytes 409 `content_belongs_to_other_asset`. In the expensive bucket.
       */
      pushVersion: async (id: string, source: Source, options?: RequestOptions) =>
        call<T.VersionResult>('uploadAssetVersion', { id, body: pushBody(await resolve(source), {}), options }),
      /** Makes a copy of an earlier version the newest: `{asset_id, version}` with version = the previous newest + 1. */
      restoreVersion: (id: string, version: number, options?: RequestOptions) =>
        call<T.VersionRestoreResult>('restoreAssetVersion', { id, version, options }),
    },

    /** Near-duplicates across the library: groups to review, and keeping one asset of them. */
    duplicates: {
      /** A page of groups: an asset and its near-duplicates pushed after it, with their distances. */
      list: (query?: T.DuplicatesQuery, options?: RequestOptions) => call<T.DuplicateGroupPage>('listDuplicates', { query, options }),
      /** Every group, fetching pages (of `limit`, default 100) as the loop goes; a group is known by its asset. */
      iterate: (query: Omit<T.DuplicatesQuery, 'offset'> = {}, options?: RequestOptions) =>
        everyItem<T.DuplicateGroup>(
          (offset, limit) => call<T.DuplicateGroupPage>('listDuplicates', { query: { ...query, offset, limit }, options }),
          (group) => group.asset.id,
          query,
        ),
      /**
       * Keeps `keep` and moves the assets of `trash` to the trash, in one transaction: `keep` gains their tags
       * and manual collections. Answers the kept asset's record and the trashed ids.
       */
      resolve: (keep: string, trash: string[], options?: RequestOptions) =>
        call<T.DuplicatesResolved>('resolveDuplicates', { body: json({ keep, trash } satisfies T.JsonBodyOf<'resolveDuplicates'>), options }),
    },

    /** Deleted assets, last deleted first, restorable until their `purge_at`. */
    trash: {
      list: (query?: T.TrashQuery, options?: RequestOptions) => call<T.TrashPage>('listTrash', { query, options }),
      /** Every asset in the trash, fetching pages (of `limit`, default 100) as the loop goes. */
      iterate: (query: Omit<T.TrashQuery, 'offset'> = {}, options?: RequestOptions) =>
        everyItem<T.TrashedAsset>((offset, limit) => call<T.TrashPage>('listTrash', { query: { ...query, offset, limit }, options }), byId, query),
      /** Puts the asset back as it was (tags, manual collections, versions) and answers its record; emits `asset.restored`. */
      restore: (id: string, options?: RequestOptions) => call<T.Asset>('restoreTrashedAsset', { id, options }),
      /** Purges it now, for good (a web-app session: owners and admins only). */
      purge: (id: string, options?: RequestOptions) => call<void>('purgeTrashedAsset', { id, options }),
    },

    /**
     * Design-tool imports (Figma): each node becomes an asset with the `external_id` `figma:FILEKEY:NODEID`,
     * and running an import again is a sync (changed renders become new versions; removed nodes are reported
     * as missing, never deleted). The job runs on the server: `create` and `rerun` answer 202 at once.
     */
    imports: {
      /** Queues an import: `{import_id, status: 'queued'}`. `source` defaults to `figma`; without `figma_token` the organization's stored token is used. */
      create: (request: Omit<T.ImportCreate, 'source'> & { source?: 'figma' }, options?: RequestOptions) =>
        call<T.ImportAccepted>('createImport', { body: json({ source: 'figma', ...request } satisfies T.ImportCreate), options }),
      list: (query?: T.ImportQuery, options?: RequestOptions) => call<T.ImportPage>('listImports', { query, options }),
      /** Every import (of `file_key`, if given), newest first, fetching pages as the loop goes. */
      iterate: (query: Omit<T.ImportQuery, 'offset'> = {}, options?: RequestOptions) =>
        everyItem<T.Import>((offset, limit) => call<T.ImportPage>('listImports', { query: { ...query, offset, limit }, options }), byId, query),
      /** The import: its status, and the counts of its current run (growing while it runs) with each failure. */
      get: (id: string, options?: RequestOptions) => call<T.Import>('getImport', { id, options }),
      /** A page of the nodes of its current run, each with its `outcome` (null while pending), a failure's `reason` and its `asset_id`; `outcome` narrows them. */
      nodes: (id: string, query?: T.ImportNodeQuery, options?: RequestOptions) => call<T.ImportNodePage>('listImportNodes', { id, query, options }),
      /** Every node of its current run (of `outcome`, if given), by page then name, fetching pages as the loop goes. */
      iterateNodes: (id: string, query: Omit<T.ImportNodeQuery, 'offset'> = {}, options?: RequestOptions) =>
        everyItem<T.ImportNode>((offset, limit) => call<T.ImportNodePage>('listImportNodes', { id, query: { ...query, offset, limit }, options }), byNodeId, query),
      /** Runs it again with its stored selection (a sync); 409 `import_in_progress` while it is queued or running. */
      rerun: (id: string, request: T.ImportRerun = {}, options?: RequestOptions) => call<T.ImportAccepted>('rerunImport', { id, body: json(request), options }),
      /** Looks at the import every `intervalMs` until its run ends (`done` or `failed`), and answers its last record. */
      wait: async (id: string, { onProgress, signal, intervalMs = IMPORT_POLL_MS }: ImportWaitOptions = {}): Promise<T.Import> => {
        for (;;) {
          const record = await call<T.Import>('getImport', { id, options: signal && { signal } })
          onProgress?.(record)
          if (ended(record)) return record
          await sleep(intervalMs, signal)
        }
      },
    },

    /** Full-text plus semantic search (`mode` says which ran), with the list filters. In the expensive bucket. */
    search: (request: T.SearchRequest, options?: RequestOptions) => call<T.SearchResult>('searchAssets', { body: json(request), options }),

    collections: {
      list: (query?: T.CollectionListQuery, options?: RequestOptions) => call<T.CollectionPage>('listCollections', { query, options }),
      iterate: (query: Omit<T.CollectionListQuery, 'offset'> = {}, options?: RequestOptions) =>
        everyItem<T.Collection>((offset, limit) => call<T.CollectionPage>('listCollections', { query: { ...query, offset, limit }, options }), byId, query),
      /** A collection with the first page of its assets (`limit`, `offset` page them). */
      get: collectionAssets,
      /** `{name, description?}` makes a manual collection, `{name, description?, query}` a smart one. */
      create: (collection: T.CollectionCreate, options?: RequestOptions) => call<T.Collection>('createCollection', { body: json(collection), options }),
      update: (id: string, changes: T.CollectionUpdate, options?: RequestOptions) => call<T.Collection>('updateCollection', { id, body: json(changes), options }),
      /** Deletes the collection; its assets stay in the library. */
      delete: (id: string, options?: RequestOptions) => call<void>('deleteCollection', { id, options }),
      /** Every asset of a collection, page after page by cursor, in the order of `sort` if given. */
      iterateAssets: (id: string, query: T.CollectionAssetsQuery = {}, options?: RequestOptions) =>
        everyItemByCursor<T.Asset>(async (from, limit) => (await collectionAssets(id, { ...query, ...from, limit }, options)).assets, byId, query),
      /** Adds one asset id or up to 100 to a manual collection (409 on a smart one); repeats are no-ops. */
      addAssets: (id: string, assetIds: string | string[], options?: RequestOptions) =>
        call<T.MembershipChange>('addCollectionAssets', { id, body: json(members(assetIds)), options }),
      removeAssets: (id: string, assetIds: string | string[], options?: RequestOptions) =>
        call<T.MembershipChange>('removeCollectionAssets', { id, body: json(members(assetIds)), options }),
      /** Makes a public link (sharing again replaces it: the old one stops working). */
      share: (id: string, options?: RequestOptions) => call<T.ShareLink>('shareCollection', { id, options }),
      /** The live public link again (`share_url` null when not shared, or made before links were kept). */
      shareLink: (id: string, options?: RequestOptions) => call<T.LiveShareLink>('getCollectionShare', { id, options }),
      /** Revokes the public link. */
      unshare: (id: string, options?: RequestOptions) => call<void>('unshareCollection', { id, options }),
    },

    tags: catalogue<T.TagPage>('listTags'),
    assetTypes: catalogue<T.AssetTypePage>('listAssetTypes'),
    clients: catalogue<T.ClientPage>('listClients'),
    products: catalogue<T.ProductPage>('listProducts'),

    /** The colour names palettes use and `color` filters by, each with its swatch's hex. */
    colors: {
      list: (options?: RequestOptions) => call<T.ColorList>('listColors', { options }),
    },

    /** Rendition presets: the built-ins (`thumbnail`, `original`), then the organization's own, each with its parameters; every asset's `renditions` links them. */
    presets: {
      list: (options?: RequestOptions) => call<T.PresetList>('listPresets', { options }),
    },
  }
}

function members(assetIds: string | string[]): T.CollectionMembers {
  return typeof assetIds === 'string' ? { asset_id: assetIds } : { asset_ids: assetIds }
}

export type AssetLibraryClient<Source = PushSource> = ReturnType<typeof clientWith<Source>>

/** A client for the service at `baseUrl`, calling with `apiKey`. Runs wherever fetch does (Node 20+, browsers). */
export function createClient(options: ClientOptions): AssetLibraryClient {
  return clientWith(options, resolveSource)
}
