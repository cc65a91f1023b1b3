import { useState, type FormEvent } from 'react'

/** The search field: Enter (or the button) searches, clearing it or Esc goes back to the list. */
export function SearchBox({ initial, onSearch }: { initial: string; onSearch(text: string): void }) {
  const [text, setText] = useState(initial)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSearch(text.trim())
  }
  return (
    <form className="library-search" role="search" onSubmit={submit}>
      <input
        type="search"
        aria-label="Search"
        placeholder="Search titles, tags, clients…"
        value={text}
        onChange={(e) => {
          setText(e.target.value)
          // The clear button of the field (or erasing everything) returns to the list.
          if (e.target.value === '' && initial) onSearch('')
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && initial) onSearch('')
        }}
      />
      <button type="submit">Search</button>
    </form>
  )
}
