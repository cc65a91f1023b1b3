import type { RequestBody } from './transport.js'
import { jsonBody } from './transport.js'
import type { PushFields } from './types.js'

/** The API's cap on an image (25 MiB); a larger stream is refused before it is sent. */
export const MAX_IMAGE_BYTES = 25 * 1024 * 1024

/**
 * What `assets.push` takes in every runtime: the bytes (Uint8Array, Buffer, ArrayBuffer, Blob or File),
 * a stream of them, or an http(s) URL the service fetches itself (the spec's URL import).
 */
export type PushSource = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | URL

/**
 * A source reduced to what is sent: a URL to fetch, or a file opened again for each attempt, as a Blob
 * (a browser's File, read as it is sent) or as bytes already in memory.
 */
export type ResolvedSource = { imageUrl: string } | { open: () => Blob | Uint8Array | Promise<Blob | Uint8Array>; name: string }

export type SourceResolver<Source> = (source: Source) => Promise<ResolvedSource>

/**
 * A stream is read into memory first (it is at most 25 MiB): a body that is read as it is sent could
 * not be sent again on a retry, and browsers other than Chromium cannot send one at all.
 */
export async function resolveSource(source: PushSource): Promise<ResolvedSource> {
  if (source instanceof URL) {
    if (source.protocol === 'http:' || source.protocol === 'https:') return { imageUrl: source.href }
    throw new TypeError(`assets.push takes http(s) URLs; for a ${source.protocol} URL use @asset-library/client/node`)
  }
  if (source instanceof Blob) return { open: () => source, name: 'name' in source ? String(source.name) : 'image' }
  if (source instanceof ReadableStream) {
    const file = await readLimited(source)
    return { open: () => file, name: 'image' }
  }
  const file = source instanceof Uint8Array ? source : new Uint8Array(source)
  return { open: () => file, name: 'image' }
}

async function readLimited(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = stream.getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength
    if (size > MAX_IMAGE_BYTES) {
      await reader.cancel()
      throw new RangeError(`the image is larger than ${MAX_IMAGE_BYTES} bytes, the API's limit`)
    }
    chunks.push(read.value)
  }
  return joined(chunks)
}

function joined(chunks: Uint8Array[], size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/**
 * A URL is pushed as JSON `image_url`; a file as multipart, its fields first so a bad one is refused before
 * the upload. The multipart body is written here, with its length: bytes in memory as one Uint8Array of
 * the fields, the file and the closing boundary, which fetch writes to the socket in one go; a Blob (a
 * browser's File) as one Blob of the same parts, read as it is sent. A FormData body costs Node about
 * twice the CPU (its encoder copies each chunk through web streams), and a Blob body a third more than
 * bytes (bench/cli-push.ts: chunk copies and their garbage). Field values go as they are (FormData would
 * turn a description's line feeds into CRLF).
 */
export function pushBody(source: ResolvedSource, fields: PushFields): RequestBody {
  if ('imageUrl' in source) return jsonBody({ ...fields, image_url: source.imageUrl })
  // 128 random bits: no field value holds the boundary by chance.
  const boundary = `asset-library-${randomHex(16)}`
  const parts: string[] = []
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue
    // One field holding a JSON array: a single tag that starts with `[` is not misread.
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${Array.isArray(value) ? JSON.stringify(value) : String(value)}\r\n`)
  }
  parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(source.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`)
  const head = parts.join('')
  const tail = `\r\n--${boundary}--\r\n`
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    make: async () => {
      const file = await source.open()
      if (file instanceof Blob) return new Blob([head, file, tail])
      const encoder = new TextEncoder()
      return joined([encoder.encode(head), file, encoder.encode(tail)])
    },
  }
}


/** A name inside a quoted header parameter, escaped as browsers do for form-data. */
const quoted = (name: string) => name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
