import { useId, useState } from 'react'
import { ManualCollectionSelect, SuggestedInput } from '../library/MetadataInputs'
import { useCatalog } from '../library/queries'
import type { BatchMetadata } from './queue'

/** The origin last chosen in this browser; the API's default (made by AI) is not the likely case for a person uploading by hand. */
const ORIGIN_KEY = 'asset-library.upload.created-by-ai'

function rememberedOrigin(): boolean {
  try {
    return localStorage.getItem(ORIGIN_KEY) === 'true'
  } catch {
    return false
  }
}

function rememberOrigin(createdByAi: boolean): void {
  try {
    localStorage.setItem(ORIGIN_KEY, String(createdByAi))
  } catch {
    // Storage refused (private mode, quota): the choice holds for this page only.
  }
}

/** No details yet, and the origin chosen last in this browser ("Made by a person" at first). */
export function initialMetadata(): BatchMetadata {
  return { asset_type: '', client: '', product: '', tags: '', created_by_ai: rememberedOrigin(), collection_name: '' }
}

/**
 * The details every file of the next drop or import gets: type, client, product, tags, origin, collection.
 * On a narrow screen it comes after the picker and the results, folded to a line that says the origin.
 */
export function BatchPanel({ meta, onChange }: { meta: BatchMetadata; onChange(next: BatchMetadata): void }) {
  const [unfolded, setUnfolded] = useState(false)
  const types = useCatalog('/api/v1/asset-types')
  const ids = useId()
  const set = <K extends keyof BatchMetadata>(key: K, value: BatchMetadata[K]) => onChange({ ...meta, [key]: value })
  const setOrigin = (createdByAi: boolean) => {
    rememberOrigin(createdByAi)
    set('created_by_ai', createdByAi)
  }

  return (
    <section className={`panel stack upload-meta${unfolded ? ' unfolded' : ''}`} aria-labelledby={`${ids}-meta`}>
      <h2>
        {/* The region's name: the toggle's text would carry the origin into it. */}
        <span className="upload-meta-title" id={`${ids}-meta`}>
          Details for this batch
        </span>
        <button type="button" className="upload-meta-toggle" aria-expanded={unfolded} aria-controls={`${ids}-fields`} onClick={() => setUnfolded(!unfolded)}>
          <span>
            Details for this batch <span className="muted">({meta.created_by_ai ? 'made by AI' : 'made by a person'})</span>
          </span>
        </button>
      </h2>
      <div className="stack upload-meta-fields" id={`${ids}-fields`}>
        <label className="field">
          <span>Type</span>
          <select value={meta.asset_type} onChange={(e) => set('asset_type', e.target.value)}>
            <option value="">None</option>
            {(types.data ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <SuggestedInput label="Client" path="/api/v1/clients" value={meta.client} onChange={(value) => set('client', value)} />
        <SuggestedInput label="Product" path="/api/v1/products" value={meta.product} onChange={(value) => set('product', value)} />
        <label className="field">
          <span>Tags</span>
          <input value={meta.tags} onChange={(e) => set('tags', e.target.value)} placeholder="launch, hero, q3" aria-describedby={`${ids}-tags-hint`} autoComplete="off" />
          <small id={`${ids}-tags-hint`}>Separate tags with commas. New tags are created as they are used.</small>
        </label>
        <fieldset className="field upload-origin">
          <legend>Origin</legend>
          <label className="row">
            <input type="radio" name={`${ids}-origin`} checked={meta.created_by_ai} onChange={() => setOrigin(true)} />
            Made by AI
          </label>
          <label className="row">
            <input type="radio" name={`${ids}-origin`} checked={!meta.created_by_ai} onChange={() => setOrigin(false)} />
            Made by a person
          </label>
          <small>AI-made assets carry the AI badge in the library.</small>
        </fieldset>
        <ManualCollectionSelect value={meta.collection_name} onChange={(name) => set('collection_name', name)} hint="Manual collections only." />
      </div>
    </section>
  )
}
