import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { navigate } from 'wouter/use-browser-location'
import { apiErrorOf } from '@asset-library/client'
import { ACTION_VISIBLE_MS, ToastProvider, useToast } from './toast'

const refusal = (status: number, body: object, retryAfter: string | null = null) => apiErrorOf({ method: 'GET', path: '/api/v1/assets', status, body, retryAfter })

/** A page whose buttons raise toasts, one of them as the action that moves to another page. */
function Page() {
  const toast = useToast()
  return (
    <>
      <button type="button" onClick={() => toast.error(new Error('The upload failed.'))}>
        Fail
      </button>
      <button type="button" onClick={() => toast.error(refusal(429, { code: 'rate_limited', detail: 'Rate limit exceeded; retry in 3 seconds.' }, '3'))}>
        Read too often
      </button>
      <button type="button" onClick={() => toast.error(refusal(409, { code: 'smart_collection_immutable', detail: 'Smart collections take no assets.' }))}>
        Add to a smart collection
      </button>
      <button
        type="button"
        onClick={() => {
          toast.success('Deleted “Logo”.')
          navigate('/')
        }}
      >
        Delete and go back
      </button>
    </>
  )
}

function renderPage() {
  render(
    <ToastProvider>
      <Page />
    </ToastProvider>,
  )
}

const toastTexts = () => [...document.querySelectorAll('.toast > span')].map((toast) => toast.textContent)

describe('toasts', () => {
  beforeEach(() => navigate('/assets/a1'))

  it('clear when the user moves to another page', () => {
    renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Fail' }))
    expect(screen.getByRole('alert').textContent).toContain('The upload failed.')
    act(() => navigate('/collections'))
    expect(toastTexts()).toEqual([])
  })

  it('keep the one that the navigating action raised, and only that one', () => {
    renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Fail' }))
    fireEvent.click(screen.getByRole('button', { name: 'Delete and go back' }))
    expect(location.pathname).toBe('/')
    expect(toastTexts()).toEqual(['Deleted “Logo”.'])
  })

  it('stay while the page stays', () => {
    renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Fail' }))
    act(() => navigate('/assets/a1?tab=details'))
    expect(toastTexts()).toEqual(['The upload failed.'])
  })
})

describe('error toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    navigate('/upload')
  })
  afterEach(() => vi.useRealTimers())

  const toastLines = () => [...document.querySelectorAll('.toast > span')].map((line) => line.textContent)
  const shownWait = () => document.querySelector('.toast [aria-hidden="true"]')?.textContent

  it('make one toast per kind of error: several 429s at once do not pile up', () => {
    renderPage()
    for (let n = 0; n < 4; n++) fireEvent.click(screen.getByRole('button', { name: 'Read too often' }))
    fireEvent.click(screen.getByRole('button', { name: 'Add to a smart collection' }))
    fireEvent.click(screen.getByRole('button', { name: 'Add to a smart collection' }))
    expect(document.querySelectorAll('.toast')).toHaveLength(2)
    expect(toastLines()[1]).toBe('Smart collections take no assets.')
  })

  it("count a rate limit's wait down, and go when it is over, instead of a frozen 'retry in 3 seconds'", () => {
    renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Read too often' }))
    expect(toastLines()).toEqual(['Too many requests for now. Retry in 3 seconds. Retry in 3 seconds.'])
    act(() => vi.advanceTimersByTime(1000))
    expect(shownWait()).toBe(' Retry in 2 seconds.')
    // Screen readers heard the wait once; the region does not change under them every second.
    expect(document.querySelector('.toast .visually-hidden')!.textContent).toBe(' Retry in 3 seconds.')
    act(() => vi.advanceTimersByTime(1000))
    expect(shownWait()).toBe(' Retry in 1 second.')
    act(() => vi.advanceTimersByTime(1000))
    expect(document.querySelectorAll('.toast')).toHaveLength(0)
  })

  it('start the countdown again when another 429 comes, replacing the toast', () => {
    renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Read too often' }))
    act(() => vi.advanceTimersByTime(2000))
    fireEvent.click(screen.getByRole('button', { name: 'Read too often' }))
    expect(document.querySelectorAll('.toast')).toHaveLength(1)
    expect(shownWait()).toBe(' Retry in 3 seconds.')
  })
})

describe('a success note with an action', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    navigate('/')
  })
  afterEach(() => vi.useRealTimers())

  function Undoable({ onUndo }: { onUndo(): void }) {
    const toast = useToast()
    return (
      <button type="button" onClick={() => toast.success('Moved “Logo” to the trash.', { label: 'Undo', run: onUndo })}>
        Delete
      </button>
    )
  }

  const renderUndoable = (onUndo: () => void) =>
    render(
      <ToastProvider>
        <Undoable onUndo={onUndo} />
      </ToastProvider>,
    )

  it('runs the action once and closes', () => {
    const undo = vi.fn()
    renderUndoable(undo)
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }))
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }))
    expect(undo).toHaveBeenCalledTimes(1)
    expect(document.querySelectorAll('.toast')).toHaveLength(0)
  })

  it('stays ten seconds, and longer while the focus is on it', () => {
    renderUndoable(vi.fn())
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }))
    act(() => vi.advanceTimersByTime(ACTION_VISIBLE_MS - 100))
    expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy()
    fireEvent.focus(screen.getByRole('button', { name: 'Undo' }))
    act(() => vi.advanceTimersByTime(ACTION_VISIBLE_MS * 2))
    expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy()
    fireEvent.blur(screen.getByRole('button', { name: 'Undo' }))
    act(() => vi.advanceTimersByTime(ACTION_VISIBLE_MS))
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull()
  })
})
