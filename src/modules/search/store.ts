import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import { claimDue, queueCounts, releaseClaims, unleased, type QueueCounts } from '../../platform/background/claims.js'
import { ASSET_COLUMNS, DERIVED_COLUMNS, hasFilter, whereFilter, type AssetFilter, type AssetWithRelations } from '../assets/store.js'

/** Notified by the trigger `asset_embeddings_notify` (migration 0007) when a text becomes due. */
export const EMBEDDINGS_CHANNEL = 'asset_library_embeddings'

/**
 * How the HNSW index stores vectors of the configured dimension: pgvector indexes `vector` up to 2,000
 * dimensions and `halfvec` up to 4,000; past that there is no index and comparisons are exact.
 */
export type IndexType = 'vector' | 'halfvec'

/** Where vectors are kept: of the assets' texts (the text provider's), or of their images (CLIP's). */
export type VectorTable = 'asset_embeddings' | 'asset_image_embeddings'

/** The query's vector and how to compare with stored ones. */
export interface QueryVector {
  /** The vectors it is compared with: the texts' (the text provider's), or the images' (CLIP's). */
  table: VectorTable
  value: Buffer
  model: string
  dimensions: number
  /** The HNSW index covers this dimension: compare as vector(N) or halfvec(N) so it is used. */
  index: IndexType | undefined
}

export interface SearchRequest {
  organizationId: string
  filter: Omit<AssetFilter, 'q'>
  /** The full-text query, or undefined when the text has no terms. */
  tsquery: RawBuilder<string> | undefined
  vector: QueryVector | undefined
  /** Top N of each kind of candidate. */
  candidates: number
  limit: number
}

export type ScoredRow = AssetWithRelations & { score: number; text_score: number; semantic_score: number }

/** How many times the candidate count the text pool holds: the matches that are ranked at all. */
const TEXT_POOL_FACTOR = 5

/**
 * Top N by text rank united with top N by vector distance, both under the list filters, each scored on
 * both counts: text_score is ts_rank_cd normalised into [0, 1) (flag 32), semantic_score the cosine
 * similarity clamped to [0, 1]. One statement.
 *
 * The text candidates are ranked from a capped pool, the newest matches (five times the candidates), so
 * a word found in half the library costs what a word found in a few hundred assets does (no rank is
 * computed for the other matches, nor are their rows read). An older match ranks only if it is among
 * them; as ties in rank are broken newest first anyway, this changes the hits only when an asset older
 * than the pool matches more strongly than the pooled ones. See `textCandidates` for how the pool is found.
 */
export async function searchAssets(db: Db, request: SearchRequest): Promise<ScoredRow[]> {
  const { tsquery, vector } = request
  const filtered = whereFilter(db.selectFrom('assets'), request.organizationId, request.filter)
  const parts: RawBuilder<unknown>[] = []
  if (tsquery) {
    parts.push(textCandidates(filtered, tsquery, request.candidates))
  }
  if (vector) {
    const inFilter = hasFilter(request.filter) ? sql`and e.asset_id in (${filtered.select('assets.id')})` : sql``
    parts.push(sql`select id from (
      select e.asset_id as id from ${sql.table(vector.table)} e
      where e.organization_id = ${request.organizationId} and e.model = ${vector.model} and e.dimensions = ${vector.dimensions}
        and ${hasVector(vector.table)} ${inFilter}
      order by ${typed(sql`e.embedding`, vector)} <=> (select v from qv) limit ${request.candidates}) vector_hits`)
  }
  if (parts.length === 0) return []
  const textScore = tsquery ? sql`case when assets.search @@ (select tsq from q) then ts_rank_cd(assets.search, (select tsq from q), 32) else 0 end` : sql`0`
  // coalesce before clamping: least() skips NULLs, so least(1, NULL) would give an asset without a vector 1.
  const semanticScore = vector ? sql`greatest(0, least(1, coalesce(1 - (${typed(sql`e.embedding`, vector)} <=> (select v from qv)), 0)))` : sql`0`
  const embeddingJoin = vector
    ? sql`left join ${sql.table(vector.table)} e on e.asset_id = assets.id and e.model = ${vector.model} and e.dimensions = ${vector.dimensions} and ${hasVector(vector.table)}`
    : sql``
  // Text mode ranks by text alone; a candidate scoring 0 (no text match, an orthogonal vector) is no hit.
  const score = vector ? sql`(0.4 * scored.text_score + 0.6 * scored.semantic_score)` : sql`scored.text_score`
  const result = await sql<ScoredRow>`
    with q as materialized (select ${tsquery ?? sql`null::tsquery`} as tsq),
    qv as materialized (select ${vector ? typed(sql`${vector.value}::vector`, vector) : sql`null`} as v),
    candidates as (${sql.join(parts, sql` union `)}),
    scored as (
      select assets.id, ${textScore}::float8 as text_score, ${semanticScore}::float8 as semantic_score
      from candidates join assets on assets.id = candidates.id ${embeddingJoin}
    )
    select ${sql.join([...ASSET_COLUMNS.map((c) => sql.ref(c)), ...DERIVED_COLUMNS])}, scored.text_score, scored.semantic_score, ${score} as score
    from scored join assets on assets.id = scored.id
    where ${score} > 0
    order by score desc, assets.id desc
    limit ${request.limit}
  `.execute(db)
  return result.rows
}

/** How many of the newest assets (under the filters) the pool looks through before it asks the text index. */
const RECENT_WALK = 5000

/**
 * The `candidates` best-ranked of the pool: the newest `candidates` × TEXT_POOL_FACTOR matches. They are
 * looked for among the RECENT_WALK newest assets first, walking the newest-first index, which finds the
 * pool of a common word after a few hundred rows. Only when fewer match there (a word in under 4% of
 * them) are all matches read through the text index and the newest taken, at a cost that grows with the
 * matches of a word that rare. The planner made that choice itself before, from its estimate of the
 * matches; two common words that rarely meet, which it overestimates, walked 43,000 rows of 100,000 for
 * 448 matches (58 ms; bench/search.ts). At most one of the two reads runs: the second is behind a
 * condition on the first, which the executor checks before starting it.
 */
function textCandidates(filtered: ReturnType<typeof whereFilter>, tsquery: RawBuilder<unknown>, candidates: number): RawBuilder<unknown> {
  const poolSize = candidates * TEXT_POOL_FACTOR
  const newest = filtered
    .select(['assets.id', 'assets.search', 'assets.created_at'])
    .orderBy('assets.created_at', 'desc')
    .orderBy('assets.id', 'desc')
    .limit(RECENT_WALK)
  const matches = filtered.select(['assets.id', 'assets.search', 'assets.created_at']).where(sql<boolean>`assets.search @@ ${tsquery}`)
  return sql`select id from (
    with recent_pool as (
      select id, search from (${newest}) newest where search @@ ${tsquery} order by created_at desc, id desc limit ${poolSize}
    ),
    all_matches as materialized (${matches}),
    pool as (
      select id, search from recent_pool where (select count(*) from recent_pool) = ${poolSize}
      union all
      select id, search from (select id, search from all_matches order by created_at desc, id desc limit ${poolSize}) older
        where (select count(*) from recent_pool) < ${poolSize}
    )
    select id from pool order by ts_rank_cd(search, (select tsq from q), 32) desc, id desc limit ${candidates}) text_hits`
}

/** Whether the asset is the organization's, and whether the organization has AI on; undefined when it is not. */
export async function assetAi(db: Db, organizationId: string, assetId: string): Promise<{ ai_enabled: boolean } | undefined> {
  return db
    .selectFrom('assets')
    .innerJoin('organizations', 'organizations.id', 'assets.organization_id')
    .select('organizations.ai_enabled')
    .where('assets.organization_id', '=', organizationId)
    .where('assets.id', '=', assetId)
    .executeTakeFirst()
}

/**
 * Whether the row `e` holds a vector to compare: a text's is its current text's (a text emptied keeps
 * its old vector, unused), an image's is there unless its file could not be decoded.
 */
function hasVector(table: VectorTable): RawBuilder<boolean> {
  return table === 'asset_embeddings' ? sql<boolean>`e.embedded_hash is not null` : sql<boolean>`e.embedding is not null`
}

/** The model and length of one asset's stored vector in `table` (of `model` only, when given), if it has one. */
export async function storedVectorOf(
  db: Db,
  table: VectorTable,
  request: { organizationId: string; assetId: string; model?: string | undefined },
): Promise<{ model: string; dimensions: number } | undefined> {
  const ofModel = request.model === undefined ? sql`` : sql`and e.model = ${request.model}`
  const { rows } = await sql<{ model: string; dimensions: number }>`
    select e.model, e.dimensions from ${sql.table(table)} e
    where e.asset_id = ${request.assetId} and e.organization_id = ${request.organizationId} and ${hasVector(table)} ${ofModel}
  `.execute(db)
  return rows[0]
}

/**
 * The nearest assets to one asset's stored vector in `table`, among current vectors of the same model
 * and length. An orthogonal (or opposite) neighbour is no neighbour.
 */
export async function similarAssets(
  db: Db,
  request: { organizationId: string; assetId: string; limit: number; table: VectorTable; model: string; dimensions: number; index: IndexType | undefined },
): Promise<Array<AssetWithRelations & { semantic_score: number }>> {
  const stored = typed(sql`e.embedding`, request)
  const result = await sql<AssetWithRelations & { semantic_score: number }>`
    with qv as materialized (select ${typed(sql`embedding`, request)} as v from ${sql.table(request.table)} where asset_id = ${request.assetId}),
    nearest as (
      select e.asset_id, ${stored} <=> (select v from qv) as distance from ${sql.table(request.table)} e
      where e.organization_id = ${request.organizationId} and e.model = ${request.model} and e.dimensions = ${request.dimensions}
        and ${hasVector(request.table)} and e.asset_id <> ${request.assetId}
      order by ${stored} <=> (select v from qv) limit ${request.limit}
    )
    select ${sql.join([...ASSET_COLUMNS.map((c) => sql.ref(c)), ...DERIVED_COLUMNS])}, greatest(0, least(1, 1 - nearest.distance))::float8 as semantic_score
    from nearest join assets on assets.id = nearest.asset_id
    where nearest.distance < 1
    order by nearest.distance, assets.id
  `.execute(db)
  return result.rows
}

/** `vector(N)` or `halfvec(N)` where the HNSW index is (an expression index on that cast), the bare type elsewhere. */
function typed(expression: RawBuilder<unknown>, vector: { dimensions: number; index: IndexType | undefined }): RawBuilder<unknown> {
  return vector.index ? sql`${expression}::${sql.raw(`${vector.index}(${vector.dimensions})`)}` : expression
}

/** The expression the HNSW index of this dimension is built on, and its operator class. */
function indexExpression(dimensions: number, type: IndexType): { expression: RawBuilder<unknown>; operators: RawBuilder<unknown> } {
  return { expression: typed(sql`embedding`, { dimensions, index: type }), operators: sql.raw(`${type}_cosine_ops`) }
}

/**
 * Runs `work` with the HNSW scan settings it needs, for this transaction only. Iterative scans
 * (pgvector 0.8+) keep scanning past ef_search until a filtered query (one organization of many)
 * fills its limit.
 */
export async function withVectorScan<T>(db: Db, settings: { efSearch: number; iterativeScan: boolean }, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    const iterative = settings.iterativeScan ? sql`, set_config('hnsw.iterative_scan', 'relaxed_order', true)` : sql``
    await sql`select set_config('hnsw.ef_search', ${String(settings.efSearch)}, true)${iterative}`.execute(tx)
    return work(tx)
  })
}

/**
 * Queues the texts to embed of the assets `assets` selects (rows with an `id`), as a statement of its own
 * or a clause of the statement that changes them. A new text is due (a trigger tells listening
 * processes), unless the organization has AI off (then it waits, parked, for AI to come back on); the
 * same text again changes nothing, so edits that do not touch the text never re-embed.
 */
export function queueEmbeddingText(assets: RawBuilder<{ id: string }>, row: { organizationId: string; text: string; hash: string }): RawBuilder<unknown> {
  const due = row.text === '' ? sql`null::timestamptz` : sql`(select case when ai_enabled then now() end from organizations where id = ${row.organizationId})`
  return sql`
    insert into asset_embeddings (asset_id, organization_id, source_text, text_hash, next_attempt_at)
    select changed.id, ${row.organizationId}, ${row.text}, ${row.hash}, ${due} from (${assets}) as changed
    on conflict (asset_id) do update
      set source_text = excluded.source_text, text_hash = excluded.text_hash, next_attempt_at = excluded.next_attempt_at, attempts = 0, last_error = null,
        -- An asset left with no text keeps no meaning: its old vector stops being used.
        embedded_hash = case when excluded.source_text = '' then null else asset_embeddings.embedded_hash end
      where asset_embeddings.text_hash <> excluded.text_hash`
}

export interface EmbeddingJob {
  id: string
  source_text: string
  text_hash: string
  attempts: number
  locked_by: string
}

/** Due texts of organizations with AI on (and of one organization, for a backfill). */
export async function claimEmbeddings(
  db: Db,
  request: { owner: string; limit: number; leaseMs: number; organizationId?: string | undefined },
): Promise<EmbeddingJob[]> {
  const organization = request.organizationId ? sql`and asset_embeddings.organization_id = ${request.organizationId}` : sql``
  const rows = await claimDue<Omit<EmbeddingJob, 'id'> & { asset_id: string }>(db, {
    table: 'asset_embeddings',
    idColumn: 'asset_id',
    owner: request.owner,
    limit: request.limit,
    leaseMs: request.leaseMs,
    where: sql<boolean>`asset_embeddings.source_text <> '' ${organization}
      and exists (select 1 from organizations o where o.id = asset_embeddings.organization_id and o.ai_enabled)`,
    returning: ['asset_id', 'source_text', 'text_hash', 'attempts', 'locked_by'],
  })
  return rows.map(({ asset_id: id, ...job }) => ({ id, ...job }))
}

/**
 * Stores vectors made by `owner` from the texts with these hashes, in one statement. A row whose claim
 * has passed to another runner is left to it; one whose text changed meanwhile stays due.
 */
export async function saveEmbeddings(
  db: Db,
  owner: string,
  model: string,
  rows: Array<{ assetId: string; hash: string; vector: Buffer; dimensions: number }>,
): Promise<number> {
  const values = rows.map((row) => sql`(${row.assetId}::uuid, ${row.hash}, ${row.vector}::vector, ${row.dimensions}::int)`)
  const result = await sql`
    update asset_embeddings e set
      embedding = made.vector, embedded_hash = made.hash, model = ${model}, dimensions = made.dimensions, embedded_at = now(),
      next_attempt_at = case when e.text_hash = made.hash or e.source_text = '' then null else now() end,
      attempts = 0, last_error = null, locked_by = null, locked_until = null
    from (values ${sql.join(values)}) as made(asset_id, hash, vector, dimensions)
    where e.asset_id = made.asset_id and e.locked_by = ${owner}
  `.execute(db)
  return Number(result.numAffectedRows ?? 0)
}

/** A failed attempt: each row waits its own delay before it is due again. */
export async function retryEmbeddings(db: Db, owner: string, rows: Array<{ assetId: string; delayMs: number }>, error: string): Promise<void> {
  await sql`
    update asset_embeddings e set
      attempts = e.attempts + 1, last_error = ${error}, locked_by = null, locked_until = null,
      next_attempt_at = now() + make_interval(secs => retry.delay_ms / 1000.0)
    from (select unnest(${rows.map((r) => r.assetId)}::uuid[]) as asset_id, unnest(${rows.map((r) => r.delayMs)}::int[]) as delay_ms) retry
    where e.asset_id = retry.asset_id and e.locked_by = ${owner}
  `.execute(db)
}

export function releaseEmbeddings(db: Db, owner: string, ids: string[]): Promise<void> {
  return releaseClaims(db, { table: 'asset_embeddings', idColumn: 'asset_id', owner, ids })
}

/**
 * AI off parks the organization's due rows (so claims never walk past them); AI on makes every row
 * whose vector is missing or older than its text due again. Vectors of another model follow through
 * markOtherModelsDue.
 */
export async function setAiParking(db: Db, organizationId: string, enabled: boolean): Promise<void> {
  if (!enabled) {
    await db.updateTable('asset_embeddings').set({ next_attempt_at: null }).where('organization_id', '=', organizationId).where('next_attempt_at', 'is not', null).execute()
    return
  }
  await sql`
    update asset_embeddings set next_attempt_at = now(), attempts = 0
    where organization_id = ${organizationId} and source_text <> '' and embedded_hash is distinct from text_hash and next_attempt_at is null
  `.execute(db)
}

/** Vectors of another model are due again (a model change re-embeds); search uses only the current model's meanwhile. */
export async function markOtherModelsDue(db: Db, model: string): Promise<number> {
  const result = await db
    .updateTable('asset_embeddings')
    .set({ next_attempt_at: sql`now()`, attempts: 0 })
    .where('embedded_hash', 'is not', null)
    .where('model', 'is distinct from', model)
    .where('next_attempt_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('organizations').select('organizations.id').whereRef('organizations.id', '=', 'asset_embeddings.organization_id').where('ai_enabled', '=', true)),
    )
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export interface EmbeddingCounts {
  current: number
  stale: number
  missing: number
  failing: number
  ai_disabled: number
}

/** How many texts have a vector of `model` made from their current text (current), an outdated one (stale), or none (missing). */
export async function embeddingCounts(db: Db, model: string | undefined, organizationId?: string): Promise<EmbeddingCounts> {
  let query = db
    .selectFrom('asset_embeddings as e')
    .innerJoin('organizations as o', 'o.id', 'e.organization_id')
    .where('e.source_text', '<>', '')
    .select([
      sql<number>`count(*) filter (where e.embedded_hash = e.text_hash and e.model is not distinct from ${model ?? sql`e.model`})::int`.as('current'),
      sql<number>`count(*) filter (where e.embedded_hash is not null and (e.embedded_hash <> e.text_hash or e.model is distinct from ${model ?? sql`e.model`}))::int`.as('stale'),
      sql<number>`count(*) filter (where e.embedded_hash is null)::int`.as('missing'),
      sql<number>`count(*) filter (where e.last_error is not null)::int`.as('failing'),
      sql<number>`count(*) filter (where not o.ai_enabled and e.embedded_hash is distinct from e.text_hash)::int`.as('ai_disabled'),
    ])
  if (organizationId) query = query.where('e.organization_id', '=', organizationId)
  return query.executeTakeFirstOrThrow()
}

/** The texts of organizations with AI on, which the queue works (of one organization, or all); the table is aliased `q`. */
function queuedTexts(organizationId: string | undefined): RawBuilder<boolean> {
  const ofOrganization = organizationId === undefined ? sql`` : sql`and q.organization_id = ${organizationId}`
  return sql<boolean>`q.source_text <> '' ${ofOrganization} and exists (select 1 from organizations o where o.id = q.organization_id and o.ai_enabled)`
}

/** The embedding queue's counts (see `queueCounts`). */
export function embeddingJobCounts(db: Db, organizationId?: string): Promise<QueueCounts> {
  return queueCounts(db, 'asset_embeddings', queuedTexts(organizationId))
}

/**
 * Makes due now, in one statement, the texts whose last attempt failed and those whose vector is missing
 * or outdated (another text or model) while nothing has them due; returns how many.
 */
export async function requeueEmbeddings(db: Db, model: string, organizationId?: string): Promise<number> {
  const result = await sql`
    update asset_embeddings q set next_attempt_at = now(), attempts = 0, last_error = null
    where ${queuedTexts(organizationId)} and ${unleased('q')}
      and (q.last_error is not null
        or (q.next_attempt_at is null and (q.embedded_hash is distinct from q.text_hash or q.model is distinct from ${model}::text)))
  `.execute(db)
  return Number(result.numAffectedRows ?? 0)
}

export async function indexState(db: Db, name: string): Promise<'valid' | 'invalid' | 'absent'> {
  const row = await sql<{ valid: boolean }>`
    select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ${name}
  `.execute(db)
  if (row.rows.length === 0) return 'absent'
  return row.rows[0]!.valid ? 'valid' : 'invalid'
}

export async function tryIndexLock(db: Db, name: string): Promise<boolean> {
  const row = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(${name})) as locked`.execute(db)
  return row.rows[0]!.locked
}

export async function indexUnlock(db: Db, name: string): Promise<void> {
  await sql`select pg_advisory_unlock(hashtext(${name}))`.execute(db)
}

export async function dropIndex(db: Db, name: string, concurrently: boolean): Promise<void> {
  await sql`drop index ${sql.raw(concurrently ? 'concurrently' : '')} if exists ${sql.id(name)}`.execute(db)
}

/** The HNSW cosine index of one dimension: an expression index on the cast, partial on that dimension. */
export async function createIndex(db: Db, index: { table: VectorTable; name: string; dimensions: number; type: IndexType; concurrently: boolean }): Promise<void> {
  const { expression, operators } = indexExpression(index.dimensions, index.type)
  // The graph of 100,000 vectors of 384 dimensions needs ~200 MB to build without spilling.
  await sql`set maintenance_work_mem = '512MB'`.execute(db)
  try {
    await sql`
      create index ${sql.raw(index.concurrently ? 'concurrently' : '')} ${sql.id(index.name)} on ${sql.table(index.table)}
      using hnsw ((${expression}) ${operators}) where dimensions = ${sql.raw(String(index.dimensions))}
    `.execute(db)
  } finally {
    await sql`reset maintenance_work_mem`.execute(db)
  }
}
