import { useMutation } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Link } from 'wouter'
import { appApi, unwrap } from '../../api/client'
import { useOrg, useSession } from '../../session'
import { FormError } from '../../ui/FormError'
import { formatDate } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { Table } from '../../ui/Table'
import { isActive, useFigmaConnection, useImport, useNodeAssets, type ImportRecord } from './api'
import { fileLabel, selectLabel } from './ImportHistory'
import { countsText, StatusBadge } from './ImportStatus'
import { doneCount, nodeResult, pickedNodes, resultNodes, type NodeResult, type ResultNode } from './results'
import { nodesOfKind } from './selection'
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

const RESULT_LABELS: Record<NodeResult['kind'], { label: string; tone: string }> = {
  pending: { label: 'Waiting', tone: '' },
  created: { label: 'Created', tone: 'ok' },
  updated: { label: 'Updated', tone: 'ok' },
  unchanged: { label: 'Unchanged', tone: '' },
  failed: { label: 'Failed', tone: 'bad' },
  missing: { label: 'Missing', tone: 'warn' },
  not_imported: { label: 'Not imported', tone: '' },
}

function NodeResults({ record }: { record: ImportRecord }) {
  const org = useOrg()
  const connection = useFigmaConnection(org)
  // An import of all frames (or components) started elsewhere names no nodes: the file's outline does, on demand.
  const outline = useMutation({
    mutationFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/integrations/figma/outline', { params: { path: { org }, query: { file_url: record.file_url } } })),
    gcTime: 0,
    meta: { quiet: true },
  })
  const picked = pickedNodes.of(record.id) ?? (outline.data && record.select !== 'nodes' ? nodesOfKind(outline.data, record.select) : undefined)
  const nodes = resultNodes(record, picked)
  const assets = useNodeAssets(
    record,
    nodes.map((node) => node.id),
  )
  if (nodes.length === 0) {
    return (
      <div className="stack">
        <p className="muted">This import took {record.select === 'components' ? 'all the components' : 'all the frames'} of the file; its assets are in the library.</p>
        {connection.data?.connected && !isActive(record) && (
          <div className="row">
            <button type="button" onClick={() => outline.mutate()} disabled={outline.isPending}>
              {outline.isPending ? 'Reading the file…' : 'List each node'}
            </button>
            <FormError error={outline.error} />
          </div>
        )}
      </div>
    )
  }
  return (
    <section className="stack" aria-labelledby="results-title">
      <h2 id="results-title">Results</h2>
      <Table columns={['Node', 'Result', 'Asset']} caption="Result per node" stacked>
        {nodes.map((node) => (
          <NodeRow key={node.id} node={node} result={nodeResult(record, node.id, assets.data)} />
        ))}
      </Table>
      {assets.isPending && !isActive(record) && <p className="muted">Finding the assets…</p>}
      {assets.isError && <QueryError error={assets.error} onRetry={() => void assets.refetch()} what="the imported assets" />}
    </section>
  )
}

function NodeRow({ node, result }: { node: ResultNode; result: NodeResult }) {
  const { label, tone } = RESULT_LABELS[result.kind]
  const asset = 'asset' in result ? result.asset : undefined
  const name = node.name ?? asset?.title ?? node.id
  return (
    <tr>
      <td>
        <div className="row import-result-node">
          {node.thumbnailUrl && <img src={node.thumbnailUrl} alt="" className="import-result-thumb" />}
          <span className="strong">{name}</span>
        </div>
      </td>
      <td>
        <span className={`badge ${tone}`}>{label}</span>
        {result.kind === 'failed' && (
          <div className="muted small-note">
            <code>{result.reason}</code> {result.detail}
          </div>
        )}
        {result.kind === 'missing' && <div className="muted small-note">Gone from the file; its asset is kept.</div>}
      </td>
      <td>
        {asset && <Link href={`/assets/${asset.id}`}>{asset.title}</Link>}
        {result.kind === 'missing' && result.assetId && <Link href={`/assets/${result.assetId}`}>Open the asset</Link>}
      </td>
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
