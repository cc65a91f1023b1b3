import sharp from 'sharp'

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff'

export interface ImageInfo {
  format: ImageFormat
  mimeType: string
  width: number
  height: number
  /** Present when the image has more than one frame or page. */
  frames?: number
}

export interface ProcessedImage {
  info: ImageInfo
  /** WebP, longest side at most `thumbnailSize`, orientation applied, no metadata. */
  thumbnail: Buffer
}

export type ImageErrorKind = 'not_an_image' | 'unsupported_format' | 'too_many_pixels'

/** The input is refused; `message` is safe to show to the client. */
export class ImageError extends Error {
  constructor(
    readonly kind: ImageErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'ImageError'
  }
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
}

export const DEFAULT_MAX_PIXELS = 50_000_000
export const DEFAULT_THUMBNAIL_SIZE = 512

const MIME_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  tiff: 'image/tiff',
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
  // SVG is refused: librsvg decodes `data:` images embedded in it with no pixel limit (a 290 KB SVG
  // took 1.1 GB and 2.6 s here). This check only picks the error kind: unmatched input is refused anyway.
  if (/^(\xef\xbb\xbf)?\s*</.test(head) && /<svg[\s>]/i.test(head)) return { refused: 'SVG' }
  return undefined
}

/**
 * Reads format, size and frame count from the header, without decoding pixels. It cannot see a
 * truncated or corrupt body: `processImage` decodes and catches those.
 */
export async function inspectImage(bytes: Buffer, limits: ImageLimits = {}): Promise<ImageInfo> {
  const maxPixels = limits.maxPixels ?? DEFAULT_MAX_PIXELS
  const sniffed = sniff(bytes)
  if (sniffed === undefined) throw new ImageError('not_an_image', 'The data is not an image.')
  if (typeof sniffed === 'object') throw unsupported(sniffed.refused)

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
  return {
    format,
    mimeType: MIME_TYPES[format],
    width: meta.width,
    height: meta.height,
    ...(frames > 1 && { frames }),
  }
}

/**
 * Inspects (unless given `inspected`, what `inspectImage` found in these bytes with these limits), fully
 * decodes (the first frame) and renders the thumbnail.
 */
export async function processImage(bytes: Buffer, limits: ImageLimits = {}, inspected?: ImageInfo): Promise<ProcessedImage> {
  const info = inspected ?? (await inspectImage(bytes, limits))
  const maxPixels = limits.maxPixels ?? DEFAULT_MAX_PIXELS
  const size = limits.thumbnailSize ?? DEFAULT_THUMBNAIL_SIZE
  try {
    const thumbnail = await sharp(bytes, {
      limitInputPixels: maxPixels,
      autoOrient: true,
      // 'warning' would refuse camera JPEGs with harmless warnings; 'error' still catches truncation.
      failOn: 'error',
    })
      .resize(size, size, { fit: 'inside', withoutEnlargement: true })
      // effort 2 (default 4): ~25% less CPU for thumbnails 1-3% larger, measured on 1 MiB inputs.
      .webp({ effort: 2 })
      .toBuffer()
    return { info, thumbnail }
  } catch (error) {
    throw fromSharp(error, maxPixels)
  }
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
  const maxPixels = limits.maxPixels ?? DEFAULT_MAX_PIXELS
  const background = backgroundOf(options)
  try {
    let pipeline = sharp(bytes, { limitInputPixels: maxPixels, autoOrient: true, failOn: 'error' })
    if (options.width !== null || options.height !== null) {
      pipeline = pipeline.resize(options.width, options.height, { fit: options.fit, background, withoutEnlargement: options.fit === 'inside' })
    }
    if (options.format === 'jpeg') pipeline = pipeline.flatten({ background })
    const { data, info } = await encode(pipeline, options).toBuffer({ resolveWithObject: true })
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
  private readonly limits: ImageLimits
  private readonly maxConcurrent: number
  private running = 0
  private readonly queue: (() => void)[] = []

  constructor(options: ImageProcessorOptions = {}) {
    this.maxConcurrent = options.maxConcurrent ?? 2
    if (!Number.isInteger(this.maxConcurrent) || this.maxConcurrent < 1) throw new RangeError('maxConcurrent must be a positive integer')
    this.limits = { maxPixels: options.maxPixels ?? DEFAULT_MAX_PIXELS, thumbnailSize: options.thumbnailSize ?? DEFAULT_THUMBNAIL_SIZE }
  }

  /** Decodes in progress. */
  get active(): number {
    return this.running
  }

  /** Calls waiting for a decoding slot. */
  get waiting(): number {
    return this.queue.length
  }

  /** Header only: cheap, so it does not wait for a slot. */
  inspect(bytes: Buffer): Promise<ImageInfo> {
    return inspectImage(bytes, this.limits)
  }

  /** `inspected`: what `inspect` found in these bytes, so the header is not read twice. */
  process(bytes: Buffer, inspected?: ImageInfo): Promise<ProcessedImage> {
    return this.withSlot(() => processImage(bytes, this.limits, inspected))
  }

  async thumbnail(bytes: Buffer): Promise<Buffer> {
    return (await this.process(bytes)).thumbnail
  }

  /** A rendition of an image `inspect` accepted, decoded in one of this process's slots. */
  render(bytes: Buffer, options: RenderOptions): Promise<RenderedImage> {
    return this.withSlot(() => renderImage(bytes, options, this.limits))
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
  return new ImageError('unsupported_format', `${name} images are not accepted; send JPEG, PNG, WebP, GIF, AVIF or TIFF.`)
}

function tooManyPixels(maxPixels: number, cause?: unknown): ImageError {
  return new ImageError('too_many_pixels', `The image has more than ${maxPixels} pixels (all frames counted).`, { cause })
}

function fromSharp(error: unknown, maxPixels: number): ImageError {
  if (error instanceof Error && /pixel limit/i.test(error.message)) return tooManyPixels(maxPixels, error)
  return new ImageError('not_an_image', 'The image could not be decoded; it may be truncated or corrupt.', { cause: error })
}
