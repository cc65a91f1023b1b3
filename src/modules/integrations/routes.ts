import { Type } from 'typebox'
import type { App } from '../../platform/http/app-type.js'
import { problems } from '../../platform/http/errors.js'
import { appNoContent, appProblemResponses, appResponse, DataListSchema, mergeProblemResponses } from '../../platform/http/schemas.js'
import { FigmaConnectionSchema, StoreFigmaTokenBody } from '../imports/schemas.js'
import type { FigmaWebhooks } from './figma-hooks.js'
import type { FigmaOutlines } from './outline.js'
import { CreateFigmaWebhookBody, FigmaOutlineSchema, FigmaWebhookParams, FigmaWebhookSchema, OrgParams, OutlineHeaders, OutlineQuery } from './schemas.js'
import type { FigmaConnections } from './service.js'

const TAGS = ['app-integrations']
const MANAGER = { auth: { kind: 'session', role: 'manager' } } as const
const MEMBER = { auth: { kind: 'session', role: 'member' } } as const
const FIGMA_URL = '/app/api/orgs/:org/integrations/figma'

const FIGMA_CALL_PROBLEMS = appProblemResponses({
  figma_token_invalid: 'Figma refused the token (403)',
  figma_unavailable: 'Figma could not be reached, or kept answering 429 or 5xx',
})

/**
 * Figma's events are small (a library's publish lists its changed items), so a body past this is not
 * Figma's: it is refused before it is read.
 */
export const FIGMA_EVENT_BODY_LIMIT = 256 * 1024

const FigmaEventBody = Type.Object(
  {
    event_type: Type.String({ maxLength: 64 }),
    passcode: Type.String({ maxLength: 200 }),
    webhook_id: Type.Optional(Type.String({ maxLength: 200 })),
    file_key: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { description: 'Figma\u2019s webhook payload (WebhookFileUpdatePayload, WebhookLibraryPublishPayload, WebhookPingPayload\u2026); fields not read here are let through.' },
)

/** /app/api/orgs/:org/integrations/figma: the stored token (members read it, owners and admins change it) and the webhooks. */
export function figmaIntegrationRoutes(app: App, deps: { connections: FigmaConnections; webhooks: FigmaWebhooks; outlines: FigmaOutlines }): void {
  const { connections, webhooks, outlines } = deps

  app.get(
    FIGMA_URL,
    {
      config: MEMBER,
      schema: {
        operationId: 'appGetFigmaConnection',
        tags: TAGS,
        summary: 'Whose Figma token the organization stored',
        description: 'Whether the organization has stored a Figma token, whose it is as Figma told, and who stored it when; never the token. Members see it, so the Import screen knows whether to ask for a token.',
        params: OrgParams,
        response: { 200: appResponse('The connection.', FigmaConnectionSchema) },
      },
    },
    async (request) => connections.get(request.membership!.organization.id),
  )

  app.put(
    FIGMA_URL,
    {
      config: MANAGER,
      schema: {
        operationId: 'appStoreFigmaToken',
        tags: TAGS,
        summary: 'Store the organization\u2019s Figma token',
        description:
          'Checks the personal access token with Figma (`GET /v1/me`) at once, then keeps it encrypted in place of the one stored before. Imports without their own `figma_token`, webhooks and the outline use it.',
        params: OrgParams,
        body: StoreFigmaTokenBody,
        response: { 200: appResponse('The connection, with whose token it is.', FigmaConnectionSchema), ...FIGMA_CALL_PROBLEMS },
      },
    },
    async (request) => {
      const { organization, user } = request.membership!
      return connections.store(organization.id, request.body.token, { kind: 'user', name: user.name || user.email })
    },
  )

  app.delete(
    FIGMA_URL,
    {
      config: MANAGER,
      schema: {
        operationId: 'appRemoveFigmaToken',
        tags: TAGS,
        summary: 'Remove the organization\u2019s Figma token',
        description: 'Also removes its Figma webhooks, at Figma as far as Figma answers, and here. Imports that have no token of their own fail `figma_not_connected` from then on. Removing none is no error.',
        params: OrgParams,
        response: { 204: appNoContent('Removed.') },
      },
    },
    async (request, reply) => {
      await connections.remove(request.membership!.organization.id)
      return reply.code(204).send()
    },
  )

  app.get(
    `${FIGMA_URL}/outline`,
    {
      config: MEMBER,
      schema: {
        operationId: 'appFigmaOutline',
        tags: TAGS,
        summary: 'A Figma file\u2019s pages, frames and components',
        description: `Reads the file of a Figma link shallowly (pages and their top-level frames, and the file\u2019s own components), with Figma\u2019s own thumbnails of the first ${200} of them, for picking what to import. With the \`X-Figma-Token\` header, reads with that token; otherwise with the organization\u2019s stored one.`,
        params: OrgParams,
        querystring: OutlineQuery,
        headers: OutlineHeaders,
        response: {
          200: appResponse('The outline.', FigmaOutlineSchema),
          ...mergeProblemResponses(
            FIGMA_CALL_PROBLEMS,
            appProblemResponses({
              invalid_figma_url: '`file_url` is not a Figma file or design link',
              figma_not_connected: 'no `X-Figma-Token`, and the organization stored no token',
              figma_file_not_found: 'Figma has no such file the token can open (404), or the link\u2019s node is not in it',
            }),
          ),
        },
      },
    },
    async (request) => {
      const token = request.headers['x-figma-token'] ?? (await connections.token(request.membership!.organization.id))
      if (token === null) throw problems.unprocessable('figma_not_connected', 'Store the organization\u2019s Figma token in Settings, or give one.')
      return outlines.outline(request.query.file_url, token)
    },
  )

  app.get(
    `${FIGMA_URL}/webhooks`,
    {
      config: MANAGER,
      schema: {
        operationId: 'appListFigmaWebhooks',
        tags: TAGS,
        summary: 'List the Figma webhooks',
        description: 'The Figma webhooks the organization registered, oldest first.',
        params: OrgParams,
        response: { 200: appResponse('The webhooks.', DataListSchema(FigmaWebhookSchema)) },
      },
    },
    async (request) => ({ data: await webhooks.list(request.membership!.organization) }),
  )

  app.post(
    `${FIGMA_URL}/webhooks`,
    {
      config: MANAGER,
      schema: {
        operationId: 'appCreateFigmaWebhook',
        tags: TAGS,
        summary: 'Register a Figma webhook',
        description:
          'Registers a webhook at Figma with the stored token: each `FILE_UPDATE` or `LIBRARY_PUBLISH` Figma sends to `PUBLIC_BASE_URL/hooks/figma/{org}` re-runs the imports of the file it names, debounced (`FIGMA_WEBHOOK_DEBOUNCE_MS`). Needs a `PUBLIC_BASE_URL` Figma can reach. When the organization has one with this event and context already, that one is answered, and nothing is registered again.',
        params: OrgParams,
        body: CreateFigmaWebhookBody,
        response: {
          201: appResponse('Registered (or the one registered before).', FigmaWebhookSchema),
          ...mergeProblemResponses(
            FIGMA_CALL_PROBLEMS,
            appProblemResponses({
              invalid_figma_url: '`file_url` is not a Figma file or design link',
              public_url_required: '`PUBLIC_BASE_URL` is not a public address (loopback, private, `localhost`, `.local`\u2026) and `OUTBOUND_ALLOWLIST` does not name it',
              figma_not_connected: 'the organization stored no Figma token',
              figma_file_not_found: 'Figma has no such file (or project, or team) the token can reach',
            }),
          ),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.register(request.membership!.organization, request.body)),
  )

  app.delete(
    `${FIGMA_URL}/webhooks/:id`,
    {
      config: MANAGER,
      schema: {
        operationId: 'appDeleteFigmaWebhook',
        tags: TAGS,
        summary: 'Remove a Figma webhook',
        description: 'Removes it here, and at Figma as far as Figma answers: its events are refused from then on.',
        params: FigmaWebhookParams,
        response: { 204: appNoContent('Removed.'), ...appProblemResponses({ not_found: 'no Figma webhook with this id in the organization' }) },
      },
    },
    async (request, reply) => {
      await webhooks.delete(request.membership!.organization.id, request.params.id)
      return reply.code(204).send()
    },
  )
}

/**
 * POST /hooks/figma/:org_slug: Figma's webhook events. No session and no key: the passcode in the body
 * is the credential, and the address is counted like the other links anyone may call.
 */
export function figmaEventRoutes(app: App, deps: { webhooks: FigmaWebhooks }): void {
  app.post(
    '/hooks/figma/:org_slug',
    {
      bodyLimit: FIGMA_EVENT_BODY_LIMIT,
      config: { auth: { kind: 'public', bucket: 'files' } },
      schema: { params: Type.Object({ org_slug: Type.String({ maxLength: 100 }) }), body: FigmaEventBody },
    },
    async (request) => {
      await deps.webhooks.receive(request.params.org_slug, request.body)
      return { received: request.body.event_type }
    },
  )
}
