import type { ChangedRows } from '../../platform/background/derivation.js'
import { sha256Hex } from '../../platform/crypto.js'
import { emitting } from '../../platform/events/outbox.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { Caller } from '../../platform/http/route-auth.js'
import { removeIfUnreferenced } from './blob-sweep.js'
import { assertWithinPlan, filesOf, inspectImage, readFileWords, readImageBytes, type ImageSource } from './incoming-file.js'
import type { AssetPushDeps } from './push.js'
import { actorOf, assetRecord, fileLink, recordedActor, type AssetChange, type AssetDerivation } from './record.js'
import * as store from './store.js'

/** What adding a version answers: the asset, its version now, and whether the bytes were already its current ones. */
export interface VersionOutcome {
  asset_id: string
  version: number
  duplicate: boolean
}

/** What `asset.updated`'s `changes` names: `file` for a new version, and each metadata field the request set. */
export type ChangedField = 'file' | keyof store.AssetChanges

/** How often a version is tried again after another change of the same asset came first. */
const STALE_RETRIES = 8

/**
 * New versions of an asset: a new file uploaded, an earlier version restored, or a push whose
 * `external_id` names the asset. The asset keeps its id, metadata, tags and collections; its file facts,
 * thumbnail and derived data follow the newest version, and `asset_versions` keeps every one.
 */
export class AssetVersions {
  constructor(private readonly deps: AssetPushDeps) {}

  /** POST /api/v1/assets/{id}/versions: the file from the push's sources, with the push's limits. */
  async upload(organizationId: string, assetId: string, source: ImageSource, caller: Caller): Promise<VersionOutcome> {
    const bytes = await readImageBytes(source, this.deps)
    return this.addBytes(organizationId, assetId, bytes, caller)
  }

  /**
   * Makes `bytes` the asset's newest version, with `metadata` changed alongside (a push with a known
   * `external_id`; asked for only once a version is to be added, since it may add tags to the catalogue). Statements: one to read the asset, the plan and who has the bytes; one that adds
   * the version with its thumbnail job and event. The original is written between them, before the
   * database is held, and removed again if the version is not added.
   */
  async addBytes(organizationId: string, assetId: string, bytes: Buffer, caller: Caller, metadata: () => Promise<store.AssetChanges> = async () => ({})): Promise<VersionOutcome> {
    const sha256 = sha256Hex(bytes)
    const context = await store.versionContext(this.deps.db, organizationId, assetId, sha256)
    const early = this.answerWithoutWriting(context, sha256)
    if (early) return early
    this.assertRoom(context, bytes.length)
    const info = await inspectImage(this.deps.images, bytes)
    // The asset keeps its title and tags; the new file's own words are found by full text.
    const { fileText } = await readFileWords(bytes, info)
    const files = filesOf(sha256)
    const file = { sha256, blob_key: files.original, thumbnail_key: files.thumbnail, mime_type: info.mimeType, width: info.width, height: info.height, byte_size: bytes.length, file_text: fileText }
    let outcome: VersionOutcome
    try {
      await this.deps.blobs.put(bytes, sha256)
      outcome = await this.add(organizationId, context, file, caller, await metadata())
    } catch (error) {
      await removeIfUnreferenced(this.deps.db, this.deps.blobs, sha256, [files.original, files.thumbnail]).catch((cleanup: unknown) =>
        this.deps.logger.error({ err: cleanup }, 'could not remove the files of a failed version'),
      )
      throw error
    }
    // A delete of the same bytes (another asset's) that checked their use before this commit may have removed the original.
    if (!outcome.duplicate) await this.deps.blobs.put(bytes, sha256)
    return outcome
  }

  /** POST /api/v1/assets/{id}/versions/{version}/restore: a copy of that version becomes the newest. */
  async restore(organizationId: string, assetId: string, version: number, caller: Caller): Promise<VersionOutcome> {
    const file = await store.findVersion(this.deps.db, organizationId, assetId, version)
    if (!file) throw problems.notFound('Version')
    const context = await store.versionContext(this.deps.db, organizationId, assetId, file.sha256)
    const early = this.answerWithoutWriting(context, file.sha256)
    if (early) return early
    this.assertRoom(context, file.byte_size)
    return this.add(organizationId, context, file, caller, {})
  }

  /** GET /api/v1/assets/{id}/versions: every version, newest first, with signed links to its files. */
  async list(organizationId: string, assetId: string) {
    const rows = await store.listVersions(this.deps.db, organizationId, assetId)
    if (!rows) throw problems.notFound('Asset')
    return {
      data: rows.map((row) => ({
        version: row.version,
        sha256: row.sha256,
        byte_size: row.byte_size,
        width: row.width,
        height: row.height,
        mime_type: row.mime_type,
        created_at: row.created_at.toISOString(),
        created_by: recordedActor(row.created_by_kind, row.created_by_name),
        original_url: fileLink(this.deps.signer, assetId, row.version, 'original').url,
        thumbnail_url: fileLink(this.deps.signer, assetId, row.version, 'thumbnail').url,
      })),
    }
  }

  /** 404 for no such asset, the duplicate answer for its current bytes, 409 for another asset's; undefined: go on. */
  private answerWithoutWriting(context: store.VersionContext, sha256: string): VersionOutcome | undefined {
    const { asset } = context
    if (!asset) throw problems.notFound('Asset')
    if (asset.sha256 === sha256) return { asset_id: asset.id, version: asset.version, duplicate: true }
    if (context.otherOwner !== null) throw belongsToOtherAsset(context.otherOwner)
    return undefined
  }

  /** Checked before any file is written; again under the organization's lock by the statement. */
  private assertRoom(context: store.VersionContext, byteSize: number): void {
    assertWithinPlan(this.deps.planLimits[context.plan], context.plan, context.used, { newAssets: 0, byteSize })
  }

  /**
   * The statement that adds the version; when another change of the asset came first, the asset is read
   * again and its rules applied again (it may be gone, or hold these bytes now).
   */
  private async add(organizationId: string, first: store.VersionContext, file: store.VersionFile, caller: Caller, metadata: store.AssetChanges): Promise<VersionOutcome> {
    let context = first
    for (let attempt = 0; attempt <= STALE_RETRIES; attempt++) {
      const asset = context.asset!
      const outcome = await this.insert(organizationId, asset, file, caller, metadata)
      if (outcome === 'added') return { asset_id: asset.id, version: asset.version + 1, duplicate: false }
      if (outcome === 'over_plan') this.assertRoom(await store.versionContext(this.deps.db, organizationId, asset.id, file.sha256), file.byte_size)
      if (outcome === 'taken') {
        const owner = await store.otherOwner(this.deps.db, organizationId, asset.id, file.sha256)
        if (owner) throw belongsToOtherAsset(owner)
      }
      context = await store.versionContext(this.deps.db, organizationId, asset.id, file.sha256)
      const early = this.answerWithoutWriting(context, file.sha256)
      if (early) return early
      this.assertRoom(context, file.byte_size)
    }
    throw problems.conflict('concurrent_change', 'The asset kept changing while its new version was added; send it again.')
  }

  /** One attempt: the version, its thumbnail job and derived data, and `asset.updated`, built here so nothing is read back. */
  private async insert(organizationId: string, asset: store.AssetWithRelations, file: store.VersionFile, caller: Caller, metadata: store.AssetChanges) {
    const presets = await this.deps.presets.presetsOf(organizationId)
    const createdAt = new Date()
    const record = assetRecord({ ...asset, ...metadata, ...file, ...store.NOT_ANALYSED, version: asset.version + 1, thumbnail_failure: null, updated_at: createdAt }, this.deps.signer, presets)
    const change: AssetChange = { kind: 'updated', organizationId, record, newFile: true }
    const queued: AssetDerivation[] = []
    const derived = this.deps.derivations.map((derivation) => (changed: ChangedRows) => {
      const clause = derivation.queue(changed, change)
      if (clause) queued.push(derivation)
      return clause
    })
    const changes: ChangedField[] = ['file', ...(Object.keys(metadata) as ChangedField[])]
    const outcome = await store.addVersion(this.deps.db, {
      version: { organization_id: organizationId, asset_id: asset.id, current_version: asset.version, file, created_at: createdAt, created_by: actorOf(caller), metadata },
      planLimits: this.deps.planLimits,
      alongside: [...derived, (changed) => emitting(changed, organizationId, 'asset.updated', { ...record, changes })],
    })
    if (outcome === 'added') {
      for (const derivation of queued) derivation.afterCommit()
      this.deps.afterEventsCommitted()
    }
    return outcome
  }
}

/** 409 naming the asset whose bytes these are, live or in the trash (a push of them would restore it). */
export function belongsToOtherAsset(assetId: string): AppError {
  const error = problems.conflict('content_belongs_to_other_asset', `These bytes are asset ${assetId}'s; a version of one asset cannot be another asset's file.`)
  error.extensions = { asset_id: assetId }
  return error
}
