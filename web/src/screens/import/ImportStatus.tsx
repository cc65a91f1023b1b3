import type { ImportRecord } from './api'

const STATUS: Record<ImportRecord['status'], { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: '' },
  running: { label: 'Running', tone: 'warn' },
  done: { label: 'Done', tone: 'ok' },
  failed: { label: 'Failed', tone: 'bad' },
}

export function StatusBadge({ record }: { record: Pick<ImportRecord, 'status'> }) {
  const { label, tone } = STATUS[record.status]
  return <span className={`badge ${tone}`}>{label}</span>
}

/** "2 created, 1 updated…": the counts that are not zero, or what the run is doing. */
export function countsText(record: ImportRecord): string {
  const parts = (
    [
      ['created', record.created],
      ['updated', record.updated],
      ['unchanged', record.unchanged],
      ['failed', record.failed],
      ['missing', record.missing],
    ] as const
  )
    .filter(([, count]) => count > 0)
    .map(([label, count]) => `${count.toLocaleString()} ${label}`)
  if (parts.length > 0) return parts.join(', ')
  if (record.status === 'queued') return 'Waiting to start'
  if (record.status === 'running') return record.total > 0 ? `0 of ${record.total.toLocaleString()}` : 'Reading the file'
  return record.status === 'failed' ? 'Nothing imported' : 'Nothing to import'
}

export function ImportCounts({ record }: { record: ImportRecord }) {
  return <span className="import-counts">{countsText(record)}</span>
}
