import { randomBytes } from 'node:crypto'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import pino from 'pino'
import { inject } from 'vitest'
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from '../../src/platform/db/index.js'
import { migrate } from '../../src/platform/db/migrate.js'

export const silentLogger = pino({ level: 'silent' })

/** The URL of `name` on the server of TEST_DATABASE_URL. */
export function databaseUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!)
  url.pathname = `/${name}`
  return url.toString()
}

export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

export interface PreparedTemplate {
  /** The embedded template's data directory. */
  templateDir?: string
  /** The PostgreSQL template's name, unique to this run so that concurrent runs never share one. */
  templateDatabase?: string
  cleanup: () => Promise<void>
}

/** Builds the migrated template once per run; each test database is a cheap copy of it. */
export async function prepareTemplate(): Promise<PreparedTemplate> {
  if (process.env.TEST_DATABASE_URL) {
    const templateDatabase = `al_test_template_${randomBytes(6).toString('hex')}`
    await adminQuery(`create database ${templateDatabase}`)
    const handle = await openDatabase({ databaseUrl: databaseUrl(templateDatabase), dataDir: '', logger: silentLogger })
    await migrate(handle.db)
    await handle.close()
    return { templateDatabase, cleanup: () => adminQuery(`drop database if exists ${templateDatabase} with (force)`) }
  }
  const templateDir = mkdtempSync(join(tmpdir(), 'al-template-'))
  const handle = await openDatabase({ databaseUrl: undefined, dataDir: templateDir, logger: silentLogger })
  await migrate(handle.db)
  await handle.close()
  return { templateDir, cleanup: async () => rmSync(templateDir, { recursive: true, force: true }) }
}

const NO_TEMPLATE = 'no template database was prepared: a file in the unit project (UNIT_TESTS in vitest.config.ts) opens a database, so move it to the db project'

export interface TestDatabase {
  handle: DatabaseHandle
  /** Set for real PostgreSQL; the embedded database has none. */
  url: string | undefined
  dataDir: string
  dispose(): Promise<void>
}

/** A migrated database of this test's own: a copy of the template, on PostgreSQL or embedded. */
export async function createTestDatabase(templateDir: string | undefined, options: Pick<DatabaseOptions, 'statisticsCheckIntervalMs'> = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'al-test-'))
  if (process.env.TEST_DATABASE_URL) {
    const templateDatabase = inject('templateDatabase')
    if (!templateDatabase) throw new Error(NO_TEMPLATE)
    const name = `al_test_${randomBytes(6).toString('hex')}`
    await adminQuery(`create database ${name} template ${templateDatabase}`)
    const url = databaseUrl(name)
    const handle = await openDatabase({ databaseUrl: url, dataDir, logger: silentLogger, poolSize: 4, ...options })
    return {
      handle,
      url,
      dataDir,
      async dispose() {
        await handle.close()
        await adminQuery(`drop database if exists ${name} with (force)`)
        rmSync(dataDir, { recursive: true, force: true })
      },
    }
  }
  if (!templateDir) throw new Error(NO_TEMPLATE)
  cpSync(templateDir, dataDir, { recursive: true })
  return openEmbedded(dataDir, options)
}

/**
 * A migrated embedded database (PGlite, which ships pgvector) whatever TEST_DATABASE_URL says: for a file
 * that shows vector search in a run on a PostgreSQL without pgvector (CI's end-to-end pass). A copy of
 * the run's embedded template when there is one; else made and migrated here, some 10 s.
 */
export async function createEmbeddedTestDatabase(templateDir: string | undefined): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'al-test-'))
  if (templateDir) {
    cpSync(templateDir, dataDir, { recursive: true })
    return openEmbedded(dataDir)
  }
  const database = await openEmbedded(dataDir)
  await migrate(database.handle.db)
  return database
}

async function openEmbedded(dataDir: string, options: Pick<DatabaseOptions, 'statisticsCheckIntervalMs'> = {}): Promise<TestDatabase> {
  const handle = await openDatabase({ databaseUrl: undefined, dataDir, logger: silentLogger, ...options })
  return {
    handle,
    url: undefined,
    dataDir,
    async dispose() {
      await handle.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
