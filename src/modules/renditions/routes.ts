import type { FastifyRequest } from 'fastify'
import type { App } from '../../platform/http/app-type.js'
import type { BucketChoice } from '../../platform/http/route-auth.js'
import { okResponse, problemResponses, RESPONSE_HEADERS } from '../../platform/http/schemas.js'
import { RENDITION_LINK_EXAMPLE, RenderParams, RenderQuery, RenditionLinkSchema } from './schemas.js'
import type { RenderQuery as RenderQueryValues, RenditionPlan, Renditions } from './service.js'
import { clampedHeader } from './spec.js'

/** Lists each value asked out of range and the value used, e.g. `width=4096 (asked 1000000000)`. */
export const CLAMPED_HEADER = 'rendition-clamped'

const CLAMPED_HEADER_SCHEMA = {
  [CLAMPED_HEADER]: {
    type: 'string',
    description: 'Present when a value was out of range: each one as `name=used (asked value)`, comma-separated, e.g. `width=4096 (asked 1000000000)`.',
  },
}

/** GET /api/v1/assets/{id}/render. */
export function renditionRoutes(app: App, deps: { renditions: Renditions }): void {
  const { renditions } = deps
  // Worked out once per request: by the guard, to pick the bucket, then by the handler.
  const plans = new WeakMap<FastifyRequest, Promise<RenditionPlan>>()
  const planOf = (request: FastifyRequest): Promise<RenditionPlan> => {
    let plan = plans.get(request)
    if (!plan) {
      const { id } = request.params as { id: string }
      plan = renditions.plan(request.caller!.organizationId, id, queryValues(request.query as Record<string, unknown>), request.headers.accept)
      plans.set(request, plan)
    }
    return plan
  }
  // Whether a redirect must make the file first: looked up once, by the guard, and reused by the handler.
  const mustMake = new WeakMap<FastifyRequest, Promise<boolean>>()
  const mustMakeFor = (request: FastifyRequest, plan: RenditionPlan): Promise<boolean> => {
    let answer = mustMake.get(request)
    if (!answer) {
      answer = renditions.isStored(plan).then((stored) => !stored)
      mustMake.set(request, answer)
    }
    return answer
  }
  const bucket: BucketChoice = {
    among: ['expensive', 'cheap'],
    // Only a redirect makes the file, and only when it is not stored yet. A request the plan refuses is
    // counted as cheap too: its handler answers the problem without rendering.
    choose: async (request) => {
      // The guard runs before validation: the query's `redirect` may still be the text `false`.
      if (String((request.query as { redirect?: unknown }).redirect) === 'false') return 'cheap'
      const plan = await planOf(request).catch(() => null)
      return plan && (await mustMakeFor(request, plan)) ? 'expensive' : 'cheap'
    },
  }

  app.get(
    '/api/v1/assets/:id/render',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket } },
      schema: {
        operationId: 'renderAsset',
        tags: ['assets'],
        summary: 'Render an asset at a size and in a format',
        description: [
          'Redirects (302) to a signed file URL of the asset\u2019s image at this size and in this format, valid as long as `original_url`: the rendition is made first when it is not stored yet, then served from storage with `Cache-Control: public, max-age=31536000, immutable`. With `redirect=false`, answers the link as JSON without making anything.',
          'Out-of-range values are clamped, never refused, and reported in `Rendition-Clamped`; output is capped at 40 megapixels. Only nonsense (`width=abc`, an unknown `fit` or `format`, an unknown `preset`) is 400.',
          'The bucket is `expensive` when a redirect must make the rendition first, and `cheap` when it is stored or with `redirect=false` (which makes nothing).',
        ].join('\n\n'),
        params: RenderParams,
        querystring: RenderQuery,
        response: {
          200: { ...okResponse('With `redirect=false`: the link, the file\u2019s size and format.', RenditionLinkSchema, RENDITION_LINK_EXAMPLE), headers: { ...RESPONSE_HEADERS, ...CLAMPED_HEADER_SCHEMA } },
          302: {
            description: 'To the signed file URL of the rendition (made by now).',
            headers: { ...RESPONSE_HEADERS, ...CLAMPED_HEADER_SCHEMA, location: { type: 'string', description: 'The signed file URL.' } },
            type: 'null',
          },
          ...problemResponses({
            validation_failed: 'a value that is not a number, an unknown `fit` or `format`, a `background` that is not a hex colour, an unknown `preset`, or `preset` with other parameters',
            not_found: 'no asset with this id in your organization, or no such version',
            thumbnail_unavailable: 'the image could not be decoded, so it has no renditions (`thumbnail_status: failed`)',
            render_busy: 'too many renditions are being made here for this one to wait its turn; ask again after `Retry-After` seconds',
            storage_unavailable: 'the file storage (the S3 bucket) cannot be reached',
          }),
        },
      },
    },
    async (request, reply) => {
      const plan = await planOf(request)
      if (plan.clamped.length > 0) reply.header(CLAMPED_HEADER, clampedHeader(plan.clamped))
      if (plan.negotiated) reply.header('vary', 'Accept')
      if (request.query.redirect === false) {
        return { url: plan.link.url, width: plan.width, height: plan.height, format: plan.format, expires_at: plan.link.expiresAt.toISOString() }
      }
      if (plan.rendition && (await mustMakeFor(request, plan))) await renditions.ensure(plan.rendition)
      // The link is the same for an hour of requests: a client may keep the redirect that long.
      return reply.code(302).header('location', plan.link.url).header('cache-control', 'private, max-age=3600').send()
    },
  )
}

/** The query as the guard sees it (before validation): text, numbers where the schema will read numbers. */
function queryValues(query: Record<string, unknown>): RenderQueryValues {
  const text = (name: string) => (typeof query[name] === 'string' || typeof query[name] === 'number' ? String(query[name]) : undefined)
  const version = text('version')
  return {
    width: text('width'),
    height: text('height'),
    fit: text('fit'),
    format: text('format'),
    quality: text('quality'),
    background: text('background'),
    preset: text('preset'),
    version: version !== undefined && /^\d{1,9}$/.test(version) ? Number(version) : undefined,
  }
}
