import { useId } from 'react'
import { useCatalog, type CatalogList } from './queries'

export interface CatalogSelectProps {
  label: string
  path: CatalogList
  value: string | undefined
  onChange(value: string): void
  /** The option for no value: "None" in a form, "All types" in a filter bar. */
  empty: string
  className?: string
}

/**
 * A picker over a registry (asset types, clients, products). Names match case-insensitively, and a
 * value that is not among the first names listed (a shared link, an old record) stays selectable.
 */
export function CatalogSelect({ label, path, value, onChange, empty, className = 'field' }: CatalogSelectProps) {
  const names = useCatalog(path).data ?? []
  const known = names.find((name) => name.toLowerCase() === value?.toLowerCase())
  const options = value && !known ? [value, ...names] : names
  const id = useId()
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={known ?? value ?? ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">{empty}</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  )
}
