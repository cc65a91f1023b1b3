import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useState, type FormEvent } from 'react'
import { Link, useLocation, useParams } from 'wouter'
import { unwrap, v1, type V1Data } from '../../api/client'
import type { paths } from '../../api/v1.gen'
import { ApiError, messageOf } from '../../api/problem'
import { CopyButton } from '../../ui/CopyButton'
import { ConfirmDialog } from '../../ui/Dialog'
import { formatBytes, formatDate } from '../../ui/format'
import { useToast } from '../../ui/toast'
import { ASSETS_KEY, assetKey, useAsset, useCatalog, type Asset, type CatalogList } from './queries'
import { addTag, TagEditor } from './TagEditor'
import './library.css'

type Patch = paths['/api/v1/assets/{id}']['patch']['requestBody']['content']['application/json']
type Similar = V1Data<'/api/v1/assets/{id}/similar', 'get'>

/** Where "back to the library" goes: the library as it was left (filters and search), else `/`. */
function libraryBack(): string {
  const back = (history.state as { back?: unknown } | null)?.back
  return typeof back === 'string' && back.startsWith('/') ? back : '/'
}

/** One asset: the large image, its record, metadata editing, similar assets, its collections, delete. */
export function AssetDetailScreen() {
  const { id } = useParams<{ id: string }>()
  const [back] = useState(libraryBack)
  const [, navigate] = useLocation()
  const asset = useAsset(id)

  // Esc goes back to the library, unless it is closing a dialog or leaving a field.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return
      const target = event.target as HTMLElement | null
      if (target?.closest('input, textarea, select')) return
      navigate(back)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [back, navigate])

  const backLink = (
    <Link href={back} className="back-link">
      ← Library
    </Link>
  )
  if (asset.isPending) return <p className="page-message" aria-busy="true">{backLink} Loading…</p>
  if (asset.isError) {
    const gone = asset.error instanceof ApiError && asset.error.status === 404
    return (
      <p className="page-message" role="alert">
        {gone ? 'This asset does not exist; it may have been deleted.' : messageOf(asset.error)} {backLink}
      </p>
    )
  }
  const data = asset.data
  return (
    <div>
      <header className="detail-header">
        {backLink}
        <h1>{data.title || 'Untitled'}</h1>
        {data.created_by_ai && (
          <span className="badge ai" title="Created by AI">
            AI
          </span>
        )}
        <div className="actions">
          <CopyButton text={data.original_url} label="Copy original URL" />
          <a className="button" href={data.original_url} target="_blank" rel="noreferrer">
            Open original
          </a>
          <DeleteAsset asset={data} onDeleted={() => navigate(back)} />
        </div>
      </header>
      <div className="detail">
        <div className="detail-main">
          <div className="detail-image">
            <img
              src={data.original_url}
              alt={data.title}
              width={data.width}
              height={data.height}
              decoding="async"
              style={{ backgroundImage: `url("${data.thumbnail_url}")`, backgroundSize: 'contain', backgroundRepeat: 'no-repeat', backgroundPosition: 'center' }}
            />
          </div>
          <SimilarAssets id={data.id} />
        </div>
        <div className="detail-side">
          <section className="panel" aria-labelledby="record-title">
            <h2 className="section-title" id="record-title">
              Record
            </h2>
            <Record asset={data} />
          </section>
          <section className="panel" aria-labelledby="edit-title">
            <h2 className="section-title" id="edit-title">
              Edit
            </h2>
            <EditForm key={data.updated_at} asset={data} />
          </section>
          <section className="panel" aria-labelledby="in-collections">
            <h2 className="section-title" id="in-collections">
              Collections
            </h2>
            {data.collections.length === 0 ? (
              <p className="muted">Not in any collection.</p>
            ) : (
              <ul className="row" aria-label="In collections" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {data.collections.map((c) => (
                  <li key={c.id}>
                    <Link href={`/collections/${c.id}`} className="chip">
                      {c.name}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
    </div>
  )
}

function Record({ asset }: { asset: Asset }) {
  const none = <span className="muted">—</span>
  return (
    <dl className="record">
      <dt>Type</dt>
      <dd>{asset.asset_type ?? none}</dd>
      <dt>Client</dt>
      <dd>{asset.client ?? none}</dd>
      <dt>Product</dt>
      <dd>{asset.product ?? none}</dd>
      <dt>Tags</dt>
      <dd>
        {asset.tags.length === 0 ? (
          none
        ) : (
          <span className="row" style={{ gap: 4 }}>
            {asset.tags.map((tag) => (
              <Link key={tag} className="chip" href={`/?tag=${encodeURIComponent(tag)}`}>
                {tag}
              </Link>
            ))}
          </span>
        )}
      </dd>
      <dt>Made by</dt>
      <dd>{asset.created_by_ai ? 'AI' : 'A person'}</dd>
      <dt>Dimensions</dt>
      <dd>
        {asset.width} × {asset.height} px
      </dd>
      <dt>Size</dt>
      <dd>{formatBytes(asset.byte_size)}</dd>
      <dt>Format</dt>
      <dd>{asset.mime_type}</dd>
      <dt>SHA-256</dt>
      <dd className="mono" title={asset.sha256}>
        {asset.sha256.slice(0, 12)}…
      </dd>
      <dt>Source</dt>
      <dd>
        {asset.source_url ? (
          <a href={asset.source_url} target="_blank" rel="noreferrer">
            {asset.source_url}
          </a>
        ) : (
          none
        )}
      </dd>
      <dt>Created</dt>
      <dd>{formatDate(asset.created_at)}</dd>
      <dt>Updated</dt>
      <dd>{formatDate(asset.updated_at)}</dd>
    </dl>
  )
}

function EditForm({ asset }: { asset: Asset }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [title, setTitle] = useState(asset.title)
  const [assetType, setAssetType] = useState(asset.asset_type ?? '')
  const [client, setClient] = useState(asset.client ?? '')
  const [product, setProduct] = useState(asset.product ?? '')
  const [ai, setAi] = useState(asset.created_by_ai)
  const [tags, setTags] = useState(asset.tags)
  const [tagDraft, setTagDraft] = useState('')

  const allTags = addTag(tags, tagDraft)
  const patch: Patch = {}
  if (title.trim() !== asset.title) patch.title = title.trim()
  if (assetType !== (asset.asset_type ?? '')) patch.asset_type = assetType || null
  if (client !== (asset.client ?? '')) patch.client = client || null
  if (product !== (asset.product ?? '')) patch.product = product || null
  if (ai !== asset.created_by_ai) patch.created_by_ai = ai
  if (allTags.join('\n') !== asset.tags.join('\n')) patch.tag_names = allTags
  const changed = Object.keys(patch).length > 0

  const save = useMutation({
    mutationFn: (body: Patch) => unwrap(v1.PATCH('/api/v1/assets/{id}', { params: { path: { id: asset.id } }, body })),
    onSuccess: (updated) => {
      queryClient.setQueryData(assetKey(asset.id), updated)
      void queryClient.invalidateQueries({ queryKey: [ASSETS_KEY] })
      void queryClient.invalidateQueries({ queryKey: ['catalog'] })
      toast.success('Saved.')
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (changed) save.mutate(patch)
  }
  return (
    <form className="stack" onSubmit={submit}>
      <label className="field">
        <span>Title</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={500} />
      </label>
      <CatalogField label="Type" path="/api/v1/asset-types" value={assetType} onChange={setAssetType} />
      <CatalogField label="Client" path="/api/v1/clients" value={client} onChange={setClient} />
      <CatalogField label="Product" path="/api/v1/products" value={product} onChange={setProduct} />
      <TagEditor tags={tags} onChange={setTags} draft={tagDraft} onDraft={setTagDraft} />
      <label className="check-field">
        <input type="checkbox" checked={ai} onChange={(e) => setAi(e.target.checked)} />
        <span>Created by AI</span>
      </label>
      <div className="row end">
        <button type="submit" className="primary" disabled={!changed || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  )
}

function CatalogField(props: { label: string; path: CatalogList; value: string; onChange(value: string): void }) {
  const names = useCatalog(props.path).data ?? []
  const options = props.value && !names.includes(props.value) ? [props.value, ...names] : names
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">None</option>
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  )
}

function DeleteAsset({ asset, onDeleted }: { asset: Asset; onDeleted(): void }) {
  const [open, setOpen] = useState(false)
  const queryClient = useQueryClient()
  const toast = useToast()
  const remove = useMutation({
    mutationFn: () => unwrap(v1.DELETE('/api/v1/assets/{id}', { params: { path: { id: asset.id } } })),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: assetKey(asset.id) })
      void queryClient.invalidateQueries({ queryKey: [ASSETS_KEY] })
      void queryClient.invalidateQueries({ queryKey: ['collections'] })
      toast.success(`Deleted “${asset.title}”.`)
      onDeleted()
    },
  })
  return (
    <>
      <button type="button" className="danger" onClick={() => setOpen(true)} disabled={remove.isPending}>
        Delete
      </button>
      <ConfirmDialog
        title="Delete this asset?"
        open={open}
        confirmLabel="Delete"
        onClose={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false)
          remove.mutate()
        }}
      >
        <p>“{asset.title}” is deleted for everyone and removed from every collection. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  )
}

/** Assets near this one by meaning; a quiet note when the server cannot tell (AI off, no embedding). */
function SimilarAssets({ id }: { id: string }) {
  const similar = useQuery({
    queryKey: [ASSETS_KEY, 'similar', id],
    queryFn: (): Promise<Similar> => unwrap(v1.GET('/api/v1/assets/{id}/similar', { params: { path: { id }, query: { limit: 12 } } })),
    meta: { quiet: true },
    retry: false,
  })
  return (
    <section className="similar" aria-labelledby="similar-title">
      <h2 className="section-title" id="similar-title">
        Similar assets
      </h2>
      {similar.isPending ? (
        <p className="muted">Looking for similar assets…</p>
      ) : similar.isError ? (
        <p className="muted">Similar assets are not available: {messageOf(similar.error)}</p>
      ) : similar.data.data.length === 0 ? (
        <p className="muted">None yet. Similarity needs AI on for the organization and an embedding for this asset.</p>
      ) : (
        <ul className="similar-grid">
          {similar.data.data.map((hit) => (
            <li key={hit.id}>
              <Link href={`/assets/${hit.id}`} title={`${hit.title} (${Math.round(hit.semantic_score * 100)}% similar)`}>
                <div className="asset-thumb">
                  <img src={hit.thumbnail_url} alt="" width={hit.width} height={hit.height} loading="lazy" decoding="async" />
                </div>
                <span>{hit.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
