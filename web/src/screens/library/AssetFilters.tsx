/**
 * The asset filter bar, shared by the library and the smart-collection query editor.
 *
 *   import { AssetFilters } from '../library/AssetFilters'
 *   import type { AssetFilterValue } from '../library/filters'
 *   <AssetFilters value={query} onChange={setQuery} text />
 *
 * - `value`: `{ asset_type?, client?, product?, tag?, q? }`, the filters of GET /api/v1/assets (the same
 *   shape as a smart collection's `query`); empty fields are left out.
 * - `onChange(next)`: called with the whole new value (already cleaned: trimmed, no empty fields) when
 *   a select changes, or when the tag or text field is committed (Enter, blur, or picking a suggestion).
 * - `text` (default false): also show the full-text `q` field, labelled "Text".
 * - `clearable` (default true): a "Clear filters" button while anything filters.
 * The fields are labelled "Type", "Client", "Product", "Tag" (autocompleted from /api/v1/tags) and
 * "Text". It renders no <form>, so it may sit inside one. Helpers: `cleanFilters`, `hasFilters`,
 * `parseLibrarySearch`/`formatLibrarySearch` in ./filters.
 */
import { useId, useState, type ChangeEvent, type KeyboardEvent } from 'react'
import { cleanFilters, hasFilters, type AssetFilterValue } from './filters'
import { useCatalog, useTagSuggestions, type CatalogList } from './queries'
import './library.css'

export type { AssetFilterValue } from './filters'

export interface AssetFiltersProps {
  value: AssetFilterValue
  onChange(next: AssetFilterValue): void
  text?: boolean
  clearable?: boolean
}

export function AssetFilters({ value, onChange, text = false, clearable = true }: AssetFiltersProps) {
  const set = (key: keyof AssetFilterValue, field: string) => {
    const next = cleanFilters({ ...value, [key]: field })
    onChange(next)
  }
  return (
    <div className="asset-filters" role="group" aria-label="Filters">
      <CatalogSelect label="Type" any="All types" path="/api/v1/asset-types" value={value.asset_type} onChange={(v) => set('asset_type', v)} />
      <CatalogSelect label="Client" any="All clients" path="/api/v1/clients" value={value.client} onChange={(v) => set('client', v)} />
      <CatalogSelect label="Product" any="All products" path="/api/v1/products" value={value.product} onChange={(v) => set('product', v)} />
      <TagField key={`tag:${value.tag ?? ''}`} label="Tag" initial={value.tag ?? ''} onCommit={(v) => set('tag', v)} />
      {text && <CommitField key={`q:${value.q ?? ''}`} label="Text" initial={value.q ?? ''} onCommit={(v) => set('q', v)} />}
      {clearable && hasFilters(value) && (
        <button type="button" className="filters-clear" onClick={() => onChange({})}>
          Clear filters
        </button>
      )}
    </div>
  )
}

function CatalogSelect(props: { label: string; any: string; path: CatalogList; value?: string; onChange(value: string): void }) {
  const names = useCatalog(props.path).data ?? []
  // A value from a shared link may not be among the first names listed: keep it selectable.
  const options = props.value && !names.some((n) => n.toLowerCase() === props.value!.toLowerCase()) ? [props.value, ...names] : names
  const selected = options.find((n) => n.toLowerCase() === props.value?.toLowerCase()) ?? ''
  const id = useId()
  return (
    <div className="filter-field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={selected} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{props.any}</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  )
}

interface CommitProps {
  label: string
  initial: string
  onCommit(value: string): void
  suggestions?: string[]
  onDraft?(value: string): void
}

/** A text field that reports its value when committed (Enter, blur, or picking a suggestion), not on each key. */
function CommitField({ label, initial, onCommit, suggestions, onDraft }: CommitProps) {
  const [draft, setDraft] = useState(initial)
  const listId = useId()
  const id = useId()
  const commit = (next: string) => {
    if (next.trim() !== initial.trim()) onCommit(next)
  }
  const change = (e: ChangeEvent<HTMLInputElement>) => {
    setDraft(e.target.value)
    onDraft?.(e.target.value)
    const native = e.nativeEvent as InputEvent
    // Picking an option of the datalist replaces the text in one go.
    if (suggestions && (native.inputType === 'insertReplacementText' || native.inputType === undefined) && suggestions.includes(e.target.value)) commit(e.target.value)
  }
  const keyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault()
      commit(draft)
    } else if (e.key === 'Escape' && draft !== initial) {
      e.stopPropagation()
      setDraft(initial)
    }
  }
  return (
    <div className="filter-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        value={draft}
        placeholder="Any"
        autoComplete="off"
        list={suggestions ? listId : undefined}
        onChange={change}
        onKeyDown={keyDown}
        onBlur={() => commit(draft)}
      />
      {suggestions && (
        <datalist id={listId}>
          {suggestions.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      )}
    </div>
  )
}

function TagField(props: Omit<CommitProps, 'suggestions' | 'onDraft'>) {
  const [typed, setTyped] = useState(props.initial)
  const suggestions = useTagSuggestions(typed).data ?? []
  return <CommitField {...props} suggestions={suggestions} onDraft={setTyped} />
}
