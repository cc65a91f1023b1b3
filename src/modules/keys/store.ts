import { sql } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { ApiKey, NewApiKey } from '../../platform/db/schema.js'

export type ApiKeyRow = Omit<ApiKey, 'secret_hash'>

const LISTED_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'prefix',
  'scope',
  'created_by',
  'created_at',
  'expires_at',
  'last_used_at',
  'revoked_at',
  'limit_expensive',
  'limit_cheap',
] as const

export function insertKey(db: Db, key: NewApiKey): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(key).returning(LISTED_COLUMNS).executeTakeFirstOrThrow()
}

export function findKeyByPrefix(db: Db, prefix: string): Promise<ApiKey | undefined> {
  return db.selectFrom('api_keys').selectAll().where('prefix', '=', prefix).executeTakeFirst()
}

export function findKey(db: Db, organizationId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .select(LISTED_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export function listKeys(db: Db, organizationId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .select(LISTED_COLUMNS)
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/** Revoking twice keeps the first revocation time. Returns whether the key exists in the organization. */
export async function revokeKey(db: Db, organizationId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returning(LISTED_COLUMNS)
    .executeTakeFirst()
}

/** At most one write a minute per key, so reads stay reads. */
export async function touchKey(db: Db, id: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)]))
    .execute()
}
