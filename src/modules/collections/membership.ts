import type { RawBuilder } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { CollectionMembership, NamedCollection } from '../assets/push.js'
import * as store from './store.js'

/**
 * Which assets a manual collection holds: changed by the collection's own routes, and by a push that
 * names a collection (the assets module gets this before collections' service exists, which builds on it).
 */
export class CollectionMembers implements CollectionMembership {
  constructor(private readonly db: Db) {}

  /** A scalar subquery for a push's statement: the collection named `name` (case-insensitively), or null. */
  collectionNamed(organizationId: string, name: string): RawBuilder<NamedCollection | null> {
    return store.collectionNamed(organizationId, name)
  }

  /** The manual collection a push names (never created on the fly): 404 when there is none, 409 when it is smart. */
  manualForPush(collection: NamedCollection | null, name: string): { id: string; name: string } {
    if (!collection) throw new AppError('not_found', `No collection is named "${name}".`)
    if (collection.kind === 'smart') {
      throw problems.conflict('smart_collection_immutable', `"${name}" is a smart collection: its assets are defined by its query.`)
    }
    return { id: collection.id, name: collection.name }
  }

  /** A clause for a push's statement: adds the assets `assets` selects (rows with an `id`); adding twice is a no-op. */
  memberInsert(collectionId: string, assets: RawBuilder<{ id: string }>): RawBuilder<unknown> {
    return store.memberInsert(collectionId, assets)
  }

  /** How many were added: adding twice is a no-op. */
  add(collectionId: string, assetIds: string[]): Promise<number> {
    return store.addMembers(this.db, collectionId, assetIds)
  }

  /** How many were removed: removing an asset that is not a member is a no-op. */
  remove(collectionId: string, assetIds: string[]): Promise<number> {
    return store.removeMembers(this.db, collectionId, assetIds)
  }
}
