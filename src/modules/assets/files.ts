import type { IncomingHttpHeaders } from 'node:http'
import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { RangeNotSatisfiableError, type BlobStore, type BlobStream, type ByteRange } from '../../platform/blobs/blob-store.js'
import type { Db } from '../../platform/db/index.js'
import type { App } from '../../platform/http/app-type.js'
import { attachment } from '../../platform/http/content-disposition.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { UrlSigner } from '../../platform/signed-urls.js'
import { filePath } from './record.js'
import * as store from './store.js'
import type { AssetFileRow } from './store.js'
import type { Thumbnails, ThumbnailOutcome } from './thumbnails.js'

/** What `AssetFiles.file` finds: a blob to stream, with the key and type to describe it. */
export interface AssetFile {
  key: string
  mimeType: string
  /** All the bytes, or `range`; null when the blob is gone. Throws `RangeNotSatisfiableError`. */
  open(range?: ByteRange): Promise<BlobStream | null>
  /** Whether the blob is in the store (a derived file not made yet is made first); for a link that sends the client to the store itself. */
  stored(): Promise<boolean>
}

/**
 * A file an asset has under `/files/assets/{id}/{variant}`: the original the push stored, or a file
 * derived from it after the push, which is made on demand when it is asked for before its job ran.
 */
interface FileVariant {
  key(row: AssetFileRow): string
  mimeType(row: AssetFileRow): string
  /** Why this asset can never have the file (its image failed to decode); null when it can. */
  unavailable(row: AssetFileRow): string | null
  /** Makes the file unless it is stored, one make per file at a time; absent for the original, which the push stored. */
  ensure?(row: AssetFileRow): Promise<ThumbnailOutcome>
}

export const VARIANT_NAMES = ['thumbnail', 'original'] as const
export type VariantName = (typeof VARIANT_NAMES)[number]

/** The variants of an asset's files; a new rendition is one more entry, built on its derivation's `ensure`. */
function fileVariants(thumbnails: Thumbnails): Record<VariantName, FileVariant> {
  return {
    original: { key: (row) => row.blob_key, mimeType: (row) => row.mime_type, unavailable: () => null },
    thumbnail: {
      key: (row) => row.thumbnail_key,
      mimeType: () => 'image/webp',
      unavailable: (row) => row.thumbnail_failure,
      ensure: (row) => thumbnails.ensure(row),
    },
  }
}

/** The files behind signed URLs: an asset's original and the files derived from it. */
export class AssetFiles {
  private readonly variants: Record<VariantName, FileVariant>

  constructor(private readonly deps: { db: Db; blobs: BlobStore; thumbnails: Thumbnails }) {
    this.variants = fileVariants(deps.thumbnails)
  }

  /**
   * An asset's file, not yet opened: its blob key names exactly these bytes (keys are content-addressed),
   * so a conditional request needs no file access. A derived file not made yet, or whose file is missing,
   * is made when opened; one whose image failed to decode is 404 `thumbnail_unavailable`.
   */
  async file(id: string, name: VariantName, version?: number): Promise<AssetFile | null> {
    const row = await store.findAssetFiles(this.deps.db, id, version)
    if (!row) return null
    const variant = this.variants[name]
    const failure = variant.unavailable(row)
    if (failure !== null) throw thumbnailUnavailable(failure)
    const key = variant.key(row)
    return { key, mimeType: variant.mimeType(row), open: (range) => this.open(variant, row, range), stored: () => this.stored(variant, row) }
  }

  private async stored(variant: FileVariant, row: AssetFileRow): Promise<boolean> {
    if (!variant.ensure) return this.deps.blobs.exists(variant.key(row))
    const outcome = await variant.ensure(row)
    if (outcome.state === 'failed') throw thumbnailUnavailable(outcome.reason)
    return outcome.state === 'stored'
  }

  private async open(variant: FileVariant, row: AssetFileRow, range: ByteRange | undefined): Promise<BlobStream | null> {
    const key = variant.key(row)
    const stored = await this.deps.blobs.stream(key, range)
    if (stored || !variant.ensure) return stored
    return (await this.stored(variant, row)) ? this.deps.blobs.stream(key, range) : null
  }
}

function thumbnailUnavailable(reason: string): AppError {
  return new AppError('thumbnail_unavailable', `This asset has no thumbnail: ${reason} The original is kept as it was pushed.`)
}

const Variant = Type.Union(VARIANT_NAMES.map((name) => Type.Literal(name)))
const FileParams = Type.Object({ id: Type.String({ format: 'uuid' }), variant: Variant })
const VersionFileParams = Type.Object({ id: Type.String({ format: 'uuid' }), version: Type.Integer({ minimum: 1 }), variant: Variant })
const RenditionFileParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  version: Type.Integer({ minimum: 1 }),
  segment: Type.String({ maxLength: 100, description: 'The canonical text of the rendition\u2019s spec, e.g. `w1200-contain-q80.webp`.' }),
})
const FileQuery = Type.Object({
  expires: Type.Integer({ minimum: 0 }),
  sig: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  // Any text: a changed value is a wrong signature (403), like a changed `expires`.
  share: Type.Optional(Type.String({ maxLength: 200 })),
  // Not signed: the holder of a link may already save its bytes under any name.
  download: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
})

/** Whether the public share a file link was issued for still shows that asset; checked on every request. */
export type ShareServes = (share: string, assetId: string) => Promise<boolean>

/** The renditions behind `/files/assets/{id}/versions/{v}/renditions/{segment}` (the renditions module). */
export interface RenditionFiles {
  /** Null when the segment is not a spec's canonical text or the version does not exist. */
  file(id: string, version: number, segment: string): Promise<AssetFile | null>
}

/** A rendition's URL names its bytes for good (the spec and the version's content): any cache may keep it. */
const RENDITION_CACHING = 'public, max-age=31536000, immutable'

/**
 * GET (and HEAD) /files/assets/{id}/{thumbnail|original}, and a version's renditions
 * (/files/assets/{id}/versions/{v}/renditions/{segment}): signed capability URLs, no API key.
 *
 * The file is streamed from the blob store, never held in memory. Its ETag is its blob key (the SHA-256
 * of the bytes, with the variant for a thumbnail): strong, and the same from every server. A matching
 * `If-None-Match` is 304 without opening the file. One `Range: bytes=a-b`, `a-` or `-n` is 206 with
 * `Content-Range`; a range that starts past the end is 416, its `Content-Range` giving the file's size.
 * Several ranges, another unit or a malformed header are answered with the whole file (200), as RFC
 * 9110 allows; so is a range whose `If-Range` is anything but the current ETag (dates are not compared).
 *
 * A link a public share handed out carries `share=<ref>` under its signature: it is served only while
 * that share is live and still shows the asset (`shareServes`), else 404 like an unknown file, checked
 * after the signature and before anything is answered about the file (a 304 included).
 *
 * `download=<file name>` answers with `Content-Disposition: attachment` under that name, so a link saves
 * the file instead of opening it.
 *
 * With `directLinks` (FILES_REDIRECT=presigned), a valid link is answered 302 to a presigned URL of the
 * bucket, valid `DIRECT_LINK_SECONDS` at most, whose answer carries our type, disposition and caching:
 * the bytes, and Range, go between the client and the bucket, at the price of showing the bucket's URL.
 */
export function fileRoutes(
  app: App,
  deps: { files: AssetFiles; renditions: RenditionFiles; signer: UrlSigner; shareServes: ShareServes; directLinks?: Pick<BlobStore, 'directLink'> },
): void {
  const config = { auth: { kind: 'signed-url', bucket: 'files' } } as const
  app.get('/files/assets/:id/versions/:version/:variant', { config, schema: { params: VersionFileParams, querystring: FileQuery } }, async (request, reply) => {
    const { id, version, variant } = request.params
    return serveFile(request, reply, deps, request.query, { id, path: filePath(id, version, variant), file: () => deps.files.file(id, variant, version) })
  })
  // Made on its first request (see modules/renditions/service.ts); its path holds the spec, so the signature covers it.
  app.get('/files/assets/:id/versions/:version/renditions/:segment', { config, schema: { params: RenditionFileParams, querystring: FileQuery } }, async (request, reply) => {
    const { id, version, segment } = request.params
    const path = `/files/assets/${id}/versions/${version}/renditions/${segment}`
    return serveFile(request, reply, deps, request.query, { id, path, file: () => deps.renditions.file(id, version, segment), caching: RENDITION_CACHING })
  })
  // Links made before versions (still valid until they expire): the current version's file.
  app.get('/files/assets/:id/:variant', { config, schema: { params: FileParams, querystring: FileQuery } }, async (request, reply) => {
    const { id, variant } = request.params
    return serveFile(request, reply, deps, request.query, { id, path: `/files/assets/${id}/${variant}`, file: () => deps.files.file(id, variant) })
  })
}

type FileRouteDeps = Parameters<typeof fileRoutes>[1]

/**
 * Answers a signed file link: `path` is what its signature covers, `file` finds what it names once the
 * signature holds; `caching` replaces the private caching of the link's lifetime.
 */
async function serveFile(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: FileRouteDeps,
  query: Static<typeof FileQuery>,
  asked: { id: string; path: string; file: () => Promise<AssetFile | null>; caching?: string },
) {
  const { id } = asked
  const { share } = query
  const remaining = deps.signer.verify(asked.path, query)
  if (remaining === null) {
    const fresh = share === undefined ? 'read the asset again for a fresh one' : 'open the shared page again for a fresh one'
    throw new AppError('invalid_signature', `The link is invalid or has expired: ${fresh}.`)
  }
  if (share !== undefined && !(await deps.shareServes(share, id))) throw problems.notFound('File')
  const file = await asked.file()
  if (!file) throw problems.notFound('File')
  // A share's link stays private to its lifetime whatever the file: the share may end before a year is out.
  const caching = (share === undefined && asked.caching) || `private, max-age=${remaining}, immutable`
  const etag = `"${file.key}"`
  const head = request.method === 'HEAD'
  reply.header('accept-ranges', 'bytes')
  if (matchesEtag(request.headers['if-none-match'], etag)) return fileHeaders(reply, etag, caching).code(304).send(head ? emptyBody() : undefined)
  if (deps.directLinks?.directLink) {
    if (!(await file.stored())) throw missingFile(request, id, file.key)
    const download = query.download
    const location = await deps.directLinks.directLink(file.key, {
      expiresInSeconds: Math.max(1, Math.min(remaining, DIRECT_LINK_SECONDS)),
      contentType: file.mimeType,
      ...(download !== undefined && { contentDisposition: attachment(download) }),
    })
    // The presigned URL is a credential for a few minutes: no cache keeps it.
    return reply.code(302).header('location', location).header('cache-control', 'no-store').send()
  }

  let blob: BlobStream | null
  try {
    blob = await file.open(rangeToServe(request.headers, etag))
  } catch (error) {
    if (!(error instanceof RangeNotSatisfiableError)) throw error
    reply.header('content-range', `bytes */${error.size}`)
    throw new AppError('range_not_satisfiable', `The range asked for lies outside the file's ${error.size} bytes.`)
  }
  if (!blob) throw missingFile(request, id, file.key)
  const { start, end } = blob.range ?? { start: 0, end: blob.size - 1 }
  if (query.download !== undefined) reply.header('content-disposition', attachment(query.download))
  fileHeaders(reply, etag, caching)
    .header('content-type', file.mimeType)
    .header('content-length', end - start + 1)
    .header('last-modified', blob.modifiedAt.toUTCString())
  if (blob.range) reply.code(206).header('content-range', `bytes ${start}-${end}/${blob.size}`)
  if (head) {
    // Fastify drains whatever a HEAD route sends; an empty stream keeps our Content-Length.
    blob.body.destroy()
    return reply.send(emptyBody())
  }
  return reply.send(blob.body)
}

/** A row whose file is gone: lost storage, or a migration not finished. The operator needs the key. */
function missingFile(request: FastifyRequest, assetId: string, key: string): AppError {
  request.log.warn({ asset_id: assetId, key }, 'the file of an existing asset is missing from the blob store')
  return problems.notFound('File')
}

/** The longest a presigned URL lives: the signed link itself may be valid for days. */
const DIRECT_LINK_SECONDS = 300

/** What every answer with the file, or about it (304), carries. */
function fileHeaders(reply: FastifyReply, etag: string, caching: string): FastifyReply {
  return reply
    .header('etag', etag)
    .header('cache-control', caching)
    .header('x-content-type-options', 'nosniff')
    // An SVG opened from its link may show its inline styles and embedded data: images, and nothing else: no script, no fetch.
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox")
}

function emptyBody(): Readable {
  return Readable.from([])
}

/** Whether an `If-None-Match` list holds `etag` (weak comparison, RFC 9110 13.1.2) or is `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const trimmed = tag.trim()
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag
  })
}

const SINGLE_BYTE_RANGE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i

/**
 * The one range of a `Range` header, or undefined for the whole file: no header, several ranges, another
 * unit, a malformed or backwards range, or an `If-Range` other than the current (strong) ETag.
 */
function rangeToServe(headers: IncomingHttpHeaders, etag: string): ByteRange | undefined {
  const match = SINGLE_BYTE_RANGE.exec(headers.range?.trim() ?? '')
  if (!match) return undefined
  const ifRange = headers['if-range']
  if (ifRange !== undefined && (typeof ifRange !== 'string' || ifRange.trim() !== etag)) return undefined
  const [, first = '', last = ''] = match
  if (first === '') return last === '' ? undefined : { suffix: Number(last) }
  const start = Number(first)
  if (last === '') return { start }
  const end = Number(last)
  return end < start ? undefined : { start, end }
}
