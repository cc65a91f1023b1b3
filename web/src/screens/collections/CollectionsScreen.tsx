import { useState } from 'react'
import { Link } from 'wouter'
import { AssetThumb } from '../../ui/AssetThumb'
import { EmptyState } from '../../ui/EmptyState'
import { formatDate, plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { Table } from '../../ui/Table'
import { describeQuery, useCollectionCovers, useCollections, type Cover } from './api'
import { NewCollectionDialog } from './NewCollectionDialog'
import './collections.css'

export function CollectionsScreen() {
  const collections = useCollections()
  const [creating, setCreating] = useState(false)
  const list = collections.data?.data ?? []
  const covers = useCollectionCovers(list.map((collection) => collection.id))
  return (
    <div className="collections-page">
      <header className="page-header">
        <h1>Collections</h1>
        {collections.data && <span className="muted">{plural(collections.data.total, 'collection')}</span>}
        <div className="actions">
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New collection
          </button>
        </div>
      </header>

      {collections.isPending && <p className="page-message">Loading collections…</p>}
      {collections.isError && !collections.data && <QueryError error={collections.error} onRetry={() => void collections.refetch()} what="the collections" />}
      {collections.isSuccess && list.length === 0 && (
        <EmptyState title="No collections yet">
          <p>Collections gather assets for a campaign, a client or a hand-off, and can be shared with a public link.</p>
          <div className="kinds-explained">
            <div>
              <h3>Manual</h3>
              <p>You choose the assets: add them from the library’s selection or from the collection itself.</p>
            </div>
            <div>
              <h3>Smart</h3>
              <p>A saved filter (type, client, product, tag, text): it holds whatever matches, including assets pushed later.</p>
            </div>
          </div>
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            Create the first collection
          </button>
        </EmptyState>
      )}
      {list.length > 0 && (
        <Table columns={['Name', { label: 'Kind', className: 'col-kind' }, { label: 'Assets', className: 'num' }, 'Sharing', { label: 'Updated', className: 'col-updated' }]} className="collections-table">
          {list.map((collection) => (
            <tr key={collection.id}>
              <td className="col-name">
                <div className="collection-named">
                  <CollectionCover cover={covers.data?.get(collection.id)} loading={covers.isPending} />
                  <div className="collection-naming">
                    <Link href={`/collections/${collection.id}`}>{collection.name}</Link>
                    <div className="muted collection-sub">
                      {collection.kind === 'smart' ? describeQuery(collection.query) : collection.description || '\u00a0'}
                    </div>
                  </div>
                </div>
              </td>
              <td className="col-kind">
                <span className={`badge kind-${collection.kind}`}>{collection.kind === 'smart' ? 'Smart' : 'Manual'}</span>
              </td>
              <td className="num">{collection.asset_count.toLocaleString()}</td>
              <td>{collection.shared ? <span className="shared-mark">Shared</span> : <span className="muted">Private</span>}</td>
              <td className="col-updated muted">{formatDate(collection.updated_at)}</td>
            </tr>
          ))}
        </Table>
      )}
      <NewCollectionDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  )
}

/**
 * A collection's picture, decorative (its name is the link beside it): the first asset it lists, or a
 * neutral placeholder when it holds none (nothing while the covers load, so no placeholder flashes).
 */
function CollectionCover({ cover, loading }: { cover: Cover | undefined; loading: boolean }) {
  if (cover) return <AssetThumb asset={{ title: '', thumbnail_url: cover.thumbnail_url, width: cover.width, height: cover.height }} className="collection-cover" />
  return (
    <div className="collection-cover empty-cover">
      {!loading && (
        <svg width="20" height="20" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
          <rect x="3" y="5" width="14" height="11" rx="2" />
          <path d="M6 3h8" strokeLinecap="round" />
        </svg>
      )}
    </div>
  )
}
