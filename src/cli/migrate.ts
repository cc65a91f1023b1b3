import type { Commands } from './command.js'
import { output } from './output.js'

export const migrateCommands: Commands = {
  // Every database command migrates first: this one only says what that did.
  migrate: ({ values, migrated }) =>
    output(values, migrated, `Applied: ${migrated.applied.join(', ') || 'nothing (up to date)'}; pgvector: ${migrated.vector ? 'yes' : 'no'}`),
}
