import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { ApiError } from '@asset-library/client'
import { answerError, v1 } from '../../api/client'
import { messageOf } from '../../api/problem'
import { retrySeconds } from '../../api/pacing'
import { useOrg } from '../../session'
import { Dialog } from '../../ui/Dialog'
import { QueryError } from '../../ui/QueryError'
import { presetSize } from '../settings/PresetsSection'
import { downloadName } from './download'
import { presetsQuery, type Asset, type Preset } from './queries'

type Fit = Preset['fit']
type Format = NonNullable<Preset['format']>

const FITS: Record<Fit, string> = { contain: 'Contain (padded to the box)', cover: 'Cover (cropped to fill the box)', inside: 'Inside (fits, never enlarged)' }
const FORMATS: Record<Format, string> = { webp: 'WebP', avif: 'AVIF', jpeg: 'JPEG', png: 'PNG' }

/** A custom size as typed: an empty side follows the other (both empty: the image's own size). */
interface CustomSize {
  width: string
  height: string
  fit: Fit
  format: Format
  quality: string
}

/** What a download is doing: made first when the rendition is not stored, then handed to the browser. */
type DownloadState =
  | { kind: 'idle' }
  | { kind: 'preparing'; label: string }
  | { kind: 'saved'; label: string; clamped: string | null }
  | { kind: 'busy'; label: string; seconds: number; retry(): void }
  | { kind: 'failed'; label: string; message: string; retry(): void }

/** A rendition's signed file link, with what the server clamped to make it (`Rendition-Clamped`). */
interface Link {
  url: string
  clamped: string | null
}

/**
 * "Download as…": the asset in each preset of the organization (the built-ins and its own, linked by
 * the record's `renditions`) or at a custom size, which the render endpoint answers as a signed link
 * (`redirect=false`). A rendition not made yet is made by asking for the file's headers first, so that
 * a busy server (503 `render_busy`, with how long to wait) or a failure is said here, with a retry,
 * instead of as a broken download.
 */
export function DownloadAs({ asset }: { asset: Asset }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} aria-haspopup="dialog">
        Download as…
      </button>
      <Dialog title="Download as…" open={open} onClose={() => setOpen(false)}>
        <DownloadChoices asset={asset} />
      </Dialog>
    </>
  )
}

function DownloadChoices({ asset }: { asset: Asset }) {
  const org = useOrg()
  const presets = useQuery({ ...presetsQuery(org), meta: { quiet: true } })
  const [state, setState] = useState<DownloadState>({ kind: 'idle' })
  const statusRef = useRef<HTMLDivElement>(null)
  const broken = asset.thumbnail_status === 'failed'
  // A failure takes focus to its "Try again", so the keyboard is where the next step is.
  useEffect(() => {
    if (state.kind === 'busy' || state.kind === 'failed') statusRef.current?.querySelector('button')?.focus()
  }, [state])

  /** Gets the link, has the file made, then saves it; any failure becomes the state, with a retry. */
  const download = async (label: string, fileName: string, link: () => Promise<Link>) => {
    const retry = () => void download(label, fileName, link)
    setState({ kind: 'preparing', label })
    try {
      const { url, clamped } = await link()
      await madeReady(url)
      save(url, fileName)
      setState({ kind: 'saved', label, clamped })
    } catch (error) {
      const seconds = busyFor(error)
      setState(seconds === undefined ? { kind: 'failed', label, message: messageOf(error), retry } : { kind: 'busy', label, seconds, retry })
    }
  }

  const downloadPreset = (preset: Preset) => {
    const fileName = preset.name === 'original' ? downloadName(asset) : downloadName({ title: `${asset.title || 'asset'} (${preset.name})`, mime_type: `image/${preset.format}` })
    const signed = asset.renditions[preset.name]
    // A preset created since the record was read has no link in it yet: the render endpoint gives one.
    void download(preset.name, fileName, () => (signed !== undefined ? Promise.resolve({ url: signed, clamped: null }) : renderLink(asset.id, { preset: preset.name })))
  }

  const downloadCustom = (size: CustomSize) => {
    const query = customQuery(size)
    const label = [query.width ?? 'auto', query.height ?? 'auto'].join(' × ')
    const fileName = downloadName({ title: `${asset.title || 'asset'} (${query.width ?? ''}x${query.height ?? ''})`, mime_type: `image/${size.format}` })
    void download(`${label} ${FORMATS[size.format]}`, fileName, () => renderLink(asset.id, query))
  }

  const busy = state.kind === 'preparing'
  return (
    <div className="download-as stack">
      <section aria-labelledby="download-presets">
        <h3 id="download-presets" className="section-title">
          Presets
        </h3>
        {presets.isPending && <p className="muted">Loading presets…</p>}
        {presets.isError && <QueryError error={presets.error} onRetry={() => void presets.refetch()} what="the presets" />}
        {presets.data && (
          <ul className="download-presets">
            {presets.data.data.map((preset) => {
              const unavailable = broken && preset.name !== 'original'
              return (
                <li key={preset.name}>
                  <button type="button" onClick={() => downloadPreset(preset)} disabled={busy || unavailable} aria-describedby={`preset-${preset.name}`}>
                    {preset.name}
                  </button>{' '}
                  <span className="muted" id={`preset-${preset.name}`}>
                    {preset.format === null ? 'As uploaded' : FORMATS[preset.format]}, {presetSize(preset)}
                    {unavailable && ' (this image cannot be rendered)'}
                  </span>
                </li>
              )
            })}
          </ul>
        )}
      </section>
      {!broken && <CustomSizeForm busy={busy} onSubmit={downloadCustom} />}
      <div ref={statusRef} className="download-status">
        <DownloadStatus state={state} />
      </div>
    </div>
  )
}

function CustomSizeForm({ busy, onSubmit }: { busy: boolean; onSubmit(size: CustomSize): void }) {
  const [size, setSize] = useState<CustomSize>({ width: '', height: '', fit: 'contain', format: 'webp', quality: '' })
  const id = useId()
  const set = (changes: Partial<CustomSize>) => setSize((current) => ({ ...current, ...changes }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit(size)
  }
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`} className="stack">
      <h3 id={`${id}-title`} className="section-title">
        Custom size
      </h3>
      <p className="muted" id={`${id}-hint`}>
        Leave a side empty to keep the aspect ratio; leave both empty for the image’s own size. Sizes past the server’s limit are reduced, and it says so.
      </p>
      <div className="row download-fields">
        <label className="field">
          <span>Width (px)</span>
          <input type="number" inputMode="numeric" min={1} step={1} value={size.width} placeholder="Auto" onChange={(e) => set({ width: e.target.value })} aria-describedby={`${id}-hint`} />
        </label>
        <label className="field">
          <span>Height (px)</span>
          <input type="number" inputMode="numeric" min={1} step={1} value={size.height} placeholder="Auto" onChange={(e) => set({ height: e.target.value })} aria-describedby={`${id}-hint`} />
        </label>
      </div>
      <div className="row download-fields">
        <Choice label="Fit" options={FITS} value={size.fit} onChange={(fit) => set({ fit })} />
        <Choice label="Format" options={FORMATS} value={size.format} onChange={(format) => set({ format })} />
        <label className="field">
          <span>Quality</span>
          <input
            type="number"
            inputMode="numeric"
            min={20}
            max={100}
            step={1}
            placeholder="80"
            value={size.format === 'png' ? '' : size.quality}
            disabled={size.format === 'png'}
            title={size.format === 'png' ? 'PNG is lossless: it has no quality' : undefined}
            onChange={(e) => set({ quality: e.target.value })}
          />
        </label>
      </div>
      <div>
        <button type="submit" className="primary" disabled={busy}>
          Download custom size
        </button>
      </div>
    </form>
  )
}

/** A labelled select of `options` (value: label). */
function Choice<T extends string>(props: { label: string; options: Record<T, string>; value: T; onChange(value: T): void }) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value as T)}>
        {(Object.entries(props.options) as Array<[T, string]>).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  )
}

function DownloadStatus({ state }: { state: DownloadState }) {
  switch (state.kind) {
    case 'idle':
      return null
    case 'preparing':
      return (
        <p role="status" aria-busy="true">
          Preparing {state.label}…
        </p>
      )
    case 'saved':
      return (
        <p role="status">
          {state.label} is downloading.{state.clamped && ` The server reduced what was asked: ${state.clamped}.`}
        </p>
      )
    case 'busy':
      return (
        <div role="alert" className="form-error">
          <p>
            The server is busy making other renditions: {state.label} could not be made now. Try again in {state.seconds} second{state.seconds === 1 ? '' : 's'}.
          </p>
          <button type="button" onClick={state.retry}>
            Try again
          </button>
        </div>
      )
    case 'failed':
      return (
        <div role="alert" className="form-error">
          <p>
            {state.label} could not be downloaded. {state.message}
          </p>
          <button type="button" onClick={state.retry}>
            Try again
          </button>
        </div>
      )
  }
}

/** The render query of a custom size: the sides and quality typed (empty: left out), the fit and format. */
function customQuery(size: CustomSize) {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text))
  return {
    width: number(size.width),
    height: number(size.height),
    fit: size.fit,
    format: size.format,
    quality: size.format === 'png' ? undefined : number(size.quality),
  }
}

type RenderQuery = ReturnType<typeof customQuery> | { preset: string }

/** The signed link of a rendition, from the render endpoint (`redirect=false`: nothing is made yet). */
async function renderLink(id: string, query: RenderQuery): Promise<Link> {
  const { data, error, response } = await v1.GET('/api/v1/assets/{id}/render', { params: { path: { id }, query: { ...query, redirect: false } } })
  if (!response.ok || !data) throw answerError(response, error)
  return { url: data.url, clamped: response.headers.get('rendition-clamped') }
}

/** A failure to show as "busy, try again in N seconds": the render queue's 503 or a rate limit's 429. */
function busyFor(error: unknown): number | undefined {
  if (error instanceof ApiError && (error.status === 503 || error.status === 429)) return retrySeconds(error.retryAfter)
  if (error instanceof FileNotReady && error.status === 503) return retrySeconds(error.retryAfter)
  return undefined
}

/** The file link answered an error to its HEAD: it has no body, so its status says what happened. */
class FileNotReady extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: number | undefined,
  ) {
    super(
      status === 404
        ? 'The file is gone: the asset may have been deleted or replaced. Reload the page.'
        : status === 403
          ? 'The link has expired: reload the page for a fresh one.'
          : `The server answered ${status}.`,
    )
    this.name = 'FileNotReady'
  }
}

/**
 * Asks for the file's headers: a rendition not stored yet is made by then, so the download that follows
 * streams a stored file, and a refusal is known here. A link on another origin (a CDN) that does not
 * allow this is simply downloaded.
 */
async function madeReady(url: string): Promise<void> {
  let response: Response
  try {
    response = await fetch(url, { method: 'HEAD', credentials: 'omit' })
  } catch {
    return
  }
  if (response.ok) return
  const retryAfter = Number(response.headers.get('retry-after'))
  throw new FileNotReady(response.status, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined)
}

/** Hands the file to the browser under its name: the link asks for an attachment (the /files route's `download`). */
function save(url: string, fileName: string): void {
  const href = new URL(url, window.location.href)
  href.searchParams.set('download', fileName)
  const anchor = document.createElement('a')
  anchor.href = href.href
  anchor.download = fileName
  anchor.rel = 'noopener'
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
}
