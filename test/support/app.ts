import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { inject } from 'vitest'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import { buildApp, type BuiltApp } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import type { Scope } from '../../src/platform/db/schema.js'
import { mailerFor } from '../../src/platform/mail/mailer.js'
import { connectRedis } from '../../src/platform/redis.js'
import { createTestDatabase, silentLogger, type TestDatabase } from './database.js'
import { createTestBucket, s3Env } from './s3-server.js'

export const TEST_SECRET = 'test-secret-0123456789abcdef0123456789abcdef'

export interface TestApp {
  app: BuiltApp
  config: Config
  database: TestDatabase
  redis: Redis | undefined
  close(): Promise<void>
}

export interface TestAppOptions {
  env?: Record<string, string>
  /** Reuse this database instead of creating one (several apps over one database). */
  database?: TestDatabase
  redisUrl?: string | undefined
  redisNamespace?: string
  /** Extra routes registered before the app is ready, to exercise platform behaviour (e.g. an unexpected throw). */
  routes?: (app: BuiltApp) => void
  logger?: FastifyBaseLogger
}

/**
 * A real app on its own database (PostgreSQL when TEST_DATABASE_URL is set, embedded otherwise), its
 * files in a bucket of its own on the run's S3 server when TEST_BLOB_STORE=s3 (CI's PostgreSQL pass),
 * unless `env` picks a store itself, else on disk.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(inject('templateDir')))
  const redisUrl = 'redisUrl' in options ? options.redisUrl : process.env.TEST_REDIS_URL
  const config = loadConfig({
    ...(await testBlobStoreEnv(database, options.env)),
    DATA_DIR: database.dataDir,
    APP_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://assets.test',
    // Test files sign in far more often than a person; the limit itself has its own test.
    RATE_LIMIT_SIGN_IN: '10000',
    // A test serves the web app only when it builds one, whatever this checkout holds in web/dist.
    WEB_DIR: join(database.dataDir, 'no-web-build'),
    ...options.env,
  })
  const redis = redisUrl ? await connectRedis(redisUrl, silentLogger) : undefined
  const mailer = mailerFor(config.smtp)
  const app = await buildApp({
    config,
    database: database.handle,
    redis,
    mailer,
    redisNamespace: options.redisNamespace ?? `al-test:${randomBytes(6).toString('hex')}:`,
    ...(options.logger && { logger: options.logger }),
  })
  options.routes?.(app)
  await app.ready()
  return {
    app,
    config,
    database,
    redis,
    async close() {
      await app.close()
      mailer?.close()
      redis?.disconnect()
      if (!options.database) await database.dispose()
    },
  }
}

/**
 * For the env of a test app whose test reaches into the blob directory (ages, removes or blocks files
 * there): it stays on disk when TEST_BLOB_STORE=s3 puts the others in a bucket.
 */
export const FILES_ON_DISK = { BLOB_STORE: 'file' } as const

/** Whether this run puts the test apps' files in S3 (TEST_BLOB_STORE=s3) rather than on disk. */
export const TESTS_ON_S3 = process.env.TEST_BLOB_STORE === 's3'

/** One bucket per database, as one directory per database: apps over one database share their files. */
const bucketOf = new WeakMap<TestDatabase, Promise<string>>()

async function testBlobStoreEnv(database: TestDatabase, env: Record<string, string> | undefined): Promise<Record<string, string>> {
  if (!TESTS_ON_S3 || env?.BLOB_STORE !== undefined) return {}
  const endpoint = inject('s3Endpoint')
  if (!bucketOf.has(database)) bucketOf.set(database, createTestBucket(endpoint))
  return s3Env(endpoint, await bucketOf.get(database)!)
}

export interface Seeded {
  org: { id: string; slug: string }
  owner: { id: string; email: string; password: string }
  writeKey: string
  readKey: string
}

let counter = 0

/** An organization with an owner and one key of each scope. */
export async function seedOrganization(app: BuiltApp, name = 'Acme'): Promise<Seeded> {
  const suffix = `${process.pid}-${++counter}-${randomBytes(3).toString('hex')}`
  const org = await app.services.orgs.createOrganization({ name, slug: `org-${suffix}` })
  const password = 'correct horse battery'
  const { user: owner } = await app.services.orgs.addMember(org.id, { email: `owner-${suffix}@example.com`, password, role: 'owner' })
  const key = async (scope: Scope) =>
    (await app.services.keys.create({ organizationId: org.id, name: scope, scope, expiresAt: null, createdBy: owner.id })).token
  return {
    org: { id: org.id, slug: org.slug },
    owner: { id: owner.id, email: owner.email, password },
    writeKey: await key('assets:write'),
    readKey: await key('assets:read'),
  }
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` }
}

/**
 * Works every due job of the named derivations now (all but `embeddings` when none is named), one
 * derivation after the other: what the push queued for the picture, read as the background would.
 */
export async function drainDerivations(app: BuiltApp, ...names: string[]): Promise<void> {
  const chosen = app.services.derivations.filter((derivation) => (names.length === 0 ? derivation.name !== 'embeddings' : names.includes(derivation.name)))
  if (names.length > 0 && chosen.length !== names.length) throw new Error(`the app has no derivation of some of these names: ${names.join(', ')}`)
  for (const derivation of chosen) await derivation.drain()
}
