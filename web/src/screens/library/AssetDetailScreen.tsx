import { useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react'
import { Link, useLocation, useParams } from 'wouter'
import { ApiError } from '@asset-library/client'
import { messageOf } from '../../api/problem'
import { AiBadge, assetTitle } from '../../ui/AssetThumb'
import { useTransparency } from '../../ui/transparency'
import { AddAssetToCollectionDialog } from './AddAssetToCollection'
import { AssetEditForm } from './AssetEditForm'
import { assetHref, type CardAsset } from './AssetGrid'
import { AssetRecord } from './AssetRecord'
import { UploadStatus, UploadVersionButton, VersionDropTarget, VersionHistory } from './AssetVersions'
import { AssetLinks } from './AssetLinks'
import { DeleteAsset } from './DeleteAsset'
import { DownloadAs } from './DownloadAs'
import { downloadHref, downloadName } from './download'
import { useCollection } from '../collections/api'
import { parseLibrarySearch } from './filters'
import { apiSortOf } from './sort'
import { useAsset, type Asset } from './queries'
import { LookalikeAssets, SimilarAssets } from './SimilarAssets'
import { useLibraryItems } from './useLibraryItems'
import { useVersionUpload } from './versions'
import { useSession } from '../../session'
import './library.css'

/** Where "back" goes: the library or the collection as it was left (filters, search, sort), else `/`. */
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

/** A collection's screen, as `back` names it: `/collections/ID?sort=…`. */
const COLLECTION_PATH = /^\/collections\/([^/?#]+)/

/**
 * The list the asset was opened from, as `back` names it: a collection's assets in its order, or the
 * library's with its filters, search and sort (from the cache when it was just open).
 */
function useListFrom(back: string): { items: readonly CardAsset[]; more: ReturnType<typeof useLibraryItems>['more'] } {
  const url = new URL(back, window.location.href)
  const collectionId = COLLECTION_PATH.exec(url.pathname)?.[1]
  const library = useLibraryItems(parseLibrarySearch(url.search), { enabled: collectionId === undefined })
  const collection = useCollection(collectionId ?? '', apiSortOf(url.searchParams.get('sort')), { enabled: collectionId !== undefined })
  const items = useMemo(() => collection.data?.pages.flatMap((page) => page.assets.data) ?? [], [collection.data])
  if (collectionId === undefined) return library
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = collection
  return { items, more: { hasMore: hasNextPage, loading: isFetchingNextPage, failed: isFetchNextPageError, load: () => void fetchNextPage() } }
}

/**
 * The assets before and after this one in the list it was opened from; the next page is asked for when
 * this is the last one loaded.
 */
function useNeighbours(back: string, id: string): { previous?: CardAsset; next?: CardAsset } {
  const { items, more } = useListFrom(back)
  const index = items.findIndex((item) => item.id === id)
  const atLoadedEnd = index >= 0 && index === items.length - 1 && more.hasMore && !more.loading && !more.failed
  useEffect(() => {
    if (atLoadedEnd) more.load()
  }, [atLoadedEnd, more])
  if (index < 0) return {}
  return { previous: items[index - 1], next: items[index + 1] }
}

/** ArrowLeft and ArrowRight go to the previous and next asset, unless typing in a field or in a dialog. */
function useArrowsTo({ previous, next }: { previous?: CardAsset | undefined; next?: CardAsset | undefined }, back: string) {
  const [, navigate] = useLocation()
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.key === 'ArrowLeft' ? previous : event.key === 'ArrowRight' ? next : undefined
      if (!target || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
      if (document.querySelector('dialog[open]') || (event.target as HTMLElement | null)?.closest('input, textarea, select, [contenteditable="true"]')) return
      event.preventDefault()
      navigate(assetHref(target.id), { state: { back } })
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [previous, next, back, navigate])
}

/**
 * One asset: the large image (which takes a dropped file as a new version), its record (which turns into
 * its edit form), its versions, similar assets, its collections.
 */
export function AssetDetailScreen() {
  const { id } = useParams<{ id: string }>()
  const [back] = useState(libraryBack)
  const [, navigate] = useLocation()
  const asset = useAsset(id)
  const neighbours = useNeighbours(back, id)
  useArrowsTo(neighbours, back)
  const [collecting, setCollecting] = useState(false)
  const upload = useVersionUpload(id)
  const { user } = useSession()
  useEscapeTo(back)

  const backLink = (
    <Link href={back} className="back-link">
      ← {COLLECTION_PATH.test(back) ? 'Collection' : 'Library'}
    </Link>
  )
  if (asset.isPending) return <p className="page-message" aria-busy="true">{backLink} Loading…</p>
  if (asset.isError) {
    const gone = asset.error instanceof ApiError && asset.error.status === 404
    return (
      <p className="page-message" role="alert">
        {gone ? (
          <>
            This asset does not exist, or it was deleted: a deleted asset waits in the <Link href="/trash">Trash</Link>.
          </>
        ) : (
          messageOf(asset.error)
        )}{' '}
        {backLink}
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
          <a className="button primary" href={downloadHref(data)} download={downloadName(data)}>
            Download
          </a>
          <DownloadAs asset={data} />
          <UploadVersionButton onFile={upload.upload} busy={upload.state.kind === 'sending'} />
          <button type="button" onClick={() => setCollecting(true)}>
            Add to collection
          </button>
          <a className="button" href={data.original_url} target="_blank" rel="noreferrer">
            Open original
          </a>
          <DeleteAsset asset={data} onDeleted={() => navigate(back)} />
        </div>
        <AddAssetToCollectionDialog open={collecting} assetId={data.id} onClose={() => setCollecting(false)} />
      </header>
      <Neighbours {...neighbours} back={back} />
      <div className="detail">
        <div className="detail-main">
          <UploadStatus state={upload.state} onCancel={upload.cancel} onDismiss={upload.dismiss} />
          <VersionDropTarget nextVersion={data.version + 1} onFile={upload.upload} onRefused={upload.refuse}>
            <LargeImage asset={data} />
          </VersionDropTarget>
          <SimilarAssets id={data.id} />
          <LookalikeAssets id={data.id} hashed={data.near_duplicates !== null} />
        </div>
        <div className="detail-side">
          {/* Keyed by the asset, not its version: a refetch must not throw away an edit. */}
          <RecordPanel key={data.id} asset={data} />
          <VersionHistory asset={data} me={user} />
          <Panel id="asset-links" title="Links">
            <AssetLinks asset={data} />
          </Panel>
          <Panel id="in-collections" title="Collections">
            <InCollections collections={data.collections} />
          </Panel>
        </div>
      </div>
    </div>
  )
}

/** The record, read; "Edit" turns it into its form, and saving or cancelling turns it back. */
function RecordPanel({ asset }: { asset: Asset }) {
  const [editing, setEditing] = useState(false)
  return (
    <section className="panel" aria-labelledby="record-title">
      <div className="row panel-head">
        <h2 className="section-title" id="record-title">
          {editing ? 'Edit record' : 'Record'}
        </h2>
        {!editing && (
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
      </div>
      {editing ? <AssetEditForm asset={asset} onDone={() => setEditing(false)} /> : <AssetRecord asset={asset} />}
    </section>
  )
}

/** Previous and next in the list the library showed, carrying where "back" goes. */
function Neighbours({ previous, next, back }: { previous?: CardAsset | undefined; next?: CardAsset | undefined; back: string }) {
  if (!previous && !next) return null
  const link = (asset: CardAsset | undefined, rel: 'prev' | 'next', label: string) =>
    asset ? (
      <Link href={assetHref(asset.id)} state={{ back }} rel={rel} className="button" title={assetTitle(asset)}>
        {label}
      </Link>
    ) : (
      <span />
    )
  return (
    <nav className="row neighbours" aria-label="Assets in the list">
      {link(previous, 'prev', '← Previous')}
      {link(next, 'next', 'Next →')}
    </nav>
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

/**
 * The original, with the thumbnail behind it until it has loaded (not after: it would show through the
 * original's translucent parts), and a checkerboard behind it when the picture has transparency.
 */
function LargeImage({ asset }: { asset: Asset }) {
  const transparent = useTransparency(asset.thumbnail_url)
  const [loaded, setLoaded] = useState<string>()
  return (
    <div className="detail-image" data-transparency={transparent === undefined ? undefined : transparent ? 'transparent' : 'opaque'}>
      <img
        src={asset.original_url}
        alt={assetTitle(asset)}
        width={asset.width}
        height={asset.height}
        decoding="async"
        data-loaded={loaded === asset.original_url || undefined}
        onLoad={() => setLoaded(asset.original_url)}
        style={{ '--thumbnail': `url("${asset.thumbnail_url}")` } as CSSProperties}
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
