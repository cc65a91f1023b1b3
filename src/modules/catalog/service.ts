import type { RawBuilder } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import { problems } from '../../platform/http/errors.js'
import type { Page } from '../../platform/http/pagination.js'
import * as store from './store.js'

export type Registry = 'asset-types' | 'clients' | 'products'

const REGISTRIES: Record<Registry, { table: store.RegistryTable; column: store.AssetColumn; onlyRegistered: boolean; label: string }> = {
  'asset-types': { table: 'asset_types', column: 'asset_type', onlyRegistered: true, label: 'Asset type' },
  clients: { table: 'clients', column: 'client', onlyRegistered: false, label: 'Client' },
  products: { table: 'products', column: 'product', onlyRegistered: false, label: 'Product' },
}

/** The organization's catalogue: the asset-type list, registered clients and products, and tags. */
export class CatalogService {
  /** A scalar subquery for a larger statement: the catalogue's spellings of those of `names` it holds. */
  knownTags(organizationId: string, names: string[]): RawBuilder<string[]> {
    return store.knownTagsOf(organizationId, names)
  }

  /**
   * Tags are created on first use: the catalogue's spelling of each of `names`, sorted as the API shows
   * them. `known` is what `knownTags` found (read here when not given); only the others are written.
   */
  async spellTags(db: Db, organizationId: string, names: string[], known?: string[]): Promise<string[]> {
    if (names.length === 0) return []
    const found = known ?? (await store.knownTags(db, organizationId, names))
    const keys = new Set(found.map((name) => name.toLowerCase()))
    const missing = names.filter((name) => !keys.has(name.toLowerCase()))
    const added = missing.length === 0 ? [] : await store.addTags(db, organizationId, missing)
    return [...found, ...added].sort(byTagOrder)
  }

  /**
   * A scalar subquery for a larger statement: how many assets carry the tag, or have the asset type,
   * client, product, declared origin or colour `name` (any spelling), from the counts kept beside the catalogue.
   */
  keptCount(organizationId: string, field: 'tag' | store.CountedField, name: string): RawBuilder<number> {
    return field === 'tag' ? store.taggedCountOf(organizationId, name) : store.namedCountOf(field, organizationId, name)
  }

  /** A scalar subquery for a larger statement: the registered spelling of an asset type, or null. */
  registeredAssetType(organizationId: string, name: string): RawBuilder<string | null> {
    return store.registeredNameOf('asset_types', organizationId, name)
  }

  constructor(private readonly db: Db) {}

  /** Every new organization starts with a sensible asset-type catalogue. */
  seedDefaults(organizationId: string, db: Db = this.db): Promise<void> {
    return store.register(db, 'asset_types', organizationId, store.DEFAULT_ASSET_TYPES)
  }

  list(registry: Registry, organizationId: string, options: { prefix?: string; page: Page }) {
    const { table, column, onlyRegistered } = REGISTRIES[registry]
    return store.listEntries(this.db, table, column, organizationId, { ...options, onlyRegistered })
  }

  listTags(organizationId: string, options: { prefix?: string; page: Page }) {
    return store.listTags(this.db, organizationId, options)
  }

  async register(registry: Registry, organizationId: string, name: string): Promise<void> {
    await store.register(this.db, REGISTRIES[registry].table, organizationId, [name.trim()])
  }

  async unregister(registry: Registry, organizationId: string, name: string): Promise<void> {
    const { table, label } = REGISTRIES[registry]
    if (!(await store.unregister(this.db, table, organizationId, name))) throw problems.notFound(label)
  }

  /** The catalogue's spelling of an asset type; 422 listing the allowed values when it is not there. */
  async assetType(organizationId: string, name: string, pointer = '/asset_type', db: Db = this.db): Promise<string> {
    return (await store.registeredName(db, 'asset_types', organizationId, name)) ?? this.unknownAssetType(organizationId, name, pointer, db)
  }

  /** The 422 of an asset type the catalogue lacks, listing those it has. */
  async unknownAssetType(organizationId: string, name: string, pointer = '/asset_type', db: Db = this.db): Promise<never> {
    const allowed = await store.registeredNames(db, 'asset_types', organizationId)
    throw problems.unprocessable('unknown_asset_type', `"${name}" is not in your asset-type catalogue. Allowed: ${allowed.join(', ')}.`, [
      { pointer, detail: `must be one of: ${allowed.join(', ')}` },
    ])
  }
}

/** The API's order of an asset's tags: by the lower-cased name's code units (migration 0007 sorts with collate "C" to match). */
export function byTagOrder(a: string, b: string): number {
  const left = a.toLowerCase()
  const right = b.toLowerCase()
  return left < right ? -1 : left > right ? 1 : 0
}
