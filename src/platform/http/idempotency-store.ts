import { sql } from 'kysely'
import type { Db } from '../db/index.js'
import { abandoned } from './idempotency-lease.js'

/** Whose key a row is: keys are per organization and per API key (or per user of the web app's session). */
export interface KeyOwner {
  organizationId: string
  /** `key:<api key id>` or `user:<user id>`. */
  caller: string
  key: string
}

/** The first answer to a key, as replayed. */
export interface StoredAnswer {
  status: number
  headers: Record<string, string>
  body: string | null
}

/** What the row of a key says to a request that could not claim it. */
export type KeyState = { kind: 'answered'; fingerprint: string; answer: StoredAnswer } | { kind: 'running'; fingerprint: string }

/** How long an answer is replayed, and after which its row is pruned. */
export const RETENTION_HOURS = 24

/**
 * Claims `owner`'s key for a request with `fingerprint`, in one statement: a new row, or a row past its
 * 24 h, or a row of the same request left running by a request that died (its process's lease is gone)
 * or stopped answering (its claim's `leaseMs` ran out), is taken over with `claim`. Returns whether it
 * was claimed.
 */
export async function claimKey(db: Db, owner: KeyOwner, fingerprint: string, claim: string, leaseMs: number): Promise<boolean> {
  const { rows } = await sql<{ claim: string }>`
    insert into idempotency_keys as kept (organization_id, caller, key, fingerprint, claim, locked_until)
    values (${owner.organizationId}, ${owner.caller}, ${owner.key}, ${fingerprint}, ${claim}, now() + make_interval(secs => ${leaseMs / 1000}))
    on conflict (organization_id, caller, key) do update
      set fingerprint = excluded.fingerprint, claim = excluded.claim, locked_until = excluded.locked_until,
        status = null, headers = null, body = null, created_at = now()
      where kept.created_at < now() - make_interval(hours => ${RETENTION_HOURS})
        or (kept.status is null and kept.fingerprint = excluded.fingerprint and (kept.locked_until < now() or ${abandoned(sql`kept.claim`)}))
    returning claim
  `.execute(db)
  return rows.length === 1
}

/** The row of a key that could not be claimed; undefined when it went meanwhile (its request failed with a 5xx). */
export async function keyState(db: Db, owner: KeyOwner): Promise<KeyState | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status', 'headers', 'body'])
    .where('organization_id', '=', owner.organizationId)
    .where('caller', '=', owner.caller)
    .where('key', '=', owner.key)
    .executeTakeFirst()
  if (!row) return undefined
  if (row.status === null) return { kind: 'running', fingerprint: row.fingerprint }
  return { kind: 'answered', fingerprint: row.fingerprint, answer: { status: row.status, headers: row.headers ?? {}, body: row.body } }
}

/** Records the answer of the request holding `claim`; a request whose claim was taken over records nothing. */
export async function recordAnswer(db: Db, owner: KeyOwner, claim: string, answer: StoredAnswer): Promise<void> {
  await sql`
    update idempotency_keys set status = ${answer.status}, headers = ${JSON.stringify(answer.headers)}::jsonb, body = ${answer.body}
    where ${heldBy(owner, claim)}
  `.execute(db)
}

/** Gives the key up, so that a retry runs afresh. */
export async function releaseKey(db: Db, owner: KeyOwner, claim: string): Promise<void> {
  await sql`delete from idempotency_keys where ${heldBy(owner, claim)}`.execute(db)
}

function heldBy(owner: KeyOwner, claim: string) {
  return sql`organization_id = ${owner.organizationId} and caller = ${owner.caller} and key = ${owner.key} and claim = ${claim}`
}

/** Deletes up to `limit` rows past their 24 h; returns how many. */
export async function pruneKeys(db: Db, limit: number): Promise<number> {
  const result = await sql`
    delete from idempotency_keys where (organization_id, caller, key) in (
      select organization_id, caller, key from idempotency_keys where created_at < now() - make_interval(hours => ${RETENTION_HOURS}) limit ${limit}
    )
  `.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}
