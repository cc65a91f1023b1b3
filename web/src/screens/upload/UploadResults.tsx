import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Link } from 'wouter'
import { invalidateAssetData } from '../../api/cache'
import { unwrap, v1 } from '../../api/client'
import { useSession } from '../../session'
import { formatBytes } from '../../ui/format'
import { isFinal, summarize, type UploadItem } from './uploadStore'

interface Props {
  items: readonly UploadItem[]
  onCancel(id: number): void
  onClearFinished(): void
}

/**
 * Every row of the queue with its progress and outcome. The region and its summary stay mounted,
 * empty at first, so screen readers hear the summary change as files finish.
 */
export function UploadResults({ items, onCancel, onClearFinished }: Props) {
  const { organization, organizations } = useSession()
  const heading = useId()
  const elsewhere = (item: UploadItem) =>
    item.organization && item.organization !== organization.slug
      ? (organizations.find((o) => o.slug === item.organization)?.name ?? item.organization)
      : null
  return (
    <section className={`panel upload-results${items.length === 0 ? ' is-empty' : ''}`} aria-labelledby={heading}>
      <header className="row upload-results-header">
        <h2 id={heading}>Uploads</h2>
        <span className="muted" role="status">
          {items.length > 0 ? summarize(items) : ''}
        </span>
        {items.length > 0 && (
          <button type="button" className="upload-clear" onClick={onClearFinished} disabled={!items.some((item) => isFinal(item.state))}>
            Clear finished
          </button>
        )}
      </header>
      {items.length === 0 ? (
        <p className="muted upload-none">Files you add appear here. They keep uploading while you use the rest of the app.</p>
      ) : (
        <ul className="upload-list">
          {items.map((item) => (
            <UploadRow key={item.id} item={item} organization={elsewhere(item)} onCancel={() => onCancel(item.id)} />
          ))}
        </ul>
      )}
    </section>
  )
}

function UploadRow({ item, organization, onCancel }: { item: UploadItem; organization: string | null; onCancel(): void }) {
  const { state } = item
  const progress = state.kind === 'sending' ? state.progress : isFinal(state) ? 1 : 0
  return (
    <li className={`upload-row upload-${state.kind}`}>
      <div className="upload-thumb" aria-hidden="true">
        <Preview item={item} />
      </div>
      <div className="upload-info">
        <div className="upload-title" title={item.source}>
          {item.title}
        </div>
        <div className="upload-source muted">
          <span className="upload-source-name">{item.source}</span>
          {item.size !== null && <span>&nbsp;· {formatBytes(item.size)}</span>}
          {organization && <span>&nbsp;· to {organization}</span>}
        </div>
        {item.declaresAi && <DeclaredAi item={item} editable={organization === null} />}
        {!isFinal(state) && <progress max={1} value={progress} aria-label={`Uploading ${item.title}`} />}
      </div>
      <div className="upload-status">
        <Status item={item} linked={organization === null} />
        {!isFinal(state) && (
          <button type="button" className="upload-cancel" onClick={onCancel} aria-label={`Cancel ${item.title}`}>
            Cancel
          </button>
        )}
      </div>
    </li>
  )
}

/**
 * A file pushed as made by AI because its XMP says so (the batch may have said "made by a person"): the
 * note, and once it is a new asset of the organization shown, the way to say otherwise.
 */
function DeclaredAi({ item, editable }: { item: UploadItem; editable: boolean }) {
  const queryClient = useQueryClient()
  const change = useMutation({
    mutationFn: (id: string) => unwrap(v1.PATCH('/api/v1/assets/{id}', { params: { path: { id } }, body: { created_by_ai: false } })),
    onSettled: () => invalidateAssetData(queryClient),
  })
  if (change.isSuccess) return <div className="upload-note">Marked as made by a person</div>
  const assetId = editable && item.state.kind === 'new' ? item.state.assetId : null
  return (
    <div className="upload-note" role="note">
      The file says it was made by AI
      {assetId && (
        <>
          {' · '}
          <button type="button" className="upload-note-change" onClick={() => change.mutate(assetId)} disabled={change.isPending} aria-label={`Mark ${item.title} as made by a person`}>
            Made by a person
          </button>
        </>
      )}
    </div>
  )
}

/** The file as picked; a file the browser cannot show (not an image after all) shows no broken image. */
function Preview({ item }: { item: UploadItem }) {
  const [broken, setBroken] = useState(false)
  if (!item.preview) return <span>URL</span>
  if (broken) return <span>File</span>
  return <img src={item.preview} alt="" onError={() => setBroken(true)} />
}

/** The row's state; a finished asset links to its page, unless it went to another organization than the one shown. */
function Status({ item, linked }: { item: UploadItem; linked: boolean }) {
  const { state } = item
  switch (state.kind) {
    case 'queued':
      return <span className="muted">Queued</span>
    case 'sending':
      return <span className="muted">{state.progress >= 1 ? 'Processing…' : `${Math.round(state.progress * 100)}%`}</span>
    case 'waiting':
      return <span className="outcome outcome-waiting">Waiting {state.seconds}s (rate limit)</span>
    case 'cancelled':
      return <span className="muted">Cancelled</span>
    case 'failed':
      return <span className="upload-error">{state.detail}</span>
    case 'new':
    case 'duplicate': {
      const label = state.kind === 'new' ? 'New' : 'Duplicate'
      const className = `outcome outcome-${state.kind}`
      const title = state.kind === 'duplicate' ? 'These bytes were already in the library: open the existing asset' : undefined
      return linked ? (
        <Link href={`/assets/${state.assetId}`} className={className} title={title}>
          {label}
        </Link>
      ) : (
        <span className={className}>{label}</span>
      )
    }
  }
}
