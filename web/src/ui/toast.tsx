import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useLocation } from 'wouter'
import { messageOf } from '../api/problem'

interface Toast {
  id: number
  kind: 'error' | 'success'
  text: string
}

interface Toasts {
  error(error: unknown): void
  success(text: string): void
}

const ToastContext = createContext<Toasts>({ error: () => undefined, success: () => undefined })
let nextId = 1
const SUCCESS_VISIBLE_MS = 5000

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
 * announced politely.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  useClearOnNavigation(toasts, setToasts)
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), [])
  const push = useCallback(
    (kind: Toast['kind'], text: string) => {
      const id = nextId++
      setToasts((all) => [...all.slice(-3), { id, kind, text }])
      if (kind === 'success') setTimeout(() => dismiss(id), SUCCESS_VISIBLE_MS)
    },
    [dismiss],
  )
  const api = useMemo<Toasts>(() => ({ error: (e) => push('error', messageOf(e)), success: (text) => push('success', text) }), [push])
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts">
        {(['error', 'success'] as const).map((kind) => (
          <div key={kind} className="toast-region" role={kind === 'error' ? 'alert' : 'status'} aria-live={kind === 'error' ? 'assertive' : 'polite'}>
            {toasts
              .filter((toast) => toast.kind === kind)
              .map((toast) => (
                <div key={toast.id} className={`toast toast-${toast.kind}`}>
                  <span>{toast.text}</span>
                  <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
                    ×
                  </button>
                </div>
              ))}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
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
