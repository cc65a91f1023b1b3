import { everyItem } from './pages.js'
import { pushBody, resolveSource, type PushSource, type SourceResolver } from './push.js'
import { jsonBody, Transport, type Bucket, type Call, type ClientOptions, type RateLimitState, type RequestOptions } from './transport.js'
import type * as T from './types.js'

const byId = (item: { id: string }) => item.id
const byName = (item: { name: string }) => item.name
const segment = (id: string) => encodeURIComponent(id)

/** The client of `createClient`, whose `assets.push` takes `Source` (the Node entry adds file paths). */
export function clientWith<Source>(options: ClientOptions, resolve: SourceResolver<Source>) {
  const transport = new Transport(options)
  const send = <Result>(call: Call) => transport.request<Result>(call)
  const get = <Result>(path: string, query?: object, options?: RequestOptions) => send<Result>({ method: 'GET', path, bucket: 'cheap', query, options })
  const write = <Result>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, options?: RequestOptions, bucket: Bucket = 'standard') =>
    send<Result>({ method, path, bucket, body: body === undefined ? undefined : jsonBody(body), options })

  const catalogue = <Page extends T.Page<{ name: string }>>(path: string) => ({
    list: (query?: T.CatalogQuery, options?: RequestOptions) => get<Page>(path, query, options),
    iterate: (query: Omit<T.CatalogQuery, 'offset' | 'limit'> = {}, options?: RequestOptions) =>
      everyItem<Page['data'][number]>((offset, limit) => get<Page>(path, { ...query, offset, limit }, options), byName),
  })

  const collectionAssets = (id: string, query?: T.CollectionAssetsQuery, options?: RequestOptions) =>
    get<T.CollectionWithAssets>(`/api/v1/collections/${segment(id)}`, query, options)

  return {
    /** The last rate-limit state the server reported for a bucket, to pace bulk work; undefined before any answer. */
    rateLimit: (bucket: Bucket): RateLimitState | undefined => transport.rateLimit(bucket),

    auth: {
      /** The calling key: its scope, expiry and limits. */
      key: (options?: RequestOptions) => get<T.CurrentApiKey>('/api/v1/auth/key', undefined, options),
      /** Revokes the calling key; every later call with it is 401. */
      revoke: (options?: RequestOptions) => write<T.Success<'revokeCurrentKey'>>('POST', '/api/v1/auth/revoke', undefined, options),
    },

    assets: {
      /**
       * Pushes an image with its metadata: 201 `{asset_id, duplicate: false}` for new bytes, 200
       * `{asset_id, duplicate: true}` for bytes the library already has.
       */
      push: async (source: Source, fields: T.PushFields = {}, options?: RequestOptions) =>
        send<T.PushResult>({ method: 'POST', path: '/api/v1/assets', bucket: 'expensive', body: pushBody(await resolve(source), fields), options }),
      list: (query?: T.AssetListQuery, options?: RequestOptions) => get<T.AssetPage>('/api/v1/assets', query, options),
      /** Every asset matching the filters, fetching pages (of `limit`, default 100) as the loop goes. */
      iterate: (query: Omit<T.AssetListQuery, 'limit'> & { limit?: number } = {}, options?: RequestOptions) =>
        everyItem<T.Asset>((offset, limit) => get<T.AssetPage>('/api/v1/assets', { ...query, offset, limit }, options), byId, query),
      get: (id: string, options?: RequestOptions) => get<T.Asset>(`/api/v1/assets/${segment(id)}`, undefined, options),
      /** Changes metadata; `tag_names` replaces every tag, `null` clears a field. */
      update: (id: string, changes: T.AssetUpdate, options?: RequestOptions) => write<T.Asset>('PATCH', `/api/v1/assets/${segment(id)}`, changes, options),
      delete: (id: string, options?: RequestOptions) => write<void>('DELETE', `/api/v1/assets/${segment(id)}`, undefined, options),
      /** The nearest assets by meaning; empty when AI is off for the organization. */
      similar: (id: string, query?: T.SimilarQuery, options?: RequestOptions) => get<T.SimilarPage>(`/api/v1/assets/${segment(id)}/similar`, query, options),
      /** Which of these SHA-256 hashes (1 to 1,000, lowercase hex) the library already has. In the cheap bucket. */
      check: (sha256: string[], options?: RequestOptions) =>
        write<T.CheckResult>('POST', '/api/v1/assets/check', { sha256 } satisfies T.JsonBodyOf<'checkAssets'>, options, 'cheap'),
    },

    /** Full-text plus semantic search (`mode` says which ran), with the list filters. In the expensive bucket. */
    search: (request: T.SearchRequest, options?: RequestOptions) => write<T.SearchResult>('POST', '/api/v1/search', request, options, 'expensive'),

    collections: {
      list: (query?: T.CollectionListQuery, options?: RequestOptions) => get<T.CollectionPage>('/api/v1/collections', query, options),
      iterate: (query: Omit<T.CollectionListQuery, 'offset'> = {}, options?: RequestOptions) =>
        everyItem<T.Collection>((offset, limit) => get<T.CollectionPage>('/api/v1/collections', { ...query, offset, limit }, options), byId, query),
      /** A collection with the first page of its assets (`limit`, `offset` page them). */
      get: collectionAssets,
      /** `{name, description?}` makes a manual collection, `{name, description?, query}` a smart one. */
      create: (collection: T.CollectionCreate, options?: RequestOptions) => write<T.Collection>('POST', '/api/v1/collections', collection, options),
      update: (id: string, changes: T.CollectionUpdate, options?: RequestOptions) => write<T.Collection>('PATCH', `/api/v1/collections/${segment(id)}`, changes, options),
      /** Deletes the collection; its assets stay in the library. */
      delete: (id: string, options?: RequestOptions) => write<void>('DELETE', `/api/v1/collections/${segment(id)}`, undefined, options),
      /** Every asset of a collection, page after page. */
      iterateAssets: (id: string, query: Omit<T.CollectionAssetsQuery, 'offset'> = {}, options?: RequestOptions) =>
        everyItem<T.Asset>(async (offset, limit) => (await collectionAssets(id, { offset, limit }, options)).assets, byId, query),
      /** Adds one asset id or up to 100 to a manual collection (409 on a smart one); repeats are no-ops. */
      addAssets: (id: string, assetIds: string | string[], options?: RequestOptions) =>
        write<T.MembershipChange>('POST', `/api/v1/collections/${segment(id)}/assets`, members(assetIds), options),
      removeAssets: (id: string, assetIds: string | string[], options?: RequestOptions) =>
        write<T.MembershipChange>('DELETE', `/api/v1/collections/${segment(id)}/assets`, members(assetIds), options),
      /** Makes a public link (shown once; sharing again replaces it). */
      share: (id: string, options?: RequestOptions) => write<T.ShareLink>('POST', `/api/v1/collections/${segment(id)}/share`, undefined, options),
      /** Revokes the public link. */
      unshare: (id: string, options?: RequestOptions) => write<void>('DELETE', `/api/v1/collections/${segment(id)}/share`, undefined, options),
    },

    tags: catalogue<T.TagPage>('/api/v1/tags'),
    assetTypes: catalogue<T.AssetTypePage>('/api/v1/asset-types'),
    clients: catalogue<T.ClientPage>('/api/v1/clients'),
    products: catalogue<T.ProductPage>('/api/v1/products'),
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
