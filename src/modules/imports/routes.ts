import type { App } from '../../platform/http/app-type.js'
import { pageOf } from '../../platform/http/pagination.js'
import { okResponse, problemResponses, ref, RESPONSE_HEADERS } from '../../platform/http/schemas.js'
import {
  CreateImportBody,
  IMPORT_EXAMPLE,
  IMPORT_NODE_EXAMPLE,
  ImportAcceptedSchema,
  ImportListQuery,
  ImportListSchema,
  ImportNodeListSchema,
  ImportNodesQuery,
  ImportParams,
  ImportSchema,
  RerunImportBody,
} from './schemas.js'
import type { ImportService } from './service.js'

const TAGS = ['imports']

const IMPORT_NOT_FOUND = { not_found: 'no import with this id in your organization' } as const

const NO_TOKEN = {
  figma_not_connected: 'no `figma_token` was sent and the organization has stored no Figma token',
} as const

/** A 202 with `Location`, the import to follow. */
function accepted(description: string) {
  const response = okResponse(description, ImportAcceptedSchema, { import_id: IMPORT_EXAMPLE.id, status: 'queued' })
  return { ...response, headers: { ...RESPONSE_HEADERS, location: { type: 'string', description: 'The import: `/api/v1/imports/{id}`.' } } }
}

const location = (id: string) => `/api/v1/imports/${id}`

/** /api/v1/imports: design-tool imports (Figma), run by the background job; running one again is a sync. */
export function publicImportRoutes(app: App, deps: { imports: ImportService }): void {
  const { imports } = deps

  app.post(
    '/api/v1/imports',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'expensive' } },
      schema: {
        operationId: 'createImport',
        tags: TAGS,
        summary: 'Import frames or components from Figma',
        description:
          'Queues an import of a Figma file and answers 202 at once; follow it with `GET /api/v1/imports/{id}`. The background job reads the file, renders the selected nodes in batches, downloads each image and pushes it with `external_id` `figma:FILEKEY:NODEID`, the node\u2019s name as title, its page (and a variant\u2019s component set) as tags, and a `source_url` that opens the node in Figma; `asset.created` fires for each new asset with `data.source` `{kind: "figma", file_key, node_id, import_id}`. The token (`figma_token`, or the organization\u2019s stored one) is not tried here: an invalid one ends the import `failed` with `figma_token_invalid`. An import\u2019s own token is kept encrypted until its run ends, then erased. Another import of the same file waits for this one to end: one file never gets two sets of assets.',
        body: CreateImportBody,
        response: {
          202: accepted('The import is queued.'),
          ...problemResponses({
            invalid_figma_url: true,
            validation_failed: '`select: "nodes"` without `node_ids`, `node_ids` with another selection, or a field out of range',
            unknown_asset_type: true,
            not_found: '`collection_name` names no collection of your organization',
            smart_collection_immutable: '`collection_name` names a smart collection',
            ...NO_TOKEN,
          }),
        },
      },
    },
    async (request, reply) => {
      const queued = await imports.create(request.caller!, request.body)
      return reply.code(202).header('location', location(queued.import_id)).send(queued)
    },
  )

  app.get(
    '/api/v1/imports',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listImports',
        tags: TAGS,
        summary: 'List imports',
        description: 'Your organization\u2019s imports, newest first, each with its current run\u2019s counts; `file_key` narrows them to one Figma file.',
        querystring: ImportListQuery,
        response: { 200: okResponse('A page of imports.', ImportListSchema, { data: [IMPORT_EXAMPLE], total: 1, limit: 50, offset: 0 }) },
      },
    },
    async (request) => imports.list(request.caller!.organizationId, request.query.file_key, pageOf(request.query)),
  )

  app.get(
    '/api/v1/imports/:id',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'getImport',
        tags: TAGS,
        summary: 'Follow an import',
        description:
          'Its status (`queued`, `running`, `done`, `failed`), the counts of its current run (`total`, `created`, `updated`, `unchanged`, `failed`, `missing`) with each failed node\u2019s reason and each missing node, the Figma file\u2019s name and `version`, and when the run started and finished. The counts grow while it runs.',
        params: ImportParams,
        response: { 200: okResponse('The import.', ref(ImportSchema), IMPORT_EXAMPLE), ...problemResponses(IMPORT_NOT_FOUND) },
      },
    },
    async (request) => imports.get(request.caller!.organizationId, request.params.id),
  )

  app.get(
    '/api/v1/imports/:id/nodes',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listImportNodes',
        tags: TAGS,
        summary: 'List an import\u2019s nodes and what happened to each',
        description:
          'The nodes of the import\u2019s current run, by page, component set, name, then node id (a stable order), each with its `outcome` (null while the run has not done it yet), a failed node\u2019s `reason` and `detail`, its asset and a link that opens it in Figma. Nodes an earlier run imported that the file no longer has are listed as `missing`. `outcome` narrows the list to one outcome, or to `pending` nodes. Read it again while the import runs: outcomes fill in as nodes are done.',
        params: ImportParams,
        querystring: ImportNodesQuery,
        response: {
          200: okResponse('A page of the import\u2019s nodes.', ImportNodeListSchema, { data: [IMPORT_NODE_EXAMPLE], total: 1, limit: 50, offset: 0 }),
          ...problemResponses(IMPORT_NOT_FOUND),
        },
      },
    },
    async (request) => imports.nodes(request.caller!.organizationId, request.params.id, request.query.outcome, pageOf(request.query)),
  )

  app.post(
    '/api/v1/imports/:id/rerun',
    {
      config: { auth: { kind: 'key', scope: 'assets:write', bucket: 'expensive' } },
      // The body is optional (a rerun with the organization's stored token): none is an empty object.
      preValidation: async (request) => {
        request.body ??= {}
      },
      schema: {
        operationId: 'rerunImport',
        tags: TAGS,
        summary: 'Run an import again (a sync)',
        description:
          'Runs the import again with its stored selection and metadata: a node whose rendering changed gets a new version (`asset.updated` with `changes: ["file"]`, and `title`/`tags` when it was renamed or moved), an unchanged node is not rendered again, a new node becomes a new asset, and a node gone from the file is reported in `missing_nodes` (its asset is kept). Send `figma_token` again unless the organization has a stored token (then `{}`, or no body at all). The record then reports the new run\u2019s counts.',
        params: ImportParams,
        body: RerunImportBody,
        response: {
          202: accepted('The sync is queued.'),
          ...problemResponses({ ...IMPORT_NOT_FOUND, import_in_progress: true, ...NO_TOKEN }),
        },
      },
    },
    async (request, reply) => {
      const queued = await imports.rerun(request.caller!.organizationId, request.params.id, request.body.figma_token)
      return reply.code(202).header('location', location(queued.import_id)).send(queued)
    },
  )
}
