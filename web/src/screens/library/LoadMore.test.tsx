import { fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LoadMore } from './LoadMore'

/** An IntersectionObserver that reports the sentinel in view as soon as it is observed. */
let observed = 0
class InView {
  constructor(private readonly callback: (entries: Array<{ isIntersecting: boolean }>) => void) {}
  observe() {
    observed++
    this.callback([{ isIntersecting: true }])
  }
  disconnect() {}
}

describe('loading the next page', () => {
  beforeEach(() => {
    observed = 0
    vi.stubGlobal('IntersectionObserver', InView)
  })
  afterEach(() => vi.unstubAllGlobals())

  it('loads by itself when the end of the grid comes into view', () => {
    const onMore = vi.fn()
    render(<LoadMore hasMore loading={false} failed={false} onMore={onMore} />)
    expect(onMore).toHaveBeenCalledTimes(1)
  })

  it('stops loading by itself after a failure, and retries when asked', () => {
    const onMore = vi.fn()
    const { rerender } = render(<LoadMore hasMore loading={false} failed={false} onMore={onMore} />)
    rerender(<LoadMore hasMore loading failed={false} onMore={onMore} />)
    rerender(<LoadMore hasMore loading={false} failed onMore={onMore} />)
    rerender(<LoadMore hasMore loading={false} failed onMore={onMore} />)
    expect(observed).toBe(1)
    expect(onMore).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('alert').textContent).toMatch(/Couldn’t load more/)
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(onMore).toHaveBeenCalledTimes(2)
  })
})
