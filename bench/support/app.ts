import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { buildApp, type BuiltApp } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/index.js'
import { migrate } from '../../src/platform/db/migrate.js'
import type { Scope } from '../../src/platform/db/schema.js'

export const silent = pino({ level: 'silent' })

export interface BenchApp {
  app: BuiltApp
  config: Config
  database: DatabaseHandle
  dataDir: string
  baseUrl: string
  close(): Promise<void>
}

/**
 * The real app on a fresh embedded database in a temp dir, listening on 127.0.0.1 (port from the OS).
 * `extend` adds bench-only routes before it listens; `close` removes everything again.
 */
export async function startBenchApp(
  name: string,
  env: Record<string, string> = {},
  extend?: (app: BuiltApp, config: Config) => Promise<void> | void,
): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `al-bench-${name}-`))
  let database: DatabaseHandle | undefined
  let app: BuiltApp | undefined
  const close = async () => {
    await app?.close()
    await database?.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    database = await openDatabase({ databaseUrl: undefined, dataDir, logger: silent })
    await migrate(database.db)
    const config = loadConfig({ DATA_DIR: dataDir, APP_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent', ...env })
    app = await buildApp({ config, database })
    await extend?.(app, config)
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (!address || typeof address === 'string') throw new Error('server has no TCP address')
    return { app, config, database, dataDir, baseUrl: `http://127.0.0.1:${address.port}`, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** An organization named Bench with one API key of `scope`. */
export async function benchKey(app: BuiltApp, scope: Scope): Promise<{ organizationId: string; token: string }> {
  const org = await app.services.orgs.createOrganization({ name: 'Bench', slug: 'bench' })
  const { token } = await app.services.keys.create({ organizationId: org.id, name: 'bench', scope, expiresAt: null, createdBy: null })
  return { organizationId: org.id, token }
}
