import { seal, sha256Hex, unseal } from '../../platform/crypto.js'
import { inTransaction, type Db } from '../../platform/db/index.js'
import { emit } from '../../platform/events/outbox.js'
import { AppError, problems } from '../../platform/http/errors.js'
import { MAX_LIMIT, type Page } from '../../platform/http/pagination.js'
import type { Caller } from '../../platform/http/route-auth.js'
import { randomToken } from '../../platform/ids.js'
import type { UrlSigner } from '../../platform/signed-urls.js'
import type { AssetFiles, RenditionFiles } from '../assets/files.js'
import { filePath, type AssetRecord, type PresetSource } from '../assets/record.js'
import { ALLOWED, createdBySomeoneElse, mayDelete, onlyCreatedBy, type AssetService, type Cover, type Permission, type Viewer } from '../assets/service.js'
import { parseSort } from '../assets/sort.js'
import type { AssetFilter } from '../assets/store.js'
import * as store from './store.js'
import type { CollectionMembers } from './membership.js'
import type { CollectionRow, SmartQuery } from './store.js'
import { fileNameOf, uniqueNames, type ZipEntry } from './share-zip.js'
import { sharePresets, type SharePreset } from './share-presets.js'

export interface NewCollection {
  name: string
  description?: string
  query?: SmartQuery
}

export type CollectionChanges = Partial<{ name: string; description: string; kind: 'manual' | 'smart'; query: SmartQuery }>

/** How a page of a collection's assets is asked for beside its limit and offset. */
export interface AssetsPaging {
  sort?: string | undefined
  cursor?: string | undefined
}

const notFound = () => problems.notFound('Collection')

/** The filters of a smart collection's query, without its order. */
const filterOf = ({ sort: _sort, ...filter }: SmartQuery = {}): AssetFilter => filter
/** What a collection holds: a smart one its query's matches, a manual one its members. */
const scopeOf = (row: CollectionRow) => (row.kind === 'smart' ? { filter: filterOf(row.query ?? {}) } : { filter: {}, inCollection: row.id })
const nameTaken = (name: string) =>
  problems.unprocessable('collection_name_taken', `A collection named "${name}" already exists (names are compared without case).`, [
    { pointer: '/name', detail: 'is already used by another collection' },
  ])
/** A share's file links carry `<collection id>.<16 hex>`: see `shareRef`. */
const SHARE_REF = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[0-9a-f]{16}$/

/**
 * Names a collection's current share in its file links without revealing the token: the collection id
 * and 64 bits of a hash of the stored token hash, so sharing again (a new token) gives another name.
 */
function shareRef(collectionId: string, tokenHash: string): string {
  return `${collectionId}.${sha256Hex(`share-ref\n${tokenHash}`).slice(0, 16)}`
}

/** The purpose the share tokens are sealed under (see crypto.ts `seal`). */
const SHARE_TOKEN_PURPOSE = 'collection-share-token'

/**
 * A collection's public link as owners and admins see it again: `share_url` null when the collection is
 * not shared, or when its link was made before links were kept (only its hash is stored) or under another
 * APP_SECRET; `shared` says which.
 */
export interface ShareLink {
  shared: boolean
  shared_at: string | null
  share_url: string | null
}

const smartImmutable = () =>
  problems.conflict('smart_collection_immutable', 'A smart collection is defined by its query; its assets cannot be added or removed.')

/**
 * Manual collections hold assets; smart ones hold a query, the same filter object as GET
 * /api/v1/assets, evaluated by the same code at read time, so they are never stale.
 */
export class CollectionService {
  constructor(
    private readonly db: Db,
    private readonly assets: AssetService,
    /** The assets' files: a share's zip streams their originals or thumbnails. */
    private readonly files: AssetFiles,
    /** The renditions' files: a share's zip of a preset streams them, made in the render queue's turn. */
    private readonly renditions: RenditionFiles,
    /** The organizations' own presets, which a share offers besides the built-ins. */
    private readonly presets: PresetSource,
    private readonly members: CollectionMembers,
    /** Signs the file links a share hands out, bound to that share. */
    private readonly signer: UrlSigner,
    private readonly publicBaseUrl: string,
    /** Seals the share tokens, so a live link can be shown again. */
    private readonly appSecret: string,
    /** After the commit of a change that emitted events: wakes their delivery. */
    private readonly afterEventsCommitted: () => void,
  ) {}

  async create(organizationId: string, input: NewCollection, createdBy: string | null = null) {
    // The request schema already ties them together: a query means smart, and smart needs one.
    const kind = input.query ? 'smart' : 'manual'
    const name = input.name.trim()
    // Counted before the transaction: on the embedded database it holds the only connection.
    const assetCount = input.query ? await this.assets.count(organizationId, filterOf(input.query)) : 0
    const record = await inTransaction(this.db, async (tx) => {
      const row = await store.insertCollection(tx, organizationId, {
        name,
        description: input.description?.trim() ?? '',
        kind,
        query: input.query ?? null,
        createdBy,
      })
      if (!row) throw nameTaken(name)
      const created = recordOf(row, assetCount)
      await emit(tx, organizationId, 'collection.created', created)
      return created
    })
    this.afterEventsCommitted()
    return record
  }

  async list(organizationId: string, filter: { kind?: 'manual' | 'smart'; q?: string }, page: Page) {
    const { rows, total } = await store.listCollections(this.db, organizationId, filter, page)
    const counts = await this.assets.countEach(organizationId, rows.map(scopeOf))
    return { data: rows.map((row, i) => recordOf(row, counts[i]!)), total, ...page }
  }

  /** `sort` orders the page of assets, over a smart collection's own (`query.sort`); newest first without either. `cursor` asks for the page after another. */
  async get(organizationId: string, id: string, page: Page, { sort, cursor }: AssetsPaging = {}) {
    const row = await this.find(organizationId, id)
    return { ...(await this.record(organizationId, row)), assets: await this.assetsOf(organizationId, row, page, { sort, cursor }) }
  }

  /**
   * The picture each collection among `ids` shows in the list: the first asset it lists (newest first), as
   * its page does. An empty collection has none, and neither has an id unknown to the organization (so
   * another organization's collection looks like one that does not exist). Three statements however many
   * ids: the collections, the manual ones' firsts (set-based) and the smart ones' (their queries, one
   * subquery each, as many as `ids` at most).
   */
  async covers(organizationId: string, ids: string[]): Promise<Array<Cover & { collection_id: string }>> {
    const rows = await store.findCollections(this.db, organizationId, ids)
    const manual = rows.filter((row) => row.kind === 'manual').map((row) => row.id)
    const smart = rows.filter((row) => row.kind === 'smart')
    const [manualCovers, smartCovers] = await Promise.all([
      this.assets.firstInCollections(organizationId, manual),
      this.assets.firstMatchingEach(organizationId, smart.map((row) => filterOf(row.query ?? {}))),
    ])
    const covers = new Map([...manualCovers, ...smart.map((row, i) => [row.id, smartCovers[i]] as const)])
    return ids.flatMap((id) => {
      const cover = covers.get(id)
      return cover ? [{ collection_id: id, ...cover }] : []
    })
  }

  async update(organizationId: string, id: string, changes: CollectionChanges) {
    const current = await this.find(organizationId, id)
    if (changes.kind !== undefined && changes.kind !== current.kind) {
      throw problems.unprocessable('collection_kind_immutable', 'A collection cannot change kind; create a new one.', [{ pointer: '/kind', detail: `is ${current.kind}` }])
    }
    if (changes.query !== undefined && current.kind === 'manual') {
      throw problems.unprocessable('manual_collection_has_no_query', 'A manual collection has no query.', [{ pointer: '/query', detail: 'only smart collections have one' }])
    }
    const name = changes.name?.trim()
    const updated = await store.updateCollection(this.db, organizationId, id, {
      ...(name !== undefined && { name }),
      ...(changes.description !== undefined && { description: changes.description.trim() }),
      ...(changes.query !== undefined && { query: changes.query }),
    })
    if (updated === 'name_taken') throw nameTaken(name!)
    if (!updated) throw notFound()
    return this.record(organizationId, updated)
  }

  /** A plain member's session deletes only the collections its user created (see `onlyCreatedBy`). */
  async delete(organizationId: string, id: string, caller: Caller): Promise<void> {
    if (await store.deleteCollection(this.db, organizationId, id, onlyCreatedBy(caller))) return
    if (await store.findCollection(this.db, organizationId, id)) throw createdBySomeoneElse('a collection')
    throw notFound()
  }

  /**
   * What the viewer may do to the collection, before they try: delete it (a member only their own), and
   * share it (owners and admins). Renaming and editing its assets is open to every member.
   */
  async permissions(organizationId: string, id: string, viewer: Viewer): Promise<{ delete: Permission; share: Permission }> {
    const found = await store.findCreator(this.db, organizationId, id)
    if (!found) throw notFound()
    return {
      delete: mayDelete(viewer, found.created_by, 'a collection'),
      share: viewer.manager ? ALLOWED : { allowed: false, reason: 'Only owners and admins can share a collection publicly.' },
    }
  }

  /** Adding twice is a no-op; one unknown asset refuses the whole request. */
  async addAssets(organizationId: string, id: string, assetIds: string[]) {
    const collection = await this.manual(organizationId, id)
    await this.assertKnown(organizationId, assetIds)
    return { changed: await this.members.add(collection.id, assetIds), asset_count: await this.assets.count(organizationId, {}, collection.id) }
  }

  /** Removing an asset that is not in the collection is a no-op. */
  async removeAssets(organizationId: string, id: string, assetIds: string[]) {
    const collection = await this.manual(organizationId, id)
    await this.assertKnown(organizationId, assetIds)
    return { changed: await this.members.remove(collection.id, assetIds), asset_count: await this.assets.count(organizationId, {}, collection.id) }
  }

  /**
   * A new unguessable link (replacing any earlier one, which stops working). Lookups use its hash; the
   * token itself is kept only sealed under APP_SECRET, for `shareLink`.
   */
  async share(organizationId: string, id: string): Promise<{ share_url: string }> {
    const token = randomToken(24)
    const shareUrl = this.shareUrlOf(token)
    const collection = await this.record(organizationId, await this.find(organizationId, id))
    await inTransaction(this.db, async (tx) => {
      const sharedAt = await store.setShareToken(tx, organizationId, id, { hash: sha256Hex(token), sealed: seal(this.appSecret, SHARE_TOKEN_PURPOSE, token) })
      if (!sharedAt) throw notFound()
      await emit(tx, organizationId, 'collection.shared', { collection: { ...collection, shared: true, shared_at: sharedAt.toISOString() }, share_url: shareUrl })
    })
    this.afterEventsCommitted()
    return { share_url: shareUrl }
  }

  /** The live link, again (see `ShareLink`). */
  async shareLink(organizationId: string, id: string): Promise<ShareLink> {
    const stored = await store.findShareToken(this.db, organizationId, id)
    if (!stored) throw notFound()
    return { shared: stored.shared_at !== null, shared_at: stored.shared_at?.toISOString() ?? null, share_url: stored.sealed === null ? null : this.openShareToken(stored.sealed) }
  }

  /** The link of a sealed token; null when it was sealed under another APP_SECRET (the link still works, but cannot be shown). */
  private openShareToken(sealed: string): string | null {
    try {
      return this.shareUrlOf(unseal(this.appSecret, SHARE_TOKEN_PURPOSE, sealed))
    } catch {
      return null
    }
  }

  private shareUrlOf(token: string): string {
    return `${this.publicBaseUrl}/s/${token}`
  }

  async unshare(organizationId: string, id: string): Promise<void> {
    if ((await store.setShareToken(this.db, organizationId, id, null)) === undefined) throw notFound()
  }

  /**
   * What a public link shows: the collection's name and description, its organization's name, the
   * presets it offers (the built-ins and the organization's own), and its assets' pictures with a link
   * to each preset's file. The file URLs are bound to this share (see `shareServes`): unsharing or
   * sharing again ends them.
   */
  async sharedView(token: string, page: Page) {
    const { row, tokenHash } = await this.findShared(token)
    // A share pages by offset only: its pages carry no cursor.
    const [{ next_cursor: _cursor, ...assets }, presets] = await Promise.all([this.assetsOf(row.organization_id, row, page), this.presetsOf(row.organization_id)])
    const share = shareRef(row.id, tokenHash)
    const fileUrl = (asset: { id: string; version: number }, variant: 'thumbnail' | 'original') => this.signer.signForShare(filePath(asset.id, asset.version, variant), share).url
    return {
      name: row.name,
      description: row.description,
      organization: { name: row.organization_name },
      presets: presets.map(({ name, format, width, height, fit }) => ({ name, format, width, height, fit })),
      assets: {
        ...assets,
        data: assets.data.map((asset) => ({
          id: asset.id,
          title: asset.title,
          width: asset.width,
          height: asset.height,
          mime_type: asset.mime_type,
          file_name: fileNameOf(asset.title, asset.mime_type),
          thumbnail_url: fileUrl(asset, 'thumbnail'),
          original_url: fileUrl(asset, 'original'),
          // An image that cannot be decoded has no renditions: only its original.
          renditions: Object.fromEntries(
            presets.filter((preset) => preset.name === 'original' || asset.thumbnail_status === 'available').map((preset) => [preset.name, this.signer.signForShare(preset.path(asset), share).url]),
          ),
        })),
      },
    }
  }

  /**
   * A public link's assets as zip entries: the originals (no preset, or `original`), read page by page
   * before any byte is sent so the total size is known up front; or the files of a preset, whose sizes
   * are known only once made (`byteSize` null), each made, or read from storage, when the zip reaches
   * it. An unknown preset is 400 `validation_failed`, as `render?preset=` answers it; the assets whose
   * image cannot be decoded have no renditions and are left out of a preset's zip.
   */
  async sharedZip(token: string, presetName = 'original'): Promise<{ name: string; byteSize: number | null; entries: ZipEntry[] }> {
    const { row } = await this.findShared(token)
    const preset = (await this.presetsOf(row.organization_id)).find((candidate) => candidate.name === presetName)
    if (!preset) {
      const detail = 'no preset of this name in the organization that shared the collection (the share\u2019s JSON lists them)'
      throw problems.validation([{ pointer: '/query/preset', detail }], `There is no preset ${JSON.stringify(presetName)}: thumbnail, original, or one of the organization\u2019s.`)
    }
    const listed = await this.everyAssetOf(row.organization_id, row)
    const assets = preset.name === 'original' ? listed : listed.filter((asset) => asset.thumbnail_status === 'available')
    const names = uniqueNames(assets.map((asset) => fileNameOf(asset.title, preset.mimeType ?? asset.mime_type)))
    const entries = assets.map((asset, i) => ({
      name: names[i]!,
      byteSize: preset.name === 'original' ? asset.byte_size : null,
      modifiedAt: new Date(asset.created_at),
      open: (signal: AbortSignal) => preset.open(asset, signal),
    }))
    const byteSize = preset.name === 'original' ? entries.reduce((sum, entry) => sum + entry.byteSize!, 0) : null
    return { name: preset.name === 'original' ? row.name : `${row.name} (${preset.name})`, byteSize, entries }
  }

  /** Every asset a share shows, read page by page; an asset repeated by a page shifting under the reads is kept once. */
  private async everyAssetOf(organizationId: string, row: CollectionRow): Promise<AssetRecord[]> {
    const assets: AssetRecord[] = []
    const seen = new Set<string>()
    for (let offset = 0, total = 1; offset < total; offset += MAX_LIMIT) {
      const page = await this.assetsOf(organizationId, row, { limit: MAX_LIMIT, offset })
      total = page.total
      // A page can repeat an asset when another is added meanwhile (newest first).
      assets.push(...page.data.filter((asset) => !seen.has(asset.id) && seen.add(asset.id)))
      if (page.data.length === 0) break
    }
    return assets
  }

  /** The presets a share of the organization offers: the built-ins, then its own. */
  private async presetsOf(organizationId: string): Promise<SharePreset[]> {
    return sharePresets(await this.presets.presetsOf(organizationId), { files: this.files, renditions: this.renditions })
  }

  private async findShared(token: string) {
    const tokenHash = sha256Hex(token)
    const row = await store.findShared(this.db, tokenHash)
    if (!row) throw new AppError('not_found', 'This link is unknown or has been revoked.')
    return { row, tokenHash }
  }

  /**
   * Whether a file link issued by a share (`share`, the reference signed into it) may still be served
   * for `assetId`: the collection is still shared with the same token, and the asset is still in what
   * it shows (a member of a manual collection, a match of a smart one's query). One primary-key
   * statement, and for a smart collection a second one on the asset's row.
   */
  async shareServes(share: string, assetId: string): Promise<boolean> {
    const collectionId = SHARE_REF.exec(share)?.[1]
    if (!collectionId) return false
    const row = await store.findShareForFile(this.db, collectionId, assetId)
    if (!row?.share_token_hash || shareRef(collectionId, row.share_token_hash) !== share) return false
    return row.kind === 'manual' ? row.member : this.assets.matches(row.organization_id, assetId, filterOf(row.query ?? {}))
  }

  /** A page of what the collection holds, in the order `sort` names, or else its query's (a smart one's), or else newest first. */
  private assetsOf(organizationId: string, row: CollectionRow, page: Page, { sort, cursor }: AssetsPaging = {}) {
    if (row.kind === 'manual') return this.assets.list(organizationId, {}, page, { inCollection: row.id, sort: parseSort(sort), cursor })
    const query = row.query ?? {}
    return this.assets.list(organizationId, filterOf(query), page, { sort: parseSort(sort ?? query.sort), cursor })
  }

  private async record(organizationId: string, row: CollectionRow) {
    const [assetCount] = await this.assets.countEach(organizationId, [scopeOf(row)])
    return recordOf(row, assetCount!)
  }

  private async find(organizationId: string, id: string): Promise<CollectionRow> {
    const row = await store.findCollection(this.db, organizationId, id)
    if (!row) throw notFound()
    return row
  }

  private async manual(organizationId: string, id: string): Promise<CollectionRow> {
    const row = await this.find(organizationId, id)
    if (row.kind === 'smart') throw smartImmutable()
    return row
  }

  private async assertKnown(organizationId: string, assetIds: string[]): Promise<void> {
    const unknown = await this.assets.unknownIds(organizationId, assetIds)
    if (unknown.length > 0) {
      throw new AppError('not_found', `No asset ${unknown.join(', ')} in your organization; nothing was changed.`)
    }
  }
}

function recordOf(row: CollectionRow, assetCount: number) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    query: row.query,
    asset_count: assetCount,
    shared: row.shared_at !== null,
    shared_at: row.shared_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

export type CollectionRecord = ReturnType<typeof recordOf>
