import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { Db } from '../db/index.js'

/*
 * SQL for tables that keep their own background state in these columns:
 *
 *   next_attempt_at timestamptz null      -- when the row is next due; null: nothing to do
 *   attempts        integer not null default 0
 *   locked_by       text null             -- the runner holding the row ...
 *   locked_until    timestamptz null      -- ... until then; a lease that runs out gives the row back
 *   last_error      text null
 *
 * with `create index ... (next_attempt_at) where next_attempt_at is not null`, so a claim reads only
 * the rows that have something to do, oldest first. Every helper is one statement: on the embedded
 * database all statements share the API's one connection.
 */

export interface ClaimRequest<Row> {
  table: string
  idColumn: string
  owner: string
  limit: number
  leaseMs: number
  /** An extra condition on the due rows, e.g. skipping busy keys; it may name the table. */
  where?: Expression<SqlBool>
  returning: readonly (keyof Row & string)[]
  /** Columns among `returning` read as their text (json kept exactly as written). */
  asText?: readonly (keyof Row & string)[]
}

/**
 * Leases up to `limit` due rows to `owner`, oldest first. `skip locked` lets concurrent runners
 * claim disjoint rows without waiting on each other. The rows are picked once, in a materialised CTE:
 * as `where id in (select … limit … skip locked)`, a plan that runs the subquery again for each row
 * (a nested loop) gets the next unlocked rows each time, and the update took up to the whole table.
 */
export async function claimDue<Row extends object>(db: Db, request: ClaimRequest<Row>): Promise<Row[]> {
  const table = sql.table(request.table)
  const id = sql.ref(request.idColumn)
  const extra = request.where ? sql`and (${request.where})` : sql``
  const result = await sql<Row>`
    with picked as materialized (
      select ${id} as picked_id from ${table}
      where next_attempt_at <= now() and (locked_until is null or locked_until < now()) ${extra}
      order by next_attempt_at
      limit ${request.limit}
      for update skip locked
    )
    update ${table}
    set locked_by = ${request.owner}, locked_until = now() + make_interval(secs => ${request.leaseMs / 1000})
    from picked
    where ${id} = picked.picked_id
    returning ${sql.join(request.returning.map((column) => (request.asText?.includes(column) ? sql`${sql.ref(column)}::text as ${sql.ref(column)}` : sql.ref(column))))}
  `.execute(db)
  return result.rows
}

/** `claimDue` for a queue keyed by `asset_id` (the derivations' queues): the claimed jobs as `{ id }`. */
export async function claimAssetJobs(db: Db, table: string, request: { owner: string; limit: number; leaseMs: number }): Promise<{ id: string }[]> {
  const rows = await claimDue<{ asset_id: string }>(db, { table, idColumn: 'asset_id', ...request, returning: ['asset_id'] })
  return rows.map((row) => ({ id: row.asset_id }))
}

/**
 * A job of a queue keyed by `asset_id` whose attempt failed for a reason other than its image (the files,
 * the database): due again after 5 s, 20 s, 80 s… at most an hour, ±20%, unless another runner holds it now.
 */
export async function retryAssetJobLater(db: Db, table: string, job: { assetId: string; owner: string; error: string }): Promise<void> {
  await sql`
    update ${sql.table(table)}
    set attempts = attempts + 1, last_error = ${job.error.slice(0, 1000)}, locked_by = null, locked_until = null,
      next_attempt_at = now() + make_interval(secs => least(3600, 5 * power(4, attempts)) * (0.8 + random() * 0.4))
    where asset_id = ${job.assetId} and locked_by = ${job.owner}
  `.execute(db)
}

export interface ReleaseRequest {
  table: string
  idColumn: string
  owner: string
  ids: readonly string[]
}

/** Makes claimed rows due again at once, leaving alone any whose lease has since passed to another runner. */
export async function releaseClaims(db: Db, request: ReleaseRequest): Promise<void> {
  if (request.ids.length === 0) return
  await sql`
    update ${sql.table(request.table)}
    set locked_by = null, locked_until = null
    where ${sql.ref(request.idColumn)} = any(${request.ids}) and locked_by = ${request.owner}
  `.execute(db)
}

/** Extends the lease of claimed rows that `owner` still holds; returns their ids. */
export async function extendClaims(db: Db, request: ReleaseRequest & { leaseMs: number }): Promise<string[]> {
  if (request.ids.length === 0) return []
  const id = sql.ref(request.idColumn)
  const result = await sql<{ id: string }>`
    update ${sql.table(request.table)}
    set locked_until = now() + make_interval(secs => ${request.leaseMs / 1000})
    where ${id} = any(${request.ids}) and locked_by = ${request.owner}
    returning ${id} as id
  `.execute(db)
  return result.rows.map((row) => row.id)
}

export interface Backoff {
  baseMs: number
  factor: number
  maxMs: number
}

/**
 * How long to wait after failed attempt number `attempt` (from 1): `baseMs`, times `factor` for each
 * further attempt, at most `maxMs`. The ±20% jitter keeps rows that failed together (an outage) from
 * all coming back in the same instant.
 */
export function backoffMs(attempt: number, { baseMs, factor, maxMs }: Backoff): number {
  const delay = Math.min(maxMs, baseMs * factor ** Math.max(0, attempt - 1))
  return Math.round(delay * (0.8 + Math.random() * 0.4))
}

/** Whether the row of the queue table aliased `alias` is held by no runner: never claimed, or its lease ran out. */
export function unleased(alias: string): RawBuilder<boolean> {
  const lockedUntil = sql.ref(`${alias}.locked_until`)
  return sql<boolean>`(${lockedUntil} is null or ${lockedUntil} < now())`
}

/** How much work a queue holds: see `DerivationCounts` for what each count means. */
export interface QueueCounts {
  pending: number
  running: number
  failed: number
  oldest_pending_at: string | null
}

/**
 * The counts of the rows of a queue table (aliased `q`) that `where` selects, in one statement: pending
 * (due or waiting, no failed attempt, no lease), running (leased), failed (the last attempt failed,
 * no lease), plus `alsoFailed` (failures a queue records elsewhere).
 */
export async function queueCounts(db: Db, table: string, where: RawBuilder<boolean>, alsoFailed: RawBuilder<number> = sql<number>`0`): Promise<QueueCounts> {
  const unclaimed = unleased('q')
  const pending = sql`q.next_attempt_at is not null and ${unclaimed} and q.last_error is null`
  const { rows } = await sql<Omit<QueueCounts, 'oldest_pending_at'> & { oldest_pending_at: Date | string | null }>`
    select
      count(*) filter (where ${pending})::int as pending,
      count(*) filter (where not ${unclaimed})::int as running,
      (count(*) filter (where q.next_attempt_at is not null and ${unclaimed} and q.last_error is not null) + (${alsoFailed}))::int as failed,
      min(q.next_attempt_at) filter (where ${pending}) as oldest_pending_at
    from ${sql.table(table)} as q where ${where}
  `.execute(db)
  const row = rows[0]!
  return { ...row, oldest_pending_at: row.oldest_pending_at === null ? null : new Date(row.oldest_pending_at).toISOString() }
}
