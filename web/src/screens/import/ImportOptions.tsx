import { useId } from 'react'
import { CatalogSelect } from '../library/CatalogSelect'
import { ManualCollectionSelect, SuggestedInput } from '../library/MetadataInputs'
import { addTag, TagEditor } from '../library/TagEditor'

export type ImportFormat = 'png' | 'svg' | 'jpg'

/** How the picked nodes are rendered, and what every asset the import makes gets. */
export interface ImportOptionsValue {
  format: ImportFormat
  scale: number
  asset_type: string
  client: string
  product: string
  tags: string[]
  /** A tag typed and not yet added: the import takes it too. */
  tagDraft: string
  collection_name: string
}

export const initialOptions = (): ImportOptionsValue => ({ format: 'png', scale: 2, asset_type: '', client: '', product: '', tags: [], tagDraft: '', collection_name: '' })

/** The body fields of the options: empty ones are left out, so the server's defaults hold. */
export function optionFields(options: ImportOptionsValue) {
  const tags = addTag(options.tags, options.tagDraft)
  return {
    format: options.format,
    ...(options.format !== 'svg' && { scale: options.scale }),
    ...(options.asset_type && { asset_type: options.asset_type }),
    ...(options.client.trim() && { client: options.client.trim() }),
    ...(options.product.trim() && { product: options.product.trim() }),
    ...(tags.length > 0 && { tag_names: tags }),
    ...(options.collection_name && { collection_name: options.collection_name }),
  }
}

const FORMATS: Array<{ value: ImportFormat; label: string }> = [
  { value: 'png', label: 'PNG' },
  { value: 'svg', label: 'SVG (icons, logos)' },
  { value: 'jpg', label: 'JPEG' },
]

export function ImportOptions({ value, onChange }: { value: ImportOptionsValue; onChange(next: ImportOptionsValue): void }) {
  const ids = useId()
  const set = <K extends keyof ImportOptionsValue>(key: K, next: ImportOptionsValue[K]) => onChange({ ...value, [key]: next })
  return (
    <div className="stack import-options">
      <div className="row import-render">
        <label className="field">
          <span>Format</span>
          <select value={value.format} onChange={(e) => set('format', e.target.value as ImportFormat)}>
            {FORMATS.map((format) => (
              <option key={format.value} value={format.value}>
                {format.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Scale</span>
          <select value={value.scale} disabled={value.format === 'svg'} onChange={(e) => set('scale', Number(e.target.value))} aria-describedby={`${ids}-scale`}>
            {[1, 2, 3, 4].map((scale) => (
              <option key={scale} value={scale}>
                {scale}×
              </option>
            ))}
          </select>
        </label>
      </div>
      <small className="hint" id={`${ids}-scale`}>
        {value.format === 'svg' ? 'An SVG has no scale: it is drawn at any size.' : 'Pixels per Figma point: 2× suits most screens.'}
      </small>
      <CatalogSelect label="Type" path="/api/v1/asset-types" value={value.asset_type} onChange={(next) => set('asset_type', next)} empty="None" />
      <SuggestedInput label="Client" path="/api/v1/clients" value={value.client} onChange={(next) => set('client', next)} />
      <SuggestedInput label="Product" path="/api/v1/products" value={value.product} onChange={(next) => set('product', next)} />
      <TagEditor tags={value.tags} onChange={(tags) => set('tags', tags)} draft={value.tagDraft} onDraft={(draft) => set('tagDraft', draft)} />
      <small className="hint">Each asset is also tagged with its page, and a variant with its component set.</small>
      <ManualCollectionSelect value={value.collection_name} onChange={(name) => set('collection_name', name)} />
    </div>
  )
}
