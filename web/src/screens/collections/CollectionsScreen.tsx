import { useState } from 'react'
import { Link } from 'wouter'
import { EmptyState } from '../../ui/EmptyState'
import { formatDate, plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { Table } from '../../ui/Table'
import { describeQuery, useCollections } from './api'
import { NewCollectionDialog } from './NewCollectionDialog'
import './collections.css'

export function CollectionsScreen() {
  const collections = useCollections()
  const [creating, setCreating] = useState(false)
  const list = collections.data?.data ?? []
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
                <Link href={`/collections/${collection.id}`}>{collection.name}</Link>
                <div className="muted collection-sub">
                  {collection.kind === 'smart' ? describeQuery(collection.query) : collection.description || '\u00a0'}
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
