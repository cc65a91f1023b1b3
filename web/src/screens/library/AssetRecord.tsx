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
      <dd>
        {asset.created_by_ai ? 'AI' : 'A person'}
        {originDisagreement(asset) && (
          <span className="muted" role="note">
            {' '}
            · {originDisagreement(asset)}
          </span>
        )}
      </dd>
      <dt>Colours</dt>
      <dd>
        {asset.colors === null ? (
          <span className="muted">Being read…</span>
        ) : asset.colors.length === 0 ? (
          none
        ) : (
          <span className="row" style={{ gap: 4 }}>
            {asset.colors.map((color) => (
              <Link
                key={color.hex}
                className="swatch-link"
                href={`/?color=${encodeURIComponent(color.name)}`}
                title={`${color.name}, ${color.hex}, ${Math.round(color.share * 100)}%: show the ${color.name} assets`}
              >
                <span className="swatch" style={{ background: color.hex }} aria-hidden="true" />
                <span className="visually-hidden">{color.name}</span>
              </Link>
            ))}
          </span>
        )}
      </dd>
      <dt>The file says</dt>
      <dd>{asset.provenance === null ? <span className="muted">Being read…</span> : provenanceText(asset.provenance)}</dd>
      <dt>Near-duplicates</dt>
      <dd>
        {asset.near_duplicates === null ? (
          <span className="muted">Being looked for…</span>
        ) : asset.near_duplicates.length === 0 ? (
          none
        ) : (
          <span className="row" style={{ gap: 4 }}>
            {asset.near_duplicates.map((near) => (
              <Link key={near.asset_id} className="chip" href={`/assets/${near.asset_id}`} title={`${near.distance} of 64 bits differ`}>
                {near.distance === 0 ? 'same picture' : `distance ${near.distance}`}
              </Link>
            ))}
            <Link href="/duplicates">Review on the Duplicates screen</Link>
          </span>
        )}
      </dd>
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
      <dt>Added by</dt>
      <dd>{asset.created_by ? addedBy(asset.created_by) : <span className="muted">Not recorded (added before this was kept)</span>}</dd>
      <dt>Created</dt>
      <dd>{formatDate(asset.created_at)}</dd>
      <dt>Updated</dt>
      <dd>{formatDate(asset.updated_at)}</dd>
    </dl>
  )
}

/** Who pushed the asset, and whether an API key (an automation) or a person. */
export function addedBy(actor: NonNullable<Asset['created_by']>): string {
  return `${actor.name} (${actor.kind === 'key' ? 'API key' : 'person'})`
}

const SOURCES: Record<NonNullable<Asset['provenance']>['source'], string> = {
  ai: 'made by AI',
  ai_composite: 'a composite with AI-made parts',
  capture: 'a camera capture',
  edited: 'edited or drawn without AI',
  unknown: 'nothing about its origin',
}

/** What the file declares of its origin, and its C2PA manifest's signer and state. */
function provenanceText(provenance: NonNullable<Asset['provenance']>): string {
  const source = provenance.source === 'unknown' ? 'Nothing about its origin' : `It is ${SOURCES[provenance.source]}`
  const c2pa = provenance.c2pa
  if (!c2pa) return source
  const signer = c2pa.signed_by ?? c2pa.claim_generator ?? 'an unnamed signer'
  return `${source}; a C2PA manifest by ${signer}, ${c2pa.valid ? 'intact' : 'broken or changed since signing'}`
}

/** When the file's declared origin and `created_by_ai` disagree, what to say; null when they agree or the file says nothing. */
export function originDisagreement(asset: Pick<Asset, 'created_by_ai' | 'provenance'>): string | null {
  const source = asset.provenance?.source
  if ((source === 'ai' || source === 'ai_composite') && !asset.created_by_ai) return 'The file says it was made by AI'
  if (source === 'capture' && asset.created_by_ai) return 'The file says it is a camera capture, not AI'
  return null
}
