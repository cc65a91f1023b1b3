import type { IncomingHttpHeaders } from 'node:http'
import { Readable } from 'node:stream'
import multipart from '@fastify/multipart'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { RangeNotSatisfiableError, type BlobStore, type BlobStream, type ByteRange } from '../../platform/blobs/blob-store.js'
import type { App } from '../../platform/http/app-type.js'
import { attachment } from '../../platform/http/content-disposition.js'
import { AppError, problems } from '../../platform/http/errors.js'
import { pageOf } from '../../platform/http/pagination.js'
import { noContentResponse, okResponse, problemResponses, ref } from '../../platform/http/schemas.js'
import type { UrlSigner } from '../../platform/signed-urls.js'
import { ASSET_EXAMPLE, AssetListSchema, AssetParams, AssetSchema, CHECK_EXAMPLE, CheckBody, CheckResponse, ListQuery, PatchBody, PushBody, PushForm, PushResponse } from './schemas.js'
import { creatorOf, type AssetService, type PushInput } from './service.js'
import { PUSH_FORM_OPTIONS, readPushForm } from './upload.js'

/** A 25 MiB image is ~35 MB of base64; the decoded size is checked against 25 MiB in the service. */
const PUSH_BODY_LIMIT = 40 * 1024 * 1024

const ASSET_NOT_FOUND = { not_found: 'no asset with this id in your organization' } as const

type PushFields = Static<typeof PushBody>

const UNKNOWN_ASSET_TYPE = "`asset_type` is not in the organization's asset-type catalogue"

const PUSH_TYPES = 'Send the push as application/json or multipart/form-data.'

/** /api/v1/assets and /api/v1/assets/{id}. */
export function publicAssetRoutes(app: App, deps: { assets: AssetService }): void {
  const { assets } = deps
  // A page the service reuses is the same object each time: its JSON is made once, then sent as it is.
  const serializedPages = new WeakMap<object, string>()

  // The push has a context of its own: multipart/form-data is parsed there only, so every other route
  // still refuses it with 415 like any other type it does not take.
  void app.register(async (scope) => {
    await scope.register(multipart, PUSH_FORM_OPTIONS)
    // Any other type is refused before the body is read, as everywhere, saying which two this one takes.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(new AppError('unsupported_media_type', PUSH_TYPES), undefined))
    pushRoute(scope as App, assets)
  })

  app.get(
    '/api/v1/assets',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listAssets',
        tags: ['assets'],
        summary: 'List and filter assets',
        description: 'Newest first. Filters combine (AND).',
        querystring: ListQuery,
        response: {
          200: okResponse('A page of assets.', AssetListSchema('Assets, newest first.'), { data: [ASSET_EXAMPLE], total: 1, total_exact: true, limit: 50, offset: 0 }),
        },
      },
    },
    async (request, reply) => {
      const { limit: _limit, offset: _offset, ...filter } = request.query
      const page = await assets.list(request.caller!.organizationId, filter, pageOf(request.query))
      let body = serializedPages.get(page)
      if (body === undefined) serializedPages.set(page, (body = reply.serializeInput({ ...page }, '200', 'application/json') as string))
      return reply.type('application/json; charset=utf-8').send(body)
    },
  )

  app.post(
    '/api/v1/assets/check',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'checkAssets',
        tags: ['assets'],
        summary: 'Ask which files the library already has',
        description:
          'Looks up to 1,000 SHA-256 hashes of image files (64 lowercase hex digits each) among your organization\u2019s assets in one request, so a client pushes only the bytes the library lacks. Changes nothing. Another organization\u2019s identical bytes are missing. A malformed hash is 400, its pointer naming the item (`/sha256/3`).',
        body: CheckBody,
        response: {
          200: okResponse('Each hash asked, once: found with its asset, or missing.', CheckResponse, CHECK_EXAMPLE),
          ...problemResponses({ validation_failed: 'no hash, more than 1,000, or a hash that is not 64 lowercase hex digits' }),
        },
      },
    },
    async (request) => assets.check(request.caller!.organizationId, request.body.sha256),
  )

  app.get(
    '/api/v1/assets/:id',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'getAsset',
        tags: ['assets'],
        summary: 'Fetch one asset',
        description: 'The asset record, with signed thumbnail and original URLs valid about 24 hours.',
        params: AssetParams,
        response: { 200: okResponse('The asset.', ref(AssetSchema), ASSET_EXAMPLE), ...problemResponses(ASSET_NOT_FOUND) },
      },
    },
    async (request) => assets.get(request.caller!.organizationId, request.params.id),
  )

  app.patch(
    '/api/v1/assets/:id',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: 'updateAsset',
        tags: ['assets'],
        summary: 'Update an asset\u2019s metadata and tags',
        description: 'Changes only the fields sent. `tag_names` replaces all tags. Emits `asset.updated`.',
        params: AssetParams,
        body: PatchBody,
        response: {
          200: okResponse('The updated asset.', ref(AssetSchema), ASSET_EXAMPLE),
          ...problemResponses({ ...ASSET_NOT_FOUND, unknown_asset_type: UNKNOWN_ASSET_TYPE, concurrent_change: true }),
        },
      },
    },
    async (request) => assets.update(request.caller!.organizationId, request.params.id, request.body),
  )

  app.delete(
    '/api/v1/assets/:id',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: 'deleteAsset',
        tags: ['assets'],
        summary: 'Delete an asset',
        description:
          'Removes the asset from its collections and deletes its files once no asset uses the same bytes. Emits `asset.deleted`. Through the web app\u2019s session, a member deletes only the assets they pushed; owners and admins, and API keys, delete any.',
        params: AssetParams,
        response: {
          204: noContentResponse('Deleted.'),
          ...problemResponses({ ...ASSET_NOT_FOUND, role_required: 'through the web app\u2019s session, a member deleting an asset someone else pushed' }),
        },
      },
    },
    async (request, reply) => {
      await assets.delete(request.caller!.organizationId, request.params.id, request.caller!)
      return reply.code(204).send(null)
    },
  )
}

/**
 * POST /api/v1/assets, as JSON (`image_base64` or `image_url`) or as multipart/form-data (a `file` part or
 * `image_url`). A form is read in preValidation, so its fields then pass the route's validation like a
 * JSON body, against `PushForm`: the same rules, the same 400s with pointers.
 */
function pushRoute(app: App, assets: AssetService): void {
  /** The image bytes of a multipart push, from its preValidation hook to its handler. */
  const uploads = new WeakMap<FastifyRequest, Buffer>()
  app.post(
    '/api/v1/assets',
    {
      bodyLimit: PUSH_BODY_LIMIT,
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'expensive' }, flatJsonBody: true },
      schema: {
        operationId: 'pushAsset',
        tags: ['assets'],
        summary: 'Push an asset',
        description: [
          'Stores an image with its metadata, sent one of two ways:',
          '- `application/json`: exactly one of `image_url` or `image_base64`, with the other fields.',
          '- `multipart/form-data`: the image\u2019s bytes as a part named `file` (or an `image_url` field instead), the other fields as form fields; `tag_names` repeated once per name or as one JSON array, `created_by_ai` as `true` or `false`. No base64 overhead: the fastest way to push a file. For example `curl -F file=@logo.png -F title=Logo -F tag_names=brand`.',
          '',
          'The same bytes pushed again answer 200 with `duplicate: true` and change nothing (but a named manual collection still receives the asset).',
        ].join('\n'),
        body: {
          content: {
            'application/json': { schema: PushBody },
            'multipart/form-data': { schema: PushForm },
          },
        },
        response: {
          201: okResponse('A new asset was created.', PushResponse, { asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55', duplicate: false }),
          200: okResponse('These bytes were already an asset of the organization.', PushResponse, {
            asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55',
            duplicate: true,
          }),
          ...problemResponses({
            validation_failed: 'not exactly one of `image_url`, `image_base64` and a `file` part, or `image_base64` is not base64',
            bad_request: 'a multipart/form-data body that is cut short or malformed',
            plan_limit_reached: "the organization's plan holds no more assets, or no more bytes of images",
            not_found: '`collection_name` names no collection (or it was deleted meanwhile); nothing is stored',
            smart_collection_immutable: '`collection_name` is a smart collection; nothing is stored',
            push_conflict: "a concurrent change to the same image, or to the plan's limits, interfered; push again",
            concurrent_change: true,
            image_too_large: 'the image is over 25 MiB, inline, uploaded or fetched; an upload is refused as soon as it passes the cap',
            body_too_large: 'a form with more parts than a push has',
            unsupported_media_type: 'a body that is neither `application/json` nor `multipart/form-data`',
            not_an_image: true,
            unsupported_image_format: 'an image format we do not accept (SVG included)',
            image_too_many_pixels: true,
            unknown_asset_type: UNKNOWN_ASSET_TYPE,
            image_fetch_blocked: '`image_url` refused by the outbound guard: not a valid http or https URL, with a user name or password, or to a private address',
            image_fetch_failed: '`image_url` could not be fetched: the host was unreachable, answered an error status, redirected too often or was too slow',
            storage_unavailable: 'the file storage (the S3 bucket) cannot be reached; nothing is stored, push again later',
          }),
        },
      },
      preValidation: async (request) => {
        if (request.isMultipart()) {
          const form = await readPushForm(request)
          request.body = form.fields
          if (form.image) uploads.set(request, form.image)
        } else if (request.mediaType !== 'application/json') {
          // No body at all (the parsers refuse every other type): the body schemas are chosen by content type, so none would run.
          throw problems.validation([{ pointer: '/', detail: 'is missing: send the push as application/json or multipart/form-data' }])
        }
      },
    },
    async (request, reply) => {
      const body = request.body as PushFields
      let input: PushInput = body
      if (request.isMultipart()) {
        const image = uploads.get(request)
        if ((image === undefined) === (body.image_url === undefined)) {
          throw problems.validation([{ pointer: '/file', detail: 'give exactly one of a file part and image_url' }])
        }
        if (image) input = { ...body, image_bytes: image }
      } else if ((body.image_url === undefined) === (body.image_base64 === undefined)) {
        throw problems.validation([{ pointer: '/image_url', detail: 'give exactly one of image_url and image_base64' }])
      }
      const result = await assets.push(request.caller!.organizationId, input, creatorOf(request.caller!))
      return reply.code(result.duplicate ? 200 : 201).send(result)
    },
  )
}

const FileParams = Type.Object({ id: Type.String({ format: 'uuid' }), variant: Type.Union([Type.Literal('thumbnail'), Type.Literal('original')]) })
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

/**
 * GET (and HEAD) /files/assets/{id}/{thumbnail|original}: signed capability URLs, no API key.
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
  deps: { assets: AssetService; signer: UrlSigner; shareServes: ShareServes; directLinks?: Pick<BlobStore, 'directLink'> },
): void {
  app.get('/files/assets/:id/:variant', { config: { auth: { kind: 'signed-url', bucket: 'files' } }, schema: { params: FileParams, querystring: FileQuery } }, async (request, reply) => {
    const { id, variant } = request.params
    const { share } = request.query
    const remaining = deps.signer.verify(`/files/assets/${id}/${variant}`, request.query)
    if (remaining === null) {
      const fresh = share === undefined ? 'read the asset again for a fresh one' : 'open the shared page again for a fresh one'
      throw new AppError('invalid_signature', `The link is invalid or has expired: ${fresh}.`)
    }
    if (share !== undefined && !(await deps.shareServes(share, id))) throw problems.notFound('File')
    const file = await deps.assets.file(id, variant)
    if (!file) throw problems.notFound('File')
    const etag = `"${file.key}"`
    const head = request.method === 'HEAD'
    reply.header('accept-ranges', 'bytes')
    if (matchesEtag(request.headers['if-none-match'], etag)) return fileHeaders(reply, etag, remaining).code(304).send(head ? emptyBody() : undefined)
    if (deps.directLinks?.directLink) {
      if (!(await file.stored())) throw missingFile(request, id, file.key)
      const download = request.query.download
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
    if (request.query.download !== undefined) reply.header('content-disposition', attachment(request.query.download))
    fileHeaders(reply, etag, remaining)
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
  })
}

/** A row whose file is gone: lost storage, or a migration not finished. The operator needs the key. */
function missingFile(request: FastifyRequest, assetId: string, key: string): AppError {
  request.log.warn({ asset_id: assetId, key }, 'the file of an existing asset is missing from the blob store')
  return problems.notFound('File')
}

/** The longest a presigned URL lives: the signed link itself may be valid for days. */
const DIRECT_LINK_SECONDS = 300

/** What every answer with the file, or about it (304), carries. */
function fileHeaders(reply: FastifyReply, etag: string, remaining: number): FastifyReply {
  return reply
    .header('etag', etag)
    .header('cache-control', `private, max-age=${remaining}, immutable`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
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
