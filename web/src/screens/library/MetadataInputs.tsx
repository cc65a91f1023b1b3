import { useId } from 'react'
import { useManualCollections } from '../collections/api'
import { useCatalog } from './queries'

/** A free text field (client, product) that suggests the names the organization already uses. */
export function SuggestedInput({ label, path, value, onChange }: { label: string; path: '/api/v1/clients' | '/api/v1/products'; value: string; onChange(next: string): void }) {
  const suggestions = useCatalog(path).data ?? []
  const list = useId()
  return (
    <label className="field">
      <span>{label}</span>
      <input list={list} value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" maxLength={200} />
      <datalist id={list}>
        {suggestions.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </label>
  )
}

/** The manual collection a push adds its assets to (a smart one takes none); empty for none. */
export function ManualCollectionSelect({ value, onChange, hint }: { value: string; onChange(next: string): void; hint?: string }) {
  const collections = useManualCollections()
  return (
    <label className="field">
      <span>Add to collection</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">None</option>
        {(collections.data?.data ?? []).map((collection) => (
          <option key={collection.id} value={collection.name}>
            {collection.name}
          </option>
        ))}
      </select>
      {hint && <small>{hint}</small>}
    </label>
  )
}
