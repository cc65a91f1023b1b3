import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
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
 * Errors show the problem's `detail` and stay until dismissed (WCAG 2.2.1: no time limit on reading
 * them), announced assertively; success notes go by themselves, announced politely.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
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
