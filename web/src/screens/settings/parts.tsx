import { useEffect, useId, useRef, type ReactNode } from 'react'
import { CopyButton } from '../../ui/CopyButton'

/** "API key" stays as it is; "Signing secret" reads "signing secret" inside a sentence. */
const inSentence = (label: string) => (/^[A-Z]{2}/.test(label) ? label : label.toLowerCase())

/**
 * A value the server shows once (a key, a signing secret, an invitation link): a read-only field
 * named by `label`, a copy button and the warning that it will not come back. Dialogs focus the field
 * when they open (`data-autofocus`); `takeFocus` also focuses it when it replaces a form in place, so
 * focus never falls back to the page. `onDone` adds the Done button that forgets it.
 */
export function OnceSecret(props: { label: string; value: string; takeFocus?: boolean; onDone?(): void; children?: ReactNode }) {
  const { label, value, takeFocus = false, onDone, children } = props
  const id = useId()
  const field = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (takeFocus) field.current?.focus()
  }, [takeFocus])
  return (
    <div className="stack">
      <p className="once-warning" role="note">
        <strong>Copy this {inSentence(label)} now: it will not be shown again.</strong>
        {children}
      </p>
      <div className="secret-box">
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input
          id={id}
          ref={field}
          className="secret-value"
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          data-autofocus
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={value} label={`Copy ${inSentence(label)}`} />
      </div>
      {onDone && (
        <div className="row end">
          <button type="button" className="primary" onClick={onDone}>
            Done
          </button>
        </div>
      )}
    </div>
  )
}

/** The heading of a settings section, with its actions at the end. */
export function SectionHeader({ title, id, children }: { title: string; id?: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h2 className="section-title" id={id}>
        {title}
      </h2>
      {children && <div className="actions">{children}</div>}
    </header>
  )
}

/** Whether a moment has passed (expiries): a helper, so components stay free of clock reads in render. */
export function isPast(iso: string): boolean {
  return new Date(iso).getTime() <= Date.now()
}
