import { useId, useState, type ChangeEvent, type KeyboardEvent, type ReactNode } from 'react'
import { cleanFilters, hasFilters, type AssetFilterValue } from './filters'
import { CatalogSelect } from './CatalogSelect'
import { useColorNames, useTagSuggestions } from './queries'
import './library.css'

export type { AssetFilterValue } from './filters'

export interface AssetFiltersProps {
  value: AssetFilterValue
  onChange(next: AssetFilterValue): void
  /** Also the full-text `q` field, "Text" (the library has a search box instead). */
  text?: boolean
  /** A "Clear filters" button while anything filters (default true). */
  clearable?: boolean
}

/**
 * The asset filter bar of the library and of the smart-collection query editor. It reports the whole
 * cleaned value on each committed change, and renders no <form>, so it may sit inside one.
 */
export function AssetFilters({ value, onChange, text = false, clearable = true }: AssetFiltersProps) {
  const set = (key: keyof AssetFilterValue, field: string) => {
    const next = cleanFilters({ ...value, [key]: field })
    onChange(next)
  }
  return (
    <div className="asset-filters" role="group" aria-label="Filters">
      <CatalogSelect className="filter-field" label="Type" empty="All types" path="/api/v1/asset-types" value={value.asset_type} onChange={(v) => set('asset_type', v)} />
      <CatalogSelect className="filter-field" label="Client" empty="All clients" path="/api/v1/clients" value={value.client} onChange={(v) => set('client', v)} />
      <CatalogSelect className="filter-field" label="Product" empty="All products" path="/api/v1/products" value={value.product} onChange={(v) => set('product', v)} />
      <TagField
        key={`tag:${value.tag ?? ''}:${value.tag_prefix ?? ''}`}
        label="Tag"
        initial={value.tag ?? value.tag_prefix ?? ''}
        onCommit={(text, picked) => onChange(cleanFilters({ ...value, tag: picked ? text : '', tag_prefix: picked ? '' : text }))}
      />
      <ColorSelect value={value.color} onChange={(v) => set('color', v)} />
      <OriginSelect value={value.provenance} onChange={(v) => set('provenance', v)} />
      {text && <CommitField key={`q:${value.q ?? ''}`} label="Text" initial={value.q ?? ''} onCommit={(v) => set('q', v)} />}
      {clearable && hasFilters(value) && (
        <button type="button" className="filters-clear" onClick={() => onChange({})}>
          Clear filters
        </button>
      )}
    </div>
  )
}

/** What a file may declare of its origin (`provenance.source`), as the filter names it. */
export const ORIGINS: Record<string, string> = {
  ai: 'Made by AI',
  ai_composite: 'AI in a composite',
  capture: 'Camera capture',
  edited: 'Edited or drawn',
  unknown: 'Not declared',
}

/** The colour filter: the named colours of the palettes, the chosen one's swatch beside its label. */
function ColorSelect({ value, onChange }: { value: string | undefined; onChange(next: string): void }) {
  const colors = useColorNames().data ?? []
  const chosen = colors.find((color) => color.name === value)
  const swatch = chosen && <span className="swatch swatch-small" style={{ background: chosen.hex }} aria-hidden="true" />
  const options = colors.map((color) => ({ value: color.name, label: color.name }))
  return <ChoiceSelect label={<>Colour {swatch}</>} empty="Any colour" options={options} value={value} onChange={onChange} />
}

/** The origin filter: what the files declare (`provenance=`). */
function OriginSelect({ value, onChange }: { value: string | undefined; onChange(next: string): void }) {
  const options = Object.entries(ORIGINS).map(([source, label]) => ({ value: source, label }))
  return <ChoiceSelect label="Origin" empty="Any origin" options={options} value={value} onChange={onChange} />
}

interface ChoiceSelectProps {
  label: ReactNode
  empty: string
  options: Array<{ value: string; label: string }>
  value: string | undefined
  onChange(next: string): void
}

/** A filter chosen from a fixed list, labelled like the catalogue's selects. */
function ChoiceSelect({ label, empty, options, value, onChange }: ChoiceSelectProps) {
  const id = useId()
  return (
    <div className="filter-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">{empty}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}

interface CommitProps {
  label: string
  initial: string
  /** `picked`: the value is one of the suggestions, picked from the list (not typed). */
  onCommit(value: string, picked: boolean): void
  suggestions?: string[]
  onDraft?(value: string): void
}

/**
 * A text field that reports its value when committed (Enter, blur, or picking a suggestion), not on each key.
 * The tag filter takes typed text as a prefix (`tag_prefix`: "wall" finds "wallpaper") and a picked
 * suggestion as the exact tag.
 */
function CommitField({ label, initial, onCommit, suggestions, onDraft }: CommitProps) {
  const [draft, setDraft] = useState(initial)
  const listId = useId()
  const id = useId()
  const commit = (next: string, picked = false) => {
    if (picked || next.trim() !== initial.trim()) onCommit(next, picked)
  }
  const change = (e: ChangeEvent<HTMLInputElement>) => {
    setDraft(e.target.value)
    onDraft?.(e.target.value)
    const native = e.nativeEvent as InputEvent
    // Picking an option of the datalist replaces the text in one go.
    if (suggestions && (native.inputType === 'insertReplacementText' || native.inputType === undefined) && suggestions.includes(e.target.value)) commit(e.target.value, true)
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
