import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useLocation, useSearch } from 'wouter'
import { unwrap, v1 } from '../../api/client'
import { AssetFilters } from './AssetFilters'
import { AssetGrid } from './AssetGrid'
import { cleanFilters, hasFilters, libraryHref, parseLibrarySearch, type AssetFilterValue, type LibraryUrlState } from './filters'
import { rangeOf } from './gridNav'
import { LibraryEmpty, NoMatches } from './LibraryEmpty'
import { ASSETS_KEY } from './queries'
import { SelectionToolbar } from './SelectionToolbar'
import './library.css'

const PAGE = 60
const SEARCH_LIMIT = 100
const count = new Intl.NumberFormat()
const plural = (n: number, one: string, many: string) => `${count.format(n)} ${n === 1 ? one : many}`

export const SEARCH_MODE_LABEL = {
  hybrid: 'Hybrid search: text and visual similarity',
  text: 'Text search (no embedding provider configured)',
} as const

/** The library: filters and search mirrored in the URL, an infinite grid, multi-select. */
export function LibraryScreen() {
  const searchString = useSearch()
  const [, navigate] = useLocation()
  const state = parseLibrarySearch(searchString)
  const { filters, search } = state
  const filtered = hasFilters(filters)
  const setState = (next: LibraryUrlState) => navigate(libraryHref(next), { replace: true })

  const list = useInfiniteQuery({
    queryKey: [ASSETS_KEY, 'list', filters],
    queryFn: ({ pageParam }) => unwrap(v1.GET('/api/v1/assets', { params: { query: { ...filters, limit: PAGE, offset: pageParam } } })),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.offset + last.data.length < last.total && last.data.length > 0 ? last.offset + last.data.length : undefined),
    enabled: !search,
    // The grid stays in place while the next filters load, rather than blinking empty.
    placeholderData: keepPreviousData,
  })
  const hits = useQuery({
    queryKey: [ASSETS_KEY, 'search', search, filters],
    queryFn: () => unwrap(v1.POST('/api/v1/search', { body: { q: search, limit: SEARCH_LIMIT, ...cleanFilters(filters) } })),
    enabled: Boolean(search),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  })

  const items = search ? (hits.data?.data ?? []) : (list.data?.pages.flatMap((page) => page.data) ?? [])
  const total = search ? hits.data?.data.length : list.data?.pages[0]?.total
  const pending = search ? hits.isPending : list.isPending
  // A library with nothing in it yet: searching and filtering mean nothing, the empty state teaches.
  const brandNew = !search && !filtered && total === 0

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const anchor = useRef<number | null>(null)
  // Selected assets no longer shown (filtered out, deleted) drop out of the selection.
  const visible = new Set(items.map((a) => a.id))
  const selection = [...selected].filter((id) => visible.has(id))

  const toggle = (id: string, index: number, range: boolean) => {
    setSelected((previous) => {
      const next = new Set(previous)
      if (range && anchor.current !== null) {
        for (const asset of rangeOf(items, anchor.current, index)) next.add(asset.id)
      } else if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
    anchor.current = index
  }
  const clearSelection = () => {
    setSelected(new Set())
    anchor.current = null
  }
  const open = (id: string) => navigate(`/assets/${id}`, { state: { back: libraryHref(state) } })

  return (
    <div className="library">
      <header className="library-header">
        <h1>Library</h1>
        {!brandNew && <SearchBox key={search} initial={search} onSearch={(text) => setState({ filters, search: text })} />}
        {total !== undefined && !brandNew && (
          <span className="count" aria-live="polite">
            {search ? plural(total, 'hit', 'hits') : plural(total, 'asset', 'assets')}
          </span>
        )}
      </header>
      {!brandNew && <AssetFilters value={filters} onChange={(next: AssetFilterValue) => setState({ filters: next, search })} />}

      {search && hits.data && (
        <p className="search-mode">
          <span className={`badge${hits.data.mode === 'hybrid' ? ' ok' : ''}`}>{hits.data.mode === 'hybrid' ? 'Hybrid' : 'Text'}</span>
          {SEARCH_MODE_LABEL[hits.data.mode]}
        </p>
      )}

      {selection.length > 0 && <SelectionToolbar ids={selection} onClear={clearSelection} />}

      {pending ? (
        <p className="grid-end" aria-busy="true">
          Loading…
        </p>
      ) : items.length === 0 ? (
        !search && !filtered ? (
          <LibraryEmpty />
        ) : (
          <NoMatches search={search} onClear={() => setState({ filters: {}, search: '' })} />
        )
      ) : (
        <>
          <AssetGrid items={items} selected={new Set(selection)} onToggle={toggle} onOpen={open} onEscape={clearSelection} />
          {!search && (
            <LoadMore hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
          )}
        </>
      )}
    </div>
  )
}

function SearchBox({ initial, onSearch }: { initial: string; onSearch(text: string): void }) {
  const [text, setText] = useState(initial)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSearch(text.trim())
  }
  return (
    <form className="library-search" role="search" onSubmit={submit}>
      <input
        type="search"
        aria-label="Search"
        placeholder="Search titles, tags, clients…"
        value={text}
        onChange={(e) => {
          setText(e.target.value)
          // The clear button of the field (or erasing everything) returns to the list.
          if (e.target.value === '' && initial) onSearch('')
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && initial) onSearch('')
        }}
      />
      <button type="submit">Search</button>
    </form>
  )
}

/** Loads the next page when the sentinel scrolls into view; the button does the same by hand. */
function LoadMore({ hasMore, loading, onMore }: { hasMore: boolean; loading: boolean; onMore(): void }) {
  const sentinel = useRef<HTMLDivElement>(null)
  const latest = useRef(onMore)
  useEffect(() => {
    latest.current = onMore
  })
  useEffect(() => {
    const element = sentinel.current
    if (!element || !hasMore || loading || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) latest.current()
    }, { rootMargin: '600px 0px' })
    observer.observe(element)
    return () => observer.disconnect()
  }, [hasMore, loading])
  if (!hasMore) return null
  return (
    <div className="grid-end" ref={sentinel}>
      <button type="button" onClick={onMore} disabled={loading}>
        {loading ? 'Loading…' : 'Load more'}
      </button>
    </div>
  )
}
