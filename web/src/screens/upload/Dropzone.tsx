import { useState, type DragEvent, type FormEvent } from 'react'
import { ACCEPTED_FORMATS } from './queue'

/** Drop images or pick them; images only (an unknown type is left to the server to judge). */
export function Dropzone({ onFiles }: { onFiles(files: File[]): void }) {
  const [dragging, setDragging] = useState(false)
  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    const files = [...event.dataTransfer.files].filter((file) => file.type === '' || file.type.startsWith('image/'))
    if (files.length > 0) onFiles(files)
  }
  return (
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
            if (files.length > 0) onFiles(files)
            e.target.value = ''
          }}
        />
      </label>
      <small className="muted">{ACCEPTED_FORMATS}, up to 25 MB each. Two upload at a time.</small>
    </div>
  )
}

/** An image the server fetches from a URL. */
export function ImportForm({ onUrl }: { onUrl(url: string): void }) {
  const [imageUrl, setImageUrl] = useState('')
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!imageUrl.trim()) return
    onUrl(imageUrl.trim())
    setImageUrl('')
  }
  return (
    <form className="row import-form" onSubmit={onSubmit}>
      <label className="field import-url">
        <span>Image URL</span>
        <input type="url" value={imageUrl} onChange={(e) => setImageUrl(e.target.value)} placeholder="https://example.com/image.png" pattern="https?://.*" required />
      </label>
      <button type="submit">Import</button>
    </form>
  )
}
