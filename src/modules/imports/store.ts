import { sql, type Selectable } from 'kysely'
import { claimDue, extendClaims, releaseClaims } from '../../platform/background/claims.js'
import { notify } from '../../platform/background/listener.js'
import type { Db } from '../../platform/db/index.js'
import type { ImportNodeOutcome, ImportsTable } from '../../platform/db/schema.js'
import type { Page } from '../../platform/http/pagination.js'

/** Committed imports that are due wake the runners of other processes (PostgreSQL). */
export const IMPORTS_CHANNEL = 'asset_library_imports'
/** Another run of the same file holds the slot (`imports_running_file_idx`). */
const RUNNING_FILE_INDEX = 'imports_running_file_idx'

export type ImportRow = Selectable<ImportsTable>

export interface NodeReport {
  node_id: string
  name: string
  reason: string | null
  detail: string | null
  asset_id: string | null
}

/** An import with its current run's counts and reports. */
export interface ImportWithCounts extends ImportRow {
  total: number
  created: number
  updated: number
  unchanged: number
  failed: number
  missing: number
  failures: NodeReport[]
  missing_nodes: NodeReport[]
}

export type NewImport = Omit<ImportRow, 'status' | 'run' | 'rerun_pending' | 'attempts' | 'created_at' | 'queued_at' | 'started_at' | 'finished_at' | 'error_code' | 'error_detail' | 'file_name' | 'file_version' | 'next_attempt_at' | 'locked_by' | 'locked_until' | 'last_error' | 'metadata'> & {
  metadata: string
}

/** Queues a new import, due at once, waking the runners of other processes on commit. */
export async function insertImport(db: Db, row: NewImport): Promise<void> {
  await sql`
    with inserted as (
      insert into imports (id, organization_id, source, file_key, file_url, root_node_id, selection, node_ids, format, scale, metadata, token_sealed,
        created_by_kind, created_by_id, created_by_name, next_attempt_at)
      values (${row.id}, ${row.organization_id}, ${row.source}, ${row.file_key}, ${row.file_url}, ${row.root_node_id}, ${row.selection}, ${row.node_ids}::text[],
        ${row.format}, ${row.scale}, ${row.metadata}::jsonb, ${row.token_sealed}, ${row.created_by_kind}, ${row.created_by_id}, ${row.created_by_name}, now())
      returning id
    )
    select ${notify(IMPORTS_CHANNEL)} from inserted
  `.execute(db)
}

/** The counts and reports of each import's current run, for a select over `imports i`. */
const COUNTS = sql`
  left join lateral (
    select
      count(*) filter (where n.run = i.run)::int as total,
      count(*) filter (where n.run = i.run and n.outcome = 'created')::int as created,
      count(*) filter (where n.run = i.run and n.outcome = 'updated')::int as updated,
      count(*) filter (where n.run = i.run and n.outcome = 'unchanged')::int as unchanged,
      count(*) filter (where n.run = i.run and n.outcome = 'failed')::int as failed,
      count(*) filter (where n.outcome = 'missing')::int as missing,
      coalesce(json_agg(json_build_object('node_id', n.node_id, 'name', n.name, 'reason', n.reason, 'detail', n.detail, 'asset_id', n.asset_id) order by n.node_id)
        filter (where n.run = i.run and n.outcome = 'failed'), '[]') as failures,
      coalesce(json_agg(json_build_object('node_id', n.node_id, 'name', n.name, 'reason', n.reason, 'detail', n.detail, 'asset_id', n.asset_id) order by n.node_id)
        filter (where n.outcome = 'missing'), '[]') as missing_nodes
    from import_nodes n where n.import_id = i.id
  ) c on true
`

export async function findImport(db: Db, organizationId: string, id: string): Promise<ImportWithCounts | undefined> {
  const { rows } = await sql<ImportWithCounts>`
    select i.*, c.* from imports i ${COUNTS} where i.organization_id = ${organizationId} and i.id = ${id}
  `.execute(db)
  return rows[0]
}

/** A page of the organization's imports, newest first, and how many there are. */
export async function listImports(db: Db, organizationId: string, fileKey: string | undefined, page: Page): Promise<{ rows: ImportWithCounts[]; total: number }> {
  const ofFile = fileKey === undefined ? sql`` : sql`and i.file_key = ${fileKey}`
  const { rows } = await sql<ImportWithCounts>`
    select i.*, c.* from (
      select * from imports i where i.organization_id = ${organizationId} ${ofFile} order by i.id desc limit ${page.limit} offset ${page.offset}
    ) i ${COUNTS} order by i.id desc
  `.execute(db)
  const counted = await sql<{ total: number }>`select count(*)::int as total from imports i where i.organization_id = ${organizationId} ${ofFile}`.execute(db)
  return { rows, total: counted.rows[0]!.total }
}

/** A node of an import's current run as the nodes list shows it; `asset_id` is null once its asset is purged. */
export interface ImportNodeRow {
  node_id: string
  name: string
  page_name: string | null
  component_set_name: string | null
  outcome: ImportNodeOutcome | null
  reason: string | null
  detail: string | null
  asset_id: string | null
}

/** Which nodes of the run to list: one outcome, or `pending` (not yet done in this run). */
export type ImportNodeFilter = ImportNodeOutcome | 'pending'

/**
 * A page of the nodes of the import's current run (with the nodes earlier runs imported that the file no
 * longer has, `missing`), by page, component set, name, then node id, and how many match; undefined when
 * the organization has no such import. One statement.
 */
export async function listImportNodes(
  db: Db,
  organizationId: string,
  importId: string,
  outcome: ImportNodeFilter | undefined,
  page: Page,
): Promise<{ file_key: string; rows: ImportNodeRow[]; total: number } | undefined> {
  const ofOutcome = outcome === undefined ? sql`` : outcome === 'pending' ? sql`and n.outcome is null` : sql`and n.outcome = ${outcome}`
  const { rows } = await sql<{ file_key: string; rows: ImportNodeRow[]; total: number }>`
    with found as (
      select id, organization_id, file_key, run from imports where organization_id = ${organizationId} and id = ${importId}
    ), matching as (
      select n.node_id, n.name, n.page_name, n.component_set_name, n.outcome, n.reason, n.detail, a.id as asset_id
      from import_nodes n
      join found f on n.import_id = f.id
      left join assets a on a.id = n.asset_id and a.organization_id = f.organization_id
      where (n.run = f.run or n.outcome = 'missing') ${ofOutcome}
    )
    select f.file_key, (select count(*) from matching)::int as total,
      coalesce((
        select json_agg(p order by p.page_name nulls first, p.component_set_name nulls first, p.name, p.node_id)
        from (
          select * from matching m
          order by m.page_name nulls first, m.component_set_name nulls first, m.name, m.node_id
          limit ${page.limit} offset ${page.offset}
        ) p
      ), '[]') as rows
    from found f
  `.execute(db)
  return rows[0]
}

/** What a new run resets: the counts start again, each node's outcome is unknown until the run does it. */
const NEW_RUN = sql`
  status = 'queued', run = i.run + 1, rerun_pending = false, queued_at = now(), started_at = null, finished_at = null,
  error_code = null, error_detail = null, attempts = 0, last_error = null
`

/**
 * Queues the import again as a new run (a rerun), unless it is queued or running. `tokenSealed`
 * replaces its token when given.
 */
export async function queueRerun(db: Db, organizationId: string, id: string, tokenSealed: string | null): Promise<'queued' | 'in_progress' | 'not_found'> {
  const { rows } = await sql<{ queued: boolean }>`
    with found as (
      select id, status from imports where organization_id = ${organizationId} and id = ${id}
    ), requeued as (
      update imports i set ${NEW_RUN}, next_attempt_at = now(), token_sealed = coalesce(${tokenSealed}, i.token_sealed)
      from found where i.id = found.id and found.status in ('done', 'failed')
      returning i.id
    ), reset as (
      update import_nodes set outcome = null, reason = null, detail = null where import_id in (select id from requeued)
    )
    select exists (select 1 from requeued) as queued, ${notify(IMPORTS_CHANNEL)} from found
  `.execute(db)
  if (rows.length === 0) return 'not_found'
  return rows[0]!.queued ? 'queued' : 'in_progress'
}

/**
 * The imports of a file run again in `delayMs` (a Figma webhook): an ended one as a new run, a queued one
 * later (a later call pushes it out again), a running one when it ends. Returns how many it touched.
 */
export async function queueSync(db: Db, organizationId: string, fileKey: string, delayMs: number): Promise<number> {
  const due = sql`now() + make_interval(secs => ${delayMs / 1000})`
  const { rows } = await sql<{ touched: number }>`
    with ended as (
      update imports i set ${NEW_RUN}, next_attempt_at = ${due}
      where i.organization_id = ${organizationId} and i.file_key = ${fileKey} and i.status in ('done', 'failed')
      returning i.id
    ), reset as (
      update import_nodes set outcome = null, reason = null, detail = null where import_id in (select id from ended)
    ), waiting as (
      update imports i set next_attempt_at = greatest(i.next_attempt_at, ${due})
      where i.organization_id = ${organizationId} and i.file_key = ${fileKey} and i.status = 'queued' and (i.locked_until is null or i.locked_until < now())
      returning i.id
    ), running as (
      update imports i set rerun_pending = true
      where i.organization_id = ${organizationId} and i.file_key = ${fileKey} and (i.status = 'running' or (i.status = 'queued' and i.locked_until >= now()))
      returning i.id
    )
    select ((select count(*) from ended) + (select count(*) from waiting) + (select count(*) from running))::int as touched, ${notify(IMPORTS_CHANNEL)}
  `.execute(db)
  return rows[0]!.touched
}

/** What the runner claims: the key keeps two runs of one file from starting at once. */
export interface ClaimedImport {
  id: string
  organization_id: string
  file_key: string
}

/**
 * Leases due imports. A queued one waits while another import of its file runs (the claim skips it, and
 * `imports_running_file_idx` refuses the second run should two processes claim at once).
 */
export function claimImports(db: Db, request: { owner: string; limit: number; leaseMs: number }): Promise<ClaimedImport[]> {
  return claimDue<ClaimedImport>(db, {
    table: 'imports',
    idColumn: 'id',
    ...request,
    where: sql<boolean>`imports.status = 'running' or not exists (
      select 1 from imports other
      where other.organization_id = imports.organization_id and other.file_key = imports.file_key and other.status = 'running'
    )`,
    returning: ['id', 'organization_id', 'file_key'],
  })
}

export function releaseImports(db: Db, owner: string, ids: string[]): Promise<void> {
  return releaseClaims(db, { table: 'imports', idColumn: 'id', owner, ids })
}

export function extendImports(db: Db, owner: string, ids: string[], leaseMs: number): Promise<string[]> {
  return extendClaims(db, { table: 'imports', idColumn: 'id', owner, ids, leaseMs })
}

/**
 * The claimed import, now running (its run started now unless it resumes); `busy` when another import
 * of its file runs; undefined when the claim passed to another runner.
 */
export async function startRun(db: Db, id: string, owner: string): Promise<ImportRow | 'busy' | undefined> {
  try {
    const { rows } = await sql<ImportRow>`
      update imports set status = 'running', started_at = case when status = 'queued' then now() else started_at end
      where id = ${id} and locked_by = ${owner}
      returning *
    `.execute(db)
    return rows[0]
  } catch (error) {
    if (isUniqueViolation(error, RUNNING_FILE_INDEX)) return 'busy'
    throw error
  }
}

/** Holds a claimed import back `delayMs` without counting an attempt (its file is busy). */
export async function postpone(db: Db, id: string, owner: string, delayMs: number): Promise<void> {
  await sql`
    update imports set next_attempt_at = now() + make_interval(secs => ${delayMs / 1000}), locked_by = null, locked_until = null
    where id = ${id} and locked_by = ${owner}
  `.execute(db)
}

/** An attempt failed on our side: due again after `delayMs`, still running. */
export async function retryLater(db: Db, id: string, owner: string, delayMs: number, error: string): Promise<void> {
  await sql`
    update imports set next_attempt_at = now() + make_interval(secs => ${delayMs / 1000}), attempts = attempts + 1, last_error = ${error},
      locked_by = null, locked_until = null
    where id = ${id} and locked_by = ${owner}
  `.execute(db)
}

/** The file as this run read it; false when the claim passed to another runner. */
export async function recordFile(db: Db, id: string, owner: string, file: { name: string; version: string }): Promise<boolean> {
  const result = await sql`update imports set file_name = ${file.name}, file_version = ${file.version} where id = ${id} and locked_by = ${owner}`.execute(db)
  return Number(result.numAffectedRows ?? 0) > 0
}

/** A node as a run found it in the file. */
export interface SeenNode {
  node_id: string
  name: string
  page_name: string | null
  component_set_name: string | null
}

/** A node as the import knew it before this run looked: what it was named and hashed when last pushed, and this run's outcome so far. */
export interface KnownNode {
  node_id: string
  name: string
  page_name: string | null
  component_set_name: string | null
  outcome: ImportNodeOutcome | null
  content_hash: string | null
  asset_id: string | null
  /** Whether that asset is live (not deleted). */
  asset_live: boolean
}

/**
 * Records the nodes this run covers (new ones with their names; known ones keep theirs until they are
 * pushed again), marks the import's other nodes `missing`, and answers what was known of each, in one
 * statement. Nothing when the claim passed to another runner.
 */
export async function recordNodes(db: Db, importId: string, run: number, owner: string, nodes: SeenNode[]): Promise<KnownNode[]> {
  const column = <K extends keyof SeenNode>(key: K) => nodes.map((node) => node[key])
  const { rows } = await sql<KnownNode>`
    with held as (
      select organization_id from imports where id = ${importId} and locked_by = ${owner}
    ), seen as (
      insert into import_nodes (import_id, node_id, name, page_name, component_set_name, run)
      select ${importId}, s.node_id, s.name, s.page_name, s.component_set_name, ${run}
      from unnest(${column('node_id')}::text[], ${column('name')}::text[], ${column('page_name')}::text[], ${column('component_set_name')}::text[])
        as s(node_id, name, page_name, component_set_name)
      where exists (select 1 from held)
      on conflict (import_id, node_id) do update set run = excluded.run
      returning node_id, name, page_name, component_set_name, outcome, content_hash, asset_id
    ), gone as (
      update import_nodes set outcome = 'missing', reason = null, detail = null
      where import_id = ${importId} and node_id <> all(${column('node_id')}::text[]) and exists (select 1 from held)
    )
    select seen.*, exists (select 1 from assets a, held where a.id = seen.asset_id and a.organization_id = held.organization_id) as asset_live from seen
  `.execute(db)
  return rows
}

/** A node's outcome in this run; with `pushed`, what it is now named and hashed as. */
export interface NodeOutcome {
  node_id: string
  outcome: ImportNodeOutcome
  reason?: string
  detail?: string
  pushed?: SeenNode & { content_hash: string; rendered_hash: string | null; asset_id: string }
}

/** Writes one node's outcome; false when the claim passed to another runner. */
export async function recordOutcome(db: Db, importId: string, owner: string, outcome: NodeOutcome): Promise<boolean> {
  const { pushed } = outcome
  const names = pushed
    ? sql`, name = ${pushed.name}, page_name = ${pushed.page_name}, component_set_name = ${pushed.component_set_name}, content_hash = ${pushed.content_hash},
        rendered_hash = coalesce(${pushed.rendered_hash}, rendered_hash), asset_id = ${pushed.asset_id}::uuid`
    : sql``
  const result = await sql`
    update import_nodes set outcome = ${outcome.outcome}, reason = ${outcome.reason ?? null}, detail = ${outcome.detail ?? null} ${names}
    where import_id = ${importId} and node_id = ${outcome.node_id} and exists (select 1 from imports where id = ${importId} and locked_by = ${owner})
  `.execute(db)
  return Number(result.numAffectedRows ?? 0) > 0
}

/** Marks nodes `unchanged` at once; false when the claim passed to another runner. */
export async function recordUnchanged(db: Db, importId: string, owner: string, nodeIds: string[]): Promise<boolean> {
  if (nodeIds.length === 0) return true
  const result = await sql`
    update import_nodes set outcome = 'unchanged', reason = null, detail = null
    where import_id = ${importId} and node_id = any(${nodeIds}::text[]) and exists (select 1 from imports where id = ${importId} and locked_by = ${owner})
  `.execute(db)
  return Number(result.numAffectedRows ?? 0) > 0
}

/** Whether the asset was made at or after `since` (by an attempt of this run that did not live to record it). */
export async function createdSince(db: Db, assetId: string, since: Date): Promise<boolean> {
  const { rows } = await sql<{ created: boolean }>`select created_at >= ${since}::timestamptz as created from assets where id = ${assetId}`.execute(db)
  return rows[0]?.created ?? false
}

/**
 * Ends the run (`done`, or `failed` with `error`), erasing the import's own token; an import asked to
 * sync while it ran is queued again as a new run. Returns whether it ended here (the claim was held).
 */
export async function endRun(db: Db, id: string, owner: string, error: { code: string; detail: string } | null): Promise<boolean> {
  const { rows } = await sql<{ id: string; rerun_pending: boolean }>`
    update imports set status = ${error ? 'failed' : 'done'}, error_code = ${error?.code ?? null}, error_detail = ${error?.detail ?? null},
      finished_at = now(), token_sealed = null, next_attempt_at = null, locked_by = null, locked_until = null, attempts = 0, last_error = null
    where id = ${id} and locked_by = ${owner}
    returning id, rerun_pending
  `.execute(db)
  const ended = rows[0]
  if (ended?.rerun_pending) {
    await sql`
      with requeued as (
        update imports i set ${NEW_RUN}, next_attempt_at = now() where i.id = ${id} and i.status in ('done', 'failed') returning i.id
      )
      update import_nodes set outcome = null, reason = null, detail = null where import_id in (select id from requeued)
    `.execute(db)
  }
  return ended !== undefined
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const failure = error as { code?: string; constraint?: string; message?: string }
  return failure.code === '23505' && (failure.constraint ?? failure.message ?? '').includes(constraint)
}
