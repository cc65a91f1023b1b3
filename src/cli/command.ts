import type { Services } from '../app.js'
import type { Config } from '../config.js'
import type { Embeddings } from '../modules/search/embeddings.js'
import type { ImageEmbeddings } from '../modules/search/image-embeddings.js'
import type { DerivedWork } from '../platform/background/derivation.js'
import type { DatabaseHandle } from '../platform/db/index.js'
import type { MigrationOutcome } from '../platform/db/migrate.js'
import type { Options } from './arguments.js'

/** What an operator command runs on: the database, migrated first, and the modules' services over it. */
export interface CommandContext {
  values: Options
  /** The word after the action, if any (`jobs retry thumbnails`: thumbnails). */
  subject: string | undefined
  config: Config
  database: DatabaseHandle
  migrated: MigrationOutcome
  services: Services
  embeddings: Embeddings
  imageEmbeddings: ImageEmbeddings
  /** The work that follows a change to an asset, in the order the app lists it. */
  derivations: readonly DerivedWork[]
}

/** An operator command; resolves to the exit code. */
export type Command = (context: CommandContext) => number | Promise<number>

/** Operator commands by their words (`key create`). */
export type Commands = Record<string, Command>

/** Checks of a command's options that need nothing opened, by the command's words: they throw a UsageError. */
export type OptionChecks = Record<string, (values: Options) => void>
