import { useEffect, useId, useRef, useState, type ReactNode } from 'react'

/**
 * A modal on the native <dialog>: the page behind is inert and Esc closes it. On opening, focus goes
 * to the element marked `data-autofocus`, else the first field, else the first button: `showModal()`
 * would otherwise pick the close button, and React's `autoFocus` runs before the dialog is shown.
 */
export function Dialog(props: { title: string; open: boolean; onClose(): void; children: ReactNode; dismissible?: boolean }) {
  const { title, open, onClose, children, dismissible = true } = props
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      dialog.showModal()
      const body = dialog.querySelector('.dialog-body')
      const target =
        body?.querySelector<HTMLElement>('[data-autofocus]') ??
        body?.querySelector<HTMLElement>('input, select, textarea') ??
        body?.querySelector<HTMLElement>('button')
      target?.focus()
    }
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    // `close` fires for Esc too (after `cancel`), so it is the one place that reports closing.
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => !dismissible && event.preventDefault()}
      onClose={() => open && onClose()}
    >
      {open && (
        <>
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose} disabled={!dismissible}>
              ×
            </button>
          </header>
          <div className="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  )
}

interface ConfirmProps {
  title: string
  open: boolean
  confirmLabel: string
  /** While the confirmed action runs: both buttons wait, so it cannot be sent twice. */
  busy?: boolean
  /** `primary` for an action that loses nothing (restoring a version); `danger` otherwise. */
  tone?: 'danger' | 'primary'
  onConfirm(): void
  onClose(): void
  children: ReactNode
}

/** Asks before something that cannot be undone, or that changes much; Cancel has the focus, so Enter does no harm. */
export function ConfirmDialog({ title, open, confirmLabel, busy = false, tone = 'danger', onConfirm, onClose, children }: ConfirmProps) {
  // The caller's `busy` arrives a render after the click: a second click before it must not confirm again.
  const [confirmed, setConfirmed] = useState(false)
  const wasBusy = useRef(busy)
  useEffect(() => {
    // Ready again when closed, or when the action ends (failed: the dialog stays for a retry).
    if (!open || (wasBusy.current && !busy)) setConfirmed(false)
    wasBusy.current = busy
  }, [open, busy])
  const confirm = () => {
    if (confirmed || busy) return
    setConfirmed(true)
    onConfirm()
  }
  const waiting = busy || confirmed
  return (
    <Dialog title={title} open={open} onClose={onClose} dismissible={!waiting}>
      <div className="stack">
        {children}
        <div className="row end">
          <button type="button" onClick={onClose} disabled={waiting} data-autofocus>
            Cancel
          </button>
          <button type="button" className={tone} onClick={confirm} disabled={waiting}>
            {waiting ? 'Working…' : confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  )
}
