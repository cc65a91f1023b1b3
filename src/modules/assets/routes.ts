import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import type { App } from '../../platform/http/app-type.js'
import { AppError, problems } from '../../platform/http/errors.js'
import { pageOf } from '../../platform/http/pagination.js'
import { appResponse, noContentResponse, okResponse, problemResponses, ref } from '../../platform/http/schemas.js'
import { OrgParams, Uuid } from '../orgs/schemas.js'
import type { ImageSource } from './incoming-file.js'
import {
  ASSET_EXAMPLE,
  AssetListSchema,
  AssetParams,
  AssetSchema,
  BULK_EDIT_EXAMPLE,
  BulkEditBody,
  BulkEditResponse,
  PermissionSchema,
  CHECK_EXAMPLE,
  CheckBody,
  CheckResponse,
  ListQuery,
  PatchBody,
  PushBody,
  PushForm,
  PushResponse,
  VersionBody,
  VersionForm,
  VERSION_LIST_EXAMPLE,
  VersionListSchema,
  VersionParams,
  VersionResponse,
  VersionRestoreResponse,
} from './schemas.js'
import type { AssetService } from './service.js'
import { parseSort } from './sort.js'
import { PUSH_FORM_OPTIONS, readPushForm } from './upload.js'

/** A 25 MiB image is ~35 MB of base64; the decoded size is checked against 25 MiB in the service. */
const PUSH_BODY_LIMIT = 40 * 1024 * 1024

const ASSET_NOT_FOUND = { not_found: 'no asset with this id in your organization' } as const

type PushFields = Static<typeof PushBody>

const UNKNOWN_ASSET_TYPE = "`asset_type` is not in the organization's asset-type catalogue"

const PUSH_TYPES = 'Send the push as application/json or multipart/form-data.'

/** What the push and a new version say of the formats they take. */
const IMAGE_FORMATS =
  'The format is read from the bytes: JPEG, PNG, WebP, GIF, AVIF, TIFF or SVG, up to 25 MiB and 50 megapixels. An SVG is accepted when its sanitizer finds no script, event attribute, `foreignObject`, DOCTYPE or reference outside the file (only `#id` and base64 `data:image/…`, whose images are checked like a pushed one); otherwise it is refused with 422 and an `svg_*` code, never changed. Its `width` and `height` come from its `width`/`height` attributes or viewBox, its `mime_type` is `image/svg+xml`, and its `<title>` and `<desc>` are searched as full text. Its thumbnail is rendered in a process with time and memory limits; past either, `thumbnail_status` is `failed` with the reason.'

/** The answers about the image itself, the same for a push and a new version. */
const IMAGE_PROBLEMS = {
  bad_request: 'a multipart/form-data body that is cut short or malformed',
  image_too_large: 'the image is over 25 MiB, inline, uploaded or fetched; an upload is refused as soon as it passes the cap',
  body_too_large: 'a form with more parts than a push has',
  unsupported_media_type: 'a body that is neither `application/json` nor `multipart/form-data`',
  not_an_image: 'the bytes are not an image, or an SVG that is not well-formed XML',
  unsupported_image_format: 'an image format we do not accept (HEIC), or an SVG in UTF-16, in another declared encoding than UTF-8, or gzip-compressed (`.svgz`)',
  image_too_many_pixels: true,
  svg_script: 'an SVG with a `<script>`, an event attribute (`on…`), a `<foreignObject>` or an HTML element; refused, never stripped',
  svg_external_reference: 'an SVG with an `href` or CSS `url()` to anything but `#id` or a base64 `data:image/…`, an `@import`, an `<?xml-stylesheet?>` or XInclude',
  svg_entity: 'an SVG with a DOCTYPE (entities are refused, not expanded)',
  svg_too_complex: 'an SVG with over 100,000 elements, nesting over 256, over 1,000 `data:` images, or an embedded `data:` image that fails a pushed image\u2019s checks (the message names it); an embedded SVG',
  image_fetch_blocked: '`image_url` refused by the outbound guard: not a valid http or https URL, with a user name or password, or to a private address',
  image_fetch_failed: '`image_url` could not be fetched: the host was unreachable, answered an error status, redirected too often or was too slow',
  storage_unavailable: 'the file storage (the S3 bucket) cannot be reached; nothing is stored, push again later',
} as const

const CONTENT_OF_OTHER_ASSET = 'the bytes are another asset\u2019s, live or in the trash; the problem\u2019s `asset_id` names it' as const

/**
 * GET /app/api/orgs/:org/assets/:id/permissions: what the signed-in user may do to the asset, so the web
 * app disables what they may not, saying why, instead of answering a 403 after they tried.
 */
export function appAssetRoutes(app: App, deps: { assets: AssetService }): void {
  app.get(
    '/app/api/orgs/:org/assets/:id/permissions',
    {
      config: { auth: { kind: 'session', role: 'member' } },
      schema: {
        operationId: 'appAssetPermissions',
        tags: ['app-assets'],
        summary: 'What the user may do to an asset',
        description: 'A member may delete only the assets they pushed through the web app; owners and admins any.',
        params: Type.Object({ ...OrgParams.properties, id: Uuid }),
        response: { 200: appResponse('The permissions.', Type.Object({ delete: PermissionSchema }, { additionalProperties: false })) },
      },
    },
    async (request) => {
      const membership = request.membership!
      return deps.assets.permissions(membership.organization.id, request.params.id, { userId: membership.user.id, manager: membership.role !== 'member' })
    },
  )
}

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
    const images = imageBodies()
    pushRoute(scope as App, assets, images)
    versionUploadRoute(scope as App, assets, images)
  })

  app.get(
    '/api/v1/assets/:id/versions',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listAssetVersions',
        tags: ['assets'],
        summary: 'List an asset\u2019s versions',
        description: 'Every version of the asset, the current one included, newest first (not paginated: an asset has few). Each with signed links to its own files, which serve that version\u2019s bytes for as long as they are valid.',
        params: AssetParams,
        response: { 200: okResponse('The versions, newest first.', VersionListSchema, VERSION_LIST_EXAMPLE), ...problemResponses(ASSET_NOT_FOUND) },
      },
    },
    async (request) => assets.versions.list(request.caller!.organizationId, request.params.id),
  )

  app.post(
    '/api/v1/assets/:id/versions/:version/restore',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: 'restoreAssetVersion',
        tags: ['assets'],
        summary: 'Make an earlier version the newest',
        description:
          'Copies the version as a new one (the previous newest plus one): history stays linear and nothing is lost. Emits `asset.updated` with `changes: ["file"]`. Restoring the version whose bytes are current answers 200 with `duplicate: true` and changes nothing.',
        params: VersionParams,
        response: {
          201: okResponse('The copy is the newest version.', VersionRestoreResponse, { asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55', version: 4, duplicate: false }),
          200: okResponse('That version\u2019s bytes are already current.', VersionRestoreResponse, { asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55', version: 3, duplicate: true }),
          ...problemResponses({
            not_found: 'no asset with this id in your organization, or it has no such version',
            content_belongs_to_other_asset: CONTENT_OF_OTHER_ASSET,
            plan_limit_reached: "the organization's plan stores no more bytes of images (each version counts)",
            concurrent_change: true,
          }),
        },
      },
    },
    async (request, reply) => {
      const { id, version } = request.params
      const result = await assets.versions.restore(request.caller!.organizationId, id, version, request.caller!)
      return reply.code(result.duplicate ? 200 : 201).send(result)
    },
  )

  app.get(
    '/api/v1/assets',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listAssets',
        tags: ['assets'],
        summary: 'List and filter assets',
        description:
          'Newest first unless `sort` says otherwise. Filters combine (AND). Page by `offset`, or by `cursor`: each page\u2019s `next_cursor` asks for the page after it, at the same cost at any depth, and paging so neither skips nor repeats an asset while others are added or deleted.',
        querystring: ListQuery,
        response: {
          200: okResponse('A page of assets.', AssetListSchema('Assets, in the order of `sort` (newest first by default).'), { data: [ASSET_EXAMPLE], total: 1, total_exact: true, limit: 50, offset: 0, next_cursor: null }),
          ...problemResponses({ invalid_cursor: 'a `cursor` that is not a `next_cursor` of this list (its sort and filters), or `cursor` with `external_id`' }),
        },
      },
    },
    async (request, reply) => {
      const { limit: _limit, offset: _offset, external_id: externalId, sort, cursor, ...filter } = request.query
      const organizationId = request.caller!.organizationId
      if (externalId !== undefined) {
        // At most one asset: its page is the last, and no cursor was ever made for it.
        if (cursor !== undefined) throw new AppError('invalid_cursor', 'A list by `external_id` has one page; ask without a cursor.')
        return assets.listByExternalId(organizationId, externalId, filter, pageOf(request.query))
      }
      const page = await assets.list(organizationId, filter, pageOf(request.query), { sort: parseSort(sort), cursor })
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

  app.post(
    '/api/v1/assets/bulk',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: 'bulkEditAssets',
        tags: ['assets'],
        summary: 'Edit many assets at once',
        description: [
          'Sets fields on up to 500 assets and adds or removes tags, in one transaction. Give at least one change: `set` (asset type, client, product, origin), `add_tags` or `remove_tags` (a tag in both is refused). Tags are matched case-insensitively and trimmed; an added tag takes the catalogue\u2019s spelling.',
          '',
          'Answers 200 even when some ids fail, one result per distinct id in the order given: `updated` (emits one `asset.updated` for that asset, its `changes` naming the fields that changed), `unchanged` (it had every value already: no event), `not_found` (another organization\u2019s, in the trash, or no asset), or `forbidden` (you may not edit it; today every role edits every asset, so this is not answered yet). An asset type outside the catalogue is 422 for the whole request, and nothing changes.',
        ].join('\n'),
        body: BulkEditBody,
        response: {
          200: okResponse('What was done to each asset.', BulkEditResponse, BULK_EDIT_EXAMPLE),
          ...problemResponses({
            validation_failed: 'no id or more than 500, an unknown field, no change at all, or a tag both added and removed',
            unknown_asset_type: UNKNOWN_ASSET_TYPE,
          }),
        },
      },
    },
    async (request) => {
      const { body } = request
      if (body.set === undefined && body.add_tags === undefined && body.remove_tags === undefined) {
        throw problems.validation([{ pointer: '/', detail: 'give at least one change: set, add_tags or remove_tags' }])
      }
      const removed = new Set(body.remove_tags?.map((tag) => tag.trim().toLowerCase()))
      const both = body.add_tags?.findIndex((tag) => removed.has(tag.trim().toLowerCase())) ?? -1
      if (both >= 0) throw problems.validation([{ pointer: `/add_tags/${both}`, detail: 'is also in remove_tags' }])
      return { results: await assets.bulkEdit(request.caller!.organizationId, body) }
    },
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
          'Moves the asset to the trash (`GET /api/v1/trash`): it leaves every read and its collections, and is restorable with its files, tags, collections and versions until the purge, `TRASH_RETENTION_DAYS` later (with 0, it is purged at once). Emits `asset.deleted`. Through the web app\u2019s session, a member deletes only the assets they pushed; owners and admins, and API keys, delete any.',
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
 * `image_url`), whose fields pass the route's validation against `PushForm` (see `imageBodies`).
 */
function pushRoute(app: App, assets: AssetService, images: ImageBodies): void {
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
          'The same bytes pushed again answer 200 with `duplicate: true` and change nothing (but a named manual collection still receives the asset). Bytes of an asset in the trash restore that asset (emitting `asset.restored`) and answer the same, with its id.',
          '',
          IMAGE_FORMATS,
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
            plan_limit_reached: "the organization's plan holds no more assets, or no more bytes of images",
            not_found: '`collection_name` names no collection (or it was deleted meanwhile); nothing is stored',
            smart_collection_immutable: '`collection_name` is a smart collection; nothing is stored',
            push_conflict: "a concurrent change to the same image, or to the plan's limits, interfered; push again",
            content_belongs_to_other_asset: 'with an `external_id` naming an asset: ' + CONTENT_OF_OTHER_ASSET,
            restore_conflict: 'the bytes are those of an asset in the trash whose `external_id` a live asset has now; nothing is restored',
            concurrent_change: true,
            unknown_asset_type: UNKNOWN_ASSET_TYPE,
            ...IMAGE_PROBLEMS,
          }),
        },
      },
      preValidation: images.read,
    },
    async (request, reply) => {
      const input = images.withSource(request, request.body as PushFields)
      const result = await assets.push(request.caller!.organizationId, input, request.caller!)
      return reply.code(result.duplicate ? 200 : 201).send(result)
    },
  )
}

/** POST /api/v1/assets/{id}/versions, as JSON or multipart/form-data like the push. */
function versionUploadRoute(app: App, assets: AssetService, images: ImageBodies): void {
  app.post(
    '/api/v1/assets/:id/versions',
    {
      bodyLimit: PUSH_BODY_LIMIT,
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'expensive' }, flatJsonBody: true },
      schema: {
        operationId: 'uploadAssetVersion',
        tags: ['assets'],
        summary: 'Upload a new version of an asset',
        description: [
          'A new file for the asset, sent as the push sends one: `application/json` with exactly one of `image_url` or `image_base64`, or `multipart/form-data` with a `file` part (or an `image_url` field).',
          '',
          'The asset keeps its id, metadata, tags and collections; its `version` goes up by one and its file facts, thumbnail and derived data follow the new file. Emits `asset.updated` with `changes: ["file"]`. Its current bytes again answer 200 with `duplicate: true` and change nothing; an earlier version\u2019s bytes become the new version; another asset\u2019s are 409.',
          '',
          IMAGE_FORMATS,
        ].join('\n'),
        params: AssetParams,
        body: {
          content: {
            'application/json': { schema: VersionBody },
            'multipart/form-data': { schema: VersionForm },
          },
        },
        response: {
          201: okResponse('The new file is the asset\u2019s newest version.', VersionResponse, { asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55', version: 2, duplicate: false }),
          200: okResponse('These bytes are already the asset\u2019s current file.', VersionResponse, { asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55', version: 1, duplicate: true }),
          ...problemResponses({
            ...ASSET_NOT_FOUND,
            validation_failed: 'not exactly one of `image_url`, `image_base64` and a `file` part, or `image_base64` is not base64',
            plan_limit_reached: "the organization's plan stores no more bytes of images (each version counts)",
            content_belongs_to_other_asset: CONTENT_OF_OTHER_ASSET,
            concurrent_change: true,
            ...IMAGE_PROBLEMS,
          }),
        },
      },
      preValidation: images.read,
    },
    async (request, reply) => {
      const source = images.withSource(request, request.body as Static<typeof VersionBody>)
      const result = await assets.versions.upload(request.caller!.organizationId, request.params.id, source, request.caller!)
      return reply.code(result.duplicate ? 200 : 201).send(result)
    },
  )
}

type ImageBodies = ReturnType<typeof imageBodies>

/**
 * The body of a route that takes an image as the push does. A form is read in preValidation, so its
 * fields then pass the route's validation like a JSON body; the handler then takes exactly one source:
 * a `file` part or `image_url` from a form, `image_url` or `image_base64` from JSON.
 */
function imageBodies() {
  /** The image bytes of a multipart body, from its preValidation hook to its handler. */
  const uploads = new WeakMap<FastifyRequest, Buffer>()
  return {
    read: async (request: FastifyRequest) => {
      if (request.isMultipart()) {
        const form = await readPushForm(request)
        request.body = form.fields
        if (form.image) uploads.set(request, form.image)
      } else if (request.mediaType !== 'application/json') {
        // No body at all (the parsers refuse every other type): the body schemas are chosen by content type, so none would run.
        throw problems.validation([{ pointer: '/', detail: 'is missing: send it as application/json or multipart/form-data' }])
      }
    },
    withSource: <T extends Omit<ImageSource, 'image_bytes'>>(request: FastifyRequest, body: T): T & ImageSource => {
      if (request.isMultipart()) {
        const image = uploads.get(request)
        if ((image === undefined) === (body.image_url === undefined)) {
          throw problems.validation([{ pointer: '/file', detail: 'give exactly one of a file part and image_url' }])
        }
        return image ? { ...body, image_bytes: image } : body
      }
      if ((body.image_url === undefined) === (body.image_base64 === undefined)) {
        throw problems.validation([{ pointer: '/image_url', detail: 'give exactly one of image_url and image_base64' }])
      }
      return body
    },
  }
}
