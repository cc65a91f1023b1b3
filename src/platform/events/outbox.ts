import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../db/index.js'
import { uuidv7 } from '../ids.js'
import type { EventName } from './names.js'

/**
 * Records an event in the outbox. Call it with the transaction that makes the change, so the event
 * exists exactly when the change does: a rollback takes it away, a crash after commit cannot lose it.
 */
export async function emit(tx: Db, organizationId: string, event: EventName, data: unknown): Promise<string> {
  const id = uuidv7()
  await tx
    .insertInto('outbox_events')
    .values({ id, organization_id: organizationId, event, payload: JSON.stringify(data) })
    .execute()
  return id
}

/** `emit` as a clause of the statement that makes the change: the event is recorded when `changed` selects a row. */
export function emitting(changed: RawBuilder<unknown>, organizationId: string, event: EventName, data: unknown): RawBuilder<unknown> {
  return sql`insert into outbox_events (id, organization_id, event, payload)
    select ${uuidv7()}::uuid, ${organizationId}::uuid, ${event}, ${JSON.stringify(data)}::json where exists (${changed})`
}
