import { Type } from 'typebox'
import type { App } from '../../platform/http/app-type.js'
import { AppError, problems } from '../../platform/http/errors.js'
import { ListSchema, pageOf } from '../../platform/http/pagination.js'
import { AUTHENTICATED_PROBLEMS, noContentResponse, okResponse, problemResponse, problemResponses, ref } from '../../platform/http/schemas.js'
import type { UrlSigner } from '../../platform/signed-urls.js'
import { ASSET_EXAMPLE, AssetParams, AssetSchema, ListQuery, PatchBody, PushBody, PushResponse } from './schemas.js'
import type { AssetService } from './service.js'

/** A 25 MiB image is ~35 MB of base64; the decoded size is checked against 25 MiB in the service. */
const PUSH_BODY_LIMIT = 40 * 1024 * 1024

const ASSET_NOT_FOUND = { 404: problemResponse(404, 'No asset with this id in your organization.') }

/** /api/v1/assets and /api/v1/assets/{id}. */
export function publicAssetRoutes(app: App, deps: { assets: AssetService }): void {
  const { assets } = deps

  app.post(
    '/api/v1/assets',
    {
      bodyLimit: PUSH_BODY_LIMIT,
      config: { bucket: 'expensive' },
      schema: {
        operationId: 'pushAsset',
        tags: ['assets'],
        summary: 'Push an asset',
        description:
          'Stores an image (exactly one of `image_url` or `image_base64`) with its metadata. The same bytes pushed again answer 200 with `duplicate: true` and change nothing (but a named manual collection still receives the asset).',
        body: PushBody,
        response: {
          201: okResponse('A new asset was created.', PushResponse, { asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55', duplicate: false }),
          200: okResponse('These bytes were already an asset of the organization.', PushResponse, {
            asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55',
            duplicate: true,
          }),
          ...problemResponses(...AUTHENTICATED_PROBLEMS),
          404: problemResponse(404, '`collection_name` names no collection (`collection_not_found`); nothing is stored.'),
          409: problemResponse(409, '`collection_name` is a smart collection (`smart_collection_immutable`); nothing is stored.'),
          413: problemResponse(413, 'The image is over 25 MiB (`image_too_large`), inline or fetched.'),
          422: problemResponse(422, 'Not a supported image, too many pixels, or an unknown `asset_type`.'),
          502: problemResponse(502, '`image_url` is blocked (`image_fetch_blocked`) or could not be fetched (`image_fetch_failed`).'),
        },
      },
    },
    async (request, reply) => {
      const body = request.body
      if ((body.image_url === undefined) === (body.image_base64 === undefined)) {
        throw problems.validation([{ pointer: '/image_url', detail: 'give exactly one of image_url and image_base64' }])
      }
      const result = await assets.push(request.apiKey!.organizationId, body)
      return reply.code(result.duplicate ? 200 : 201).send(result)
    },
  )

  app.get(
    '/api/v1/assets',
    {
      schema: {
        operationId: 'listAssets',
        tags: ['assets'],
        summary: 'List and filter assets',
        description: 'Newest first. Filters combine (AND).',
        querystring: ListQuery,
        response: {
          200: okResponse('A page of assets.', ListSchema(ref(AssetSchema), 'Assets, newest first.'), { data: [ASSET_EXAMPLE], total: 1, limit: 50, offset: 0 }),
          ...problemResponses(...AUTHENTICATED_PROBLEMS),
        },
      },
    },
    async (request) => {
      const { limit: _limit, offset: _offset, ...filter } = request.query
      return assets.list(request.apiKey!.organizationId, filter, pageOf(request.query))
    },
  )

  app.get(
    '/api/v1/assets/:id',
    {
      schema: {
        operationId: 'getAsset',
        tags: ['assets'],
        summary: 'Fetch one asset',
        description: 'The asset record, with signed thumbnail and original URLs valid about 24 hours.',
        params: AssetParams,
        response: { 200: okResponse('The asset.', ref(AssetSchema), ASSET_EXAMPLE), ...problemResponses(...AUTHENTICATED_PROBLEMS), ...ASSET_NOT_FOUND },
      },
    },
    async (request) => assets.get(request.apiKey!.organizationId, request.params.id),
  )

  app.patch(
    '/api/v1/assets/:id',
    {
      schema: {
        operationId: 'updateAsset',
        tags: ['assets'],
        summary: 'Update an asset\u2019s metadata and tags',
        description: 'Changes only the fields sent. `tag_names` replaces all tags. Emits `asset.updated`.',
        params: AssetParams,
        body: PatchBody,
        response: {
          200: okResponse('The updated asset.', ref(AssetSchema), ASSET_EXAMPLE),
          ...problemResponses(...AUTHENTICATED_PROBLEMS),
          ...ASSET_NOT_FOUND,
          422: problemResponse(422, 'An unknown `asset_type` (`unknown_asset_type`).'),
        },
      },
    },
    async (request) => assets.update(request.apiKey!.organizationId, request.params.id, request.body),
  )

  app.delete(
    '/api/v1/assets/:id',
    {
      schema: {
        operationId: 'deleteAsset',
        tags: ['assets'],
        summary: 'Delete an asset',
        description: 'Removes the asset from its collections and deletes its files once no asset uses the same bytes. Emits `asset.deleted`.',
        params: AssetParams,
        response: { 204: noContentResponse('Deleted.'), ...problemResponses(...AUTHENTICATED_PROBLEMS), ...ASSET_NOT_FOUND },
      },
    },
    async (request, reply) => {
      await assets.delete(request.apiKey!.organizationId, request.params.id)
      return reply.code(204).send(null)
    },
  )
}

const FileParams = Type.Object({ id: Type.String({ format: 'uuid' }), variant: Type.Union([Type.Literal('thumbnail'), Type.Literal('original')]) })
const FileQuery = Type.Object({ expires: Type.Integer({ minimum: 0 }), sig: Type.String({ pattern: '^[0-9a-f]{64}$' }) })

/** GET /files/assets/{id}/{thumbnail|original}: signed capability URLs, no API key. */
export function fileRoutes(app: App, deps: { assets: AssetService; signer: UrlSigner }): void {
  app.get('/files/assets/:id/:variant', { schema: { params: FileParams, querystring: FileQuery } }, async (request, reply) => {
    const { id, variant } = request.params
    const remaining = deps.signer.verify(`/files/assets/${id}/${variant}`, request.query.expires, request.query.sig)
    if (remaining === null) throw new AppError(403, 'invalid_signature', 'Forbidden', 'The link is invalid or has expired: read the asset again for a fresh one.')
    const file = await deps.assets.file(id, variant)
    if (!file) throw problems.notFound('File')
    return reply
      .header('content-type', file.mimeType)
      .header('cache-control', `private, max-age=${remaining}, immutable`)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(file.bytes)
  })
}
