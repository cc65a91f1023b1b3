import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link, useLocation, useParams } from 'wouter'
import { unwrap, v1 } from '../../api/client'
import { ApiError, messageOf } from '../../api/problem'
import { ConfirmDialog, Dialog } from '../../ui/Dialog'
import { formatDate } from '../../ui/format'
import { useToast } from '../../ui/toast'
import { sameFilters, type AssetFilterValue } from '../library/filters'
import { AddAssetsDialog } from './AddAssetsDialog'
import { describeQuery, plural, useCollection, useCollectionAssets, useRefreshCollections, type Collection, type CollectionAsset } from './api'
import { SharePanel } from './SharePanel'
import { SmartQueryEditor } from './SmartQueryEditor'
import './collections.css'

export function CollectionScreen() {
  const { id } = useParams<{ id: string }>()
  const collection = useCollection(id)
  if (collection.isPending) return <p className="page-message">Loading the collection…</p>
  if (collection.isError) {
    const missing = collection.error instanceof ApiError && (collection.error.status === 404 || collection.error.status === 400)
    return (
      <p className="page-message">
        {missing ? 'This collection does not exist, or it was deleted.' : messageOf(collection.error)} <Link href="/collections">Back to collections</Link>
      </p>
    )
  }
  return <CollectionView collection={collection.data} />
}

function CollectionView({ collection }: { collection: Collection }) {
  const [dialog, setDialog] = useState<'rename' | 'delete' | 'add' | null>(null)
  const [, navigate] = useLocation()
  const refresh = useRefreshCollections()
  const toast = useToast()
  const remove = useMutation({
    mutationFn: () => unwrap(v1.DELETE('/api/v1/collections/{id}', { params: { path: { id: collection.id } } })),
    onSuccess: async () => {
      setDialog(null)
      navigate('/collections')
      await refresh()
      toast.success(`Collection “${collection.name}” deleted. Its assets are still in the library.`)
    },
  })
  const manual = collection.kind === 'manual'

  return (
    <div className="collection-page">
      <Link href="/collections" className="back-link">
        <span aria-hidden="true">← </span>All collections
      </Link>
      <header className="page-header collection-header">
        <div className="collection-title">
          <h1>{collection.name}</h1>
          <span className={`badge kind-${collection.kind}`}>{manual ? 'Manual' : 'Smart'}</span>
          <span className="muted">{plural(collection.asset_count, 'asset')}</span>
        </div>
        <div className="actions">
          {manual && (
            <button type="button" className="primary" onClick={() => setDialog('add')}>
              Add assets
            </button>
          )}
          <button type="button" onClick={() => setDialog('rename')}>
            Rename
          </button>
          <button type="button" className="danger" onClick={() => setDialog('delete')}>
            Delete
          </button>
        </div>
        {collection.description && <p className="collection-description muted">{collection.description}</p>}
      </header>

      <SharePanel collection={collection} />
      {!manual && <QueryPanel key={JSON.stringify(collection.query)} collection={collection} />}
      <CollectionAssets collection={collection} onAdd={() => setDialog('add')} />

      <RenameDialog collection={collection} open={dialog === 'rename'} onClose={() => setDialog(null)} />
      {manual && <AddAssetsDialog collection={collection} open={dialog === 'add'} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        title="Delete this collection?"
        open={dialog === 'delete'}
        confirmLabel="Delete collection"
        onConfirm={() => remove.mutate()}
        onClose={() => setDialog(null)}
      >
        <p>
          “{collection.name}” will be deleted{collection.shared ? ' and its public link will stop working' : ''}. The assets themselves stay in the
          library.
        </p>
      </ConfirmDialog>
    </div>
  )
}

/** A smart collection's query, edited with the library's filters and a live count; Save updates it. */
function QueryPanel({ collection }: { collection: Collection }) {
  const saved: AssetFilterValue = collection.query ?? {}
  const [draft, setDraft] = useState<AssetFilterValue>(saved)
  const refresh = useRefreshCollections()
  const toast = useToast()
  const changed = !sameFilters(draft, saved)
  const save = useMutation({
    mutationFn: () => unwrap(v1.PATCH('/api/v1/collections/{id}', { params: { path: { id: collection.id } }, body: { query: draft } })),
    onSuccess: async () => {
      await refresh()
      toast.success('Query saved.')
    },
  })
  return (
    <section className="panel stack query-panel" aria-labelledby="query-heading">
      <div className="row">
        <h2 id="query-heading">Query</h2>
        <span className="muted">Saved: {describeQuery(saved)}</span>
      </div>
      <SmartQueryEditor value={draft} onChange={setDraft} />
      <div className="row end">
        <button type="button" disabled={!changed || save.isPending} onClick={() => setDraft(saved)}>
          Revert
        </button>
        <button type="button" className="primary" disabled={!changed || save.isPending} onClick={() => save.mutate()}>
          Save query
        </button>
      </div>
    </section>
  )
}

function CollectionAssets({ collection, onAdd }: { collection: Collection; onAdd(): void }) {
  const assets = useCollectionAssets(collection.id)
  const refresh = useRefreshCollections()
  const toast = useToast()
  const manual = collection.kind === 'manual'
  const take = useMutation({
    mutationFn: (asset: CollectionAsset) =>
      unwrap(v1.DELETE('/api/v1/collections/{id}/assets', { params: { path: { id: collection.id } }, body: { asset_id: asset.id } })),
    onSuccess: async (_answer, asset) => {
      await refresh()
      toast.success(`“${asset.title}” removed from the collection.`)
    },
  })
  const items = assets.data?.pages.flatMap((page) => page.data) ?? []

  if (assets.isPending) return <p className="page-message">Loading assets…</p>
  if (items.length === 0) {
    return manual ? (
      <div className="empty-state">
        <h2>This collection is empty</h2>
        <p>Add assets here, or select them in the library and choose “Add to collection”.</p>
        <button type="button" className="primary" onClick={onAdd}>
          Add assets
        </button>
      </div>
    ) : (
      <div className="empty-state">
        <h2>Nothing matches this query yet</h2>
        <p>Assets that match will appear here as they are pushed. Loosen the filters above to include more.</p>
      </div>
    )
  }
  return (
    <section aria-label="Assets in this collection" className="stack">
      <ul className="collection-grid">
        {items.map((asset) => (
          <li key={asset.id}>
            <article className="collection-card" aria-labelledby={`card-${asset.id}`}>
              <Link href={`/assets/${asset.id}`} className="collection-thumb" tabIndex={-1} aria-hidden="true">
                <img src={asset.thumbnail_url} alt="" loading="lazy" width={asset.width} height={asset.height} />
                {asset.created_by_ai && (
                  <span className="badge ai" title="Created by AI">
                    AI
                  </span>
                )}
              </Link>
              <div className="collection-card-body">
                <Link href={`/assets/${asset.id}`} id={`card-${asset.id}`} className="collection-card-title">
                  {asset.title}
                </Link>
                {manual && (
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Remove ${asset.title} from the collection`}
                    title="Remove from the collection"
                    disabled={take.isPending}
                    onClick={() => take.mutate(asset)}
                  >
                    ×
                  </button>
                )}
              </div>
            </article>
          </li>
        ))}
      </ul>
      {assets.hasNextPage && (
        <div className="row" style={{ justifyContent: 'center' }}>
          <button type="button" onClick={() => void assets.fetchNextPage()} disabled={assets.isFetchingNextPage}>
            {assets.isFetchingNextPage ? 'Loading…' : 'Show more'}
          </button>
        </div>
      )}
    </section>
  )
}

function RenameDialog({ collection, open, onClose }: { collection: Collection; open: boolean; onClose(): void }) {
  return (
    <Dialog title="Rename collection" open={open} onClose={onClose}>
      <RenameForm collection={collection} onClose={onClose} />
    </Dialog>
  )
}

function RenameForm({ collection, onClose }: { collection: Collection; onClose(): void }) {
  const [name, setName] = useState(collection.name)
  const [description, setDescription] = useState(collection.description)
  const refresh = useRefreshCollections()
  const save = useMutation({
    mutationFn: () =>
      unwrap(v1.PATCH('/api/v1/collections/{id}', { params: { path: { id: collection.id } }, body: { name: name.trim(), description } })),
    onSuccess: async () => {
      await refresh()
      onClose()
    },
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate()
  }
  return (
    <form className="stack" onSubmit={submit}>
      <label className="field">
        <span>Name</span>
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoFocus />
      </label>
      <label className="field">
        <span>Description</span>
        <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
      </label>
      {save.isError && (
        <p className="form-error" role="alert">
          {messageOf(save.error)}
        </p>
      )}
      <p className="hint">Created {formatDate(collection.created_at)}.</p>
      <div className="row end">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
      </div>
    </form>
  )
}
