import type { IncomingMessage } from 'node:http'
import type { BusboyFileStream } from '@fastify/busboy'
import type { FastifyMultipartBaseOptions } from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { AppError, problems } from '../../platform/http/errors.js'
import { MAX_IMAGE_BYTES } from './incoming-file.js'

/** The text fields a push form may carry at most: its nine fields plus up to 100 repeated `tag_names`, and some room. */
const MAX_FIELDS = 150

/**
 * `@fastify/multipart` (busboy) options of a push form. Every limit is far above what an honest push
 * sends and low enough that a hostile form costs little:
 * - one image of at most 25 MiB, refused (413) the moment its bytes pass the cap;
 * - at most 150 text fields of 64 KiB each: a value is truncated there, which the schema then refuses,
 *   since no push field may be a quarter that long (the longest, a URL, is 2,048 characters);
 * - part headers of at most 8 KiB and 16 lines each, 160 parts in all.
 *
 * The part named `file` always carries bytes, whatever its headers say (so `-F 'file=<logo.png'` works
 * too); its declared Content-Type and file name are never used: the service reads the format from the bytes.
 */
export const PUSH_FORM_OPTIONS: FastifyMultipartBaseOptions = {
  limits: {
    fileSize: MAX_IMAGE_BYTES,
    // Two, so a second file is seen and refused with 400 rather than silently skipped by the parser.
    files: 2,
    fields: MAX_FIELDS,
    parts: MAX_FIELDS + 10,
    fieldSize: 64 * 1024,
    headerPairs: 16,
    headerSize: 8 * 1024,
  } as NonNullable<FastifyMultipartBaseOptions['limits']>,
  isPartAFile: (name, contentType, fileName) => name === 'file' || fileName !== undefined || contentType === 'application/octet-stream',
}

/**
 * After a refusal the rest of the body is read and dropped, never stored, so the client can finish
 * sending and read the answer on its connection; past this many more bytes the connection is closed.
 */
const DISCARD_LIMIT = 64 * 1024 * 1024

export interface PushFormContent {
  /** The text fields, assembled into the JSON push's shape (still to be validated by `PushForm`). */
  fields: Record<string, unknown>
  /** The bytes of the `file` part, if there was one. */
  image: Buffer | undefined
}

/**
 * Reads a multipart push as it streams in: the image part into memory up to the cap, the text fields into
 * the JSON body's shape. Refuses a second file, a file part under another name, an empty file, an image
 * over the cap (413 `image_too_large`, before the rest is read), and a form over the part limits (413
 * `body_too_large`); a body that is not well-formed multipart is 400 `bad_request`.
 */
export async function readPushForm(request: FastifyRequest): Promise<PushFormContent> {
  const fields = new Map<string, unknown[]>()
  let image: Buffer | undefined
  let current: BusboyFileStream | undefined
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        const values = fields.get(part.fieldname)
        if (values) values.push(part.value)
        else fields.set(part.fieldname, [part.value])
        continue
      }
      if (part.fieldname !== 'file') {
        throw problems.validation([{ pointer: pointerTo(part.fieldname), detail: 'is not a known field: the image goes in the part named `file`' }])
      }
      if (image !== undefined) throw problems.validation([{ pointer: '/file', detail: 'appears twice: send one image per push' }])
      current = part.file
      image = await readImage(part.file)
      current = undefined
      if (image.length === 0) throw problems.validation([{ pointer: '/file', detail: 'is empty' }])
    }
  } catch (error) {
    stopReading(request.raw, current)
    throw formError(error)
  }
  return { fields: assemble(fields), image }
}

/**
 * The file part's bytes; throws 413 the moment they pass the cap: the parser then drops the rest of the
 * part and says `limit`, which ends the reading with the refusal. Iterated rather than listened to, since
 * the parser may already have ended or failed the part when this starts reading it.
 */
async function readImage(file: BusboyFileStream): Promise<Buffer> {
  const tooLarge = () => new AppError('image_too_large', `The image is larger than ${MAX_IMAGE_BYTES} bytes (25 MiB).`)
  const onLimit = () => file.destroy(tooLarge())
  file.once('limit', onLimit)
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      chunks.push(chunk)
      size += chunk.length
    }
  } finally {
    file.off('limit', onLimit)
  }
  if (file.truncated) throw tooLarge()
  return Buffer.concat(chunks, size)
}

/**
 * Stops parsing and drops whatever is still to come, so a refused upload is neither parsed nor held
 * while the answer goes out; a sender that goes on far past that loses its connection.
 */
function stopReading(raw: IncomingMessage, file: BusboyFileStream | undefined): void {
  raw.unpipe()
  file?.destroy()
  if (raw.readableEnded || raw.destroyed) return
  let discarded = 0
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > DISCARD_LIMIT) raw.socket.destroy()
  })
  raw.resume()
}

const FORM_ERRORS: Record<string, () => AppError> = {
  FST_FIELDS_LIMIT: () => new AppError('body_too_large', `A push form has at most ${MAX_FIELDS} fields.`),
  FST_PARTS_LIMIT: () => new AppError('body_too_large', `A push form has at most ${MAX_FIELDS + 10} parts.`),
  FST_FILES_LIMIT: () => problems.validation([{ pointer: '/file', detail: 'appears twice: send one image per push' }]),
  FST_REQ_FILE_TOO_LARGE: () => new AppError('image_too_large', `The image is larger than ${MAX_IMAGE_BYTES} bytes (25 MiB).`),
  FST_PROTO_VIOLATION: () => new AppError('bad_request', 'A form field is named after a JavaScript object property (such as __proto__); no push field is.'),
  FST_INVALID_JSON_FIELD_ERROR: () => new AppError('bad_request', 'A form field declared as application/json is not valid JSON.'),
}

/** Our own refusals pass; the parser's become problems with our codes, never its messages' 406 or 500. */
function formError(error: unknown): unknown {
  if (error instanceof AppError) return error
  const code = (error as { code?: unknown }).code
  const mapped = typeof code === 'string' ? FORM_ERRORS[code] : undefined
  if (mapped) return mapped()
  return new AppError('bad_request', 'The multipart/form-data body cannot be read: it is cut short or malformed.')
}

/**
 * The form's text fields in the JSON push's shape: a field sent once is a value, a field sent several
 * times a list (which the schema refuses for everything but `tag_names`); `tag_names` is always a list,
 * from repeated fields or one JSON array; `created_by_ai` is a boolean when it says `true` or `false`.
 */
function assemble(fields: Map<string, unknown[]>): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [name, values] of fields) {
    if (name === 'tag_names') body[name] = values.flatMap(tagNames)
    else if (name === 'created_by_ai') body[name] = single(values.map(toBoolean))
    else body[name] = single(values)
  }
  return body
}

function single(values: unknown[]): unknown {
  return values.length === 1 ? values[0] : values
}

function toBoolean(value: unknown): unknown {
  return value === 'true' ? true : value === 'false' ? false : value
}

/** One `tag_names` field: a name, or a JSON array of names when it starts with `[`. */
function tagNames(value: unknown): unknown[] {
  if (Array.isArray(value)) return value
  if (typeof value !== 'string' || !value.trimStart().startsWith('[')) return [value]
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    parsed = undefined
  }
  if (!Array.isArray(parsed)) {
    throw problems.validation([{ pointer: '/tag_names', detail: 'starts with [ but is not a JSON array: send one name per field, or one JSON array of names' }])
  }
  return parsed
}

function pointerTo(name: string): string {
  return `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`
}
