import type { Readable } from 'node:stream'
import { setTimeout as delay } from 'node:timers/promises'
import { AppError } from '../../platform/http/errors.js'
import { DEFAULT_THUMBNAIL_SIZE } from '../../platform/images/images.js'
import type { AssetFile, AssetFiles, RenditionFiles } from '../assets/files.js'
import { filePath } from '../assets/record.js'
import { renditionMimeType, renditionPath, specSegment, type RenditionFit, type RenditionFormat, type RenditionPreset } from '../renditions/spec.js'

/** An asset version whose files a share offers. */
interface SharedAsset {
  id: string
  version: number
}

/** A preset as a share offers it: what it is, the path of an asset's file (signed for the share), and how to read that file. */
export interface SharePreset {
  name: string
  /** Null for `original`: the asset's own. */
  format: RenditionFormat | null
  width: number | null
  height: number | null
  fit: RenditionFit
  /** The files' type, for their names; null for `original`: the asset's own. */
  mimeType: string | null
  path(asset: SharedAsset): string
  /** The file's bytes, made first when it is not stored (a rendition waiting its turn in the render queue). */
  open(asset: SharedAsset, signal: AbortSignal): Promise<Readable>
}

/**
 * The presets a share offers, in the order `GET /api/v1/presets` lists them: the built-ins `thumbnail`
 * and `original`, then the organization's own. A preset's file is the rendition its record links
 * (`renditions[NAME]`), read through the renditions service: made once per file (single-flight), in the
 * render queue's turn.
 */
export function sharePresets(own: readonly RenditionPreset[], deps: { files: AssetFiles; renditions: RenditionFiles }): SharePreset[] {
  const variant = (name: 'thumbnail' | 'original') => (asset: SharedAsset) => opened(deps.files.file(asset.id, name, asset.version), asset)
  return [
    {
      name: 'thumbnail',
      format: 'webp',
      width: DEFAULT_THUMBNAIL_SIZE,
      height: DEFAULT_THUMBNAIL_SIZE,
      fit: 'inside',
      mimeType: renditionMimeType('webp'),
      path: (asset) => filePath(asset.id, asset.version, 'thumbnail'),
      open: variant('thumbnail'),
    },
    { name: 'original', format: null, width: null, height: null, fit: 'inside', mimeType: null, path: (asset) => filePath(asset.id, asset.version, 'original'), open: variant('original') },
    ...own.map(({ name, spec }): SharePreset => ({
      name,
      format: spec.format,
      width: spec.width,
      height: spec.height,
      fit: spec.fit,
      mimeType: renditionMimeType(spec.format),
      path: (asset) => renditionPath(asset.id, asset.version, spec),
      open: (asset, signal) => inItsTurn(() => opened(deps.renditions.file(asset.id, asset.version, specSegment(spec)), asset), signal),
    })),
  ]
}

/** A file's bytes; an asset deleted since the zip was listed fails the zip rather than leave a hole. */
async function opened(file: Promise<AssetFile | null>, asset: SharedAsset): Promise<Readable> {
  const blob = await (await file)?.open()
  if (!blob) throw new Error(`the file of asset ${asset.id} version ${asset.version} is gone`)
  return blob.body
}

/**
 * Runs `attempt` until the render queue takes it: a zip asks for one rendition at a time, so when the
 * queue is full (`render_busy`) it waits the `Retry-After` the queue gives and asks again, rather than
 * fail a download well under way. It stops waiting when the reader goes away (`signal`).
 */
async function inItsTurn<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (;;) {
    try {
      return await attempt()
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'render_busy')) throw error
      await delay((error.retryAfterSeconds ?? 1) * 1000, undefined, { signal })
    }
  }
}
