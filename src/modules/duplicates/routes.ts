import type { App } from '../../platform/http/app-type.js'
import { pageOf } from '../../platform/http/pagination.js'
import { okResponse, problemResponses } from '../../platform/http/schemas.js'
import { DUPLICATE_GROUPS_EXAMPLE, DuplicateGroupList, DuplicatesQuery, RESOLVE_EXAMPLE, ResolveBody, ResolveResponse } from './schemas.js'
import type { DuplicatesService } from './service.js'

const TAGS = ['duplicates']

/** GET /api/v1/duplicates and POST /api/v1/duplicates/resolve. */
export function publicDuplicateRoutes(app: App, deps: { duplicates: DuplicatesService }): void {
  const { duplicates } = deps

  app.get(
    '/api/v1/duplicates',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listDuplicates',
        tags: TAGS,
        summary: 'List groups of near-duplicates',
        description:
          'Live assets whose pictures are nearly the same (perceptual hashes within `NEAR_DUPLICATE_DISTANCE`, 6 bits of 64 by default), in groups to review: each group is an asset and its near-duplicates pushed after it, with their distances. Each cluster is listed once, led by its oldest asset: an asset leads no group of its own when an older near-duplicate of it is near all its newer ones too (they are all in that group). In a chain (A near B, B near C, A not near C) B also leads a group, so no pair is lost. Groups whose asset was pushed last come first; paginated like the asset list. An asset is found once its hash is made, after the push answers.',
        querystring: DuplicatesQuery,
        response: { 200: okResponse('A page of groups.', DuplicateGroupList, DUPLICATE_GROUPS_EXAMPLE) },
      },
    },
    async (request) => duplicates.groups(request.caller!.organizationId, pageOf(request.query)),
  )

  app.post(
    '/api/v1/duplicates/resolve',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'standard' } },
      schema: {
        operationId: 'resolveDuplicates',
        tags: TAGS,
        summary: 'Keep one asset and trash its duplicates',
        description:
          'In one transaction: the asset `keep` joins every manual collection of the assets in `trash` and gains their tags (emitting `asset.updated` with `changes` naming `collections` and `tags` when they changed), then each asset of `trash` moves to the trash as `DELETE /api/v1/assets/{id}` moves it (`asset.deleted` each, restorable until the purge). Any id that is not a live asset of the organization (another organization\u2019s, one already in the trash, or none) answers 404 and changes nothing; so does a member\u2019s session naming an asset someone else pushed (403). Any two assets may be resolved, near-duplicates or not.',
        body: ResolveBody,
        response: {
          200: okResponse('The kept asset as it is now, and the trashed ids.', ResolveResponse, RESOLVE_EXAMPLE),
          ...problemResponses({
            not_found: 'an id that is no live asset of your organization (another organization\u2019s, already in the trash, or never pushed)',
            validation_failed: '`keep` also in `trash`, an id twice in `trash`, `trash` empty or longer than 100, or the kept asset would have more than 100 tags',
            role_required: 'through the web app\u2019s session, a member trashing an asset someone else pushed',
          }),
        },
      },
    },
    async (request) => duplicates.resolve(request.caller!.organizationId, request.body, request.caller!),
  )
}
