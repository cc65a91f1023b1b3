import type { FastifyBaseLogger } from 'fastify'
import type { RawBuilder } from 'kysely'
import type { ChangedRows } from '../../platform/background/derivation.js'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import { sha256Hex } from '../../platform/crypto.js'
import type { Db } from '../../platform/db/index.js'
import { emitting } from '../../platform/events/outbox.js'
import { AppError, problems } from '../../platform/http/errors.js'
import { uuidv7 } from '../../platform/ids.js'
import type { ImageProcessor } from '../../platform/images/images.js'
import type { SafeFetcher } from '../../platform/net/safe-fetch.js'
import type { Caller } from '../../platform/http/route-auth.js'
import type { UrlSigner } from '../../platform/signed-urls.js'
import type { CatalogService } from '../catalog/service.js'
import { removeIfUnreferenced } from './blob-sweep.js'
import { assertWithinPlan, filesOf, inspectImage, MAX_IMAGE_BYTES, readFileWords, readImageBytes, type FileWords, type ImageSource, type PlanLimit } from './incoming-file.js'
import { actorOf, assetRecord, creatorOf, type AssetChange, type AssetDerivation, type PresetSource } from './record.js'
import * as store from './store.js'
import { belongsToOtherAsset, type AssetVersions } from './versions.js'

export { MAX_IMAGE_BYTES, type PlanLimit } from './incoming-file.js'

export interface AssetPushDeps {
  db: Db
  logger: FastifyBaseLogger
  catalog: CatalogService
  blobs: BlobStore
  /** Reads the pushed image's header; decoding is the thumbnails' business. */
  images: ImageProcessor
  fetcher: SafeFetcher
  planLimits: Record<string, PlanLimit>
  imageFetchTimeoutMs: number
  /**
   * The work that follows a change to an asset (thumbnails, embeddings): each queues its part in the
   * push's statement and is woken after its commit.
   */
  derivations: readonly AssetDerivation[]
  /** After the commit of a change that emitted events: wakes their delivery. */
  afterEventsCommitted: () => void
  /** The collections module, which owns collections and their members: a push may name one. */
  collections: CollectionMembership
  /** Signs the file links of the record the `asset.created` event carries. */
  signer: UrlSigner
  /** The organization's presets, which the record links in `renditions`. */
  presets: PresetSource
  /** The trash module, which builds on assets: a delete moves an asset there, a push of its bytes restores it. */
  trash: AssetTrash
}

/** What the assets module needs of the trash (implemented by the trash module, which imports assets). */
export interface AssetTrash {
  /** Moves the asset to the trash (DELETE /api/v1/assets/{id}). */
  trash(organizationId: string, id: string, caller: Caller): Promise<void>
  /** Restores a trashed asset whose bytes were pushed again; false when it is no longer in the trash. */
  restoreForPush(organizationId: string, id: string): Promise<boolean>
}

/** What a push answers: the new asset, or the one that already has these bytes; with `external_id`, its version too. */
export interface PushOutcome {
  asset_id: string
  duplicate: boolean
  version?: number
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
  memberInsert(collectionId: string, assets: ChangedRows): RawBuilder<unknown>
  /** Adds assets that exist already (a duplicate push); adding twice is a no-op. */
  add(collectionId: string, assetIds: string[]): Promise<number>
}

/** A collection as a push finds it by name. */
export interface NamedCollection {
  id: string
  name: string
  kind: 'manual' | 'smart'
}

export interface PushInput extends ImageSource {
  title?: string
  asset_type?: string
  client?: string
  product?: string
  tag_names?: string[]
  collection_name?: string
  source_url?: string
  created_by_ai?: boolean
  /** The asset's id in the system it came from; unique per organization among live assets. */
  external_id?: string
}

/**
 * Where a new asset came from, as `asset.created` tells it (the record itself does not keep it): a push
 * with a key (`api`), the web app's push or upload (`upload`), or a design-tool import (`figma`).
 */
export type AssetSource = { kind: 'api' } | { kind: 'upload' } | { kind: 'figma'; file_key: string; node_id: string; import_id: string }

/** The metadata fields a push sets, which a new version of the asset its `external_id` names takes as a PATCH would. */
export type PushMetadata = Pick<PushInput, 'title' | 'asset_type' | 'client' | 'product' | 'tag_names' | 'source_url' | 'created_by_ai'>

/** Pushing bytes that did not come with a request (an import): where they came from, and what a new version changes. */
export interface FilePush {
  source: AssetSource
  /** The fields a new version of the asset `external_id` names changes; the push's own fields make a new asset only. */
  versionChanges: PushMetadata
}

/** Pushing an image: fetching or decoding its bytes, checking them and the plan, storing the original, and one insert with all that goes with it. */
export class AssetPush {
  constructor(
    private readonly deps: AssetPushDeps,
    /** A push whose `external_id` names an asset adds a version to it. */
    private readonly versions: AssetVersions,
  ) {}

  /**
   * Statements: one to learn what the push needs (plan usage, a duplicate, the names it uses), one to
   * add tags used for the first time (only then), and one that inserts the asset with its membership,
   * embedding text, thumbnail job and event; one more to look up the file's keywords when they are its
   * tags. Only the image's header and its embedded IPTC and XMP are read, and its original written,
   * between the first and the last: the derived data (thumbnail, embedding) is made after the commit.
   */
  async push(organizationId: string, input: PushInput, caller: Caller): Promise<PushOutcome> {
    return this.pushBytes(organizationId, input, await readImageBytes(input, this.deps), caller, { source: sourceOf(caller), versionChanges: input })
  }

  /**
   * A push of `bytes` read by other means (an import's rendered node): the rules of `push`, but a new
   * version of the asset `external_id` names changes only `file.versionChanges` (the bytes alone when it
   * is empty), and `asset.created` says where a new asset came from.
   */
  async pushFile(organizationId: string, input: Omit<PushInput, keyof ImageSource>, bytes: Buffer, caller: Caller, file: FilePush): Promise<PushOutcome> {
    if (bytes.length > MAX_IMAGE_BYTES) throw new AppError('image_too_large', `The image is larger than ${MAX_IMAGE_BYTES} bytes (25 MiB).`)
    return this.pushBytes(organizationId, input, bytes, caller, file)
  }

  /**
   * Checks what a push names before anything is pushed (an import, at its creation): the asset type in
   * the catalogue (422 `unknown_asset_type`), the collection a manual one (404, 409) — as the push answers.
   */
  async checkNames(organizationId: string, input: Pick<PushInput, 'asset_type' | 'collection_name'>): Promise<void> {
    if (input.asset_type !== undefined) await this.deps.catalog.assetType(organizationId, input.asset_type)
    if (input.collection_name === undefined) return
    const { collection } = await store.selectLookups(this.deps.db, { collection: this.deps.collections.collectionNamed(organizationId, input.collection_name) })
    this.deps.collections.manualForPush(collection, input.collection_name)
  }

  /**
   * With an `external_id` that names a live asset, the bytes become its new version (see
   * `updateByExternalId`); a new one is the new asset's. `retried`: a concurrent push gave the same new
   * `external_id` to its asset first, so this one is pushed again to become that asset's version.
   */
  private async pushBytes(organizationId: string, input: PushInput, bytes: Buffer, caller: Caller, file: FilePush, retried = false): Promise<PushOutcome> {
    const sha256 = sha256Hex(bytes)
    const tags = normaliseTags(input.tag_names ?? [])
    const context = await store.pushContext(this.deps.db, organizationId, sha256, this.pushLookups(organizationId, input, tags))
    const { lookups } = context
    const assetType = input.asset_type === undefined ? null : (lookups.asset_type ?? (await this.deps.catalog.unknownAssetType(organizationId, input.asset_type)))
    const collection = input.collection_name === undefined ? null : this.deps.collections.manualForPush(lookups.collection ?? null, input.collection_name)
    const version = { bytes, assetType, tags, knownTags: lookups.known_tags, collection, caller }
    if (lookups.external_asset) return this.updateByExternalId(organizationId, lookups.external_asset, file.versionChanges, version)
    const trashedNamed = lookups.trashed_external_asset
    if (trashedNamed && (await this.restoreNamed(organizationId, trashedNamed, context))) {
      return this.updateByExternalId(organizationId, trashedNamed, file.versionChanges, version)
    }
    // A new `external_id` with bytes the library has: a duplicate like any other, the id is not recorded.
    if (context.duplicateOf) return this.duplicate(context.duplicateOf, collection)
    if (context.trashedOf && (await this.deps.trash.restoreForPush(organizationId, context.trashedOf))) return this.duplicate(context.trashedOf, collection)
    // Before any decoding or file write; checked again under the organization's lock by the insert.
    this.assertWithinPlan(context.plan, context.used, bytes.length)

    // The header only: nothing is written for what is not an image.
    const info = await inspectImage(this.deps.images, bytes)
    const words = await readFileWords(bytes, info)
    // The file's keywords are the tags of a push that names none (`tag_names` absent; an empty list is the push's own).
    const fileTags = input.tag_names === undefined ? normaliseTags(words.embedded.keywords) : []
    const files = filesOf(sha256)
    let inserted: { outcome: store.InsertOutcome; id: string; queued: AssetDerivation[] }
    try {
      // Before the insert, so its write and fsync never hold the database.
      await this.deps.blobs.put(bytes, sha256)
      const spelledTags =
        fileTags.length > 0
          ? await this.deps.catalog.spellTags(this.deps.db, organizationId, fileTags)
          : await this.deps.catalog.spellTags(this.deps.db, organizationId, tags, lookups.known_tags)
      const asset = newAsset(organizationId, input, { assetType, tags: spelledTags, bytes, sha256, image: info, words, files, caller })
      inserted = { ...(await this.insertPushed(asset, collection, file.source)), id: asset.id }
      if (inserted.outcome === 'over_plan') await this.refuseOverPlan(organizationId, sha256, bytes.length)
    } catch (error) {
      // The push's own error is what the client must hear, even if the clean-up fails too.
      await removeIfUnreferenced(this.deps.db, this.deps.blobs, sha256, [files.original, files.thumbnail]).catch((cleanup: unknown) => this.deps.logger.error({ err: cleanup }, 'could not remove the files of a failed push'))
      if (!retried && store.isUniqueViolation(error, store.EXTERNAL_ID_INDEX)) return this.pushBytes(organizationId, input, bytes, caller, file, true)
      throw error
    }
    if (inserted.outcome !== 'inserted') return this.duplicateOfWinner(organizationId, sha256, collection)
    // A delete of the same bytes (another asset's) that checked their use before this commit may have removed the original.
    await this.deps.blobs.put(bytes, sha256)
    for (const derivation of inserted.queued) derivation.afterCommit()
    this.deps.afterEventsCommitted()
    return { asset_id: inserted.id, duplicate: false, ...(input.external_id !== undefined && { version: 1 }) }
  }

  /**
   * A push naming a trashed asset by `external_id` restores it, so the version rules then apply to it;
   * but bytes of another asset are refused first, leaving it in the trash. False when it left the trash
   * meanwhile (the push then makes a new asset).
   */
  private async restoreNamed(organizationId: string, trashedId: string, context: { duplicateOf: string | null; trashedOf: string | null }): Promise<boolean> {
    const otherOwner = context.duplicateOf ?? (context.trashedOf === trashedId ? null : context.trashedOf)
    if (otherOwner) throw belongsToOtherAsset(otherOwner)
    return this.deps.trash.restoreForPush(organizationId, trashedId)
  }

  /**
   * A push naming a live asset by `external_id`: its bytes are the asset's new version, and the metadata
   * fields `input` sets replace the old ones as a PATCH would (applied only with a new version: its current
   * bytes change nothing). A named manual collection receives the asset either way, as with a duplicate.
   * `sent` is what the push resolved from its own fields: its tags are `input`'s when `input` is the push.
   */
  private async updateByExternalId(
    organizationId: string,
    assetId: string,
    input: PushMetadata,
    sent: { bytes: Buffer; assetType: string | null; tags: string[]; knownTags: string[] | undefined; collection: { id: string } | null; caller: Caller },
  ): Promise<PushOutcome> {
    const tags = input.tag_names === undefined ? [] : normaliseTags(input.tag_names)
    const sameTags = tags.length === sent.tags.length && tags.every((tag, i) => tag === sent.tags[i])
    const metadata = async (): Promise<store.AssetChanges> => ({
      ...(input.title !== undefined && { title: input.title.trim() }),
      ...(input.asset_type !== undefined && { asset_type: sent.assetType }),
      ...(input.client !== undefined && { client: input.client.trim() || null }),
      ...(input.product !== undefined && { product: input.product.trim() || null }),
      ...(input.source_url !== undefined && { source_url: input.source_url }),
      ...(input.created_by_ai !== undefined && { created_by_ai: input.created_by_ai }),
      ...(input.tag_names !== undefined && { tags: await this.deps.catalog.spellTags(this.deps.db, organizationId, tags, sameTags ? sent.knownTags : undefined) }),
    })
    const outcome = await this.versions.addBytes(organizationId, assetId, sent.bytes, sent.caller, metadata)
    if (sent.collection) await this.deps.collections.add(sent.collection.id, [assetId])
    return outcome
  }

  /**
   * The insert, with what goes with it: the membership, the work of each derivation that follows a new
   * asset (returned, to wake after the commit), and the event. The event's record is built here, so
   * nothing is read back.
   */
  private async insertPushed(asset: store.NewAsset, collection: { id: string; name: string } | null, source: AssetSource) {
    const organizationId = asset.organization_id
    const presets = await this.deps.presets.presetsOf(organizationId)
    const record = assetRecord({ ...asset, ...store.NOT_ANALYSED, created_by_kind: asset.pushed_by.kind, created_by_name: asset.pushed_by.name, collections: collection ? [collection] : [], updated_at: asset.created_at }, this.deps.signer, presets)
    const change: AssetChange = { kind: 'created', organizationId, record }
    const queued: AssetDerivation[] = []
    const derived = this.deps.derivations.map((derivation) => (inserted: ChangedRows) => {
      const clause = derivation.queue(inserted, change)
      if (clause) queued.push(derivation)
      return clause
    })
    const outcome = await store.insertAsset(this.deps.db, {
      asset,
      planLimits: this.deps.planLimits,
      alongside: [
        ...(collection ? [(inserted: ChangedRows) => this.deps.collections.memberInsert(collection.id, inserted)] : []),
        ...derived,
        (inserted) => emitting(inserted, organizationId, 'asset.created', { ...record, source }),
      ],
    })
    return { outcome, queued }
  }

  /** The names a push uses, looked up in the statement that reads its context. */
  private pushLookups(organizationId: string, input: PushInput, tags: string[]) {
    const lookups: {
      asset_type?: RawBuilder<string | null>
      collection?: RawBuilder<NamedCollection | null>
      known_tags?: RawBuilder<string[]>
      external_asset?: RawBuilder<string | null>
      trashed_external_asset?: RawBuilder<string | null>
    } = {}
    if (input.asset_type !== undefined) lookups.asset_type = this.deps.catalog.registeredAssetType(organizationId, input.asset_type)
    if (input.collection_name !== undefined) lookups.collection = this.deps.collections.collectionNamed(organizationId, input.collection_name)
    if (tags.length > 0) lookups.known_tags = this.deps.catalog.knownTags(organizationId, tags)
    if (input.external_id !== undefined) {
      lookups.external_asset = store.assetWithExternalId(organizationId, input.external_id)
      lookups.trashed_external_asset = store.trashedAssetWithExternalId(organizationId, input.external_id)
    }
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

  private async duplicate(assetId: string, collection: { id: string } | null) {
    if (collection) await this.deps.collections.add(collection.id, [assetId])
    return { asset_id: assetId, duplicate: true }
  }

  private assertWithinPlan(plan: string, used: { assets: number; bytes: number }, byteSize: number): void {
    assertWithinPlan(this.deps.planLimits[plan], plan, used, { newAssets: 1, byteSize })
  }
}

/** The row of a pushed image: its metadata as given, trimmed (an empty title filled by the file's), and what the image, its words and its files are. */
function newAsset(
  organizationId: string,
  input: PushInput,
  facts: {
    assetType: string | null
    tags: string[]
    bytes: Buffer
    sha256: string
    image: { mimeType: string; width: number; height: number }
    words: FileWords
    files: { original: string; thumbnail: string }
    caller: Caller
  },
): store.NewAsset {
  return {
    id: uuidv7(),
    organization_id: organizationId,
    // The file's embedded title fills a title the push leaves empty.
    title: input.title?.trim() || facts.words.embedded.title || '',
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
    version: 1,
    external_id: input.external_id ?? null,
    file_text: facts.words.fileText,
    created_by: creatorOf(facts.caller),
    pushed_by: actorOf(facts.caller),
    created_at: new Date(),
  }
}

/** Where a request's push comes from: a key's is the API's, a session's the web app's upload. */
function sourceOf(caller: Caller): AssetSource {
  return caller.via === 'key' ? { kind: 'api' } : { kind: 'upload' }
}

/** Trimmed, without empties, one of each case-insensitively (the first spelling wins). */
export function normaliseTags(names: string[]): string[] {
  const seen = new Map<string, string>()
  for (const name of names.map((n) => n.trim()).filter(Boolean)) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name)
  return [...seen.values()]
}
