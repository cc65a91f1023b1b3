import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useLocation } from 'wouter'
import { messageOf, problemCodeOf, retryWaitOf } from '../api/problem'
import { plural } from './format'

interface Toast {
  id: number
  kind: 'error' | 'success'
  /** What it is about (an error's code, or its text): a later toast about the same thing replaces it. */
  topic: string
  text: string
  /** When a rate limit lets the user try again (ms since the epoch): the toast counts down to it, then goes. */
  until?: number
  action?: ToastAction
}

/** What a success note offers to do about it ("Undo" after a delete): one button, which also closes the note. */
export interface ToastAction {
  label: string
  run(): void
}

interface Toasts {
  error(error: unknown): void
  success(text: string, action?: ToastAction): void
}

const ToastContext = createContext<Toasts>({ error: () => undefined, success: () => undefined })
let nextId = 1
const SUCCESS_VISIBLE_MS = 5000
/** A note with an action stays longer: long enough to read it, reach the button and change one's mind. */
export const ACTION_VISIBLE_MS = 10_000

/**
 * Toasts on screen when the location changes are about the page left behind, so they go; one pushed by
 * the action that navigated (after the last render, as "Deleted …" before the move back to the list)
 * stays. The effects run in this order after each render: the check, then the note of what is shown.
 */
function useClearOnNavigation(toasts: Toast[], setToasts: (update: (all: Toast[]) => Toast[]) => void) {
  const [path] = useLocation()
  const shown = useRef(new Set<number>())
  useEffect(() => {
    const left = shown.current
    setToasts((all) => all.filter((toast) => !left.has(toast.id)))
  }, [path, setToasts])
  useEffect(() => {
    shown.current = new Set(toasts.map((toast) => toast.id))
  }, [toasts])
}

/**
 * Errors show the problem's `detail` and stay until dismissed or until the user moves to another page
 * (WCAG 2.2.1: no time limit on reading them), announced assertively; success notes go by themselves,
 * announced politely. One toast per kind of error: several reads refused by the rate limit at once
 * make one toast, not a pile over the page; a rate limit's toast counts its wait down and goes when it
 * is over, since what it says is then no longer true. A success note with an action ("Undo") stays
 * 10 seconds, and never goes while the pointer or the focus is on it.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  useClearOnNavigation(toasts, setToasts)
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), [])
  const push = useCallback((toast: Omit<Toast, 'id'>) => {
    const id = nextId++
    setToasts((all) => [...all.filter((shown) => shown.topic !== toast.topic).slice(-3), { ...toast, id }])
  }, [])
  const api = useMemo<Toasts>(
    () => ({
      error: (e) => push(errorToast(e)),
      success: (text, action) => push({ kind: 'success', topic: text, text, ...(action && { action }) }),
    }),
    [push],
  )
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts">
        {(['error', 'success'] as const).map((kind) => (
          <div key={kind} className="toast-region" role={kind === 'error' ? 'alert' : 'status'} aria-live={kind === 'error' ? 'assertive' : 'polite'}>
            {toasts
              .filter((toast) => toast.kind === kind)
              .map((toast) => (
                <ToastItem key={toast.id} toast={toast} onDismiss={() => dismiss(toast.id)} />
              ))}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  )
}

/** One toast; a success note goes by itself after its time, which waits while it is hovered or focused. */
function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss(): void }) {
  const [held, setHeld] = useState({ pointer: false, focus: false })
  const timed = toast.kind === 'success' && !held.pointer && !held.focus
  const latest = useRef(onDismiss)
  useEffect(() => {
    latest.current = onDismiss
  })
  useEffect(() => {
    if (!timed) return
    const timer = setTimeout(() => latest.current(), toast.action ? ACTION_VISIBLE_MS : SUCCESS_VISIBLE_MS)
    return () => clearTimeout(timer)
  }, [timed, toast.action])
  const { action } = toast
  return (
    <div
      className={`toast toast-${toast.kind}`}
      onMouseEnter={() => setHeld((h) => ({ ...h, pointer: true }))}
      onMouseLeave={() => setHeld((h) => ({ ...h, pointer: false }))}
      onFocus={() => setHeld((h) => ({ ...h, focus: true }))}
      onBlur={(event) => !event.currentTarget.contains(event.relatedTarget as Node | null) && setHeld((h) => ({ ...h, focus: false }))}
    >
      <span>
        {toast.text}
        {toast.until !== undefined && <Countdown until={toast.until} onOver={onDismiss} />}
      </span>
      {action && (
        <button
          type="button"
          className="toast-action"
          onClick={() => {
            onDismiss()
            action.run()
          }}
        >
          {action.label}
        </button>
      )}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  )
}

function errorToast(error: unknown): Omit<Toast, 'id'> {
  const wait = retryWaitOf(error)
  if (wait !== undefined) return { kind: 'error', topic: 'rate_limited', text: 'Too many requests for now.', until: Date.now() + wait * 1000 }
  const text = messageOf(error)
  return { kind: 'error', topic: problemCodeOf(error) ?? text, text }
}

/**
 * " Retry in 12 seconds.", one second less each second; `onOver` once it reaches zero. Screen readers
 * hear the wait once, when the toast comes: a live region that changed every second would talk over the page.
 */
function Countdown({ until, onOver }: { until: number; onOver(): void }) {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  const secondsAt = (time: number) => Math.max(0, Math.ceil((until - time) / 1000))
  const seconds = secondsAt(now)
  const [first] = useState(() => secondsAt(Date.now()))
  useEffect(() => {
    if (seconds === 0) onOver()
  }, [seconds, onOver])
  return (
    <>
      <span className="visually-hidden"> Retry in {plural(first, 'second')}.</span>
      <span aria-hidden="true"> Retry in {plural(seconds, 'second')}.</span>
    </>
  )
}

export function useToast(): Toasts {
  return useContext(ToastContext)
}

/** A bridge for the query client, which lives outside React: set by the provider's first render. */
export const toastBridge: { current: Toasts | null } = { current: null }

export function ToastBridge() {
  const toasts = useToast()
  useEffect(() => {
    toastBridge.current = toasts
  }, [toasts])
  return null
}
