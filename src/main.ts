import { parseArgs } from 'node:util'
import pino from 'pino'
import { buildApp, createEmbeddings, createServices, createWebhookDelivery, type BuiltApp, type Services } from './app.js'
import { describeFirstRun, firstRun } from './bootstrap.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { openDatabase } from './platform/db/index.js'
import { DataDirectoryLockedError } from './platform/db/lockfile.js'
import { migrate } from './platform/db/migrate.js'
import type { Role, Scope } from './platform/db/schema.js'
import { REDACTED_PATHS } from './platform/logger.js'
import { connectRedis } from './platform/redis.js'
import { expiryFromDuration } from './modules/keys/service.js'
import { AppError } from './platform/http/errors.js'
import { randomToken } from './platform/ids.js'
import { progressBar } from './platform/progress.js'
import type { Embeddings } from './modules/search/embeddings.js'
import { scheduleBlobSweep, sweepBlobs } from './modules/assets/blob-sweep.js'
import { FileBlobStore } from './platform/blobs/blob-store.js'

const USAGE = `Usage: asset-library <command> [options]

Commands:
  serve                      Start the HTTP API and the background work (the default)
  worker                     Run the background work only (webhook deliveries, embeddings); run several for scale
  migrate                    Bring the database schema up to date
  embeddings status [--org SLUG]    How many assets have a current, stale or missing embedding
  embeddings backfill [--org SLUG]  Embed every text that is missing or stale, now
  blobs sweep                Remove image files no asset refers to (older than BLOB_SWEEP_GRACE_MS)
  org create --name N [--slug S] [--plan P]
  org list
  user create --org SLUG --email E --role owner|admin|member [--password P]
  key create --org SLUG --scope assets:read|assets:write [--name N] [--expires-in 90d]
  key list --org SLUG
  key revoke --org SLUG --id KEY_ID

Add --json to print machine-readable output. Settings come from environment variables (see README).`

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  slug: { type: 'string' },
  plan: { type: 'string' },
  org: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  password: { type: 'string' },
  scope: { type: 'string' },
  'expires-in': { type: 'string' },
  id: { type: 'string' },
} as const

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true })
  const [command = 'serve', action] = positionals
  if (values.help) return print(USAGE)
  const config = loadConfig()
  if (command === 'serve') return serve(config)
  if (command === 'worker') return worker(config)
  const logger = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, redact: REDACTED_PATHS })
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger, statisticsCheckIntervalMs: config.statisticsCheckIntervalMs })
  try {
    const outcome = await migrate(database.db)
    if (command === 'migrate') return output(values, outcome, `Applied: ${outcome.applied.join(', ') || 'nothing (up to date)'}; pgvector: ${outcome.vector ? 'yes' : 'no'}`)
    if (command === 'blobs' && action === 'sweep') {
      const { removed, recent } = await sweepBlobs(database.db, new FileBlobStore(config.blobDir), config.blobSweepGraceMs)
      return output(values, { removed, recent }, `Removed ${plural(removed, 'image file')} no asset refers to${recent > 0 ? `; kept ${recent} newer than the grace period` : ''}`)
    }
    const services = createServices(database.db, logger, 0)
    if (command === 'embeddings') {
      const embeddings = createEmbeddings(config, database, logger)
      try {
        return await embeddingsCommand(action, values, services, embeddings)
      } finally {
        await embeddings.close()
      }
    }
    return await operatorCommand(`${command} ${action ?? ''}`.trim(), values, services)
  } finally {
    await database.close()
  }
}

async function embeddingsCommand(action: string | undefined, values: Options, { orgs }: Services, embeddings: Embeddings): Promise<number> {
  const organizationId = values.org ? (await orgs.organizationBySlug(values.org)).id : undefined
  const scope = values.org ? `organization ${values.org}` : 'all organizations'
  if (action === 'status') {
    const counts = await embeddings.counts(organizationId)
    const readiness = await embeddings.readiness()
    const mode = readiness.mode === 'hybrid' ? `hybrid (model ${readiness.model})` : `text (${readiness.reason === 'no_provider' ? 'no EMBEDDING_BASE_URL' : 'no pgvector'})`
    const text = [
      `Embeddings for ${scope}; search mode: ${mode}`,
      `  current  ${counts.current}`,
      `  stale    ${counts.stale}   (text or model changed; the old vector is used until the new one is made)`,
      `  missing  ${counts.missing}`,
      `  failing  ${counts.failing}   (waiting to retry after a provider error)`,
      `  AI off   ${counts.ai_disabled}   (organizations with AI disabled: never sent to the provider)`,
    ].join('\n')
    return output(values, { mode: readiness.mode, ...counts }, text)
  }
  if (action === 'backfill') {
    if (!(await embeddings.enabled())) throw new UsageError('backfill needs EMBEDDING_BASE_URL and EMBEDDING_MODEL, and pgvector in the database')
    const before = await embeddings.counts(organizationId)
    const bar = progressBar('Embedding', before.missing + before.stale)
    const result = await embeddings.backfill({ organizationId, onProgress: (done) => bar.update(done) })
    bar.finish()
    const failed = result.failed > 0 ? `; ${result.failed} failed and will be retried (see the log)` : ''
    return output(values, result, `Embedded ${result.embedded} assets of ${scope}${failed}`)
  }
  throw new UsageError(`Unknown command "embeddings ${action ?? ''}".\n\n${USAGE}`)
}

async function operatorCommand(command: string, values: Options, { orgs, keys }: Services): Promise<number> {
  switch (command) {
    case 'org create': {
      const org = await orgs.createOrganization({ name: required(values, 'name'), ...(values.slug && { slug: values.slug }), ...(values.plan && { plan: values.plan }) })
      return output(values, org, `Created organization ${org.name} (slug: ${org.slug}, id: ${org.id})`)
    }
    case 'org list': {
      const list = await orgs.listOrganizations()
      return output(values, list, list.map((o) => `${o.slug}\t${o.name}\t${o.plan}`).join('\n'))
    }
    case 'user create': {
      const org = await orgs.organizationBySlug(required(values, 'org'))
      const role = oneOf<Role>(values, 'role', ['owner', 'admin', 'member'])
      const password = values.password ?? randomToken(12)
      const { user, created } = await orgs.addMember(org.id, { email: required(values, 'email'), password, role })
      const generated = created && !values.password
      const note = created ? (generated ? `; password: ${password}` : '') : ' (existing user: password unchanged)'
      return output(values, { id: user.id, email: user.email, role, created, ...(generated && { password }) }, `User ${user.email} is a member of ${org.slug}${note}`)
    }
    case 'key create': {
      const org = await orgs.organizationBySlug(required(values, 'org'))
      const scope = oneOf<Scope>(values, 'scope', ['assets:read', 'assets:write'])
      const expiresIn = values['expires-in']
      const expiresAt = expiresIn === undefined ? null : expiryFromDuration(expiresIn)
      if (expiresIn !== undefined && !expiresAt) throw new UsageError('--expires-in takes a duration such as 12h, 90d or 2w')
      const { key, token } = await keys.create({ organizationId: org.id, name: values.name ?? 'cli', scope, expiresAt, createdBy: null })
      return output(values, { ...key, token }, `API key (shown once): ${token}\nscope ${scope}, prefix ${key.prefix}, expires ${key.expires_at?.toISOString() ?? 'never'}`)
    }
    case 'key list': {
      const org = await orgs.organizationBySlug(required(values, 'org'))
      const list = await keys.list(org.id)
      return output(values, list, list.map((k) => `${k.id}\t${k.prefix}\t${k.name}\t${k.scope}\t${k.revoked_at ? 'revoked' : 'active'}`).join('\n'))
    }
    case 'key revoke': {
      const org = await orgs.organizationBySlug(required(values, 'org'))
      const key = await keys.revoke(org.id, required(values, 'id'))
      return output(values, key, `Revoked ${key.prefix} (${key.name})`)
    }
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`)
  }
}

/** The database of a long-running process; an embedded database that dies stops the process. */
function openServingDatabase(config: Config, logger: pino.Logger, onCrash: () => void) {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    statisticsCheckIntervalMs: config.statisticsCheckIntervalMs,
    logger,
    onCrash: (error) => {
      logger.fatal({ err: error }, 'the embedded database stopped')
      onCrash()
    },
  })
}

async function serve(config: Config): Promise<number> {
  const bootLogger = pino({ level: config.logLevel, redact: REDACTED_PATHS })
  let stop: (reason: string, exitCode: number) => Promise<void> = async () => undefined
  const database = await openServingDatabase(config, bootLogger, () => void stop('embedded database crashed', 1))
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, bootLogger) : undefined
  const release = async () => {
    redis?.disconnect()
    await database.close()
  }
  let app: BuiltApp
  let stopSweep = () => undefined as void
  try {
    const outcome = await migrate(database.db)
    app = await buildApp({ config, database, redis })
    app.log.info({ database: database.kind, applied: outcome.applied, pgvector: outcome.vector }, 'database ready')
    await logSearchMode(app.services.embeddings, app.log)
    await app.services.embeddings.prepare()
    const credentials = await firstRun(database.db, app.services, config.firstRunOwnerEmail)
    if (credentials) process.stdout.write(describeFirstRun(credentials, config.publicBaseUrl))
    await app.listen({ port: config.port, host: config.host })
    if (config.serveBackgroundWork) await Promise.all([app.services.embeddings.start(), app.services.webhookDelivery.start()])
    stopSweep = scheduleBlobSweep(database.db, new FileBlobStore(config.blobDir), { graceMs: config.blobSweepGraceMs, intervalMs: BLOB_SWEEP_INTERVAL_MS, logger: app.log })
  } catch (error) {
    await release()
    throw error
  }

  let stopping = false
  stop = async (reason, exitCode) => {
    if (stopping) return
    stopping = true
    app.log.info({ reason }, 'shutting down: no new connections, finishing requests in flight')
    stopSweep()
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting')
      process.exit(1)
    }, config.shutdownTimeoutMs)
    force.unref()
    try {
      await app.close()
      await release()
      app.log.info('stopped')
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed')
      exitCode = 1
    }
    process.exitCode = exitCode
  }
  process.once('SIGTERM', () => void stop('SIGTERM', 0))
  process.once('SIGINT', () => void stop('SIGINT', 0))
  return SERVING
}

async function logSearchMode(embeddings: Embeddings, logger: pino.Logger | BuiltApp['log']): Promise<void> {
  const readiness = await embeddings.readiness()
  if (readiness.mode === 'hybrid') logger.info({ model: readiness.model, dimensions: readiness.dimensions }, 'search: hybrid (full text and embeddings)')
  else if (readiness.reason === 'no_provider') logger.info('search: text mode (no EMBEDDING_BASE_URL: full-text ranking only)')
  else logger.info('search: text mode (pgvector is not installed in the database: full-text ranking only)')
}

/** Background work only, no HTTP: for PostgreSQL deployments that scale it apart from the API. */
async function worker(config: Config): Promise<number> {
  const logger = pino({ level: config.logLevel, redact: REDACTED_PATHS })
  let stop: (reason: string, exitCode: number) => Promise<void> = async () => undefined
  const database = await openServingDatabase(config, logger, () => void stop('embedded database crashed', 1))
  const embeddings = createEmbeddings(config, database, logger)
  const webhooks = createWebhookDelivery(config, database.db, logger)
  const close = async () => {
    await Promise.all([embeddings.close(), webhooks.close()])
    await database.close()
  }
  try {
    await migrate(database.db)
    await logSearchMode(embeddings, logger)
    await embeddings.prepare()
    await Promise.all([embeddings.start(), webhooks.delivery.start()])
  } catch (error) {
    await close()
    throw error
  }
  if (!(await embeddings.enabled())) logger.info('embeddings are off (they need EMBEDDING_BASE_URL and pgvector); delivering webhooks only')
  logger.info('worker started')
  let stopping = false
  stop = async (reason, exitCode) => {
    if (stopping) return
    stopping = true
    logger.info({ reason }, 'worker stopping: no new claims, finishing work in flight')
    await Promise.all([embeddings.stop(config.shutdownTimeoutMs), webhooks.delivery.stop(config.shutdownTimeoutMs)])
    await close()
    logger.info('stopped')
    process.exitCode = exitCode
  }
  // The runner's timers are unref'd (they must not hold a CLI or a test open): this is what keeps the worker up.
  const keepAlive = setInterval(() => undefined, 1 << 30)
  const onSignal = (signal: string) => void stop(signal, 0).finally(() => clearInterval(keepAlive))
  process.once('SIGTERM', () => onSignal('SIGTERM'))
  process.once('SIGINT', () => onSignal('SIGINT'))
  return SERVING
}

const BLOB_SWEEP_INTERVAL_MS = 60 * 60 * 1000

/** serve keeps running after main returns; its exit code is set when it stops. */
const SERVING = -1

class UsageError extends Error {}

function required(values: Options, name: 'name' | 'org' | 'email' | 'id'): string {
  const value = values[name]
  if (!value) throw new UsageError(`--${name} is required`)
  return value
}

function oneOf<T extends string>(values: Options, name: 'role' | 'scope', allowed: T[]): T {
  const value = values[name]
  if (!value || !(allowed as string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`)
  return value as T
}

function output(values: Options, data: unknown, text: string): number {
  return print(values.json ? JSON.stringify(data, null, 2) : text)
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

function print(text: string): number {
  process.stdout.write(`${text}\n`)
  return 0
}

/** Turns known failures into one clear line and an exit code; anything else is a bug and keeps its stack. */
export async function run(argv: string[]): Promise<void> {
  try {
    const code = await main(argv)
    if (code !== SERVING) process.exitCode = code
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirectoryLockedError || error instanceof UsageError) {
      process.stderr.write(`asset-library: ${error.message}\n`)
      process.exitCode = 2
    } else if (error instanceof AppError) {
      process.stderr.write(`asset-library: ${error.detail ?? error.title}${error.errors ? ` ${JSON.stringify(error.errors)}` : ''}\n`)
      process.exitCode = 1
    } else if (error instanceof Error && error.name === 'TypeError' && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`asset-library: ${error.message}\n\n${USAGE}\n`)
      process.exitCode = 2
    } else {
      throw error
    }
  }
}
