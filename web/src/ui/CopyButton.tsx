import { useState } from 'react'

/** Copies `text`, and says so (or that the browser refused) for two seconds, in a status region. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setOutcome('copied')
    } catch {
      setOutcome('failed')
    }
    setTimeout(() => setOutcome(null), 2000)
  }
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span className="visually-hidden copy-outcome" role="status">
        {outcome === 'copied' ? 'Copied' : outcome === 'failed' ? 'The browser did not allow copying: select the text and copy it.' : ''}
      </span>
      {outcome && (
        <span className="muted copy-outcome-visible" aria-hidden="true">
          {outcome === 'copied' ? 'Copied' : 'Copy refused'}
        </span>
      )}
    </>
  )
}
