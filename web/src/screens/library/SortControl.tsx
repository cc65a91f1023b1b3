import { useId } from 'react'
import { sortChoices, sortOf, type SortValue } from './sort'

/** The order of a list of assets (the library's, a collection's), a labelled select. */
export function SortControl({ value, onChange }: { value: SortValue | undefined; onChange(next: SortValue): void }) {
  const id = useId()
  return (
    <div className="filter-field sort-field">
      <label htmlFor={id}>Sort</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(sortOf(e.target.value))}>
        {sortChoices(value ?? '').map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  )
}
