import { useState } from 'react'

/** Copies `text`, and says so for two seconds. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    await navigator.clipboard.writeText(text)
    setCopied(true)
    setTimeout(() => setCopied(false), 2000)
  }
  return (
    <button type="button" onClick={() => void copy()} aria-label={copied ? 'Copied' : label}>
      {copied ? 'Copied' : label}
    </button>
  )
}
