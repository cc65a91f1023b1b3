import { useEffect, useRef, type ReactNode } from 'react'

/** A modal on the native <dialog>: focus is trapped, Esc closes, the page behind is inert. */
export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose(): void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog ref={ref} className="dialog" aria-label={title} onClose={onClose} onCancel={onClose}>
      {open && (
        <>
          <header className="dialog-header">
            <h2>{title}</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </header>
          <div className="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  )
}

/** Asks before something that cannot be undone. */
export function ConfirmDialog(props: { title: string; open: boolean; confirmLabel: string; onConfirm(): void; onClose(): void; children: ReactNode }) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onClose}>
      <div className="stack">
        {props.children}
        <div className="row end">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" className="danger" onClick={props.onConfirm}>
            {props.confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  )
}
