import { Readable } from 'node:stream'
import { Type } from 'typebox'
import { AppError } from '../../platform/http/errors.js'
import type { App } from '../../platform/http/app-type.js'
import { attachment } from '../../platform/http/content-disposition.js'
import { ListSchema, PaginationQuery, pageOf } from '../../platform/http/pagination.js'
import { appResponse, DataListSchema, noContentResponse, okResponse, problemResponses, ref } from '../../platform/http/schemas.js'
import { OrgParams } from '../orgs/schemas.js'
import { creatorOf } from '../assets/record.js'
import { PermissionSchema } from '../assets/schemas.js'
import { GALLERY_CSP, GALLERY_PAGE_SIZE, pageCount, renderGallery, renderGone } from './gallery.js'
import { zipNameOf, zipOf, ZipTooLargeError } from './share-zip.js'
import {
  COLLECTION_EXAMPLE,
  CollectionParams,
  CollectionSchema,
  CollectionWithAssetsSchema,
  CoverSchema,
  CoversQuery,
  CollectionQuery,
  CreateBody,
  ListQuery,
  MembersBody,
  MembersResponse,
  PatchBody,
} from './schemas.js'
import type { CollectionService } from './service.js'

const NOT_FOUND = { not_found: 'no collection with this id in your organization' } as const
const NAME_TAKEN = { collection_name_taken: 'another collection of the organization has this name (compared without case)' } as const
const TAGS = ['collections']
const ShareLinkSchema = Type.Object({ share_url: Type.String() }, { additionalProperties: false })
const LiveShareLinkSchema = Type.Object(
  {
    shared: Type.Boolean({ description: 'Has a public link now.' }),
    shared_at: Type.Union([Type.Null(), Type.String({ format: 'date-time' })]),
    share_url: Type.Union([Type.Null(), Type.String()], {
      description:
        'The live link; null when the collection is not shared, or when its link was made before links were kept (only a hash of those is stored: make a new link to see it here).',
    }),
  },
  { additionalProperties: false },
)

const membersOf = (body: { asset_id: string } | { asset_ids: string[] }) => ('asset_id' in body ? [body.asset_id] : body.asset_ids)

/** /api/v1/collections and its sub-resources. */
export function publicCollectionRoutes(app: App, deps: { collections: CollectionService }): void {
  const { collections } = deps
  const org = (request: { caller: { organizationId: string } | null }) => request.caller!.organizationId

  app.get(
    '/api/v1/collections',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listCollections',
        tags: TAGS,
        summary: 'List collections',
        description: 'Newest first; filter by `kind` or by a part of the name (`q`).',
        querystring: ListQuery,
        response: {
          200: okResponse('A page of collections.', ListSchema(ref(CollectionSchema), 'Collections, newest first.'), { data: [COLLECTION_EXAMPLE], total: 1, limit: 50, offset: 0 }),
        },
      },
    },
    async (request) => {
      const { kind, q } = request.query
      return collections.list(org(request), { ...(kind && { kind }), ...(q && { q }) }, pageOf(request.query))
    },
  )

  app.post(
    '/api/v1/collections',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: 'createCollection',
        tags: TAGS,
        summary: 'Create a collection',
        description: 'Manual (add assets through the API) or smart (give a `query`: the filters of GET /api/v1/assets). Emits `collection.created`.',
        body: CreateBody,
        response: {
          201: okResponse('The new collection.', ref(CollectionSchema), COLLECTION_EXAMPLE),
          ...problemResponses({ ...NAME_TAKEN, concurrent_change: true }),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await collections.create(org(request), request.body, creatorOf(request.caller!))),
  )

  app.get(
    '/api/v1/collections/:id',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'getCollection',
        tags: TAGS,
        summary: 'Fetch a collection and its assets',
        description:
          'The collection with `asset_count` and a page of its assets (`limit`, `offset` or `cursor`, `sort`). A smart collection\u2019s assets are exactly what GET /api/v1/assets returns for its query, in the order of its `query.sort` unless `sort` is given. `assets.next_cursor` asks for the next page, as in the asset list.',
        params: CollectionParams,
        querystring: CollectionQuery,
        response: {
          200: okResponse('The collection.', CollectionWithAssetsSchema, { ...COLLECTION_EXAMPLE, assets: { data: [], total: 0, total_exact: true, limit: 50, offset: 0, next_cursor: null } }),
          ...problemResponses({ ...NOT_FOUND, invalid_cursor: 'a `cursor` that is not an `assets.next_cursor` of this collection in this order' }),
        },
      },
    },
    async (request) => collections.get(org(request), request.params.id, pageOf(request.query), request.query),
  )

  app.patch(
    '/api/v1/collections/:id',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: 'updateCollection',
        tags: TAGS,
        summary: 'Update a collection',
        description: 'Name, description, and for a smart collection its query. The kind cannot change.',
        params: CollectionParams,
        body: PatchBody,
        response: {
          200: okResponse('The updated collection.', ref(CollectionSchema), COLLECTION_EXAMPLE),
          ...problemResponses({
            ...NOT_FOUND,
            ...NAME_TAKEN,
            collection_kind_immutable: '`kind` differs from the collection\u2019s',
            manual_collection_has_no_query: 'a `query` for a manual collection',
            concurrent_change: true,
          }),
        },
      },
    },
    async (request) => collections.update(org(request), request.params.id, request.body),
  )

  app.delete(
    '/api/v1/collections/:id',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: 'deleteCollection',
        tags: TAGS,
        summary: 'Delete a collection',
        description:
          'The assets themselves are kept. Through the web app\u2019s session, a member deletes only the collections they created; owners and admins, and API keys, delete any.',
        params: CollectionParams,
        response: {
          204: noContentResponse('Deleted.'),
          ...problemResponses({ ...NOT_FOUND, role_required: 'through the web app\u2019s session, a member deleting a collection someone else created' }),
        },
      },
    },
    async (request, reply) => {
      await collections.delete(org(request), request.params.id, request.caller!)
      return reply.code(204).send(null)
    },
  )

  for (const [method, verb] of [
    ['POST', 'add'],
    ['DELETE', 'remove'],
  ] as const) {
    app.route({
      method,
      url: '/api/v1/collections/:id/assets',
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: verb === 'add' ? 'addCollectionAssets' : 'removeCollectionAssets',
        tags: TAGS,
        summary: verb === 'add' ? 'Add assets to a manual collection' : 'Remove assets from a manual collection',
        description:
          verb === 'add'
            ? 'Adding an asset that is already there is a no-op. An unknown asset (or one of another organization) is 404 and nothing changes.'
            : 'Removing an asset that is not there is a no-op. An unknown asset is 404 and nothing changes.',
        params: CollectionParams,
        body: MembersBody,
        response: {
          200: okResponse('What changed.', MembersResponse, { changed: 1, asset_count: 13 }),
          ...problemResponses({
            not_found: 'no such collection or asset in your organization (or one deleted meanwhile); nothing changes',
            smart_collection_immutable: 'the collection is smart: its content is its query',
            ...(verb === 'add' && { concurrent_change: true as const }),
          }),
        },
      },
      handler: async (request) => {
        const ids = membersOf(request.body as { asset_id: string } | { asset_ids: string[] })
        const id = (request.params as { id: string }).id
        return verb === 'add' ? collections.addAssets(org(request), id, ids) : collections.removeAssets(org(request), id, ids)
      },
    })
  }

  app.post(
    '/api/v1/collections/:id/share',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard', role: 'manager' } },
      schema: {
        operationId: 'shareCollection',
        tags: TAGS,
        summary: 'Create a public link',
        description: 'An unguessable read-only link (`/s/{token}` as an HTML gallery, `/s/{token}.json` as JSON), replacing any earlier link, which stops working. GET on the same path shows it again while it is live. Emits `collection.shared`. From the web app, only owners and admins may share.',
        params: CollectionParams,
        response: {
          201: okResponse('The link.', ShareLinkSchema, { share_url: 'https://assets.example.com/s/9f1c3e…' }),
          ...problemResponses(NOT_FOUND),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await collections.share(org(request), request.params.id)),
  )

  app.get(
    '/api/v1/collections/:id/share',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap', role: 'manager' } },
      schema: {
        operationId: 'getCollectionShare',
        tags: TAGS,
        summary: 'See the public link again',
        description:
          'The collection\u2019s live link, as it was made (it is kept encrypted under a key derived from APP_SECRET; lookups use its hash). Links made before links were kept answer `share_url: null`. Any key (`assets:read`) may read it, as it reads the assets\u2019 signed file links; from the web app, only owners and admins.',
        params: CollectionParams,
        response: {
          200: okResponse('The link, if any.', LiveShareLinkSchema, { shared: true, shared_at: '2026-11-21T19:00:00.000Z', share_url: 'https://assets.example.com/s/9f1c3e…' }),
          ...problemResponses(NOT_FOUND),
        },
      },
    },
    async (request) => collections.shareLink(org(request), request.params.id),
  )

  app.delete(
    '/api/v1/collections/:id/share',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard', role: 'manager' } },
      schema: {
        operationId: 'unshareCollection',
        tags: TAGS,
        summary: 'Revoke the public link',
        description: 'The link answers 404 from now on. From the web app, only owners and admins may unshare.',
        params: CollectionParams,
        response: { 204: noContentResponse('Revoked.'), ...problemResponses(NOT_FOUND) },
      },
    },
    async (request, reply) => {
      await collections.unshare(org(request), request.params.id)
      return reply.code(204).send(null)
    },
  )
}

/**
 * GET /app/api/orgs/:org/collections/covers: the picture of each collection on a page of the list, for
 * the web app (the public record has none). A collection that is empty, unknown, or of another
 * organization has no entry.
 */
export function appCollectionRoutes(app: App, deps: { collections: CollectionService }): void {
  app.get(
    '/app/api/orgs/:org/collections/covers',
    {
      config: { auth: { kind: 'session', role: 'member' } },
      schema: {
        operationId: 'appCollectionCovers',
        tags: ['app-collections'],
        summary: 'Covers of collections',
        description: 'For each collection among `ids` that holds an asset, the first one it lists (newest first): a manual collection\u2019s newest member, a smart one\u2019s first match.',
        params: OrgParams,
        querystring: CoversQuery,
        response: { 200: appResponse('The covers, in the order of `ids`; none for an empty or unknown collection.', DataListSchema(CoverSchema)) },
      },
    },
    async (request) => ({ data: await deps.collections.covers(request.membership!.organization.id, request.query.ids) }),
  )

  app.get(
    '/app/api/orgs/:org/collections/:id/permissions',
    {
      config: { auth: { kind: 'session', role: 'member' } },
      schema: {
        operationId: 'appCollectionPermissions',
        tags: ['app-collections'],
        summary: 'What the user may do to a collection',
        description: 'A member may delete only the collections they created, and may not share; owners and admins may do both. Every member may rename one and change its assets.',
        params: Type.Object({ ...OrgParams.properties, ...CollectionParams.properties }),
        response: { 200: appResponse('The permissions.', Type.Object({ delete: PermissionSchema, share: PermissionSchema }, { additionalProperties: false })) },
      },
    },
    async (request) => {
      const membership = request.membership!
      return deps.collections.permissions(membership.organization.id, request.params.id, { userId: membership.user.id, manager: membership.role !== 'member' })
    },
  )
}

const SHARE_HEADERS = { 'cache-control': 'private, no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' }
const LinkParams = Type.Object({ link: Type.String({ maxLength: 200 }) })
const ZipQuery = Type.Object(
  {
    preset: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'The files of this preset (`thumbnail`, `original` or one of the organization\u2019s) instead of the originals.' }),
    ),
  },
  { additionalProperties: false },
)
const ShareQuery = Type.Object(
  { ...PaginationQuery, page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'The HTML gallery\u2019s page, from 1.' })) },
  { additionalProperties: false },
)

/**
 * GET /s/{token} (HTML gallery, `?page=`), /s/{token}.json (`limit`, `offset`) and /s/{token}.zip (every
 * original, or with `?preset=` every asset's file of that preset): a shared collection, no key needed.
 * An unknown or revoked token is 404 on each.
 */
export function shareRoutes(app: App, deps: { collections: CollectionService; zipMaxBytes: number }): void {
  app.get(
    '/s/:link',
    { config: { auth: { kind: 'public', bucket: 'files' } }, schema: { params: LinkParams, querystring: ShareQuery } },
    async (request, reply) => {
      const { link } = request.params
      reply.headers(SHARE_HEADERS)
      if (link.endsWith('.json')) return deps.collections.sharedView(link.slice(0, -'.json'.length), pageOf(request.query))
      const page = request.query.page ?? 1
      const view = await deps.collections.sharedView(link, { limit: GALLERY_PAGE_SIZE, offset: (page - 1) * GALLERY_PAGE_SIZE }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') return undefined
        throw error
      })
      if (!view) return reply.code(404).header('content-security-policy', GALLERY_CSP).type('text/html; charset=utf-8').send(renderGone())
      // A page past the end (the collection shrank since the link was followed) shows the last one.
      const pages = pageCount(view.assets.total)
      if (page > pages) return reply.redirect(`/s/${link}?page=${pages}`, 303)
      return reply
        .header('content-security-policy', GALLERY_CSP)
        .type('text/html; charset=utf-8')
        .send(renderGallery({ ...view, token: link, page, pages }))
    },
  )

  app.get(
    '/s/:token.zip',
    { config: { auth: { kind: 'public', bucket: 'files' } }, schema: { params: Type.Object({ token: Type.String({ maxLength: 200 }) }), querystring: ZipQuery } },
    async (request, reply) => {
      const shared = await deps.collections.sharedZip(request.params.token, request.query.preset)
      if (shared.byteSize !== null && shared.byteSize > deps.zipMaxBytes) {
        throw new AppError(
          'share_zip_too_large',
          `The originals of this collection come to ${mebibytes(shared.byteSize)}, more than the ${mebibytes(deps.zipMaxBytes)} a zip may hold here: download them one by one from the gallery.`,
        )
      }
      const zip = zipOf(shared.entries, deps.zipMaxBytes)
      zip.stream.on('error', (error) => {
        // Past the headers, a zip that fails can only be cut short: the log says why.
        if (error instanceof ZipTooLargeError) request.log.warn({ max_bytes: error.maxBytes }, 'a share\u2019s zip of renditions passed SHARE_ZIP_MAX_BYTES and was cut short')
      })
      reply.headers(SHARE_HEADERS).header('content-type', 'application/zip').header('content-disposition', attachment(zipNameOf(shared.name)))
      // The renditions' sizes are known only once made: their zip is sent in chunks.
      if (zip.size !== null) reply.header('content-length', zip.size)
      if (request.method === 'HEAD') {
        zip.stream.destroy()
        return reply.send(Readable.from([]))
      }
      return reply.send(zip.stream)
    },
  )
}

const mebibytes = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`

