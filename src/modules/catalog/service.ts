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
  /** Tags are created on first use: the ids of `names`, in the caller's transaction when `db` is one. */
  ensureTags(db: Db, organizationId: string, names: string[]): Promise<string[]> {
    return store.ensureTags(db, organizationId, names)
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
    const found = await store.registeredName(db, 'asset_types', organizationId, name)
    if (found) return found
    const allowed = await store.registeredNames(db, 'asset_types', organizationId)
    throw problems.unprocessable('unknown_asset_type', `"${name}" is not in your asset-type catalogue. Allowed: ${allowed.join(', ')}.`, [
      { pointer, detail: `must be one of: ${allowed.join(', ')}` },
    ])
  }
}
