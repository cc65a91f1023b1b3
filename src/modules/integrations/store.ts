import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { FigmaConnectionsTable, FigmaWebhooksTable } from '../../platform/db/schema.js'

export type FigmaConnectionRow = Selectable<FigmaConnectionsTable>
export type FigmaWebhookRow = Selectable<FigmaWebhooksTable>

export async function findConnection(db: Db, organizationId: string): Promise<FigmaConnectionRow | null> {
  return (await db.selectFrom('figma_connections').selectAll().where('organization_id', '=', organizationId).executeTakeFirst()) ?? null
}

/** Stores the organization's connection, replacing the one it had. */
export function upsertConnection(db: Db, row: Omit<Insertable<FigmaConnectionsTable>, 'created_at' | 'updated_at'>): Promise<FigmaConnectionRow> {
  const { organization_id: _key, ...replaced } = row
  return db
    .insertInto('figma_connections')
    .values(row)
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ ...replaced, updated_at: new Date() }))
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Removes the connection and the webhooks registered with it; whether there was a connection. */
export async function deleteConnection(db: Db, organizationId: string): Promise<boolean> {
  await db.deleteFrom('figma_webhooks').where('organization_id', '=', organizationId).execute()
  const result = await db.deleteFrom('figma_connections').where('organization_id', '=', organizationId).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export function listWebhooks(db: Db, organizationId: string): Promise<FigmaWebhookRow[]> {
  return db.selectFrom('figma_webhooks').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').execute()
}

export async function findWebhook(db: Db, organizationId: string, id: string): Promise<FigmaWebhookRow | null> {
  return (await db.selectFrom('figma_webhooks').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()) ?? null
}

export async function findWebhookFor(db: Db, organizationId: string, watch: Pick<FigmaWebhookRow, 'event_type' | 'context' | 'context_id'>): Promise<FigmaWebhookRow | null> {
  const row = await db
    .selectFrom('figma_webhooks')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('event_type', '=', watch.event_type)
    .where('context', '=', watch.context)
    .where('context_id', '=', watch.context_id)
    .executeTakeFirst()
  return row ?? null
}

/** The new webhook, or null when the organization has one watching the same thing already (also by a concurrent insert). */
export async function insertWebhook(db: Db, row: Insertable<FigmaWebhooksTable>): Promise<FigmaWebhookRow | null> {
  const inserted = await db
    .insertInto('figma_webhooks')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'event_type', 'context', 'context_id']).doNothing())
    .returningAll()
    .executeTakeFirst()
  return inserted ?? null
}

export async function setFigmaWebhookId(db: Db, id: string, figmaWebhookId: string): Promise<FigmaWebhookRow | null> {
  return (await db.updateTable('figma_webhooks').set({ figma_webhook_id: figmaWebhookId }).where('id', '=', id).returningAll().executeTakeFirst()) ?? null
}

export async function deleteWebhook(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('figma_webhooks').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** The organization of `slug` and the passcode hashes of its webhooks, in one statement; none for an unknown slug. */
export async function passcodeHashes(db: Db, slug: string): Promise<Array<{ organization_id: string; passcode_hash: string }>> {
  return db
    .selectFrom('figma_webhooks')
    .innerJoin('organizations', 'organizations.id', 'figma_webhooks.organization_id')
    .select(['figma_webhooks.organization_id', 'figma_webhooks.passcode_hash'])
    .where('organizations.slug', '=', slug)
    .execute()
}
