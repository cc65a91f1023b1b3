import type { App } from '../../platform/http/app-type.js'
import { pageOf } from '../../platform/http/pagination.js'
import { noContentResponse, okResponse, problemResponses, ref } from '../../platform/http/schemas.js'
import { ASSET_EXAMPLE, AssetSchema } from '../assets/schemas.js'
import { TRASHED_EXAMPLE, TrashListSchema, TrashParams, TrashQuery } from './schemas.js'
import type { TrashService } from './service.js'

const TAGS = ['trash']

const NOT_IN_TRASH = { not_found: 'no asset with this id in your organization\u2019s trash (restored or purged already, or never deleted)' } as const

/** /api/v1/trash: deleted assets, restorable until the purge removes them. */
export function publicTrashRoutes(app: App, deps: { trash: TrashService }): void {
  const { trash } = deps

  app.get(
    '/api/v1/trash',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listTrash',
        tags: TAGS,
        summary: 'List the trash',
        description:
          'Deleted assets, last deleted first, paginated like the asset list. Each stays restorable until its `purge_at` (`TRASH_RETENTION_DAYS` after the delete), when a background purge removes it and its files.',
        querystring: TrashQuery,
        response: {
          200: okResponse('A page of the trash.', TrashListSchema, { data: [TRASHED_EXAMPLE], total: 1, total_exact: true, limit: 50, offset: 0 }),
        },
      },
    },
    async (request) => trash.list(request.caller!.organizationId, pageOf(request.query)),
  )

  app.post(
    '/api/v1/trash/:id/restore',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: 'restoreTrashedAsset',
        tags: TAGS,
        summary: 'Restore an asset from the trash',
        description:
          'Puts the asset back as it was: its id, metadata, tags, version history, `external_id` and the manual collections that still exist. Emits `asset.restored`, whose data is the record, as `asset.created`\u2019s. A push of a trashed asset\u2019s bytes restores it too.',
        params: TrashParams,
        response: {
          200: okResponse('The restored asset.', ref(AssetSchema), ASSET_EXAMPLE),
          ...problemResponses({
            ...NOT_IN_TRASH,
            restore_conflict: 'a live asset has this asset\u2019s bytes or `external_id` now; delete or change that one first',
          }),
        },
      },
    },
    async (request) => trash.restore(request.caller!.organizationId, request.params.id),
  )

  app.delete(
    '/api/v1/trash/:id',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard', role: 'manager' } },
      schema: {
        operationId: 'purgeTrashedAsset',
        tags: TAGS,
        summary: 'Delete an asset from the trash for good',
        description:
          'Purges it now, as the background purge does at `purge_at`: the asset, its versions, and their files unless another asset or version uses the same bytes. It cannot be restored after. From the web app, only owners and admins may purge.',
        params: TrashParams,
        response: { 204: noContentResponse('Purged.'), ...problemResponses(NOT_IN_TRASH) },
      },
    },
    async (request, reply) => {
      await trash.purge(request.caller!.organizationId, request.params.id)
      return reply.code(204).send(null)
    },
  )
}
