import { useId, useState, type KeyboardEvent } from 'react'
import { useTagSuggestions } from './queries'

/** Adds a tag to a list unless it is there already (tags match case-insensitively). */
export function addTag(tags: readonly string[], tag: string): string[] {
  const name = tag.trim()
  if (!name || tags.some((t) => t.toLowerCase() === name.toLowerCase())) return [...tags]
  return [...tags, name]
}

/**
 * Tags as chips, each with a remove button, and a field ("Add tag") that autocompletes from
 * /api/v1/tags: Enter or a comma adds what is typed, Backspace in the empty field removes the last.
 * `draft`/`onDraft` hold the text typed but not yet added, so a Save can include it.
 */
export function TagEditor(props: { tags: string[]; onChange(tags: string[]): void; draft: string; onDraft(text: string): void; label?: string; fieldLabel?: string }) {
  const { tags, onChange, draft, onDraft, label = 'Tags', fieldLabel = 'Add tag' } = props
  const [focused, setFocused] = useState(false)
  const suggestions = useTagSuggestions(focused ? draft : '').data ?? []
  const listId = useId()
  const labelId = useId()
  const add = (text: string) => {
    onChange(addTag(tags, text))
    onDraft('')
  }
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if ((event.key === 'Enter' || event.key === ',') && draft.trim()) {
      event.preventDefault()
      add(draft)
    } else if (event.key === 'Enter') {
      event.preventDefault()
    } else if (event.key === 'Backspace' && !draft && tags.length > 0) {
      onChange(tags.slice(0, -1))
    }
  }
  return (
    <div className="field">
      <span id={labelId}>{label}</span>
      <div className="tag-editor" role="group" aria-labelledby={labelId}>
        {tags.map((tag) => (
          <span key={tag.toLowerCase()} className="chip">
            {tag}
            <button type="button" aria-label={`Remove tag ${tag}`} onClick={() => onChange(tags.filter((t) => t !== tag))}>
              ×
            </button>
          </span>
        ))}
        <input
          type="text"
          aria-label={fieldLabel}
          placeholder={tags.length ? fieldLabel : `${fieldLabel}…`}
          list={listId}
          autoComplete="off"
          value={draft}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onKeyDown={keyDown}
          onChange={(e) => {
            const native = e.nativeEvent as InputEvent
            // Picking a suggestion adds it at once.
            if ((native.inputType === 'insertReplacementText' || native.inputType === undefined) && suggestions.includes(e.target.value)) add(e.target.value)
            else onDraft(e.target.value)
          }}
        />
        <datalist id={listId}>
          {suggestions
            .filter((name) => !tags.some((t) => t.toLowerCase() === name.toLowerCase()))
            .map((name) => (
              <option key={name} value={name} />
            ))}
        </datalist>
      </div>
    </div>
  )
}
