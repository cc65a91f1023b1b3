import { Link } from 'wouter'
import { formatBytes, formatDate } from '../../ui/format'
import type { Asset } from './queries'

/** A link target only for web addresses: a pushed `source_url` could be `javascript:` or `data:`. */
export function safeHref(url: string): string | null {
  try {
    const { protocol } = new URL(url)
    return protocol === 'http:' || protocol === 'https:' ? url : null
  } catch {
    return null
  }
}

/** The asset's record, read-only; its tags link to the library filtered by them. */
export function AssetRecord({ asset }: { asset: Asset }) {
  const none = <span className="muted">—</span>
  const source = asset.source_url ? safeHref(asset.source_url) : null
  return (
    <dl className="record">
      <dt>Type</dt>
      <dd>{asset.asset_type ?? none}</dd>
      <dt>Client</dt>
      <dd>{asset.client ?? none}</dd>
      <dt>Product</dt>
      <dd>{asset.product ?? none}</dd>
      <dt>Tags</dt>
      <dd>
        {asset.tags.length === 0 ? (
          none
        ) : (
          <span className="row" style={{ gap: 4 }}>
            {asset.tags.map((tag) => (
              <Link key={tag} className="chip" href={`/?tag=${encodeURIComponent(tag)}`}>
                {tag}
              </Link>
            ))}
          </span>
        )}
      </dd>
      <dt>Made by</dt>
      <dd>{asset.created_by_ai ? 'AI' : 'A person'}</dd>
      <dt>Version</dt>
      <dd>{asset.version}</dd>
      <dt>External id</dt>
      <dd className={asset.external_id ? 'mono' : undefined}>{asset.external_id ?? none}</dd>
      <dt>Dimensions</dt>
      <dd>
        {asset.width} × {asset.height} px
      </dd>
      <dt>Size</dt>
      <dd>{formatBytes(asset.byte_size)}</dd>
      <dt>Format</dt>
      <dd>{asset.mime_type}</dd>
      <dt>SHA-256</dt>
      <dd className="mono" title={asset.sha256}>
        {asset.sha256.slice(0, 12)}…
      </dd>
      <dt>Source</dt>
      <dd>
        {!asset.source_url ? (
          none
        ) : source ? (
          <a href={source} target="_blank" rel="noreferrer">
            {asset.source_url}
          </a>
        ) : (
          asset.source_url
        )}
      </dd>
      <dt>Created</dt>
      <dd>{formatDate(asset.created_at)}</dd>
      <dt>Updated</dt>
      <dd>{formatDate(asset.updated_at)}</dd>
    </dl>
  )
}
