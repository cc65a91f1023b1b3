import { AssetFilters } from '../library/AssetFilters'
import type { AssetFilterValue } from '../library/filters'
import { plural } from '../../ui/format'
import { useLiveCount } from './api'

/** A smart collection's query: the library's filters, with how many assets match right now. */
export function SmartQueryEditor({ value, onChange }: { value: AssetFilterValue; onChange(next: AssetFilterValue): void }) {
  const count = useLiveCount(value)
  return (
    <div className="smart-editor" role="group" aria-label="Query">
      <AssetFilters value={value} onChange={onChange} text />
      <p className="live-count" role="status" aria-live="polite">
        {count.data === undefined ? (count.isError ? 'The count is unavailable.' : 'Counting…') : `${plural(count.data, 'asset')} match`}
        {count.isFetching && count.data !== undefined && <span className="muted"> · updating</span>}
      </p>
    </div>
  )
}
