import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link, useLocation, useParams, useSearch } from 'wouter'
import { unwrap, v1 } from '../../api/client'
import { ApiError } from '@asset-library/client'
import { AiBadge, AssetThumb, assetTitle } from '../../ui/AssetThumb'
import { MiddleEllipsis } from '../../ui/MiddleEllipsis'
import { ConfirmDialog, Dialog } from '../../ui/Dialog'
import { EmptyState } from '../../ui/EmptyState'
import { formatDate, plural } from '../../ui/format'
import { FormError } from '../../ui/FormError'
import { QueryError } from '../../ui/QueryError'
import { RefusedButton } from '../../ui/RefusedButton'
import { useToast } from '../../ui/toast'
import { sameFilters, type AssetFilterValue } from '../library/filters'
import { apiSortOf, sortOf, type ApiSort } from '../library/sort'
import { SortControl } from '../library/SortControl'
import { AddAssetsDialog } from './AddAssetsDialog'
import { collectionHref, describeQuery, useCollection, useCollectionPermissions, useRefreshAssetData, useRefreshCollections, type Collection, type CollectionAsset } from './api'
import { CollectionFields } from './CollectionFields'
import { SharePanel } from './SharePanel'
import { SmartQueryEditor } from './SmartQueryEditor'
import './collections.css'

type CollectionQuery = ReturnType<typeof useCollection>

export function CollectionScreen() {
  const { id } = useParams<{ id: string }>()
  const sort = apiSortOf(new URLSearchParams(useSearch()).get('sort'))
  const query = useCollection(id, sort)
  // Every page carries the collection; the first is as fresh as the others (they refetch together).
  // Once loaded, a failed refetch or "Show more" keeps the page and says so where it happened.
  if (query.data) return <CollectionView collection={query.data.pages[0]!} query={query} sort={sort} />
  if (query.isError) {
    const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400)
    return missing ? (
      <p className="page-message">
        This collection does not exist, or it was deleted. <Link href="/collections">Back to collections</Link>
      </p>
    ) : (
      <QueryError error={query.error} onRetry={() => void query.refetch()} what="the collection" />
    )
  }
  return <p className="page-message">Loading the collection…</p>
}

function CollectionView({ collection, query, sort }: { collection: Collection; query: CollectionQuery; sort: ApiSort | undefined }) {
  const [dialog, setDialog] = useState<'rename' | 'delete' | 'add' | null>(null)
  const [, navigate] = useLocation()
  const refresh = useRefreshCollections()
  const toast = useToast()
  // A member deletes only the collections they made: the server says which, and why not, before they try.
  const permissions = useCollectionPermissions(collection.id)
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
  const deleteRefused = permissions.data?.delete.allowed === false ? permissions.data.delete.reason : null

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
          {deleteRefused ? (
            <RefusedButton className="danger" label="Delete" reason={deleteRefused} />
          ) : (
            <button type="button" className="danger" onClick={() => setDialog('delete')} disabled={permissions.isPending}>
              Delete
            </button>
          )}
        </div>
        {collection.description && <p className="collection-description muted">{collection.description}</p>}
      </header>

      <SharePanel collection={collection} />
      {!manual && <QueryPanel key={JSON.stringify(collection.query)} collection={collection} />}
      <CollectionAssets
        collection={collection}
        query={query}
        onAdd={() => setDialog('add')}
        sort={sort}
        // An explicit order in the URL, newest first included: a smart collection may have another of its own.
        onSort={(next) => navigate(collectionHref(collection.id, next || '-created_at'), { replace: true })}
      />

      <RenameDialog collection={collection} open={dialog === 'rename'} onClose={() => setDialog(null)} />
      {manual && <AddAssetsDialog collection={collection} open={dialog === 'add'} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        title="Delete this collection?"
        open={dialog === 'delete'}
        confirmLabel="Delete collection"
        busy={remove.isPending}
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
    // The filters edited here, and the order the query may also store (chosen on the collection's Sort).
    mutationFn: () =>
      unwrap(v1.PATCH('/api/v1/collections/{id}', { params: { path: { id: collection.id } }, body: { query: { ...draft, ...(collection.query?.sort && { sort: collection.query.sort }) } } })),
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

interface CollectionAssetsProps {
  collection: Collection
  query: CollectionQuery
  onAdd(): void
  /** The order asked in the URL; none is the collection's own (a smart one's `query.sort`, else newest first). */
  sort: ApiSort | undefined
  onSort(next: ApiSort | ''): void
}

function CollectionAssets({ collection, query, onAdd, sort, onSort }: CollectionAssetsProps) {
  const back = collectionHref(collection.id, sort)
  const refresh = useRefreshAssetData()
  const toast = useToast()
  const manual = collection.kind === 'manual'
  const take = useMutation({
    mutationFn: (asset: CollectionAsset) =>
      unwrap(v1.DELETE('/api/v1/collections/{id}/assets', { params: { path: { id: collection.id } }, body: { asset_id: asset.id } })),
    onSuccess: async (_answer, asset) => {
      await refresh()
      toast.success(`“${assetTitle(asset)}” removed from the collection.`)
    },
  })
  const items = query.data?.pages.flatMap((page) => page.assets.data) ?? []

  if (items.length === 0) {
    return manual ? (
      <EmptyState title="This collection is empty">
        <p>Add assets here, or select them in the library and choose “Add to collection”.</p>
        <button type="button" className="primary" onClick={onAdd}>
          Add assets
        </button>
      </EmptyState>
    ) : (
      <EmptyState title="Nothing matches this query yet">
        <p>Assets that match will appear here as they are pushed. Loosen the filters above to include more.</p>
      </EmptyState>
    )
  }
  return (
    <section aria-label="Assets in this collection" className="stack">
      <div className="row end">
        <SortControl value={sortOf(sort ?? collection.query?.sort)} onChange={onSort} />
      </div>
      <ul className="collection-grid">
        {items.map((asset) => (
          <li key={asset.id}>
            <article className="collection-card" aria-labelledby={`card-${asset.id}`}>
              <Link href={`/assets/${asset.id}`} state={{ back }} className="collection-thumb" tabIndex={-1} aria-hidden="true">
                <AssetThumb asset={asset}>{asset.created_by_ai && <AiBadge />}</AssetThumb>
              </Link>
              <div className="collection-card-body">
                <Link href={`/assets/${asset.id}`} state={{ back }} id={`card-${asset.id}`} className="collection-card-title">
                  <MiddleEllipsis text={assetTitle(asset)} />
                </Link>
                {manual && (
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Remove ${assetTitle(asset)} from the collection`}
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
      {query.isFetchNextPageError && <QueryError error={query.error} onRetry={() => void query.fetchNextPage()} what="more assets" />}
      {query.hasNextPage && !query.isFetchNextPageError && (
        <div className="row collection-more">
          <button type="button" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? 'Loading…' : 'Show more'}
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
      <CollectionFields name={name} description={description} onName={setName} onDescription={setDescription} />
      <FormError error={save.error} />
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
