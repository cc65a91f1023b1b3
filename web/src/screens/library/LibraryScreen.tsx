import { Link, useLocation, useSearch } from 'wouter'
import { plural } from '../../ui/format'
import { QueryError } from '../../ui/QueryError'
import { useTrashCount } from '../trash/api'
import { AssetFilters } from './AssetFilters'
import { AssetGrid, assetHref } from './AssetGrid'
import { hasFilters, libraryHref, libraryState, parseLibrarySearch } from './filters'
import { LibraryEmpty, NoMatches } from './LibraryEmpty'
import { LoadMore } from './LoadMore'
import { SearchBox } from './SearchBox'
import { SelectionToolbar } from './SelectionToolbar'
import { SortControl } from './SortControl'
import { useLibraryItems } from './useLibraryItems'
import { useSelection } from './useSelection'
import './library.css'

/** How the search found its hits, in the words of someone searching. */
const SEARCH_MODE_LABEL = {
  hybrid: 'Words and meaning',
  text: 'Matching words only',
} as const

/** The library: filters and search mirrored in the URL, an infinite grid, multi-select. */
export function LibraryScreen() {
  const [, navigate] = useLocation()
  const state = parseLibrarySearch(useSearch())
  const { filters, search, sort } = state
  const go = (next: typeof state) => navigate(libraryHref(libraryState(next.filters, next.search, next.sort)), { replace: true })

  const library = useLibraryItems(state)
  const { items } = library
  const selection = useSelection(items)
  // A library with nothing in it yet: searching and filtering mean nothing, the empty state teaches.
  const brandNew = !search && !hasFilters(filters) && library.total === 0
  const back = libraryHref(state)

  return (
    <div className="library">
      <header className="library-header">
        <h1>Library</h1>
        {!brandNew && <SearchBox key={search} initial={search} onSearch={(text) => go({ filters, search: text, sort })} />}
        {/* Live regions stay mounted and change their text: one mounted with its text is not read. */}
        <span className="count" aria-live="polite">
          {brandNew ? '' : library.countText}
        </span>
        <TrashLink />
      </header>
      <p className="visually-hidden" role="status">
        {selection.ids.length > 0 ? `${selection.ids.length} selected` : ''}
      </p>
      {!brandNew && (
        <div className="library-controls">
          <AssetFilters value={filters} onChange={(next) => go({ filters: next, search, sort })} />
          {/* A search is best first: no order to choose. */}
          {!search && <SortControl value={sort} onChange={(next) => go({ filters, search, sort: next })} />}
        </div>
      )}

      {library.mode && (
        <p className="search-mode">
          Search: <span className={`badge${library.mode === 'hybrid' ? ' ok' : ''}`}>{SEARCH_MODE_LABEL[library.mode]}</span>
        </p>
      )}


      {library.error ? (
        <QueryError error={library.error} onRetry={library.retry} what={search ? 'the search results' : 'the library'} />
      ) : library.pending ? (
        <p className="grid-end" aria-busy="true">
          Loading…
        </p>
      ) : items.length === 0 ? (
        !search && !hasFilters(filters) ? <LibraryEmpty /> : <NoMatches search={search} onClear={() => go({ filters: {}, search: '' })} />
      ) : (
        <>
          <AssetGrid
            items={items}
            selected={selection.selected}
            onToggle={selection.toggle}
            onOpen={(id) => navigate(assetHref(id), { state: { back } })}
            onEscape={selection.clear}
            linkState={{ back }}
          />
          <LoadMore hasMore={library.more.hasMore} loading={library.more.loading} failed={library.more.failed} onMore={library.more.load} />
        </>
      )}
      {/* After the grid, sticking to the bottom of the window: appearing, it moves no card. */}
      {selection.ids.length > 0 && <SelectionToolbar assets={items.filter((item) => selection.selected.has(item.id))} onClear={selection.clear} />}
    </div>
  )
}

/** How many assets are in the trash, as a way there; nothing while it is empty. */
export function TrashLink() {
  const count = useTrashCount().data
  if (!count) return null
  return (
    <Link href="/trash" className="trash-link">
      <svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M3 6h18M8 6V4h8v2m-9 0 1 14h8l1-14" />
      </svg>
      {plural(count, 'asset')} in the trash
    </Link>
  )
}
