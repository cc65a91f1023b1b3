import type { FastifyBaseLogger } from 'fastify'
import type { BlobStore } from '../../platform/blobs/blob-store.js'
import type { ChangedRows } from '../../platform/background/derivation.js'
import { inTransaction, type Db } from '../../platform/db/index.js'
import { emit, emitting } from '../../platform/events/outbox.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { Page } from '../../platform/http/pagination.js'
import type { Caller } from '../../platform/http/route-auth.js'
import type { UrlSigner } from '../../platform/signed-urls.js'
import type { AssetTrash } from '../assets/push.js'
import { actorOf, assetRecord, type AssetChange, type AssetDerivation, type AssetRecord, type PresetSource } from '../assets/record.js'
import { createdBySomeoneElse, onlyCreatedBy } from '../assets/service.js'
import { existingAssetIds } from '../assets/store.js'
import { removePurgedFiles } from './purge.js'
import * as store from './store.js'

const UNIQUE_VIOLATION = '23505'

export interface TrashDeps {
  db: Db
  logger: FastifyBaseLogger
  blobs: BlobStore
  signer: UrlSigner
  /** The organization's presets: a restored asset's record links them again. */
  presets: PresetSource
  /** The work that follows a new asset: a restored one is queued again, as at its push. */
  derivations: readonly AssetDerivation[]
  afterEventsCommitted: () => void
  /** `TRASH_RETENTION_DAYS`: 0 purges at the delete. */
  retentionDays: number
}

/** An asset in the trash as GET /api/v1/trash shows it: its record as it was, and when, by whom and until when it was deleted. */
export type TrashedRecord = AssetRecord & {
  deleted_at: string
  purge_at: string
  deleted_by: { kind: 'key' | 'user'; name: string }
}

/**
 * The trash: a deleted asset leaves `assets` for `trashed_assets` whole (its versions stay in
 * `asset_versions`, its files in the blob store) until it is restored or purged.
 */
export class TrashService implements AssetTrash {
  constructor(private readonly deps: TrashDeps) {}

  /**
   * DELETE /api/v1/assets/{id}: moves the asset to the trash and emits `asset.deleted`; with no
   * retention, purges it in the same transaction and removes its files after the commit. Of concurrent
   * deletes only the one whose statement moved the row succeeds; the others answer 404. A plain member's
   * session deletes only its own (see `onlyCreatedBy`).
   */
  async trash(organizationId: string, id: string, caller: Caller): Promise<void> {
    const purged = await inTransaction(this.deps.db, (tx) => this.trashWithin(tx, organizationId, id, caller))
    this.deps.afterEventsCommitted()
    await this.removeFiles(purged ?? [])
  }

  /**
   * `trash` in the caller's transaction (a duplicates' resolve trashes several): the files of an asset
   * purged at once (no retention) are returned, for `removeFiles` after the commit.
   */
  async trashWithin(tx: Db, organizationId: string, id: string, caller: Caller): Promise<store.PurgedFiles[] | undefined> {
    const { retentionDays } = this.deps
    const moved = await store.moveToTrash(tx, organizationId, id, { createdBy: onlyCreatedBy(caller), retentionDays, deletedBy: actorOf(caller) })
    if (!moved) {
      if ((await existingAssetIds(tx, organizationId, [id])).size > 0) throw createdBySomeoneElse('an asset')
      throw problems.notFound('Asset')
    }
    await emit(tx, organizationId, 'asset.deleted', { id })
    return retentionDays === 0 ? await store.purgeOne(tx, organizationId, id) : undefined
  }

  /** Removes the files of purged assets that nothing else uses any more (after their commit). */
  async removeFiles(purged: store.PurgedFiles[]): Promise<void> {
    if (purged.length > 0) await removePurgedFiles(this.deps.db, this.deps.blobs, purged, this.deps.logger)
  }

  async list(organizationId: string, page: Page) {
    const { rows, total } = await store.listTrash(this.deps.db, organizationId, page)
    // A trashed asset is rendered to no preset, so its `renditions` are the built-ins' links alone (as its `thumbnail_url` and `original_url`).
    const data: TrashedRecord[] = rows.map((row) => ({
      ...assetRecord(row, this.deps.signer, []),
      deleted_at: row.deleted_at.toISOString(),
      purge_at: row.purge_at.toISOString(),
      deleted_by: { kind: row.deleted_by_kind, name: row.deleted_by_name },
    }))
    return { data, total, total_exact: true, ...page }
  }

  /**
   * Puts the asset back as it was: its id, metadata, tags, version history, external id and the manual
   * collections that still exist; its derivations are queued again as at a push, and `asset.restored`
   * carries its record. 404 when it is not in the trash (a purge that took it first included); 409 when
   * a live asset now holds its bytes or its external id.
   */
  async restore(organizationId: string, id: string): Promise<AssetRecord> {
    const queued: AssetDerivation[] = []
    const presets = await this.deps.presets.presetsOf(organizationId)
    const record = await inTransaction(this.deps.db, async (tx) => {
      const taken = await store.takeFromTrash(tx, organizationId, id)
      if (!taken) throw problems.notFound('Trashed asset')
      const restored = assetRecord(taken.row, this.deps.signer, presets)
      const change: AssetChange = { kind: 'created', organizationId, record: restored }
      const derived = this.deps.derivations.map((derivation) => (rows: ChangedRows) => {
        const clause = derivation.queue(rows, change)
        if (clause) queued.push(derivation)
        return clause
      })
      const alongside = [...derived, (rows: ChangedRows) => emitting(rows, organizationId, 'asset.restored', restored)]
      try {
        await store.restoreRow(tx, { stored: taken.stored, collectionIds: restored.collections.map((collection) => collection.id), alongside })
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error
        throw problems.conflict('restore_conflict', 'A live asset now has this asset\u2019s bytes or its external_id; delete or change that one first.')
      }
      return restored
    })
    for (const derivation of queued) derivation.afterCommit()
    this.deps.afterEventsCommitted()
    return record
  }

  /** A push of a trashed asset's bytes restores it (see `AssetPush`); false when it left the trash meanwhile. */
  async restoreForPush(organizationId: string, id: string): Promise<boolean> {
    try {
      await this.restore(organizationId, id)
      return true
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return false
      throw error
    }
  }

  /** DELETE /api/v1/trash/{id}: purges it now, as the background purge does once its time has come. */
  async purge(organizationId: string, id: string): Promise<void> {
    const files = await store.purgeOne(this.deps.db, organizationId, id)
    if (!files) throw problems.notFound('Trashed asset')
    await removePurgedFiles(this.deps.db, this.deps.blobs, files, this.deps.logger)
  }
}
