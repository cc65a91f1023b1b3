import { Link } from 'wouter'
import { EmptyState } from '../../ui/EmptyState'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { Table } from '../../ui/Table'
import { isActive, useImports, type ImportRecord } from './api'
import { ImportCounts, StatusBadge } from './ImportStatus'
import { useSync } from './sync'

/** The organization's imports, newest first, each with its counts and "Sync now". */
export function ImportHistory({ token, needsToken }: { token: string | undefined; needsToken: boolean }) {
  const imports = useImports()
  const sync = useSync()
  const list = imports.data?.data ?? []
  return (
    <section className="stack import-history" aria-labelledby="history-title">
      <h2 id="history-title">Imports</h2>
      {imports.isPending && <p className="muted">Loading imports…</p>}
      {imports.isError && <QueryError error={imports.error} onRetry={() => void imports.refetch()} what="the imports" />}
      {imports.data && list.length === 0 && (
        <EmptyState title="No imports yet">
          <p>Imports of Figma files show here, with a button to sync each again.</p>
        </EmptyState>
      )}
      {list.length > 0 && (
        <Table columns={['File', 'Started', 'By', 'Status', 'Results', { label: 'Actions', hidden: true }]} caption="Imports" stacked>
          {list.map((record) => (
            <tr key={record.id}>
              <td className="strong">
                <Link href={`/import/${record.id}`}>{fileLabel(record)}</Link>
                <div className="muted import-select">{selectLabel(record)}</div>
              </td>
              <td className="nowrap">{formatDate(record.created_at)}</td>
              <td>{record.created_by.name}</td>
              <td>
                <StatusBadge record={record} />
              </td>
              <td>
                <ImportCounts record={record} />
              </td>
              <td className="actions-cell">
                <button
                  type="button"
                  className="small"
                  disabled={isActive(record) || (needsToken && !token) || (sync.isPending && sync.variables.id === record.id)}
                  title={needsToken && !token ? 'Give a Figma token above to sync' : undefined}
                  onClick={() => sync.mutate({ id: record.id, token })}
                  aria-label={`Sync ${fileLabel(record)} now`}
                >
                  Sync now
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  )
}

export const fileLabel = (record: Pick<ImportRecord, 'file_name' | 'file_key'>) => record.file_name ?? record.file_key

export function selectLabel(record: ImportRecord): string {
  const what = record.select === 'nodes' ? `${record.node_ids.length} picked` : record.select === 'frames' ? 'Frames' : 'Components'
  return `${what} · ${record.format.toUpperCase()}${record.format === 'svg' ? '' : ` ${record.scale}×`}${record.run > 1 ? ` · run ${record.run}` : ''}`
}
