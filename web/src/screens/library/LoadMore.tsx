import { useEffect, useRef } from 'react'

export interface LoadMoreProps {
  hasMore: boolean
  loading: boolean
  /** The last next page failed: stop loading by itself, offer a retry. */
  failed: boolean
  onMore(): void
}

/**
 * Loads the next page when the sentinel scrolls near the view; the button does the same by hand. After
 * a failure it waits for the person: an observer would fire again at once and loop requests and toasts.
 */
export function LoadMore({ hasMore, loading, failed, onMore }: LoadMoreProps) {
  const sentinel = useRef<HTMLDivElement>(null)
  const latest = useRef(onMore)
  useEffect(() => {
    latest.current = onMore
  })
  const auto = hasMore && !loading && !failed
  useEffect(() => {
    const element = sentinel.current
    if (!element || !auto || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current()
      },
      { rootMargin: '600px 0px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [auto])
  if (!hasMore && !failed) return null
  return (
    <div className="grid-end" ref={sentinel}>
      {failed ? (
        <p role="alert" className="load-more-error">
          Couldn’t load more.{' '}
          <button type="button" onClick={onMore}>
            Retry
          </button>
        </p>
      ) : (
        <button type="button" onClick={onMore} disabled={loading}>
          {loading ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  )
}
