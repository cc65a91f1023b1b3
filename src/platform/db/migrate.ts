import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Migration, type MigrationProvider } from 'kysely'
import type { Db } from './index.js'
import * as foundation from './migrations/0001_foundation.js'
import * as assets from './migrations/0002_assets.js'
import * as collectionSharing from './migrations/0003_collection_sharing.js'
import * as search from './migrations/0004_search.js'
import * as webhooks from './migrations/0005_webhooks.js'
import * as blobReferences from './migrations/0006_blob_references.js'
import * as pushAndListCosts from './migrations/0007_push_and_list_costs.js'
import * as libraryVersion from './migrations/0008_library_version.js'
import * as nameCounts from './migrations/0009_name_counts.js'
import * as webhookHealth from './migrations/0010_webhook_health.js'
import * as memberAudit from './migrations/0011_member_audit.js'
import * as createdBy from './migrations/0012_created_by.js'
import * as idempotencyKeys from './migrations/0013_idempotency_keys.js'
import * as keyLimits from './migrations/0014_key_limits.js'
import * as thumbnailJobs from './migrations/0015_thumbnail_jobs.js'
import * as libraryChanges from './migrations/0016_library_changes.js'
import * as thumbnailWake from './migrations/0017_thumbnail_wake.js'
import * as versionsAndTrash from './migrations/0018_versions_and_trash.js'
import * as svgAndRenditions from './migrations/0019_svg_and_renditions.js'
import * as figmaImports from './migrations/0020_figma_imports.js'
import * as imageAnalyses from './migrations/0021_image_analyses.js'
import * as colourAndOriginCounts from './migrations/0022_colour_and_origin_counts.js'
import * as assetSortIndexes from './migrations/0023_asset_sort_indexes.js'
import * as passwordResets from './migrations/0024_password_resets.js'
import * as assetCreators from './migrations/0025_asset_creators.js'
import * as imageEmbeddings from './migrations/0026_image_embeddings.js'

/** Listed in code, not read from a folder, so the same list runs under tsx, Vitest and the build. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_assets': assets,
  '0003_collection_sharing': collectionSharing,
  '0004_search': search,
  '0005_webhooks': webhooks,
  '0006_blob_references': blobReferences,
  '0007_push_and_list_costs': pushAndListCosts,
  '0008_library_version': libraryVersion,
  '0009_name_counts': nameCounts,
  '0010_webhook_health': webhookHealth,
  '0011_member_audit': memberAudit,
  '0012_created_by': createdBy,
  '0013_idempotency_keys': idempotencyKeys,
  '0014_key_limits': keyLimits,
  '0015_thumbnail_jobs': thumbnailJobs,
  '0016_library_changes': libraryChanges,
  '0017_thumbnail_wake': thumbnailWake,
  '0018_versions_and_trash': versionsAndTrash,
  '0019_svg_and_renditions': svgAndRenditions,
  '0020_figma_imports': figmaImports,
  '0021_image_analyses': imageAnalyses,
  '0022_colour_and_origin_counts': colourAndOriginCounts,
  '0023_asset_sort_indexes': assetSortIndexes,
  '0024_password_resets': passwordResets,
  '0025_asset_creators': assetCreators,
  '0026_image_embeddings': imageEmbeddings,
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

export interface MigrationOutcome {
  applied: string[]
  vector: boolean
}

/**
 * Brings the schema up to date. Kysely's migrator holds a PostgreSQL advisory lock while it runs,
 * so two processes starting together apply each migration once.
 */
export async function migrate(db: Db): Promise<MigrationOutcome> {
  const vector = await enableVector(db)
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  if (vector) await addVectorColumn(db)
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName), vector }
}

/**
 * Migrations of this build not yet applied. Reads Kysely's bookkeeping table directly: the
 * migrator's own getMigrations() introspects the whole catalog (~16 ms on the embedded database),
 * too slow for a readiness probe that shares the one embedded connection.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  let applied: Set<string>
  try {
    const rows = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db)
    applied = new Set(rows.rows.map((row) => row.name))
  } catch (error) {
    if ((error as { code?: string }).code !== UNDEFINED_TABLE) throw error
    applied = new Set()
  }
  return Object.keys(MIGRATIONS).filter((name) => !applied.has(name))
}

const UNDEFINED_TABLE = '42P01'

/** pgvector is optional: without it search runs in text mode. */
async function enableVector(db: Db): Promise<boolean> {
  const available = await sql<{ name: string }>`
    select name from pg_available_extensions where name = 'vector'
  `.execute(db)
  if (available.rows.length === 0) return false
  try {
    await sql`create extension if not exists vector`.execute(db)
  } catch {
    // Another process creating it at the same moment, or a role without the right: what counts is whether it is there.
  }
  return hasVector(db)
}

/** The tables whose `embedding` column is pgvector's type. */
const VECTOR_TABLES = ['asset_embeddings', 'asset_image_embeddings']

/**
 * The embedding columns need pgvector's type, so they exist only where pgvector does; checked on every
 * start, so a server that gains pgvector later gets them without a new migration.
 */
async function addVectorColumn(db: Db): Promise<void> {
  for (const table of VECTOR_TABLES) {
    // Looked up first: ALTER TABLE takes an exclusive lock even when the column is there already.
    const existing = await sql`
      select 1 from pg_attribute where attrelid = ${table}::regclass and attname = 'embedding' and not attisdropped
    `.execute(db)
    if (existing.rows.length === 0) await sql`alter table ${sql.table(table)} add column if not exists embedding vector`.execute(db)
  }
}

export async function hasVector(db: Db): Promise<boolean> {
  return (await vectorVersion(db)) !== undefined
}

/** pgvector's [major, minor], or undefined when it is not installed. */
export async function vectorVersion(db: Db): Promise<[number, number] | undefined> {
  const result = await sql<{ version: string }>`select extversion as version from pg_extension where extname = 'vector'`.execute(db)
  const [major = 0, minor = 0] = (result.rows[0]?.version ?? '').split('.').map(Number)
  return result.rows.length > 0 ? [major, minor] : undefined
}
