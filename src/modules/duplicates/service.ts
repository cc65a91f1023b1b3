import { sql } from 'kysely'
import { inTransaction, type Db } from '../../platform/db/index.js'
import { emit } from '../../platform/events/outbox.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { Page } from '../../platform/http/pagination.js'
import type { Caller } from '../../platform/http/route-auth.js'
import type { CatalogService } from '../catalog/service.js'
import { normaliseTags } from '../assets/push.js'
import type { AssetChange, AssetDerivation, AssetRecord } from '../assets/record.js'
import type { AssetService } from '../assets/service.js'
import { updateAsset } from '../assets/store.js'
import type { TrashService } from '../trash/service.js'
import type { PurgedFiles } from '../trash/store.js'
import * as store from './store.js'

/** The tags an asset may have (the push's and the edit's limit). */
const MAX_TAGS = 100

export interface DuplicatesDeps {
  db: Db
  assets: AssetService
  catalog: CatalogService
  trash: TrashService
  /** The kept asset's tags may change: its text derivations are queued again, as at an edit. */
  derivations: readonly AssetDerivation[]
  afterEventsCommitted: () => void
}

/** Near-duplicates across the library: assets that look alike, groups to review, and their resolve. */
export class DuplicatesService {
  constructor(private readonly deps: DuplicatesDeps) {}

  /**
   * GET /api/v1/assets/{id}/similar?by=appearance: every live asset within 7 bits of this one's
   * perceptual hash (all of them: the bands find each), closest first; none while its hash is pending or
   * when its image cannot be decoded or is too plain to compare.
   */
  async lookalikes(organizationId: string, assetId: string, limit: number) {
    const hash = await store.perceptualHashOf(this.deps.db, organizationId, assetId)
    if (hash === undefined) throw problems.notFound('Asset')
    const rows = hash === null ? [] : await store.lookalikes(this.deps.db, organizationId, assetId, hash, limit)
    const record = await this.deps.assets.recorder(organizationId)
    const data = rows.map(({ distance, ...row }) => ({ ...record(row), distance }))
    return { data, total: data.length, limit, offset: 0 }
  }

  /** GET /api/v1/duplicates: a page of groups, each an asset and its newer near-duplicates. */
  async groups(organizationId: string, page: Page) {
    const { groups, total } = await store.duplicateGroups(this.deps.db, organizationId, page)
    const ids = groups.flatMap((group) => [group.asset_id, ...group.duplicates.map((near) => near.asset_id)])
    const rows = await store.assetsByIds(this.deps.db, organizationId, [...new Set(ids)])
    const record = await this.deps.assets.recorder(organizationId)
    const data = groups.map((group) => ({
      asset: record(rows.get(group.asset_id)!),
      duplicates: group.duplicates.map((near) => ({ distance: near.distance, asset: record(rows.get(near.asset_id)!) })),
    }))
    return { data, total, ...page }
  }

  /**
   * POST /api/v1/duplicates/resolve, in one transaction: the kept asset joins the others' manual
   * collections and gains their tags (`asset.updated` when either changed), then each other moves to the
   * trash as a delete moves it (`asset.deleted`). Every id must be a live asset of the organization
   * (404); `keep` must not be among `trash` (400).
   */
  async resolve(organizationId: string, input: { keep: string; trash: string[] }, caller: Caller): Promise<{ kept: AssetRecord; trashed: string[] }> {
    const { keep, trash } = input
    const kept = trash.indexOf(keep)
    if (kept >= 0) throw problems.validation([{ pointer: `/trash/${kept}`, detail: 'the asset to keep cannot also be trashed' }])
    const queued: AssetDerivation[] = []
    const purged: PurgedFiles[] = []
    const recorder = await this.deps.assets.recorder(organizationId)
    const record = await inTransaction(this.deps.db, async (tx) => {
      const tags = await store.lockForResolve(tx, organizationId, [keep, ...trash])
      const missing = [keep, ...trash].filter((id) => !tags.has(id))
      if (missing.length > 0) {
        throw new AppError('not_found', `No live asset of your organization has the id ${missing.join(', ')} (in the trash, another organization's, or never pushed).`)
      }
      const changes: string[] = []
      if ((await store.joinCollectionsOf(tx, keep, trash)).length > 0) changes.push('collections')
      const merged = normaliseTags([...tags.get(keep)!, ...trash.flatMap((id) => tags.get(id)!)])
      if (merged.length > tags.get(keep)!.length) {
        if (merged.length > MAX_TAGS) throw problems.validation([{ pointer: '/trash', detail: `the kept asset would have ${merged.length} tags, more than ${MAX_TAGS}` }])
        await updateAsset(tx, organizationId, keep, { tags: await this.deps.catalog.spellTags(tx, organizationId, merged) })
        changes.push('tags')
      }
      for (const id of trash) purged.push(...((await this.deps.trash.trashWithin(tx, organizationId, id, caller)) ?? []))
      const updated = recorder((await store.assetsByIds(tx, organizationId, [keep])).get(keep)!)
      if (changes.length > 0) {
        const change: AssetChange = { kind: 'updated', organizationId, record: updated }
        for (const derivation of this.deps.derivations) {
          const clause = derivation.queue(sql<{ id: string }>`select ${keep}::uuid as id`, change)
          if (!clause) continue
          await clause.execute(tx)
          queued.push(derivation)
        }
        await emit(tx, organizationId, 'asset.updated', { ...updated, changes })
      }
      return updated
    })
    for (const derivation of queued) derivation.afterCommit()
    this.deps.afterEventsCommitted()
    await this.deps.trash.removeFiles(purged)
    return { kept: record, trashed: trash }
  }
}
