import { useQueryClient } from '@tanstack/react-query'
import { useId, useState, type DragEvent, type FormEvent } from 'react'
import { Link } from 'wouter'
import { formatBytes } from '../../ui/format'
import { useManualCollections } from '../collections/api'
import { useCatalog } from '../library/queries'
import type { BatchMetadata } from './queue'
import { sendPush } from './send'
import { isFinal, summarize, useUploadQueue, type UploadItem } from './useUploadQueue'
import './upload.css'

const NO_METADATA: BatchMetadata = { asset_type: '', client: '', product: '', tags: '', created_by_ai: true, collection_name: '' }

export function UploadScreen() {
  const queryClient = useQueryClient()
  const [meta, setMeta] = useState<BatchMetadata>(NO_METADATA)
  const [dragging, setDragging] = useState(false)
  const [imageUrl, setImageUrl] = useState('')
  const { items, addFiles, addUrl, clearFinished } = useUploadQueue(sendPush, {
    // Every list and count may have changed; the session has not.
    onSettled: () => void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'session' }),
  })
  const types = useCatalog('/api/v1/asset-types')
  const clients = useCatalog('/api/v1/clients')
  const products = useCatalog('/api/v1/products')
  const collections = useManualCollections()
  const ids = useId()
  const set = <K extends keyof BatchMetadata>(key: K, value: BatchMetadata[K]) => setMeta((m) => ({ ...m, [key]: value }))

  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    const files = [...event.dataTransfer.files].filter((file) => file.type === '' || file.type.startsWith('image/'))
    if (files.length > 0) addFiles(files, meta)
  }
  const onImport = (event: FormEvent) => {
    event.preventDefault()
    if (!imageUrl.trim()) return
    addUrl(imageUrl.trim(), meta)
    setImageUrl('')
  }

  return (
    <div className="upload-page">
      <header className="page-header">
        <h1>Upload</h1>
        <p className="muted upload-lede">Set the details once for the batch, then drop images or pick them. Each title is the file name without its extension.</p>
      </header>

      <div className="upload-layout">
        <section className="panel stack upload-meta" aria-labelledby={`${ids}-meta`}>
          <h2 id={`${ids}-meta`}>Details for this batch</h2>
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
          <label className="field">
            <span>Client</span>
            <input list={`${ids}-clients`} value={meta.client} onChange={(e) => set('client', e.target.value)} autoComplete="off" />
            <datalist id={`${ids}-clients`}>
              {(clients.data ?? []).map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </label>
          <label className="field">
            <span>Product</span>
            <input list={`${ids}-products`} value={meta.product} onChange={(e) => set('product', e.target.value)} autoComplete="off" />
            <datalist id={`${ids}-products`}>
              {(products.data ?? []).map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </label>
          <label className="field">
            <span>Tags</span>
            <input value={meta.tags} onChange={(e) => set('tags', e.target.value)} placeholder="launch, hero, q3" aria-describedby={`${ids}-tags-hint`} autoComplete="off" />
            <small id={`${ids}-tags-hint`}>Separate tags with commas. New tags are created as they are used.</small>
          </label>
          <fieldset className="field upload-origin">
            <legend>Origin</legend>
            <label className="row">
              <input type="radio" name={`${ids}-origin`} checked={meta.created_by_ai} onChange={() => set('created_by_ai', true)} />
              Made by AI
            </label>
            <label className="row">
              <input type="radio" name={`${ids}-origin`} checked={!meta.created_by_ai} onChange={() => set('created_by_ai', false)} />
              Made by a person
            </label>
            <small>AI-made assets carry the AI badge in the library.</small>
          </fieldset>
          <label className="field">
            <span>Add to collection</span>
            <select value={meta.collection_name} onChange={(e) => set('collection_name', e.target.value)}>
              <option value="">None</option>
              {(collections.data?.data ?? []).map((collection) => (
                <option key={collection.id} value={collection.name}>
                  {collection.name}
                </option>
              ))}
            </select>
            <small>Manual collections only.</small>
          </label>
        </section>

        <div className="stack upload-main">
          <div
            className={`dropzone${dragging ? ' dragging' : ''}`}
            onDragEnter={(e) => {
              e.preventDefault()
              setDragging(true)
            }}
            onDragOver={(e) => e.preventDefault()}
            onDragLeave={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false)
            }}
            onDrop={onDrop}
          >
            <svg aria-hidden="true" width="32" height="32" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5">
              <path d="M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            <p>Drop images here</p>
            <label className="button primary dropzone-pick">
              Choose images…
              <input
                type="file"
                multiple
                accept="image/*"
                aria-label="Upload images"
                className="visually-hidden"
                onChange={(e) => {
                  const files = [...(e.target.files ?? [])]
                  if (files.length > 0) addFiles(files, meta)
                  e.target.value = ''
                }}
              />
            </label>
            <small className="muted">PNG, JPEG, WebP, GIF, AVIF, TIFF or SVG, up to 25 MB each. Two upload at a time.</small>
          </div>

          <form className="row import-form" onSubmit={onImport}>
            <label className="field import-url">
              <span>Image URL</span>
              <input type="url" value={imageUrl} onChange={(e) => setImageUrl(e.target.value)} placeholder="https://example.com/image.png" pattern="https?://.*" required />
            </label>
            <button type="submit">Import</button>
          </form>

          {items.length > 0 && (
            <section className="panel upload-results" aria-labelledby={`${ids}-results`}>
              <header className="row upload-results-header">
                <h2 id={`${ids}-results`}>Uploads</h2>
                <span className="muted" role="status">
                  {summarize(items)}
                </span>
                <button type="button" className="upload-clear" onClick={clearFinished} disabled={!items.some((item) => isFinal(item.state))}>
                  Clear finished
                </button>
              </header>
              <ul className="upload-list">
                {items.map((item) => (
                  <UploadRow key={item.id} item={item} />
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
    </div>
  )
}

function UploadRow({ item }: { item: UploadItem }) {
  const { state } = item
  const progress = state.kind === 'sending' ? state.progress : isFinal(state) ? 1 : 0
  return (
    <li className={`upload-row upload-${state.kind}`}>
      <div className="upload-thumb" aria-hidden="true">
        {item.preview ? <img src={item.preview} alt="" /> : <span>URL</span>}
      </div>
      <div className="upload-info">
        <div className="upload-title" title={item.source}>
          {item.title}
        </div>
        <div className="upload-source muted">
          <span className="upload-source-name">{item.source}</span>
          {item.size !== null && <span>&nbsp;· {formatBytes(item.size)}</span>}
        </div>
        {!isFinal(state) && <progress max={1} value={progress} aria-label={`Uploading ${item.title}`} />}
      </div>
      <div className="upload-status">
        <Status item={item} />
      </div>
    </li>
  )
}

function Status({ item }: { item: UploadItem }) {
  const { state } = item
  switch (state.kind) {
    case 'queued':
      return <span className="muted">Queued</span>
    case 'sending':
      return <span className="muted">{state.progress >= 1 ? 'Processing…' : `${Math.round(state.progress * 100)}%`}</span>
    case 'waiting':
      return <span className="outcome outcome-waiting">Waiting {state.seconds}s (rate limit)</span>
    case 'new':
      return (
        <Link href={`/assets/${state.assetId}`} className="outcome outcome-new">
          New
        </Link>
      )
    case 'duplicate':
      return (
        <Link href={`/assets/${state.assetId}`} className="outcome outcome-duplicate" title="These bytes were already in the library: open the existing asset">
          Duplicate
        </Link>
      )
    case 'failed':
      return <span className="upload-error">{state.detail}</span>
  }
}
