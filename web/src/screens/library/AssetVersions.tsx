import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRef, useState, type DragEvent, type ReactNode } from 'react'
import { Link } from 'wouter'
import { invalidateAssetData } from '../../api/cache'
import { AssetThumb } from '../../ui/AssetThumb'
import { ConfirmDialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { actorText, formatBytes, formatDate, formatRelative } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useToast } from '../../ui/toast'
import { assetHref } from './AssetGrid'
import { downloadHref, downloadName } from './download'
import type { Asset } from './queries'
import { restoreVersion, useVersions, type AssetVersion, type UploadState } from './versions'

/** "PNG" for image/png, "SVG" for image/svg+xml. */
const formatName = (mime: string) => (mime.split('/')[1] ?? mime).replace(/\+.*$/, '').toUpperCase()

/** The hidden file input behind "Upload new version": one image, given to `onFile`. */
export function UploadVersionButton({ onFile, busy }: { onFile(file: File): void; busy: boolean }) {
  const input = useRef<HTMLInputElement>(null)
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} disabled={busy}>
        Upload new version
      </button>
      <input
        ref={input}
        type="file"
        accept="image/*"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.target.files?.[0]
          event.target.value = ''
          if (file) onFile(file)
        }}
      />
    </>
  )
}

const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files')

/**
 * The picture takes a dropped image as the asset's next version: while a file is dragged over it, it
 * says so. More than one file is refused: a version is one image.
 */
export function VersionDropTarget({ nextVersion, onFile, onRefused, children }: { nextVersion: number; onFile(file: File): void; onRefused(text: string): void; children: ReactNode }) {
  const [over, setOver] = useState(false)
  return (
    <div
      className={`version-drop${over ? ' over' : ''}`}
      onDragEnter={(event) => {
        if (!hasFiles(event)) return
        event.preventDefault()
        setOver(true)
      }}
      onDragOver={(event) => hasFiles(event) && event.preventDefault()}
      onDragLeave={(event) => !event.currentTarget.contains(event.relatedTarget as Node | null) && setOver(false)}
      onDrop={(event) => {
        event.preventDefault()
        setOver(false)
        const files = [...event.dataTransfer.files]
        if (files.length === 1) onFile(files[0]!)
        else if (files.length > 1) onRefused('Drop one image: a new version is a single file.')
      }}
    >
      {children}
      {over && (
        <div className="version-drop-note" aria-hidden="true">
          Drop to upload as version {nextVersion}
        </div>
      )}
    </div>
  )
}

/** How the upload of a new version goes: its progress, then why it failed or what it found. */
export function UploadStatus({ state, onCancel, onDismiss }: { state: UploadState; onCancel(): void; onDismiss(): void }) {
  if (state.kind === 'idle' || state.kind === 'new') return null
  if (state.kind === 'sending') {
    const percent = Math.round(state.progress * 100)
    return (
      <div className="version-status" role="status">
        <span className="version-status-text">
          Uploading <strong>{state.name}</strong> as a new version… {percent}%
        </span>
        <progress max={100} value={percent} aria-label={`Uploading ${state.name}`} />
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    )
  }
  const dismiss = (
    <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
      ×
    </button>
  )
  if (state.kind === 'duplicate') {
    return (
      <div className="version-status" role="status">
        <span className="version-status-text">
          <strong>{state.name}</strong> is the current version already (version {state.version}): nothing changed.
        </span>
        {dismiss}
      </div>
    )
  }
  return (
    <div className="version-status failed" role="alert">
      <span className="version-status-text">
        {state.name && (
          <>
            <strong>{state.name}</strong> was not uploaded.{' '}
          </>
        )}
        {state.detail}{' '}
        {state.kind === 'elsewhere' && <Link href={assetHref(state.assetId)}>Open the asset that has this image</Link>}
      </span>
      {dismiss}
    </div>
  )
}

/**
 * The history, newest first, the current version marked: each with its thumbnail, when and by whom,
 * its size and dimensions, a download of its original, and "Restore" (after confirming), which makes a
 * copy of it the newest version.
 */
export function VersionHistory({ asset, me }: { asset: Asset; me: { name: string; email: string } }) {
  const versions = useVersions(asset.id)
  const [restoring, setRestoring] = useState<AssetVersion | null>(null)
  return (
    <section className="panel" aria-labelledby="versions-title">
      <div className="row panel-head">
        <h2 className="section-title" id="versions-title">
          Versions
        </h2>
        {versions.data && <span className="badge">{versions.data.length}</span>}
      </div>
      {versions.isPending ? (
        <p className="muted" aria-busy="true">
          Loading versions…
        </p>
      ) : versions.isError ? (
        <QueryError error={versions.error} onRetry={() => void versions.refetch()} what="the versions" />
      ) : (
        <ol className="version-list" aria-label="Versions, newest first">
          {versions.data.map((item) => {
            const current = item.version === asset.version
            const who = actorText(item.created_by, me)
            return (
              <li key={item.version} className={current ? 'current' : undefined} aria-current={current ? 'true' : undefined}>
                <AssetThumb asset={{ title: asset.title, thumbnail_url: item.thumbnail_url, width: item.width, height: item.height }} className="version-thumb" />
                <div className="version-meta">
                  <p className="version-name">
                    <strong>Version {item.version}</strong>
                    {current && <span className="badge ok">Current</span>}
                  </p>
                  <p className="muted" title={formatDate(item.created_at)}>
                    Added {formatRelative(item.created_at)}
                    {who && ` by ${who}`}
                  </p>
                  <p className="muted">
                    {item.width} × {item.height} · {formatBytes(item.byte_size)} · {formatName(item.mime_type)}
                  </p>
                  <div className="version-actions">
                    <a
                      className="button"
                      href={downloadHref({ ...item, title: `${asset.title || 'asset'} v${item.version}` })}
                      download={downloadName({ title: `${asset.title || 'asset'} v${item.version}`, mime_type: item.mime_type })}
                      aria-label={`Download version ${item.version}`}
                    >
                      Download
                    </a>
                    {!current && (
                      <button type="button" onClick={() => setRestoring(item)} aria-label={`Restore version ${item.version}`}>
                        Restore
                      </button>
                    )}
                  </div>
                </div>
              </li>
            )
          })}
        </ol>
      )}
      <p className="muted version-hint">Add a version with “Upload new version”, or drop an image on the picture.</p>
      <RestoreVersionDialog asset={asset} version={restoring} onClose={() => setRestoring(null)} />
    </section>
  )
}

function RestoreVersionDialog({ asset, version, onClose }: { asset: Asset; version: AssetVersion | null; onClose(): void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const restore = useMutation({
    meta: { quiet: true },
    mutationFn: (target: AssetVersion) => restoreVersion(asset.id, target.version),
    onSuccess: async (made, target) => {
      await invalidateAssetData(queryClient)
      toast.success(`Restored version ${target.version} as version ${made}.`)
      onClose()
    },
  })
  return (
    <ConfirmDialog
      title={version ? `Restore version ${version.version}?` : 'Restore this version?'}
      open={version !== null}
      confirmLabel="Restore this version"
      tone="primary"
      busy={restore.isPending}
      onClose={onClose}
      onConfirm={() => version && restore.mutate(version)}
    >
      <p>
        A copy of version {version?.version} becomes version {asset.version + 1}, the current one. Every version stays in the history, so this can be
        changed back.
      </p>
      <FormError error={restore.error} />
    </ConfirmDialog>
  )
}
