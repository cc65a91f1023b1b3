import { useEffect, useState, type ReactNode } from 'react'
import { Link, useLocation, useParams } from 'wouter'
import { ApiError, messageOf } from '../../api/problem'
import { AiBadge, assetTitle } from '../../ui/AssetThumb'
import { CopyButton } from '../../ui/CopyButton'
import { AssetEditForm } from './AssetEditForm'
import { AssetRecord } from './AssetRecord'
import { DeleteAsset } from './DeleteAsset'
import { useAsset, type Asset } from './queries'
import { SimilarAssets } from './SimilarAssets'
import './library.css'

/** Where "back to the library" goes: the library as it was left (filters and search), else `/`. */
function libraryBack(): string {
  const back = (history.state as { back?: unknown } | null)?.back
  return typeof back === 'string' && back.startsWith('/') ? back : '/'
}

/** Esc goes back, unless it is closing a dialog or leaving a field. */
function useEscapeTo(href: string) {
  const [, navigate] = useLocation()
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return
      const target = event.target as HTMLElement | null
      if (target?.closest('input, textarea, select')) return
      navigate(href)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [href, navigate])
}

/** One asset: the large image, its record, metadata editing, similar assets, its collections, delete. */
export function AssetDetailScreen() {
  const { id } = useParams<{ id: string }>()
  const [back] = useState(libraryBack)
  const [, navigate] = useLocation()
  const asset = useAsset(id)
  useEscapeTo(back)

  const backLink = (
    <Link href={back} className="back-link">
      ← Library
    </Link>
  )
  if (asset.isPending) return <p className="page-message" aria-busy="true">{backLink} Loading…</p>
  if (asset.isError) {
    const gone = asset.error instanceof ApiError && asset.error.status === 404
    return (
      <p className="page-message" role="alert">
        {gone ? 'This asset does not exist; it may have been deleted.' : messageOf(asset.error)} {backLink}
      </p>
    )
  }
  const data = asset.data
  return (
    <div>
      <header className="detail-header">
        {backLink}
        <h1>{assetTitle(data)}</h1>
        {data.created_by_ai && <AiBadge />}
        <div className="actions">
          <CopyButton text={data.original_url} label="Copy original URL" />
          <a className="button" href={data.original_url} target="_blank" rel="noreferrer">
            Open original
          </a>
          <DeleteAsset asset={data} onDeleted={() => navigate(back)} />
        </div>
      </header>
      <div className="detail">
        <div className="detail-main">
          <LargeImage asset={data} />
          <SimilarAssets id={data.id} />
        </div>
        <div className="detail-side">
          <Panel id="record-title" title="Record">
            <AssetRecord asset={data} />
          </Panel>
          <Panel id="edit-title" title="Edit">
            {/* Keyed by the asset, not its version: a refetch must not throw away an edit. */}
            <AssetEditForm key={data.id} asset={data} />
          </Panel>
          <Panel id="in-collections" title="Collections">
            <InCollections collections={data.collections} />
          </Panel>
        </div>
      </div>
    </div>
  )
}

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 className="section-title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  )
}

/** The original, with the thumbnail behind it while it loads. */
function LargeImage({ asset }: { asset: Asset }) {
  return (
    <div className="detail-image">
      <img
        src={asset.original_url}
        alt={assetTitle(asset)}
        width={asset.width}
        height={asset.height}
        decoding="async"
        style={{ backgroundImage: `url("${asset.thumbnail_url}")`, backgroundSize: 'contain', backgroundRepeat: 'no-repeat', backgroundPosition: 'center' }}
      />
    </div>
  )
}

function InCollections({ collections }: { collections: Asset['collections'] }) {
  if (collections.length === 0) return <p className="muted">Not in any collection.</p>
  return (
    <ul className="row" aria-label="In collections" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {collections.map((c) => (
        <li key={c.id}>
          <Link href={`/collections/${c.id}`} className="chip">
            {c.name}
          </Link>
        </li>
      ))}
    </ul>
  )
}
