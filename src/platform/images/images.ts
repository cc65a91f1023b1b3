import sharp from 'sharp'
import { ImageError } from './image-error.js'
import { checkStructure } from './structure.js'
import { SvgRenderer, type SvgRenderLimits, type SvgTarget } from './svg-render.js'
import { inspectSvg, looksLikeSvg } from './svg.js'

export { ImageError, type ImageErrorKind } from './image-error.js'

// libvips's operation cache (sharp's default: 50 MB, 100 operations) keeps the results of recent
// operations for when the same ones run again. Here every decode and resize is of another file, so it
// only held memory: the serving process's RSS under a list load, with derivations running, was the
// highest of all our figures (issue 39).
sharp.cache(false)

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff' | 'svg'

export interface ImageInfo {
  format: ImageFormat
  mimeType: string
  width: number
  height: number
  /** Present when the image has more than one frame or page. */
  frames?: number
  /** The text the file carries for people (an SVG's `<title>` and `<desc>`), when it has any. */
  text?: string
}

export interface ProcessedImage {
  info: ImageInfo
  /** WebP, longest side at most `thumbnailSize`, orientation applied, no metadata. */
  thumbnail: Buffer
}

export interface ImageLimits {
  /** Width x height summed over every frame. sharp's own default (268 MP) lets a 31 KB PNG through. */
  maxPixels?: number
  /** Longest side of the thumbnail, in pixels. */
  thumbnailSize?: number
}

export interface ImageProcessorOptions extends ImageLimits {
  /** Images decoded at once in this process: one 25 MiB input costs ~130 MB of RSS while decoding. */
  maxConcurrent?: number
  /** The time and memory an SVG's render process may take (`SVG_RENDER_*`). */
  svgRender?: SvgRenderLimits
  /** The longest side an SVG is drawn at when a rendition asks for no size (`RENDER_MAX_SIDE`). */
  renderMaxSide?: number
}

export const DEFAULT_MAX_PIXELS = 50_000_000
export const DEFAULT_THUMBNAIL_SIZE = 512
export const DEFAULT_SVG_RENDER: SvgRenderLimits = { timeoutMs: 10_000, maxMemoryMb: 512 }
export const DEFAULT_RENDER_MAX_SIDE = 4096

const MIME_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/**
 * Names the format from its magic bytes, so only the decoders we accept ever see untrusted input
 * (a libvips built with ImageMagick or PDFium support would otherwise parse anything).
 * `refused` names a recognisable image format we do not accept.
 */
function sniff(bytes: Buffer): ImageFormat | { refused: string } | undefined {
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 1024))
  if (head.startsWith('\xff\xd8\xff')) return 'jpeg'
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png'
  if (/^GIF8[79]a/.test(head)) return 'gif'
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp'
  if (/^(II\*\0|MM\0\*|II\+\0|MM\0\+)/.test(head)) return 'tiff'
  if (head.slice(4, 8) === 'ftyp') {
    // AVIF files list `avif` (still) or `avis` (sequence) among the brands of their first box.
    const boxEnd = Math.min(bytes.readUInt32BE(0), 64, head.length)
    const brands = head.slice(8, 12) + head.slice(16, boxEnd)
    return /^(?:.{4})*?avi[fs]/s.test(brands) ? 'avif' : { refused: 'HEIF/HEIC' }
  }
  // Markup (or gzip or UTF-16 holding SVG): the SVG sanitizer accepts it or says why not.
  if (looksLikeSvg(bytes)) return 'svg'
  return undefined
}

/**
 * Reads format, size and frame count from the header, and walks a raster image's structure to its end
 * (structure.ts), without decoding pixels. It cannot see pixel data that is whole but corrupt:
 * `processImage` decodes and catches that. An SVG is parsed whole by the
 * sanitizer (`svg.ts`), which refuses what could run, load or expand anything.
 */
export async function inspectImage(bytes: Buffer, limits: ImageLimits = {}): Promise<ImageInfo> {
  const maxPixels = limits.maxPixels ?? DEFAULT_MAX_PIXELS
  if (sniff(bytes) !== 'svg') return inspectRaster(bytes, maxPixels)
  return inspectSvg(bytes, {
    maxPixels,
    inspectEmbedded: async (embedded) => {
      const image = await inspectRaster(embedded, maxPixels)
      return { format: image.format, pixels: image.width * image.height * (image.frames ?? 1) }
    },
  })
}

/** The header of a raster image: an SVG is refused here (one embedded in another SVG is). */
async function inspectRaster(bytes: Buffer, maxPixels: number): Promise<ImageInfo> {
  const sniffed = sniff(bytes)
  if (sniffed === undefined) throw new ImageError('not_an_image', 'The data is not an image.')
  if (sniffed === 'svg') throw new ImageError('unsupported_format', 'An SVG is accepted only as the file itself, not inside another image.')
  if (typeof sniffed === 'object') throw unsupported(sniffed.refused)
  checkStructure(sniffed, bytes)

  let meta: sharp.Metadata
  try {
    meta = await sharp(bytes, { limitInputPixels: maxPixels }).metadata()
  } catch (error) {
    throw fromSharp(error, maxPixels)
  }
  const format = meta.format === 'heif' ? 'avif' : meta.format
  if (format !== sniffed) throw new ImageError('not_an_image', 'The data is not a valid image.')
  if (format === 'avif' && meta.compression !== 'av1') throw unsupported('HEIC')
  if (!meta.width || !meta.height) throw new ImageError('not_an_image', 'The image has no size.')

  // Without `animated`, height is one frame's: every frame counts against the limit.
  const frames = meta.pages ?? 1
  if (meta.width * meta.height * frames > maxPixels) throw tooManyPixels(maxPixels)
  // The size as shown: a JPEG stored landscape with EXIF orientation 6 is a portrait, and its thumbnail and renditions are.
  const shown = meta.autoOrient ?? meta
  return {
    format,
    mimeType: MIME_TYPES[format],
    width: shown.width,
    height: shown.height,
    ...(frames > 1 && { frames }),
  }
}

/**
 * Inspects (unless given `inspected`, what `inspectImage` found in these bytes with these limits), fully
 * decodes (the first frame) and renders the thumbnail, in this process: raster images only, since an
 * SVG is rendered out of process (`ImageProcessor`).
 */
export async function processImage(bytes: Buffer, limits: ImageLimits = {}, inspected?: ImageInfo): Promise<ProcessedImage> {
  const info = inspected ?? (await inspectImage(bytes, limits))
  if (info.format === 'svg') throw new TypeError('SVG is rendered out of process: use ImageProcessor')
  const maxPixels = limits.maxPixels ?? DEFAULT_MAX_PIXELS
  try {
    const thumbnail = await thumbnailPipeline(sharp(bytes, decoding(maxPixels)), limits.thumbnailSize ?? DEFAULT_THUMBNAIL_SIZE, false).toBuffer()
    return { info, thumbnail }
  } catch (error) {
    throw fromSharp(error, maxPixels)
  }
}

function decoding(maxPixels: number, density?: number): sharp.SharpOptions {
  // 'warning' would refuse camera JPEGs with harmless warnings; 'error' still catches truncation.
  return { limitInputPixels: maxPixels, autoOrient: true, failOn: 'error', ...(density !== undefined && { density }) }
}

/** `enlarge`: a vector image rasterized near the size is scaled the last pixel, where a raster image is never scaled up. */
function thumbnailPipeline(input: sharp.Sharp, size: number, enlarge: boolean): sharp.Sharp {
  return (
    input
      .resize(size, size, { fit: 'inside', withoutEnlargement: !enlarge })
      // effort 2 (default 4): ~25% less CPU for thumbnails 1-3% larger, measured on 1 MiB inputs.
      .webp({ effort: 2 })
  )
}

/** A rendition to make: see `modules/renditions/spec.ts` for what each field means. */
export interface RenderOptions {
  width: number | null
  height: number | null
  fit: 'contain' | 'cover' | 'inside'
  format: 'png' | 'jpeg' | 'webp' | 'avif'
  quality: number | null
  /** `rrggbb` or `rrggbbaa`; null: transparent, white for JPEG. */
  background: string | null
  /** `nearest`: every pixel of the result is one of the image's own, none a blend of neighbours (a palette's sample). */
  kernel?: 'nearest'
}

export interface RenderedImage {
  data: Buffer
  width: number
  height: number
}

/**
 * Renders a raster image (one that `inspectImage` accepted) at the size and in the format asked. With
 * both sides, `contain` pads to the box and `cover` crops to it, scaling up if need be; `inside` never
 * scales up. Orientation applied, metadata dropped.
 */
export async function renderImage(bytes: Buffer, options: RenderOptions, limits: ImageLimits = {}): Promise<RenderedImage> {
  if (sniff(bytes) === 'svg') throw new TypeError('SVG is rendered out of process: use ImageProcessor')
  return renderPipeline(bytes, options, limits.maxPixels ?? DEFAULT_MAX_PIXELS)
}

/** `density`: an SVG's, rasterized at about the size asked (`rasterizeSvg`), so `inside` may scale it the last pixel. */
async function renderPipeline(bytes: Buffer, options: RenderOptions, maxPixels: number, density?: number): Promise<RenderedImage> {
  const background = backgroundOf(options)
  try {
    let pipeline = sharp(bytes, decoding(maxPixels, density))
    if (options.width !== null || options.height !== null) {
      pipeline = pipeline.resize(options.width, options.height, {
        fit: options.fit,
        background,
        withoutEnlargement: options.fit === 'inside' && density === undefined,
        ...(options.kernel && { kernel: options.kernel }),
      })
    }
    if (options.format === 'jpeg') pipeline = pipeline.flatten({ background })
    const { data, info } = await encode(pipeline, options).toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  } catch (error) {
    throw fromSharp(error, maxPixels)
  }
}

/**
 * Renders an SVG the sanitizer accepted: run only in an SVG render process (`svg-render.ts`), which is
 * killed past its time and memory limits. librsvg draws at the density that makes the SVG's own size
 * (read by libvips, at 72 dpi) about the size asked, so a 24 px icon makes a sharp 512 px thumbnail;
 * never past `maxPixels` however long and thin the box asked for.
 */
export async function rasterizeSvg(bytes: Buffer, target: SvgTarget, maxPixels: number): Promise<RenderedImage> {
  let own: sharp.Metadata
  try {
    own = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch (error) {
    throw fromSharp(error, maxPixels)
  }
  const size = { width: own.width || 1, height: own.height || 1 }
  const box = target.kind === 'thumbnail' ? { width: target.size, height: target.size, fit: 'inside' as const } : { ...target.options }
  const scales = [box.width === null ? null : box.width / size.width, box.height === null ? null : box.height / size.height].filter((scale) => scale !== null)
  const ownSize = target.kind === 'render' ? Math.min(1, target.maxSide / Math.max(size.width, size.height)) : 1
  const fitting = scales.length === 0 ? ownSize : box.fit === 'cover' ? Math.max(...scales) : Math.min(...scales)
  const scale = Math.min(fitting, Math.sqrt(maxPixels / (size.width * size.height)))
  const density = Math.min(100_000, Math.max(1, 72 * scale))
  if (target.kind === 'render') return renderPipeline(bytes, target.options, maxPixels, density)
  try {
    const { data, info } = await thumbnailPipeline(sharp(bytes, decoding(maxPixels, density)), target.size, true).toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  } catch (error) {
    throw fromSharp(error, maxPixels)
  }
}

function encode(pipeline: sharp.Sharp, options: RenderOptions): sharp.Sharp {
  const quality = options.quality ?? undefined
  switch (options.format) {
    case 'png':
      return pipeline.png()
    case 'jpeg':
      return pipeline.jpeg({ quality })
    case 'webp':
      return pipeline.webp({ quality })
    case 'avif':
      // effort 2 (default 4): AVIF is slow to encode, and a first render is made while its client waits.
      return pipeline.avif({ quality, effort: 2 })
  }
}

function backgroundOf(options: RenderOptions): sharp.RGBA {
  const hex = options.background ?? (options.format === 'jpeg' ? 'ffffff' : 'ffffff00')
  const channel = (index: number) => parseInt(hex.slice(index, index + 2), 16)
  return { r: channel(0), g: channel(2), b: channel(4), alpha: hex.length === 8 ? channel(6) / 255 : 1 }
}

export async function makeThumbnail(bytes: Buffer, limits: ImageLimits = {}): Promise<Buffer> {
  return (await processImage(bytes, limits)).thumbnail
}

/**
 * Bounds how many images this process decodes at once. Create one per process and pass it to
 * whoever needs it; waiting callers are served in arrival order.
 */
export class ImageProcessor {
  private readonly limits: Required<ImageLimits>
  private readonly maxConcurrent: number
  private running = 0
  private readonly queue: (() => void)[] = []
  private readonly svg: SvgRenderer
  private readonly renderMaxSide: number

  constructor(options: ImageProcessorOptions = {}) {
    this.maxConcurrent = options.maxConcurrent ?? 2
    if (!Number.isInteger(this.maxConcurrent) || this.maxConcurrent < 1) throw new RangeError('maxConcurrent must be a positive integer')
    this.limits = { maxPixels: options.maxPixels ?? DEFAULT_MAX_PIXELS, thumbnailSize: options.thumbnailSize ?? DEFAULT_THUMBNAIL_SIZE }
    this.svg = new SvgRenderer(options.svgRender ?? DEFAULT_SVG_RENDER)
    this.renderMaxSide = options.renderMaxSide ?? DEFAULT_RENDER_MAX_SIDE
  }

  /** Ends the SVG render processes (they also end by themselves when this process does). */
  close(): void {
    this.svg.close()
  }

  /** Decodes in progress. */
  get active(): number {
    return this.running
  }

  /** Calls waiting for a decoding slot. */
  get waiting(): number {
    return this.queue.length
  }

  /**
   * A raster image's header: cheap, so it does not wait for a slot. An SVG is sanitized whole, in a
   * render process (a large one takes seconds of CPU), in one of the slots.
   */
  inspect(bytes: Buffer): Promise<ImageInfo> {
    if (sniff(bytes) !== 'svg') return inspectImage(bytes, this.limits)
    return this.withSlot(() => this.svg.inspect(bytes, this.limits.maxPixels))
  }

  /**
   * `inspected`: what `inspect` found in these bytes, so a raster header is not read twice. An SVG is
   * sanitized again (the original may predate a rule) and rendered, both in a render process.
   */
  process(bytes: Buffer, inspected?: ImageInfo): Promise<ProcessedImage> {
    return this.withSlot(async () => {
      if (sniff(bytes) !== 'svg') return processImage(bytes, this.limits, inspected)
      const { info, image } = await this.svg.render(bytes, { kind: 'thumbnail', size: this.limits.thumbnailSize }, this.limits.maxPixels)
      return { info, thumbnail: image.data }
    })
  }

  async thumbnail(bytes: Buffer): Promise<Buffer> {
    return (await this.process(bytes)).thumbnail
  }

  /**
   * A rendition of an image `inspect` accepted, decoded in one of this process's slots: a raster image
   * here, an SVG (sanitized again) in a render process at the size asked.
   */
  render(bytes: Buffer, options: RenderOptions): Promise<RenderedImage> {
    return this.withSlot(async () => {
      if (sniff(bytes) !== 'svg') return renderImage(bytes, options, this.limits)
      return (await this.svg.render(bytes, { kind: 'render', options, maxSide: this.renderMaxSide }, this.limits.maxPixels)).image
    })
  }

  private async withSlot<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.maxConcurrent) this.running++
    else await new Promise<void>((resolve) => this.queue.push(resolve))
    try {
      return await task()
    } finally {
      // Hand the slot straight to the next caller so a newcomer cannot overtake the queue.
      const next = this.queue.shift()
      if (next) next()
      else this.running--
    }
  }
}

function unsupported(name: string): ImageError {
  return new ImageError('unsupported_format', `${name} images are not accepted; send JPEG, PNG, WebP, GIF, AVIF, TIFF or SVG.`)
}

function tooManyPixels(maxPixels: number, cause?: unknown): ImageError {
  return new ImageError('too_many_pixels', `The image has more than ${maxPixels} pixels (all frames counted).`, { cause })
}

function fromSharp(error: unknown, maxPixels: number): ImageError {
  if (error instanceof Error && /pixel limit/i.test(error.message)) return tooManyPixels(maxPixels, error)
  return new ImageError('not_an_image', 'The image could not be decoded; it may be truncated or corrupt.', { cause: error })
}
