import { sql } from 'kysely'
import { inTransaction, type Db } from '../../platform/db/index.js'
import { emitting } from '../../platform/events/outbox.js'
import { problems, type AppError } from '../../platform/http/errors.js'
import type { Page } from '../../platform/http/pagination.js'
import type { Caller } from '../../platform/http/route-auth.js'
import { FreshReads } from '../../platform/fresh-reads.js'
import { cursorScope, encodeCursor, keysetOf } from './cursor.js'
import { countedScopeKey, ListPages, listQueryKey, type CachedPage, type ListedPage } from './list-pages.js'
import type { RenditionPreset } from '../renditions/spec.js'
import { assetRecord, thumbnailLink, type AssetChange, type AssetDerivation, type AssetRecord } from './record.js'
import type { ImageSource } from './incoming-file.js'
import { byTagOrder } from '../catalog/service.js'
import { AssetPush, normaliseTags, type AssetPushDeps, type FilePush, type PushInput, type PushOutcome } from './push.js'
import * as store from './store.js'
import type { AssetFilter, AssetWithRelations } from './store.js'
import { NEWEST_FIRST, type AssetSort } from './sort.js'
import { AssetVersions } from './versions.js'

/** The filters whose matches are counted by triggers (tags: 0007, the catalogue's names: 0009, origin and colour: 0022). */
const KEPT_COUNT_FIELDS = ['tag', 'asset_type', 'client', 'product', 'provenance', 'color'] as const

export interface AssetServiceDeps extends AssetPushDeps {
  /** How many records the list keeps in recently listed pages (`LIST_CACHE_RECORDS`). */
  listCacheRecords: number
  /** A full-text list counts its matches up to this many; past it, its total is the planner's estimate (`LIST_EXACT_TOTAL_UP_TO`). */
  exactTotalUpTo: number
}

export type AssetChanges = Partial<{
  title: string
  asset_type: string | null
  client: string | null
  product: string | null
  source_url: string | null
  created_by_ai: boolean
  tag_names: string[]
  external_id: string | null
}>

/** A bulk edit (POST /api/v1/assets/bulk): at least one change, checked by the route. */
export interface BulkEdit {
  ids: string[]
  set?: Partial<{ asset_type: string | null; client: string | null; product: string | null; created_by_ai: boolean }>
  add_tags?: string[]
  remove_tags?: string[]
}

/** What a bulk edit did to one asset. */
export interface BulkEditResult {
  id: string
  result: 'updated' | 'unchanged' | 'not_found' | 'forbidden'
  reason?: string
}

const NOT_IN_LIBRARY = 'No asset of your organization has this id; it may be in the trash.'

/** What `AssetService.check` answers: the contents the organization has, with their asset, and those it lacks. */
export interface ContentCheck {
  found: { sha256: string; asset_id: string }[]
  missing: string[]
}

/** What `versionIfUnchanged` asks of a kept page. */
interface KeptPageCheck {
  organizationId: string
  since: string
  scope: store.ListedScope
}

/** Which assets a list pages through beside its filter, and in what order. */
export interface ListedAssets {
  /** A manual collection's members instead of the whole library. */
  inCollection?: string | undefined
  sort?: AssetSort | undefined
  /** A page's `next_cursor`: the page after it, instead of the page at an offset. */
  cursor?: string | undefined
}

/** A picture that stands for a group of assets (a collection's cover): one asset's signed thumbnail. */
export interface Cover {
  asset_id: string
  thumbnail_url: string
  width: number
  height: number
}

/** How many organizations' library sizes a process keeps (`AssetService.librarySizes`): a few bytes each. */
const MAX_LIBRARY_SIZES = 10_000

/** Reading, filtering, editing and deleting assets, with their events; the push is `AssetPush`'s, the files `AssetFiles`'. */
export class AssetService {
  private readonly pages: ListPages<AssetRecord>
  private readonly libraryVersions: FreshReads<string | undefined>
  /** Whether a kept page holds at a newer version, per page and kept version: concurrent readers of one page share the check. */
  private readonly keptPageChecks: FreshReads<string | undefined, KeptPageCheck>
  private readonly pushes: AssetPush
  /** New versions of assets, and their history. */
  readonly versions: AssetVersions
  /** Each organization's library size as its last list statement read it: a hint for the next statement's shape, never for what it answers. */
  private readonly librarySizes = new Map<string, number>()

  constructor(private readonly deps: AssetServiceDeps) {
    this.pages = new ListPages(deps.listCacheRecords)
    this.libraryVersions = new FreshReads((organizationId) => store.libraryVersion(deps.db, organizationId))
    this.keptPageChecks = new FreshReads((_, check) => store.versionIfUnchanged(deps.db, check.organizationId, check.since, check.scope))
    this.versions = new AssetVersions(deps)
    this.pushes = new AssetPush(deps, this.versions)
  }

  /** See `AssetPush.push`. */
  push(organizationId: string, input: PushInput, caller: Caller): Promise<PushOutcome> {
    return this.pushes.push(organizationId, input, caller)
  }

  /** See `AssetPush.pushFile`. */
  pushFile(organizationId: string, input: Omit<PushInput, keyof ImageSource>, bytes: Buffer, caller: Caller, file: FilePush): Promise<PushOutcome> {
    return this.pushes.pushFile(organizationId, input, bytes, caller, file)
  }

  /** See `AssetPush.checkNames`. */
  checkNames(organizationId: string, input: Pick<PushInput, 'asset_type' | 'collection_name'>): Promise<void> {
    return this.pushes.checkNames(organizationId, input)
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
    return this.recordIn(this.deps.db, organizationId, id, await this.recorder(organizationId))
  }

  /**
   * `inCollection` lists a manual collection's members instead of the whole library. A page listed before
   * is answered again without the list statement while the organization's library version, or the change
   * log since the version it was kept at, says nothing it shows has changed (see `ListPages`), and while
   * the organization's presets, which its records link, are the ones it was made with.
   */
  async list(organizationId: string, filter: AssetFilter, page: Page, { inCollection, sort = NEWEST_FIRST, cursor }: ListedAssets = {}): Promise<ListedPage<AssetRecord>> {
    // Hashed only for a cursor read or written: most pages are asked for by offset.
    const scope = () => cursorScope(organizationId, countedScopeKey(filter, inCollection), sort)
    const after = cursor === undefined ? undefined : keysetOf(cursor, page, scope(), sort)
    const query = listQueryKey(filter, page, inCollection, sort, after)
    const linksExpire = this.deps.signer.currentExpiry()
    const presets = await this.deps.presets.presetsOf(organizationId)
    const kept = this.pages.get(organizationId, query)
    if (kept?.linksExpire === linksExpire && kept.presets === presets && (await this.stillCurrent(organizationId, query, kept, { filter, inCollection, sort }))) return kept.page
    // Only full text counts up to a cap: a word can match most of a library, and its total matters least.
    const countCap = filter.q === undefined ? undefined : this.deps.exactTotalUpTo
    const options = { ...this.totalOptions(organizationId, filter, inCollection), countCap, sort }
    const counted = store.countsMatches(filter, options) ? countedScopeKey(filter, inCollection) : undefined
    const countedBefore = counted === undefined ? undefined : this.pages.countedTotal(organizationId, counted)
    const largeLibrary = (this.librarySizes.get(organizationId) ?? 0) >= store.LARGE_LIBRARY
    const { rows, total: count, version, librarySize, next } = await store.listAssets(this.deps.db, organizationId, filter, page, { ...options, countedBefore, after, largeLibrary })
    this.rememberLibrarySize(organizationId, librarySize)
    const { q } = filter
    const exact = countCap === undefined || q === undefined || count <= countCap
    const total = exact ? { total: count, total_exact: true } : await this.estimatedTotal(organizationId, { ...filter, q }, inCollection, { count, before: countedBefore, version })
    if (counted !== undefined && version !== null) this.pages.keepCountedTotal(organizationId, counted, { version, total: count, ...(!total.total_exact && { estimate: total.total }) })
    const listed = { data: rows.map((row) => assetRecord(row, this.deps.signer, presets)), ...total, ...page, next_cursor: next && encodeCursor(scope(), sort, next) }
    this.pages.keep(organizationId, query, { version, linksExpire, presets, page: listed })
    return listed
  }

  /** Kept for as many organizations as MAX_LIBRARY_SIZES, the longest unlisted forgotten first. */
  private rememberLibrarySize(organizationId: string, size: number | undefined): void {
    if (size === undefined) return
    this.librarySizes.delete(organizationId)
    this.librarySizes.set(organizationId, size)
    if (this.librarySizes.size > MAX_LIBRARY_SIZES) this.librarySizes.delete(this.librarySizes.keys().next().value!)
  }

  /** The list narrowed to the asset with this `external_id` (and the filter): at most one, so one lookup, never kept. */
  async listByExternalId(organizationId: string, externalId: string, filter: AssetFilter, page: Page): Promise<ListedPage<AssetRecord>> {
    const [row, record] = await Promise.all([store.findByExternalId(this.deps.db, organizationId, externalId, filter), this.recorder(organizationId)])
    return { data: row && page.offset === 0 ? [record(row)] : [], total: row ? 1 : 0, total_exact: true, ...page, next_cursor: null }
  }

  /**
   * Whether a kept page is what the list would answer now: its library version is current, or the
   * changes since it cannot have altered it (then it is kept under the current version, so the next
   * read is free again).
   */
  private async stillCurrent(organizationId: string, query: string, kept: CachedPage<AssetRecord>, scope: Omit<store.ListedScope, 'shown'>): Promise<boolean> {
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
    filter: AssetFilter & { q: string },
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
   * Where the total of a filter comes from: a filter on one tag, asset type, client, product, origin or
   * colour over the whole library has its count kept beside the catalogue, so it costs one lookup, not
   * a count. Any other filter beside it (`q`, a second field) narrows the set: counted.
   */
  private totalOptions(organizationId: string, filter: AssetFilter, inCollection: string | undefined): store.ListOptions {
    const used = Object.keys(filter).filter((field) => filter[field as keyof AssetFilter] !== undefined)
    const only = used.length === 1 ? KEPT_COUNT_FIELDS.find((field) => field === used[0]) : undefined
    const kept = inCollection === undefined ? only : undefined
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
    // Before the transaction: a miss of the presets' cache reads them on another connection, which the
    // embedded database's one connection would only give once the transaction ends.
    const recorder = await this.recorder(organizationId)
    const { result: record, queued } = await inTransaction(this.deps.db, async (tx) => {
      const tags = tagNames && (await this.deps.catalog.spellTags(tx, organizationId, normaliseTags(tagNames)))
      if (!(await updateOrRefuse(tx, organizationId, id, { ...fields, ...trimNames(fields), ...(tags && { tags }) }))) throw problems.notFound('Asset')
      const updated = await this.recordIn(tx, organizationId, id, recorder)
      return { result: updated, queued: await this.followEdits(tx, organizationId, [{ record: updated, changes: changedNames(changes) }]) }
    })
    this.afterEdits(queued)
    return record
  }

  /**
   * Edits many assets in one transaction: `set` on each, `add_tags` and `remove_tags` to each one's tags.
   * Each distinct id is answered in the order given: `updated` (with its `asset.updated`, naming the fields
   * that changed), `unchanged`, or `not_found` (another organization's, in the trash, or never). An unknown
   * asset type is 422 and changes nothing. The reads and writes are a few statements whatever the count.
   */
  async bulkEdit(organizationId: string, edit: BulkEdit): Promise<BulkEditResult[]> {
    const ids = [...new Set(edit.ids)]
    const fields = { ...edit.set, ...trimNames(edit.set ?? {}) }
    if (fields.asset_type) fields.asset_type = await this.deps.catalog.assetType(organizationId, fields.asset_type, '/set/asset_type')
    const recorder = await this.recorder(organizationId)
    const { result: outcomes, queued } = await inTransaction(this.deps.db, async (tx) => {
      const rows = await store.lockAssetsForEdit(tx, organizationId, ids)
      const tagEdit = await this.tagEdit(tx, organizationId, rows, edit)
      const updatedAt = new Date()
      const edited = rows.flatMap((row) => {
        const tags = tagEdit(row.tags)
        const changes = [...fieldChanges(row, fields), ...(sameTags(row.tags, tags) ? [] : ['tags'])]
        return changes.length === 0 ? [] : [{ row: { ...row, ...fields, tags, updated_at: updatedAt }, changes }]
      })
      await store.updateAssets(tx, organizationId, edited.map(({ row }) => row), fields, updatedAt)
      const followed = edited.map(({ row, changes }) => ({ record: recorder(row), changes }))
      const outcome = new Map<string, BulkEditResult['result']>(rows.map((row) => [row.id, 'unchanged']))
      for (const { row } of edited) outcome.set(row.id, 'updated')
      return { result: outcome, queued: await this.followEdits(tx, organizationId, followed) }
    })
    this.afterEdits(queued)
    return ids.map((id): BulkEditResult => {
      const result = outcomes.get(id)
      return result ? { id, result } : { id, result: 'not_found', reason: NOT_IN_LIBRARY }
    })
  }

  /**
   * How a bulk edit changes each asset's tags: without `remove_tags` (any spelling), with `add_tags` it
   * lacks in the catalogue's spelling. Tags are added to the catalogue only when some asset gains them.
   */
  private async tagEdit(tx: Db, organizationId: string, rows: AssetWithRelations[], edit: BulkEdit): Promise<(tags: string[]) => string[]> {
    const removed = new Set(normaliseTags(edit.remove_tags ?? []).map((tag) => tag.toLowerCase()))
    const added = normaliseTags(edit.add_tags ?? [])
    const keep = (tags: string[]) => tags.filter((tag) => !removed.has(tag.toLowerCase()))
    const lacking = (tags: string[]) => {
      const present = new Set(keep(tags).map((tag) => tag.toLowerCase()))
      return added.filter((tag) => !present.has(tag.toLowerCase()))
    }
    const gained = normaliseTags(rows.flatMap((row) => lacking(row.tags)))
    const spelled = new Map((await this.deps.catalog.spellTags(tx, organizationId, gained)).map((tag) => [tag.toLowerCase(), tag]))
    return (tags) => [...keep(tags), ...lacking(tags).map((tag) => spelled.get(tag.toLowerCase())!)].sort(byTagOrder)
  }

  /**
   * What follows an edit of assets, in the edit's transaction and in one statement: each derivation's
   * queueing of each record, and its `asset.updated` with the fields it `changes`. Answers the derivations
   * to wake once the transaction commits.
   */
  private async followEdits(tx: Db, organizationId: string, edits: Array<{ record: AssetRecord; changes: string[] }>): Promise<Set<AssetDerivation>> {
    const queued = new Set<AssetDerivation>()
    const clauses = edits.flatMap(({ record, changes }) => {
      const edited = sql<{ id: string }>`select ${record.id}::uuid as id`
      const change: AssetChange = { kind: 'updated', organizationId, record }
      const derived = this.deps.derivations.flatMap((derivation) => {
        const clause = derivation.queue(edited, change)
        if (clause) queued.add(derivation)
        return clause ? [clause] : []
      })
      return [...derived, emitting(edited, organizationId, 'asset.updated', { ...record, changes })]
    })
    await store.runTogether(tx, clauses)
    return queued
  }

  private afterEdits(queued: Set<AssetDerivation>): void {
    for (const derivation of queued) derivation.afterCommit()
    this.deps.afterEventsCommitted()
  }

  /** Moves the asset to the trash (see `TrashService.trash`), or purges it with no retention. */
  delete(organizationId: string, id: string, caller: Caller): Promise<void> {
    return this.deps.trash.trash(organizationId, id, caller)
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
    return { asset_id: first.id, thumbnail_url: thumbnailLink(this.deps.signer, first.id, first.version).url, width: first.width, height: first.height }
  }

  /** Shows the organization's rows as records, its presets read once (from their cache: no statement while fresh). */
  async recorder(organizationId: string): Promise<(row: AssetWithRelations) => AssetRecord> {
    const presets: readonly RenditionPreset[] = await this.deps.presets.presetsOf(organizationId)
    return (row) => assetRecord(row, this.deps.signer, presets)
  }

  /** What the viewer may do to the asset, before they try (the web app disables what they may not). */
  async permissions(organizationId: string, id: string, viewer: Viewer): Promise<{ delete: Permission }> {
    const found = await store.findCreator(this.deps.db, organizationId, id)
    if (!found) throw problems.notFound('Asset')
    return { delete: mayDelete(viewer, found.created_by, 'an asset') }
  }

  private async recordIn(db: Db, organizationId: string, id: string, record: (row: AssetWithRelations) => AssetRecord): Promise<AssetRecord> {
    const row = await store.findAsset(db, organizationId, id)
    if (!row) throw problems.notFound('Asset')
    return record(row)
  }
}

/**
 * Whose rows a caller may delete: a plain member's session only what that user created; a key, an owner
 * or an admin anything (undefined). Rows made with a key or before creators were recorded count as
 * someone else's.
 */
export function onlyCreatedBy(caller: Caller): string | undefined {
  return caller.via === 'session' && !caller.manager ? caller.userId : undefined
}

export function createdBySomeoneElse(what: 'an asset' | 'a collection'): AppError {
  return problems.forbidden('role_required', deleteRefusal(what))
}

function deleteRefusal(what: 'an asset' | 'a collection'): string {
  return `Only owners and admins can delete ${what} someone else created.`
}

/** The signed-in user the web app asks for: what they may do follows their role and what they created. */
export interface Viewer {
  userId: string
  manager: boolean
}

/** Whether the viewer may do something, and if not why, in the words the refusal would use. */
export interface Permission {
  allowed: boolean
  reason: string | null
}

export const ALLOWED: Permission = { allowed: true, reason: null }

/** The rule of `onlyCreatedBy`, asked ahead: may the viewer delete a row `createdBy` made? */
export function mayDelete(viewer: Viewer, createdBy: string | null, what: 'an asset' | 'a collection'): Permission {
  return viewer.manager || createdBy === viewer.userId ? ALLOWED : { allowed: false, reason: deleteRefusal(what) }
}

/** The edit, with another live asset's `external_id` refused as 409 `external_id_taken`. */
async function updateOrRefuse(tx: Db, organizationId: string, id: string, changes: store.AssetChanges): Promise<boolean> {
  try {
    return await store.updateAsset(tx, organizationId, id, changes)
  } catch (error) {
    if (!store.isUniqueViolation(error, store.EXTERNAL_ID_INDEX)) throw error
    throw problems.conflict('external_id_taken', `Another asset of the organization has the external_id ${JSON.stringify(changes.external_id)}.`)
  }
}

/** The fields an edit set, as `asset.updated` names them in `changes` (`tag_names` sets `tags`). */
function changedNames(changes: AssetChanges): string[] {
  return Object.keys(changes).map((name) => (name === 'tag_names' ? 'tags' : name))
}

/** The fields of `fields` whose value differs from the asset's. */
function fieldChanges(row: AssetWithRelations, fields: NonNullable<BulkEdit['set']>): string[] {
  return (Object.keys(fields) as Array<keyof typeof fields>).filter((name) => fields[name] !== undefined && fields[name] !== row[name])
}

function sameTags(before: string[], after: string[]): boolean {
  return before.length === after.length && before.every((tag, i) => tag === after[i])
}

function trimNames(fields: Omit<AssetChanges, 'tag_names'>) {
  const trim = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null)
  return {
    ...(fields.title !== undefined && { title: fields.title.trim() }),
    ...(fields.client !== undefined && { client: trim(fields.client) }),
    ...(fields.product !== undefined && { product: trim(fields.product) }),
  }
}
