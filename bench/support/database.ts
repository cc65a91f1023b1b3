/**
 * Like app.ts's startBenchApp, on either database: the embedded one in a fresh temp dir, or, when a
 * server URL is given, a throwaway database created on that PostgreSQL server and dropped by close().
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { buildApp, type BuiltApp } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/index.js'
import { migrate, type MigrationOutcome } from '../../src/platform/db/migrate.js'
import { silent, type BenchApp } from './app.js'

export interface BenchAppOn extends BenchApp {
  migration: MigrationOutcome
  /** The throwaway database's name on the PostgreSQL server; undefined for the embedded database. */
  databaseName: string | undefined
}

/**
 * The real app listening on 127.0.0.1 (port from the OS) over a fresh, migrated database. `serverUrl`
 * (e.g. postgres://postgres@127.0.0.1:5432/postgres) selects PostgreSQL: the database is created there
 * under a random name with that URL's credentials.
 */
export async function startBenchAppOn(
  name: string,
  serverUrl: string | undefined,
  env: Record<string, string> = {},
  extend?: (app: BuiltApp, config: Config) => Promise<void> | void,
): Promise<BenchAppOn> {
  const dataDir = mkdtempSync(join(tmpdir(), `al-bench-${name}-`))
  const databaseName = serverUrl ? `al_bench_${name}_${randomBytes(4).toString('hex')}` : undefined
  let created = false
  let database: DatabaseHandle | undefined
  let app: BuiltApp | undefined
  const close = async () => {
    try {
      await app?.close()
    } finally {
      try {
        await database?.close()
      } finally {
        // with (force): even if a connection of the app's pool were left open, the database goes.
        if (created) await adminQuery(serverUrl!, `drop database if exists ${databaseName} with (force)`).finally(() => rmSync(dataDir, { recursive: true, force: true }))
        else rmSync(dataDir, { recursive: true, force: true })
      }
    }
  }
  try {
    let databaseUrl: string | undefined
    if (serverUrl) {
      await adminQuery(serverUrl, `create database ${databaseName}`)
      created = true
      const url = new URL(serverUrl)
      url.pathname = `/${databaseName}`
      databaseUrl = url.toString()
    }
    const config: Config = loadConfig({
      DATA_DIR: dataDir,
      APP_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
      ...env,
    })
    database = await openDatabase({ databaseUrl, dataDir, poolSize: config.databasePoolSize, logger: silent })
    const migration = await migrate(database.db)
    app = await buildApp({ config, database })
    await extend?.(app, config)
    return { app, config, database, dataDir, baseUrl: await listenOnLoopback(app), close, migration, databaseName }
  } catch (error) {
    await close()
    throw error
  }
}

/** Listens on 127.0.0.1, on a port from the OS; the base URL. */
export async function listenOnLoopback(app: BuiltApp): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('server has no TCP address')
  return `http://127.0.0.1:${address.port}`
}

/** One statement on the server of `serverUrl` through a connection of its own (create or drop a database); its rows. */
export async function adminQuery(serverUrl: string, text: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return (await client.query(text, values)).rows
  } finally {
    await client.end()
  }
}

/** A database URL fit to print: its password masked. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url)
  if (parsed.password) parsed.password = '***'
  return parsed.toString()
}
