import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely'
import type { Db } from './index.js'
import * as foundation from './migrations/0001_foundation.js'

/** Listed in code, not read from a folder, so the same list runs under tsx, Vitest and the build. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_foundation': foundation,
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
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName), vector }
}

export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrations = await new Migrator({ db, provider }).getMigrations()
  return migrations.filter((m) => !m.executedAt).map((m) => m.name)
}

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

export async function hasVector(db: Db): Promise<boolean> {
  const result = await sql`select 1 from pg_extension where extname = 'vector'`.execute(db)
  return result.rows.length > 0
}
