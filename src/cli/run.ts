import pino from 'pino'
import { createDerivations, createProcessFiles, createServices } from '../app.js'
import { ConfigError, loadConfig, type Config } from '../config.js'
import { BlobStoreUnavailableError } from '../platform/blobs/blob-store.js'
import { BlobStoreNotConfiguredError } from '../platform/blobs/create.js'
import { openDatabase } from '../platform/db/index.js'
import { DataDirectoryLockedError } from '../platform/db/lockfile.js'
import { migrate } from '../platform/db/migrate.js'
import { AppError } from '../platform/http/errors.js'
import { REDACTED_PATHS } from '../platform/logger.js'
import { serve } from '../start/serve.js'
import { worker } from '../start/worker.js'
import { parseArguments, USAGE, UsageError, type Options } from './arguments.js'
import { blobCommands, blobOptionChecks } from './blobs.js'
import type { Command } from './command.js'
import { embeddingCommands } from './embeddings.js'
import { jobCommands } from './jobs.js'
import { keyCommands } from './key.js'
import { migrateCommands } from './migrate.js'
import { orgCommands } from './org.js'
import { print } from './output.js'
import { userCommands } from './user.js'

const OPERATOR_COMMANDS = new Map(Object.entries({ ...migrateCommands, ...blobCommands, ...orgCommands, ...userCommands, ...keyCommands, ...embeddingCommands, ...jobCommands }))
const OPTION_CHECKS = new Map(Object.entries(blobOptionChecks))

/** `serve` and `worker` keep running after main returns; their exit code is set when they stop. */
const SERVING = -1

export async function main(argv: string[]): Promise<number> {
  const { command, action, subject, values } = parseArguments(argv)
  if (values.help) return print(USAGE)
  const config = loadConfig()
  if (command === 'serve' || command === 'worker') {
    await (command === 'serve' ? serve(config) : worker(config))
    return SERVING
  }
  const name = `${command} ${action ?? ''}`.trim()
  const operatorCommand = OPERATOR_COMMANDS.get(name) ?? OPERATOR_COMMANDS.get(command)
  if (!operatorCommand) throw new UsageError(`Unknown command "${name}".\n\n${USAGE}`)
  OPTION_CHECKS.get(name)?.(values)
  return onDatabase(config, { values, subject: OPERATOR_COMMANDS.has(name) ? subject : action }, operatorCommand)
}

/** Runs an operator command on the migrated database, then closes what it opened. */
async function onDatabase(config: Config, call: { values: Options; subject: string | undefined }, command: Command): Promise<number> {
  const logger = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, redact: REDACTED_PATHS })
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger, statisticsCheckIntervalMs: config.statisticsCheckIntervalMs })
  try {
    const migrated = await migrate(database.db)
    const files = createProcessFiles(config)
    const { embeddings, imageEmbeddings, list } = createDerivations(config, database, logger, files)
    try {
      const services = createServices(database.db, logger, 0, [embeddings, imageEmbeddings])
      return await command({ ...call, config, database, migrated, services, embeddings, imageEmbeddings, derivations: list })
    } finally {
      await Promise.all([embeddings.close(), imageEmbeddings.close()])
      await files.blobs.close?.()
      files.images.close()
    }
  } finally {
    await database.close()
  }
}

/** Turns known failures into one clear line and an exit code; anything else is a bug and keeps its stack. */
export async function run(argv: string[]): Promise<void> {
  try {
    const code = await main(argv)
    if (code !== SERVING) process.exitCode = code
  } catch (error) {
    if (error instanceof ConfigError || error instanceof BlobStoreNotConfiguredError || error instanceof DataDirectoryLockedError || error instanceof UsageError) {
      process.stderr.write(`asset-library: ${error.message}\n`)
      process.exitCode = 2
    } else if (error instanceof BlobStoreUnavailableError) {
      process.stderr.write(`asset-library: ${error.message}\n`)
      process.exitCode = 1
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
