import { useId, useState } from 'react'
import { Link } from 'wouter'
import { useOrg, useSession } from '../../session'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { Table } from '../../ui/Table'
import { isActive, useFigmaConnection, useImport, useImportNodes, type ImportNode, type ImportRecord } from './api'
import { fileLabel, selectLabel } from './ImportHistory'
import { countsText, StatusBadge } from './ImportStatus'
import { doneCount, pickedThumbnails } from './results'
import { useSync } from './sync'
import './import.css'

/** /import/:id: one import's progress while it runs (read every second), then its result per node. */
export function ImportDetailScreen({ id }: { id: string }) {
  const record = useImport(id)
  return (
    <div className="import-page stack">
      <p className="import-back">
        <Link href="/import">← All imports</Link>
      </p>
      {record.isPending && <p className="muted">Loading the import…</p>}
      {record.isError && <QueryError error={record.error} onRetry={() => void record.refetch()} what="the import" />}
      {record.data && <ImportDetail record={record.data} />}
    </div>
  )
}

function ImportDetail({ record }: { record: ImportRecord }) {
  return (
    <>
      <header className="page-header">
        <h1>{fileLabel(record)}</h1>
        <StatusBadge record={record} />
        <div className="actions">
          <SyncNow record={record} />
        </div>
        <p className="muted import-lede">
          {selectLabel(record)} · started by {record.created_by.name} {formatDate(record.created_at)} ·{' '}
          <a href={record.file_url} target="_blank" rel="noreferrer">
            Open in Figma
          </a>
        </p>
      </header>
      <Progress record={record} />
      <NodeResults record={record} />
    </>
  )
}

const FAILURE_HELP: Record<string, string> = {
  figma_token_invalid: 'Figma refused the token: it may have expired or been revoked.',
  figma_file_not_found: 'Figma has no such file, or the token cannot open it.',
  figma_not_connected: 'There was no Figma token to read the file with.',
  figma_unavailable: 'Figma could not be reached, or kept answering that it was busy.',
}

function Progress({ record }: { record: ImportRecord }) {
  const { canManage } = useSession()
  const done = doneCount(record)
  const active = isActive(record)
  return (
    <section className="panel stack import-progress" aria-label="Progress">
      <div className="row">
        <progress max={Math.max(record.total, 1)} value={record.status === 'done' ? Math.max(record.total, 1) : done} aria-label="Nodes done" />
        <span className="nowrap">{record.total > 0 ? `${done.toLocaleString()} of ${record.total.toLocaleString()}` : active ? 'Reading the file…' : ''}</span>
      </div>
      <p role="status" className="import-counts-line">
        {countsText(record)}
      </p>
      {record.error && (
        <p className="form-error" role="alert">
          {FAILURE_HELP[record.error.code] ?? record.error.detail}{' '}
          {canManage && (record.error.code === 'figma_token_invalid' || record.error.code === 'figma_not_connected') && <Link href="/settings/integrations">Check the Figma token in Settings</Link>}
        </p>
      )}
      <p className="muted small-note">
        Run {record.run}
        {record.started_at && ` · started ${formatDate(record.started_at)}`}
        {record.finished_at && ` · finished ${formatDate(record.finished_at)}`}
        {record.file_version && ` · Figma version ${record.file_version}`}
      </p>
    </section>
  )
}

const OUTCOME_LABELS: Record<NonNullable<ImportNode['outcome']> | 'pending', { label: string; tone: string }> = {
  pending: { label: 'Waiting', tone: '' },
  created: { label: 'Created', tone: 'ok' },
  updated: { label: 'Updated', tone: 'ok' },
  unchanged: { label: 'Unchanged', tone: '' },
  failed: { label: 'Failed', tone: 'bad' },
  missing: { label: 'Missing', tone: 'warn' },
}

/** Each node of the run as the server recorded it (GET /api/v1/imports/{id}/nodes), page by page. */
function NodeResults({ record }: { record: ImportRecord }) {
  const nodes = useImportNodes(record)
  const thumbnails = pickedThumbnails.of(record.id)
  const rows = nodes.data?.pages.flatMap((page) => page.data) ?? []
  const total = nodes.data?.pages[0]?.total ?? 0
  if (nodes.isError) return <QueryError error={nodes.error} onRetry={() => void nodes.refetch()} what="the nodes" />
  if (nodes.isPending) return <p className="muted">Loading the nodes…</p>
  if (rows.length === 0) return isActive(record) ? null : <p className="muted">This run took no nodes.</p>
  return (
    <section className="stack" aria-labelledby="results-title">
      <h2 id="results-title">Results</h2>
      <Table columns={['Node', 'Result', 'Asset']} caption="Result per node" stacked>
        {rows.map((node) => (
          <NodeRow key={node.node_id} node={node} thumbnailUrl={thumbnails?.get(node.node_id)} />
        ))}
      </Table>
      {nodes.hasNextPage && (
        <div className="row">
          <button type="button" onClick={() => void nodes.fetchNextPage()} disabled={nodes.isFetchingNextPage}>
            {nodes.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
          <span className="muted">
            {rows.length.toLocaleString()} of {total.toLocaleString()}
          </span>
        </div>
      )}
    </section>
  )
}

function NodeRow({ node, thumbnailUrl }: { node: ImportNode; thumbnailUrl: string | undefined }) {
  const { label, tone } = OUTCOME_LABELS[node.outcome ?? 'pending']
  return (
    <tr>
      <td>
        <div className="row import-result-node">
          {thumbnailUrl && <img src={thumbnailUrl} alt="" className="import-result-thumb" />}
          <span className="strong">{node.name}</span>
          {node.page_name && <span className="muted small-note">{node.component_set_name ? `${node.page_name} · ${node.component_set_name}` : node.page_name}</span>}
        </div>
      </td>
      <td>
        <span className={`badge ${tone}`}>{label}</span>
        {node.outcome === 'failed' && (
          <div className="muted small-note">
            <code>{node.reason}</code> {node.detail}
          </div>
        )}
        {node.outcome === 'missing' && <div className="muted small-note">Gone from the file; its asset is kept.</div>}
      </td>
      <td>{node.asset_id && <Link href={`/assets/${node.asset_id}`}>{node.name}</Link>}</td>
    </tr>
  )
}

function SyncNow({ record }: { record: ImportRecord }) {
  const org = useOrg()
  const connection = useFigmaConnection(org)
  const sync = useSync()
  const [token, setToken] = useState('')
  const tokenId = useId()
  const needsToken = connection.data?.connected === false
  return (
    <form
      className="row"
      onSubmit={(event) => {
        event.preventDefault()
        sync.mutate({ id: record.id, token: needsToken ? token.trim() : undefined })
      }}
    >
      {needsToken && (
        <>
          <label htmlFor={tokenId} className="visually-hidden">
            Figma token for this sync
          </label>
          <input id={tokenId} type="password" value={token} onChange={(e) => setToken(e.target.value)} placeholder="Figma token" autoComplete="off" spellCheck={false} />
        </>
      )}
      <button type="submit" className="primary" disabled={isActive(record) || sync.isPending || (needsToken && !token.trim())}>
        {isActive(record) ? 'Running…' : 'Sync now'}
      </button>
    </form>
  )
}
