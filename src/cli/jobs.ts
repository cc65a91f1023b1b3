import { derivationNamed, type DerivationCounts } from '../platform/background/derivation.js'
import { UsageError } from './arguments.js'
import type { Commands } from './command.js'
import { organizationScope } from './embeddings.js'
import { output, plural } from './output.js'

const COLUMNS = ['queue', 'pending', 'running', 'failed', 'oldest waiting since'] as const

/** One row per queue, its columns aligned. */
function table(rows: DerivationCounts[]): string {
  const cells = [
    [...COLUMNS],
    ...rows.map((row) => [row.name, String(row.pending), String(row.running), String(row.failed), row.oldest_pending_at ?? '-']),
  ]
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)))
  return cells.map((line) => `  ${line.map((cell, i) => (i === 0 || i === line.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`.trimEnd()).join('\n')
}

export const jobCommands: Commands = {
  jobs: async ({ values, subject, services, derivations }) => {
    if (subject !== undefined) throw new UsageError(`Unknown command "jobs ${subject}": try \`jobs\` or \`jobs retry NAME\``)
    const { organizationId, scope } = await organizationScope(values, services)
    const rows = await Promise.all(derivations.map((derivation) => derivation.counts(organizationId)))
    return output(values, rows, `Jobs of ${scope}\n${table(rows)}`)
  },
  'jobs retry': async ({ values, subject, services, derivations }) => {
    const names = derivations.map((derivation) => derivation.name).join(', ')
    if (subject === undefined) throw new UsageError(`jobs retry needs the name of a queue: ${names}`)
    const derivation = derivationNamed(derivations, subject)
    if (!derivation) throw new UsageError(`no queue named "${subject}": the queues are ${names}`)
    const { organizationId, scope } = await organizationScope(values, services)
    const queued = await derivation.retry(organizationId)
    return output(values, { name: derivation.name, queued }, `Queued ${plural(queued, 'job')} of ${derivation.name} again for ${scope} (failed or missing)`)
  },
}
