/**
 * What a rendition is: an asset version's image at a size and in a format. One normalised form of the
 * parameters names it everywhere: in the signed file path (so a link cannot be altered into another
 * size), in the blob store's key (so one set of parameters is made once per file), and in presets.
 *
 * The canonical text of a spec is `w<W>-h<H>-<fit>-q<Q>-b<rrggbb[aa]>.<format>`, each size and the
 * background left out when unset, the quality left out for PNG: `w1200-contain-q80.webp`,
 * `w1200-h630-cover-q82.jpeg`, `w512-h512-contain-bffffff.png`.
 */

export const RENDITION_FORMATS = ['png', 'jpeg', 'webp', 'avif'] as const
export type RenditionFormat = (typeof RENDITION_FORMATS)[number]
/** What a request may ask for: `auto` picks one of the formats from `Accept` (see `negotiateFormat`). */
export const REQUESTED_FORMATS = [...RENDITION_FORMATS, 'auto'] as const
export type RequestedFormat = (typeof REQUESTED_FORMATS)[number]

/**
 * - `contain` (the default): the whole image inside width × height, padded to exactly that box with the
 *   background (transparent, or white for JPEG);
 * - `cover`: the box filled exactly, the image cropped from its centre;
 * - `inside`: the whole image inside the box, no padding: the result may be smaller than the box.
 * With one side given, all three keep the aspect ratio and give that side.
 */
export const RENDITION_FITS = ['contain', 'cover', 'inside'] as const
export type RenditionFit = (typeof RENDITION_FITS)[number]

export const DEFAULT_QUALITY = 80
export const MIN_QUALITY = 20
export const MAX_QUALITY = 100
/** The most pixels a rendition may have; a larger box is scaled down, its aspect kept. */
export const MAX_OUTPUT_PIXELS = 40_000_000

/** The built-in presets every organization has: the 512 px thumbnail and the original as pushed. */
export const BUILT_IN_PRESETS = ['thumbnail', 'original'] as const

export interface RenditionSpec {
  /** Null: follows from the other side and the image's aspect ratio (both null: the image's own size). */
  width: number | null
  height: number | null
  fit: RenditionFit
  format: RenditionFormat
  /** Null for PNG, which is lossless. */
  quality: number | null
  /** `rrggbb` or `rrggbbaa`, lower case; null for the default (transparent, white for JPEG). */
  background: string | null
}

/** A named spec an organization keeps (its own presets), or one of the built-ins. */
export interface RenditionPreset {
  name: string
  spec: RenditionSpec
}

/** A parameter the request asked for out of range, and the value used instead. */
export interface Clamped {
  name: 'width' | 'height' | 'quality'
  asked: number
  used: number
}

/** The request's parameters as received, all optional text: a query string, or a preset's fields. */
export interface RenditionParams {
  width?: string | number | undefined
  height?: string | number | undefined
  fit?: string | undefined
  format?: string | undefined
  quality?: string | number | undefined
  background?: string | undefined
}

/** Nonsense in the parameters (not a number, an unknown format or fit): the caller's 400, per field. */
export class RenditionParamsError extends Error {
  constructor(readonly problems: Array<{ field: keyof RenditionParams; detail: string }>) {
    super(problems.map((problem) => `${problem.field} ${problem.detail}`).join('; '))
    this.name = 'RenditionParamsError'
  }
}

export interface Normalised {
  /** `format` is still `auto` when asked so; `resolveFormat` settles it. */
  spec: Omit<RenditionSpec, 'format'> & { format: RequestedFormat }
  clamped: Clamped[]
}

const BACKGROUND = /^#?([0-9a-f]{6}|[0-9a-f]{8})$/i

/**
 * Reads the parameters: out-of-range numbers are clamped (and listed in `clamped`), never refused;
 * what is not a number, an unknown fit or format, or a background that is not a hex colour throws
 * `RenditionParamsError`. `maxSide` is RENDER_MAX_SIDE.
 */
export function normaliseRendition(params: RenditionParams, maxSide: number): Normalised {
  const problems: RenditionParamsError['problems'] = []
  const clamped: Clamped[] = []
  const number = (field: 'width' | 'height' | 'quality', min: number, max: number): number | null => {
    const raw = params[field]
    if (raw === undefined || raw === '') return null
    const asked = typeof raw === 'number' ? raw : Number(raw.trim())
    if (!Number.isFinite(asked)) {
      problems.push({ field, detail: 'is not a number' })
      return null
    }
    const used = Math.min(max, Math.max(min, Math.round(asked)))
    if (used !== asked) clamped.push({ name: field, asked, used })
    return used
  }
  const width = number('width', 1, maxSide)
  const height = number('height', 1, maxSide)
  const quality = number('quality', MIN_QUALITY, MAX_QUALITY)
  const fit = oneOf(params.fit, RENDITION_FITS, 'contain', 'fit', problems)
  const format = oneOf(params.format, REQUESTED_FORMATS, 'auto', 'format', problems)
  let background: string | null = null
  if (params.background !== undefined && params.background !== '') {
    const match = BACKGROUND.exec(params.background.trim())
    if (match) background = match[1]!.toLowerCase()
    else problems.push({ field: 'background', detail: 'is not a hex colour (rrggbb or rrggbbaa)' })
  }
  if (problems.length > 0) throw new RenditionParamsError(problems)
  // The 40 MP cap is `withinOutputLimits`'s, once the image's size is known: a side asked alone may give either.
  return { spec: { width, height, fit, format, quality: format === 'png' ? null : (quality ?? DEFAULT_QUALITY), background }, clamped }
}

function oneOf<T extends string>(raw: string | undefined, allowed: readonly T[], fallback: T, field: keyof RenditionParams, problems: RenditionParamsError['problems']): T {
  if (raw === undefined || raw === '') return fallback
  const value = raw.trim().toLowerCase()
  if ((allowed as readonly string[]).includes(value)) return value as T
  problems.push({ field, detail: `must be one of ${allowed.join(', ')}` })
  return fallback
}

/**
 * The concrete format of a spec asked with `auto`: AVIF or WebP when `Accept` names it (AVIF first:
 * smaller), else JPEG for a JPEG original and PNG for any other (which may have transparency). Read
 * from the type alone, so choosing costs no look at the file.
 */
export function negotiateFormat(accept: string | undefined, sourceMimeType: string): RenditionFormat {
  const accepted = (accept ?? '').toLowerCase()
  if (/\bimage\/avif\b/.test(accepted)) return 'avif'
  if (/\bimage\/webp\b/.test(accepted)) return 'webp'
  return sourceMimeType === 'image/jpeg' ? 'jpeg' : 'png'
}

/** The spec with its format settled (the quality dropped for PNG, defaulted for the others). */
export function resolveFormat(spec: Normalised['spec'], format: RenditionFormat): RenditionSpec {
  return { ...spec, format, quality: format === 'png' ? null : (spec.quality ?? DEFAULT_QUALITY) }
}

/** The canonical text of a spec: the file path's last part, and the blob key's. */
export function specSegment(spec: RenditionSpec): string {
  const parts = [
    spec.width !== null && `w${spec.width}`,
    spec.height !== null && `h${spec.height}`,
    spec.fit,
    spec.quality !== null && `q${spec.quality}`,
    spec.background !== null && `b${spec.background}`,
  ].filter((part): part is string => part !== false)
  return `${parts.join('-')}.${spec.format}`
}

const SEGMENT = /^(?:w(\d{1,5})-)?(?:h(\d{1,5})-)?(contain|cover|inside)(?:-q(\d{2,3}))?(?:-b([0-9a-f]{6}|[0-9a-f]{8}))?\.(png|jpeg|webp|avif)$/

/** The spec a segment names, or null unless it is exactly the canonical text of a spec (as `specSegment` writes it). */
export function parseSpecSegment(segment: string): RenditionSpec | null {
  const match = SEGMENT.exec(segment)
  if (!match) return null
  const [, width, height, fit, quality, background, format] = match
  const spec: RenditionSpec = {
    width: width === undefined ? null : Number(width),
    height: height === undefined ? null : Number(height),
    fit: fit as RenditionFit,
    format: format as RenditionFormat,
    quality: quality === undefined ? null : Number(quality),
    background: background ?? null,
  }
  return specSegment(spec) === segment && (spec.format === 'png') === (spec.quality === null) ? spec : null
}

/** The MIME type of a rendition's file. */
export function renditionMimeType(format: RenditionFormat): string {
  return `image/${format}`
}

/** The signed path of a version's rendition: the spec is in it, so the signature covers it. */
export function renditionPath(id: string, version: number, spec: RenditionSpec): string {
  return `/files/assets/${id}/versions/${version}/renditions/${specSegment(spec)}`
}

/** A width and height in pixels. */
export interface Size {
  width: number
  height: number
}

/**
 * The size sharp gives a rendition of an image of `source` size, worked out without rendering: with both
 * sides `contain` and `cover` give the box and `inside` the image scaled into it (never up); with one
 * side, that side and the other in proportion (`inside` never scaling up); with neither, the image's own.
 */
export function outputSize(spec: Pick<RenditionSpec, 'width' | 'height' | 'fit'>, source: Size): Size {
  const { width, height, fit } = spec
  if (width === null && height === null) return source
  if (width !== null && height !== null) {
    if (fit !== 'inside') return { width, height }
    const scale = Math.min(width / source.width, height / source.height)
    if (scale >= 1) return source
    return width / source.width <= height / source.height
      ? { width, height: Math.max(1, Math.round(source.height * scale)) }
      : { width: Math.max(1, Math.round(source.width * scale)), height }
  }
  if (fit === 'inside' && ((width ?? 0) >= source.width || (height ?? 0) >= source.height)) return source
  return width !== null
    ? { width, height: Math.max(1, Math.round((source.height * width) / source.width)) }
    : { width: Math.max(1, Math.round((source.width * height!) / source.height)), height: height! }
}

/**
 * The spec with its sizes lowered, aspect kept, when the rendition it makes of an image of `source` size
 * would have a side over `maxSide` or more than `MAX_OUTPUT_PIXELS` (a side asked for alone gives the
 * other in proportion, which may be either: `width=4096` of a tall strip). What it lowers is added to
 * `clamped`, as the sizes asked for out of range are.
 */
export function withinOutputLimits<S extends Pick<RenditionSpec, 'width' | 'height' | 'fit'>>(spec: S, source: Size, maxSide: number, clamped: Clamped[]): S {
  const size = outputSize(spec, source)
  const scale = Math.min(1, maxSide / size.width, maxSide / size.height, Math.sqrt(MAX_OUTPUT_PIXELS / (size.width * size.height)))
  if (scale >= 1) return spec
  const lowered = (name: 'width' | 'height', asked: number | null, whole: number): number => {
    const used = Math.max(1, Math.floor((asked ?? whole) * scale))
    clamped.push({ name, asked: asked ?? whole, used })
    return used
  }
  if (spec.width === null && spec.height === null) return { ...spec, width: lowered('width', null, size.width) }
  return {
    ...spec,
    width: spec.width === null ? null : lowered('width', spec.width, size.width),
    height: spec.height === null ? null : lowered('height', spec.height, size.height),
  }
}

/** The `Rendition-Clamped` header's value: each value asked out of range, and the one used (`width=4096 (asked 100000)`). */
export function clampedHeader(clamped: readonly Clamped[]): string {
  return clamped.map(({ name, asked, used }) => `${name}=${used} (asked ${asked})`).join(', ')
}
