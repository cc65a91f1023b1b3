import type { ReactNode } from 'react'
import { CopyButton } from '../../ui/CopyButton'

/** "API key" stays as it is; "Signing secret" reads "signing secret" inside a sentence. */
const inSentence = (label: string) => (/^[A-Z]{2}/.test(label) ? label : label.toLowerCase())

/** A secret the server shows once: the value, a copy button and the warning that it will not come back. */
export function OnceSecret({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <div className="stack">
      <p className="once-warning" role="note">
        <strong>Copy this {inSentence(label)} now: it will not be shown again.</strong>
        {children}
      </p>
      <div className="secret-box">
        <code aria-label={label}>{value}</code>
        <CopyButton text={value} label={`Copy ${inSentence(label)}`} />
      </div>
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
