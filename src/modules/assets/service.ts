import type { FastifyBaseLogger } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import { inTransaction, type Db } from '../../platform/db/index.js'
import { sha256Hex } from '../../platform/crypto.js'
import { emit, emitting } from '../../platform/events/outbox.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { Page } from '../../platform/http/pagination.js'
import { variantKey, type BlobStore, type BlobStream, type ByteRange } from '../../platform/blobs/blob-store.js'
import { ImageError, type ImageErrorKind, type ImageProcessor } from '../../platform/images/images.js'
import type { Thumbnails } from './thumbnails.js'
import type { ErrorCode } from '../../platform/http/error-codes.js'
import { failureClass, SafeFetchError, type SafeFetcher } from '../../platform/net/safe-fetch.js'
import type { Caller } from '../../platform/http/route-auth.js'
import type { UrlSigner } from '../../platform/signed-urls.js'
import { uuidv7 } from '../../platform/ids.js'
import { FreshReads } from '../../platform/fresh-reads.js'
import type { CatalogService } from '../catalog/service.js'
import { countedScopeKey, ListPages, listQueryKey, type CachedPage, type ListedPage } from './list-pages.js'
import * as store from './store.js'
import type { AssetFilter, AssetWithRelations } from './store.js'

export const MAX_IMAGE_BYTES = 25 * 1024 * 1024
const THUMBNAIL_VARIANT = 'thumb.webp'
/** The filters whose matches are counted by triggers (tags: 0007, the rest: 0009). */
const KEPT_COUNT_FIELDS = ['tag', 'asset_type', 'client', 'product'] as const
const DATA_URL_PREFIX = /^data:image\/[a-z0-9.+-]+;base64,/i

export interface PlanLimit {
  maxAssets?: number
  maxBytes?: number
}

export interface AssetServiceDeps {
  db: Db
  logger: FastifyBaseLogger
  catalog: CatalogService
  blobs: BlobStore
  /** Reads the pushed image's header; decoding is the thumbnails' business. */
  images: ImageProcessor
  /** The process's one `Thumbnails`, which its background runner shares. */
  thumbnails: Thumbnails
  fetcher: SafeFetcher
  signer: UrlSigner
  planLimits: Record<string, PlanLimit>
  imageFetchTimeoutMs: number
  /** How many records the list keeps in recently listed pages (`LIST_CACHE_RECORDS`). */
  listCacheRecords: number
  /** A full-text list counts its matches up to this many; past it, its total is the planner's estimate (`LIST_EXACT_TOTAL_UP_TO`). */
  exactTotalUpTo: number
  /**
   * The clause that queues an asset's searchable text (the search index follows), for the assets `assets`
   * selects; it runs in the statement or transaction that changed the text.
   */
  queueText: (assets: Inserted, organizationId: string, record: AssetRecord) => RawBuilder<unknown>
  /** After the commit of such a change: wakes the background work that follows it. */
  afterTextCommitted: () => void
  /** After the commit of a change that emitted events: wakes their delivery. */
  afterEventsCommitted: () => void
  /** The collections module, which owns collections and their members: a push may name one. */
  collections: CollectionMembership
}

/**
 * What a push needs of the collections module, which implements it (this module owns the need, so it
 * imports nothing of collections, which builds on assets).
 */
export interface CollectionMembership {
  /** A scalar subquery for the push's first statement: the collection named `name`, or null. */
  collectionNamed(organizationId: string, name: string): RawBuilder<NamedCollection | null>
  /** The manual collection the push adds its asset to; throws when there is none or it is smart. */
  manualForPush(collection: NamedCollection | null, name: string): { id: string; name: string }
  /** A clause for the push's insert: adds the assets `assets` selects. */
  memberInsert(collectionId: string, assets: Inserted): RawBuilder<unknown>
  /** Adds assets that exist already (a duplicate push); adding twice is a no-op. */
  add(collectionId: string, assetIds: string[]): Promise<number>
}

/** A collection as a push finds it by name. */
export interface NamedCollection {
  id: string
  name: string
  kind: 'manual' | 'smart'
}

/** Rows with the `id` of the assets a statement inserted (or changed). */
type Inserted = RawBuilder<{ id: string }>

export interface PushInput {
  image_url?: string
  image_base64?: string
  /** The image's bytes as received (a multipart upload); at most `MAX_IMAGE_BYTES`. */
  image_bytes?: Buffer
  title?: string
  asset_type?: string
  client?: string
  product?: string
  tag_names?: string[]
  collection_name?: string
  source_url?: string
  created_by_ai?: boolean
}

export type AssetChanges = Partial<{
  title: string
  asset_type: string | null
  client: string | null
  product: string | null
  source_url: string | null
  created_by_ai: boolean
  tag_names: string[]
}>

/** What `AssetService.check` answers: the contents the organization has, with their asset, and those it lacks. */
export interface ContentCheck {
  found: { sha256: string; asset_id: string }[]
  missing: string[]
}

export type AssetRecord = ReturnType<AssetService['record']>

/** What `versionIfUnchanged` asks of a kept page. */
interface KeptPageCheck {
  organizationId: string
  since: string
  scope: store.ListedScope
}

/** A picture that stands for a group of assets (a collection's cover): one asset's signed thumbnail. */
export interface Cover {
  asset_id: string
  thumbnail_url: string
  width: number
  height: number
}

/** What `AssetService.file` finds: a blob to stream, with the key and type to describe it. */
export interface AssetFile {
  key: string
  mimeType: string
  /** All the bytes, or `range`; null when the blob is gone. Throws `RangeNotSatisfiableError`. */
  open(range?: ByteRange): Promise<BlobStream | null>
  /** Whether the blob is in the store (a thumbnail not made yet is made first); for a link that sends the client to the store itself. */
  stored(): Promise<boolean>
}

const IMAGE_ERROR_CODES: Record<ImageErrorKind, ErrorCode> = {
  not_an_image: 'not_an_image',
  unsupported_format: 'unsupported_image_format',
  too_many_pixels: 'image_too_many_pixels',
}

/** Pushing, reading, filtering, editing and deleting assets, with their files and events. */
export class AssetService {
  private readonly pages: ListPages<AssetRecord>
  private readonly libraryVersions: FreshReads<string | undefined>
  /** Whether a kept page holds at a newer version, per page and kept version: concurrent readers of one page share the check. */
  private readonly keptPageChecks: FreshReads<string | undefined, KeptPageCheck>

  constructor(private readonly deps: AssetServiceDeps) {
    this.pages = new ListPages(deps.listCacheRecords)
    this.libraryVersions = new FreshReads((organizationId) => store.libraryVersion(deps.db, organizationId))
    this.keptPageChecks = new FreshReads((_, check) => store.versionIfUnchanged(deps.db, check.organizationId, check.since, check.scope))
  }

  /**
   * Statements: one to learn what the push needs (plan usage, a duplicate, the names it uses), one to
   * add tags used for the first time (only then), and one that inserts the asset with its membership,
   * embedding text, thumbnail job and event. Only the image's header is read, and its original written,
   * between the first and the last: the thumbnail is made after the commit (see `Thumbnails`).
   */
  async push(organizationId: string, input: PushInput, createdBy: string | null = null): Promise<{ asset_id: string; duplicate: boolean }> {
    const bytes = await this.imageBytes(input)
    const sha256 = sha256Hex(bytes)
    const tags = normaliseTags(input.tag_names ?? [])
    const context = await store.pushContext(this.deps.db, organizationId, sha256, this.pushLookups(organizationId, input, tags))
    const { lookups } = context
    const assetType = input.asset_type === undefined ? null : (lookups.asset_type ?? (await this.deps.catalog.unknownAssetType(organizationId, input.asset_type)))
    const collection = input.collection_name === undefined ? null : this.deps.collections.manualForPush(lookups.collection ?? null, input.collection_name)
    if (context.duplicateOf) return this.duplicate(context.duplicateOf, collection)
    // Before any decoding or file write; checked again under the organization's lock by the insert.
    this.assertWithinPlan(context.plan, context.used, bytes.length)

    // The header only: nothing is written for what is not an image.
    const info = await this.image(() => this.deps.images.inspect(bytes))
    const files = { original: sha256, thumbnail: thumbnailKey(sha256) }
    let inserted: { outcome: store.InsertOutcome; id: string }
    try {
      // Before the insert, so its write and fsync never hold the database.
      await this.deps.blobs.put(bytes, sha256)
      const spelledTags = await this.deps.catalog.spellTags(this.deps.db, organizationId, tags, lookups.known_tags)
      const asset = newAsset(organizationId, input, { assetType, tags: spelledTags, bytes, sha256, image: info, files, createdBy })
      inserted = { outcome: await this.insertPushed(asset, collection), id: asset.id }
      if (inserted.outcome === 'over_plan') await this.refuseOverPlan(organizationId, sha256, bytes.length)
    } catch (error) {
      // The push's own error is what the client must hear, even if the clean-up fails too.
      await this.removeUnreferenced(sha256, files).catch((cleanup: unknown) => this.deps.logger.error({ err: cleanup }, 'could not remove the files of a failed push'))
      throw error
    }
    if (inserted.outcome !== 'inserted') return this.duplicateOfWinner(organizationId, sha256, collection)
    // A delete of the same bytes (another asset's) that checked their use before this commit may have removed the original.
    await this.deps.blobs.put(bytes, sha256)
    this.deps.thumbnails.afterCommit()
    this.deps.afterTextCommitted()
    this.deps.afterEventsCommitted()
    return { asset_id: inserted.id, duplicate: false }
  }

  /** The insert, with what goes with it; the event's record is built here, so nothing is read back. */
  private insertPushed(asset: store.NewAsset, collection: { id: string; name: string } | null): Promise<store.InsertOutcome> {
    const record = this.record({ ...asset, collections: collection ? [collection] : [], updated_at: asset.created_at })
    const organizationId = asset.organization_id
    return store.insertAsset(this.deps.db, {
      asset,
      planLimits: this.deps.planLimits,
      alongside: [
        ...(collection ? [(inserted: Inserted) => this.deps.collections.memberInsert(collection.id, inserted)] : []),
        (inserted) => this.deps.queueText(inserted, organizationId, record),
        (inserted) => this.deps.thumbnails.queue(inserted),
        (inserted) => emitting(inserted, organizationId, 'asset.created', record),
      ],
    })
  }

  /** The names a push uses, looked up in the statement that reads its context. */
  private pushLookups(organizationId: string, input: PushInput, tags: string[]) {
    const lookups: { asset_type?: RawBuilder<string | null>; collection?: RawBuilder<NamedCollection | null>; known_tags?: RawBuilder<string[]> } = {}
    if (input.asset_type !== undefined) lookups.asset_type = this.deps.catalog.registeredAssetType(organizationId, input.asset_type)
    if (input.collection_name !== undefined) lookups.collection = this.deps.collections.collectionNamed(organizationId, input.collection_name)
    if (tags.length > 0) lookups.known_tags = this.deps.catalog.knownTags(organizationId, tags)
    return lookups
  }

  /** The insert found the plan full: a duplicate is never over the plan; anything else is refused. */
  private async refuseOverPlan(organizationId: string, sha256: string, byteSize: number): Promise<void> {
    if (await store.findBySha256(this.deps.db, organizationId, sha256)) return
    const { plan, ...used } = await store.planUsage(this.deps.db, organizationId)
    this.assertWithinPlan(plan, used, byteSize)
    throw problems.conflict('push_conflict', 'The plan\u2019s limits changed during the push; push again.')
  }

  /** A concurrent push of the same bytes won: this one is its duplicate (unless that asset is already gone). */
  private async duplicateOfWinner(organizationId: string, sha256: string, collection: { id: string } | null) {
    const winner = await store.findBySha256(this.deps.db, organizationId, sha256)
    if (!winner) throw problems.conflict('push_conflict', 'A concurrent change to the same image interfered; push again.')
    return this.duplicate(winner, collection)
  }

  /** After a failed push: the files go only if no asset (of any organization) uses these bytes. */
  private async removeUnreferenced(sha256: string, files: { original: string; thumbnail: string }): Promise<void> {
    await inTransaction(this.deps.db, async (tx) => {
      await store.lockContent(tx, sha256)
      if (!(await store.contentsInUse(tx, [sha256])).has(sha256)) await this.removeBlobs([files.original, files.thumbnail])
    })
  }

  /** Which of these contents the organization already has, each hash answered once, in the order first asked. */
  async check(organizationId: string, sha256s: string[]): Promise<ContentCheck> {
    const asked = [...new Set(sha256s)]
    const assetIds = await store.assetIdsBySha256(this.deps.db, organizationId, asked)
    const answer: ContentCheck = { found: [], missing: [] }
    for (const sha256 of asked) {
      const assetId = assetIds.get(sha256)
      if (assetId === undefined) answer.missing.push(sha256)
      else answer.found.push({ sha256, asset_id: assetId })
    }
    return answer
  }

  async get(organizationId: string, id: string): Promise<AssetRecord> {
    return this.recordIn(this.deps.db, organizationId, id)
  }

  /**
   * `inCollection` lists a manual collection's members instead of the whole library. A page listed before
   * is answered again without the list statement while the organization's library version, or the change
   * log since the version it was kept at, says nothing it shows has changed (see `ListPages`).
   */
  async list(organizationId: string, filter: AssetFilter, page: Page, inCollection?: string): Promise<ListedPage<AssetRecord>> {
    const query = listQueryKey(filter, page, inCollection)
    const linksExpire = this.deps.signer.currentExpiry()
    const kept = this.pages.get(organizationId, query)
    if (kept?.linksExpire === linksExpire && (await this.stillCurrent(organizationId, query, kept, { filter, inCollection }))) return kept.page
    // Only full text counts up to a cap: a word can match most of a library, and its total matters least.
    const countCap = filter.q === undefined ? undefined : this.deps.exactTotalUpTo
    const options = { ...this.totalOptions(organizationId, filter, inCollection), countCap }
    const counted = store.countsMatches(filter, options) ? countedScopeKey(filter, inCollection) : undefined
    const countedBefore = counted === undefined ? undefined : this.pages.countedTotal(organizationId, counted)
    const { rows, total: count, version } = await store.listAssets(this.deps.db, organizationId, filter, page, { ...options, countedBefore })
    const total = countCap === undefined || count <= countCap ? { total: count, total_exact: true } : await this.estimatedTotal(organizationId, filter, inCollection, { count, before: countedBefore, version })
    if (counted !== undefined && version !== null) this.pages.keepCountedTotal(organizationId, counted, { version, total: count, ...(!total.total_exact && { estimate: total.total }) })
    const listed = { data: rows.map((row) => this.record(row)), ...total, ...page }
    this.pages.keep(organizationId, query, { version, linksExpire, page: listed })
    return listed
  }

  /**
   * Whether a kept page is what the list would answer now: its library version is current, or the
   * changes since it cannot have altered it (then it is kept under the current version, so the next
   * read is free again).
   */
  private async stillCurrent(organizationId: string, query: string, kept: CachedPage<AssetRecord>, scope: { filter: AssetFilter; inCollection: string | undefined }): Promise<boolean> {
    if (kept.version === null) return false
    if (kept.version === (await this.libraryVersions.get(organizationId))) return true
    const check = { organizationId, since: kept.version, scope: { ...scope, shown: kept.page.data.map((asset) => asset.id) } }
    const version = await this.keptPageChecks.get(`${organizationId}\n${query}\n${kept.version}`, check)
    if (version === undefined) return false
    this.pages.keep(organizationId, query, { ...kept, version })
    return true
  }

  /**
   * The total of a full-text list whose count passed its cap: the planner's estimate (reused with the
   * count it goes with), never less than the matches the count found.
   */
  private async estimatedTotal(
    organizationId: string,
    filter: AssetFilter,
    inCollection: string | undefined,
    counted: { count: number; before: store.CountedTotal | undefined; version: string | null },
  ) {
    const { before } = counted
    const kept = before?.version === counted.version ? before.estimate : undefined
    const estimate = kept ?? (await store.estimatedMatches(this.deps.db, organizationId, filter, inCollection))
    return { total: Math.max(estimate, counted.count), total_exact: false }
  }

  /** The counts of several scopes (a filter, optionally within a manual collection) in one statement. */
  countEach(organizationId: string, scopes: Array<{ filter: AssetFilter; inCollection?: string }>): Promise<number[]> {
    const counted = scopes.map(({ filter, inCollection }) => ({ filter, ...this.totalOptions(organizationId, filter, inCollection) }))
    return store.countAssetsEach(this.deps.db, organizationId, counted)
  }

  async count(organizationId: string, filter: AssetFilter, inCollection?: string): Promise<number> {
    const [count] = await this.countEach(organizationId, [{ filter, inCollection }])
    return count!
  }

  /**
   * Where the total of a filter comes from: a filter on one tag, asset type, client or product over the
   * whole library has its count kept beside the catalogue, so it costs one lookup, not a count.
   */
  private totalOptions(organizationId: string, filter: AssetFilter, inCollection: string | undefined): store.ListOptions {
    const used = KEPT_COUNT_FIELDS.filter((field) => filter[field] !== undefined)
    const kept = inCollection === undefined && filter.q === undefined && used.length === 1 ? used[0]! : undefined
    return { inCollection, keptTotal: kept && this.deps.catalog.keptCount(organizationId, kept, filter[kept]!) }
  }

  /** Whether the filter selects the asset (a smart collection's file links). */
  matches(organizationId: string, assetId: string, filter: AssetFilter): Promise<boolean> {
    return store.assetMatches(this.deps.db, organizationId, assetId, filter)
  }

  /** Ids among `ids` that are not assets of the organization. */
  async unknownIds(organizationId: string, ids: string[]): Promise<string[]> {
    const known = await store.existingAssetIds(this.deps.db, organizationId, ids)
    return ids.filter((id) => !known.has(id))
  }

  async update(organizationId: string, id: string, changes: AssetChanges): Promise<AssetRecord> {
    const { tag_names: tagNames, ...fields } = changes
    if (fields.asset_type) fields.asset_type = await this.deps.catalog.assetType(organizationId, fields.asset_type)
    const record = await inTransaction(this.deps.db, async (tx) => {
      const tags = tagNames && (await this.deps.catalog.spellTags(tx, organizationId, normaliseTags(tagNames)))
      if (!(await store.updateAsset(tx, organizationId, id, { ...fields, ...trimNames(fields), ...(tags && { tags }) }))) throw problems.notFound('Asset')
      const updated = await this.recordIn(tx, organizationId, id)
      await this.deps.queueText(sql<{ id: string }>`select ${id}::uuid as id`, organizationId, updated).execute(tx)
      await emit(tx, organizationId, 'asset.updated', updated)
      return updated
    })
    this.deps.afterTextCommitted()
    this.deps.afterEventsCommitted()
    return record
  }

  /**
   * Removes the asset from its collections and deletes its files once no asset refers to them. Of
   * concurrent deletes only the one whose statement removed the row succeeds (and emits); the others
   * find nothing to delete and answer 404. A plain member's session deletes only its own (see
   * `onlyCreatedBy`).
   */
  async delete(organizationId: string, id: string, caller: Caller): Promise<void> {
    const asset = await inTransaction(this.deps.db, async (tx) => {
      const deleted = await store.deleteAsset(tx, organizationId, id, onlyCreatedBy(caller))
      if (!deleted) {
        if ((await store.existingAssetIds(tx, organizationId, [id])).size > 0) throw createdBySomeoneElse('an asset')
        throw problems.notFound('Asset')
      }
      await emit(tx, organizationId, 'asset.deleted', { id })
      return deleted
    })
    this.deps.afterEventsCommitted()
    // Only after the commit: a failed delete must keep its files. The delete is done whatever happens to
    // them: files left behind are found by the sweep.
    await this.removeUnreferenced(asset.sha256, { original: asset.blob_key, thumbnail: asset.thumbnail_key }).catch((error: unknown) =>
      this.deps.logger.warn({ err: error, asset_id: id }, 'the files of a deleted asset could not be removed; the blob sweep will'),
    )
  }

  /**
   * The file behind a signed URL (an asset's original or thumbnail), not yet opened: its blob key names
   * exactly these bytes (keys are content-addressed), so a conditional request needs no file access.
   * A thumbnail not made yet, or whose file is missing, is made when opened; one whose image failed to
   * decode is 404 `thumbnail_unavailable`.
   */
  async file(id: string, variant: 'original' | 'thumbnail'): Promise<AssetFile | null> {
    const files = await store.findAssetFiles(this.deps.db, id)
    if (!files) return null
    if (variant === 'original') {
      return { key: files.blob_key, mimeType: files.mime_type, open: (range) => this.deps.blobs.stream(files.blob_key, range), stored: () => this.deps.blobs.exists(files.blob_key) }
    }
    if (files.thumbnail_failure !== null) throw thumbnailUnavailable(files.thumbnail_failure)
    return { key: files.thumbnail_key, mimeType: 'image/webp', open: (range) => this.openThumbnail(files, range), stored: () => this.thumbnailStored(files) }
  }

  private async thumbnailStored(source: store.ThumbnailSource): Promise<boolean> {
    const outcome = await this.deps.thumbnails.ensure(source)
    if (outcome.state === 'failed') throw thumbnailUnavailable(outcome.reason)
    return outcome.state === 'stored'
  }

  private async openThumbnail(source: store.ThumbnailSource, range: ByteRange | undefined): Promise<BlobStream | null> {
    const stored = await this.deps.blobs.stream(source.thumbnail_key, range)
    if (stored) return stored
    return (await this.thumbnailStored(source)) ? this.deps.blobs.stream(source.thumbnail_key, range) : null
  }

  /** The first asset each manual collection lists, by collection id: one statement for them all; none for an empty one. */
  async firstInCollections(organizationId: string, collectionIds: string[]): Promise<Map<string, Cover>> {
    const firsts = await store.firstInCollections(this.deps.db, organizationId, collectionIds)
    return new Map([...firsts].map(([collectionId, first]) => [collectionId, this.cover(first)]))
  }

  /** The first asset each filter lists, null where nothing matches: one statement for them all. */
  async firstMatchingEach(organizationId: string, filters: AssetFilter[]): Promise<Array<Cover | null>> {
    const firsts = await store.firstMatchingEach(this.deps.db, organizationId, filters)
    return firsts.map((first) => first && this.cover(first))
  }

  private cover(first: store.FirstAsset): Cover {
    return { asset_id: first.id, thumbnail_url: this.thumbnailLink(first.id).url, width: first.width, height: first.height }
  }

  private thumbnailLink(id: string) {
    return this.deps.signer.sign(`/files/assets/${id}/thumbnail`)
  }

  record(row: AssetWithRelations) {
    const thumbnail = this.thumbnailLink(row.id)
    const original = this.deps.signer.sign(`/files/assets/${row.id}/original`)
    return {
      id: row.id,
      title: row.title,
      asset_type: row.asset_type,
      client: row.client,
      product: row.product,
      tags: row.tags,
      source_url: row.source_url,
      created_by_ai: row.created_by_ai,
      mime_type: row.mime_type,
      width: row.width,
      height: row.height,
      byte_size: Number(row.byte_size),
      sha256: row.sha256,
      thumbnail_url: thumbnail.url,
      thumbnail_expires_at: thumbnail.expiresAt.toISOString(),
      thumbnail_status: row.thumbnail_failure === null ? ('available' as const) : ('failed' as const),
      thumbnail_failure: row.thumbnail_failure,
      original_url: original.url,
      collections: row.collections,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    }
  }

  private async recordIn(db: Db, organizationId: string, id: string): Promise<AssetRecord> {
    const row = await store.findAsset(db, organizationId, id)
    if (!row) throw problems.notFound('Asset')
    return this.record(row)
  }

  private async duplicate(assetId: string, collection: { id: string } | null) {
    if (collection) await this.deps.collections.add(collection.id, [assetId])
    return { asset_id: assetId, duplicate: true }
  }


  private async imageBytes(input: PushInput): Promise<Buffer> {
    if (input.image_bytes !== undefined) {
      if (input.image_bytes.length > MAX_IMAGE_BYTES) throw imageTooLarge()
      return input.image_bytes
    }
    if (input.image_base64 !== undefined) return decodeBase64Image(input.image_base64)
    try {
      const response = await this.deps.fetcher.fetch(input.image_url!, { maxBytes: MAX_IMAGE_BYTES, totalTimeoutMs: this.deps.imageFetchTimeoutMs })
      return response.body
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error
      if (error.kind === 'too_large') throw imageTooLarge()
      if (error.kind === 'blocked' || error.kind === 'invalid_url') {
        throw problems.badGateway('image_fetch_blocked', `image_url was not fetched: ${error.message}`, failureClass(error))
      }
      throw problems.badGateway('image_fetch_failed', `image_url could not be fetched: ${error.message}`, failureClass(error))
    }
  }

  /** An image call whose refusal of the bytes (not an image, unsupported, too many pixels) is the client's 422. */
  private async image<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      if (!(error instanceof ImageError)) throw error
      throw problems.unprocessable(IMAGE_ERROR_CODES[error.kind], error.message)
    }
  }

  private assertWithinPlan(plan: string, used: { assets: number; bytes: number }, byteSize: number): void {
    const limit = this.deps.planLimits[plan]
    if (!limit) return
    if (limit.maxAssets !== undefined && used.assets + 1 > limit.maxAssets) {
      throw problems.forbidden('plan_limit_reached', `The ${plan} plan holds at most ${limit.maxAssets} assets.`)
    }
    if (limit.maxBytes !== undefined && used.bytes + byteSize > limit.maxBytes) {
      throw problems.forbidden('plan_limit_reached', `The ${plan} plan stores at most ${limit.maxBytes} bytes of images.`)
    }
  }

  private async removeBlobs(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.deps.blobs.delete(key)))
  }
}

/**
 * Accepts an optional data: URL prefix and line breaks; refuses anything else that is not base64.
 * Node's decoder skips characters outside the alphabet, so a decoded length short of what the text's
 * length promises means junk (or line breaks): that check costs nothing, where a scan of 35 MB costs
 * ~10 ms, so only such a text is scanned, to drop its line breaks and check again.
 */
export function decodeBase64Image(text: string): Buffer {
  const prefix = DATA_URL_PREFIX.exec(text.slice(0, 200))?.[0].length ?? 0
  const payload = prefix ? text.slice(prefix) : text
  const bytes = decodedLength(payload) <= MAX_IMAGE_BYTES ? decodeExactly(payload) : null
  if (bytes) return bytes
  const stripped = payload.replace(/[\r\n ]/g, '')
  if (decodedLength(stripped) > MAX_IMAGE_BYTES) throw imageTooLarge()
  return decodeExactly(stripped) ?? invalidBase64()
}

function decodedLength(payload: string): number {
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0
  return Math.floor(payload.length / 4) * 3 - padding
}

/** The bytes of `payload` when every character of it is base64, else null. */
function decodeExactly(payload: string): Buffer | null {
  if (payload.length === 0 || payload.length % 4 !== 0) return null
  const bytes = Buffer.from(payload, 'base64')
  return bytes.length === decodedLength(payload) ? bytes : null
}

function invalidBase64(): never {
  throw problems.validation([{ pointer: '/image_base64', detail: 'is not valid base64' }])
}

function thumbnailUnavailable(reason: string): AppError {
  return new AppError('thumbnail_unavailable', `This asset has no thumbnail: ${reason} The original is kept as it was pushed.`)
}

function imageTooLarge(): AppError {
  return new AppError('image_too_large', `The image is larger than ${MAX_IMAGE_BYTES} bytes (25 MiB).`)
}

/**
 * Whose rows a caller may delete: a plain member's session only what that user created; a key, an owner
 * or an admin anything (undefined). Rows made with a key or before creators were recorded count as
 * someone else's.
 */
export function onlyCreatedBy(caller: Caller): string | undefined {
  return caller.via === 'session' && !caller.manager ? caller.userId : undefined
}

/** Whom a new asset or collection records as its creator: the user of a session; nobody for a key. */
export function creatorOf(caller: Caller): string | null {
  return caller.via === 'session' ? caller.userId : null
}

export function createdBySomeoneElse(what: 'an asset' | 'a collection'): AppError {
  return problems.forbidden('role_required', `Only owners and admins can delete ${what} someone else created.`)
}

/** The row of a pushed image: its metadata as given, trimmed, and what the image and its files are. */
function newAsset(
  organizationId: string,
  input: PushInput,
  facts: {
    assetType: string | null
    tags: string[]
    bytes: Buffer
    sha256: string
    image: { mimeType: string; width: number; height: number }
    files: { original: string; thumbnail: string }
    createdBy: string | null
  },
): store.NewAsset {
  return {
    id: uuidv7(),
    organization_id: organizationId,
    title: input.title?.trim() ?? '',
    asset_type: facts.assetType,
    client: input.client?.trim() || null,
    product: input.product?.trim() || null,
    tags: facts.tags,
    source_url: input.source_url ?? null,
    created_by_ai: input.created_by_ai ?? true,
    mime_type: facts.image.mimeType,
    width: facts.image.width,
    height: facts.image.height,
    byte_size: facts.bytes.length,
    sha256: facts.sha256,
    blob_key: facts.files.original,
    thumbnail_key: facts.files.thumbnail,
    thumbnail_failure: null,
    created_by: facts.createdBy,
    created_at: new Date(),
  }
}

/** Originals are stored under their SHA-256 (`BlobStore.put`), thumbnails beside them. */
function thumbnailKey(sha256: string): string {
  return variantKey(sha256, THUMBNAIL_VARIANT)
}

/** Trimmed, without empties, one of each case-insensitively (the first spelling wins). */
function normaliseTags(names: string[]): string[] {
  const seen = new Map<string, string>()
  for (const name of names.map((n) => n.trim()).filter(Boolean)) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name)
  return [...seen.values()]
}

function trimNames(fields: Omit<AssetChanges, 'tag_names'>) {
  const trim = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null)
  return {
    ...(fields.title !== undefined && { title: fields.title.trim() }),
    ...(fields.client !== undefined && { client: trim(fields.client) }),
    ...(fields.product !== undefined && { product: trim(fields.product) }),
  }
}
