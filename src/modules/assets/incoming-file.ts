import { variantKey } from '../../platform/blobs/blob-store.js'
import type { ErrorCode } from '../../platform/http/error-codes.js'
import { AppError, problems } from '../../platform/http/errors.js'
import { readEmbeddedText, type EmbeddedText } from '../../platform/images/embedded-metadata.js'
import { ImageError, type ImageErrorKind, type ImageInfo, type ImageProcessor } from '../../platform/images/images.js'
import { failureClass, SafeFetchError, type SafeFetcher } from '../../platform/net/safe-fetch.js'

/**
 * A file arriving with a push or as a new version of an asset: one path for both, so they take the same
 * sources with the same limits and answer the same 413, 422 and 502.
 */

export const MAX_IMAGE_BYTES = 25 * 1024 * 1024
const THUMBNAIL_VARIANT = 'thumb.webp'
const DATA_URL_PREFIX = /^data:image\/[a-z0-9.+-]+;base64,/i

/** Where the bytes come from: exactly one is set (the routes check it). */
export interface ImageSource {
  image_url?: string
  image_base64?: string
  /** The image's bytes as received (a multipart upload); at most `MAX_IMAGE_BYTES`. */
  image_bytes?: Buffer
}

export interface PlanLimit {
  maxAssets?: number
  maxBytes?: number
}

const IMAGE_ERROR_CODES: Record<ImageErrorKind, ErrorCode> = {
  not_an_image: 'not_an_image',
  unsupported_format: 'unsupported_image_format',
  too_many_pixels: 'image_too_many_pixels',
  image_truncated: 'image_truncated',
  svg_script: 'svg_script',
  svg_external_reference: 'svg_external_reference',
  svg_entity: 'svg_entity',
  svg_too_complex: 'svg_too_complex',
}

/** The bytes of the source: decoded, received, or fetched through the SSRF guard. */
export async function readImageBytes(source: ImageSource, deps: { fetcher: SafeFetcher; imageFetchTimeoutMs: number }): Promise<Buffer> {
  if (source.image_bytes !== undefined) {
    if (source.image_bytes.length > MAX_IMAGE_BYTES) throw imageTooLarge()
    return source.image_bytes
  }
  if (source.image_base64 !== undefined) return decodeBase64Image(source.image_base64)
  try {
    const response = await deps.fetcher.fetch(source.image_url!, { maxBytes: MAX_IMAGE_BYTES, totalTimeoutMs: deps.imageFetchTimeoutMs })
    return response.body
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error
    if (error.kind === 'too_large') throw imageTooLarge()
    if (error.kind === 'blocked' || error.kind === 'invalid_url') {
      throw problems.badGateway('image_fetch_blocked', `image_url was not fetched: ${error.message}`, failureClass(error))
    }
    throw problems.badGateway('image_fetch_failed', `image_url could not be fetched: ${error.message}`, failureClass(error))
  }
}

/** The image's header (type, size, and an SVG's text, once the SVG sanitizer accepted it); a refusal of the bytes (not an image, unsupported, too many pixels, an SVG's `svg_*` reasons) is the client's 422. */
export async function inspectImage(images: ImageProcessor, bytes: Buffer): Promise<ImageInfo> {
  try {
    return await images.inspect(bytes)
  } catch (error) {
    if (!(error instanceof ImageError)) throw error
    throw problems.unprocessable(IMAGE_ERROR_CODES[error.kind], error.message)
  }
}

/** What a file says for people: its embedded title, description and keywords, and the text full-text search finds in it. */
export interface FileWords {
  embedded: EmbeddedText
  /** `file_text`: an SVG's title and description, or the embedded title and description of any other image; null when none. */
  fileText: string | null
}

/**
 * Reads the words of a file `inspectImage` accepted: the IPTC and XMP of its header, in this process
 * (exifr reads the segments, not the pixels: well under a millisecond for most photos).
 */
export async function readFileWords(bytes: Buffer, info: ImageInfo): Promise<FileWords> {
  const embedded = await readEmbeddedText(bytes, info.mimeType)
  const texts = [info.text, embedded.title, embedded.description].filter((text): text is string => Boolean(text))
  return { embedded, fileText: texts.length === 0 ? null : [...new Set(texts)].join('\n') }
}

/** Originals are stored under their SHA-256 (`BlobStore.put`), thumbnails beside them. */
export function filesOf(sha256: string): { original: string; thumbnail: string } {
  return { original: sha256, thumbnail: variantKey(sha256, THUMBNAIL_VARIANT) }
}

/** Refuses what the plan has no room for: one more asset (`newAssets`), and `byteSize` more bytes stored. */
export function assertWithinPlan(limit: PlanLimit | undefined, plan: string, used: { assets: number; bytes: number }, added: { newAssets: number; byteSize: number }): void {
  if (!limit) return
  if (limit.maxAssets !== undefined && used.assets + added.newAssets > limit.maxAssets) {
    throw problems.forbidden('plan_limit_reached', `The ${plan} plan holds at most ${limit.maxAssets} assets.`)
  }
  if (limit.maxBytes !== undefined && used.bytes + added.byteSize > limit.maxBytes) {
    throw problems.forbidden('plan_limit_reached', `The ${plan} plan stores at most ${limit.maxBytes} bytes of images.`)
  }
}

/**
 * Accepts an optional data: URL prefix and line breaks; refuses anything else that is not base64.
 * Node's decoder skips characters outside the alphabet, so a decoded length short of what the text's
 * length promises means junk (or line breaks): that check costs nothing, where a scan of 35 MB costs
 * ~10 ms, so only such a text is scanned, to drop its line breaks and check again.
 */
export function decodeBase64Image(text: string): Buffer {
  const prefix = DATA_URL_PREFIX.exec(text.slice(0, 200))?.[0].length ?? 0
  const payload = prefix ? text.slice(prefix) : text
  const bytes = decodedLength(payload) <= MAX_IMAGE_BYTES ? decodeExactly(payload) : null
  if (bytes) return bytes
  const stripped = payload.replace(/[\r\n ]/g, '')
  if (decodedLength(stripped) > MAX_IMAGE_BYTES) throw imageTooLarge()
  return decodeExactly(stripped) ?? invalidBase64()
}

function decodedLength(payload: string): number {
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0
  return Math.floor(payload.length / 4) * 3 - padding
}

/** The bytes of `payload` when every character of it is base64, else null. */
function decodeExactly(payload: string): Buffer | null {
  if (payload.length === 0 || payload.length % 4 !== 0) return null
  const bytes = Buffer.from(payload, 'base64')
  return bytes.length === decodedLength(payload) ? bytes : null
}

function invalidBase64(): never {
  throw problems.validation([{ pointer: '/image_base64', detail: 'is not valid base64' }])
}

function imageTooLarge(): AppError {
  return new AppError('image_too_large', `The image is larger than ${MAX_IMAGE_BYTES} bytes (25 MiB).`)
}

