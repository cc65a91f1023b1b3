import { useId } from 'react'

/**
 * An action the viewer may not take, shown where it would be with the reason beside it, instead of a
 * refusal after they tried. It stays focusable (`aria-disabled`, not `disabled`), so a keyboard or
 * screen-reader user reaches it and hears why (`aria-describedby`).
 */
export function RefusedButton({ label, reason, className }: { label: string; reason: string; className?: string }) {
  const id = useId()
  return (
    <span className="refused">
      <button type="button" className={className} aria-disabled="true" aria-describedby={id} title={reason} onClick={(event) => event.preventDefault()}>
        {label}
      </button>
      <span id={id} className="refused-reason">
        {reason}
      </span>
    </span>
  )
}
