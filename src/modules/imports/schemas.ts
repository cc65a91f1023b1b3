import { Type, type Static } from 'typebox'
import { ListSchema, PaginationQuery } from '../../platform/http/pagination.js'
import { ref } from '../../platform/http/schemas.js'
import { PushBody } from '../assets/schemas.js'

/*
 * The design-tool import's API: /api/v1/imports (a key, or the web app's session), and the app API's
 * Figma connection and file outline (/app/api/orgs/{org}/integrations/figma…).
 */

const Uuid = Type.String({ format: 'uuid' })
const NodeId = Type.String({ minLength: 1, maxLength: 200, pattern: '^I?-?\\d+:\\d+(;-?\\d+:\\d+)*$', description: 'A Figma node id as its API writes it: `1:2`.' })
const FigmaToken = Type.String({ minLength: 8, maxLength: 400, description: 'A Figma personal access token. Never returned or logged.' })

export const ImportSelectionSchema = Type.Union([Type.Literal('frames'), Type.Literal('components'), Type.Literal('nodes')], {
  description:
    '`frames`: the top-level frames of each page (of the linked node\u2019s subtree when the link has a `node-id`); `components`: the file\u2019s components, and the variants of its component sets; `nodes`: the nodes of `node_ids`.',
})
export const ImportFormatSchema = Type.Union([Type.Literal('png'), Type.Literal('svg'), Type.Literal('jpg')])

export const CreateImportBody = Type.Object(
  {
    source: Type.Literal('figma'),
    file_url: Type.String({ minLength: 1, maxLength: 2048, description: 'Any Figma file or design link; a `node-id` in it narrows the import to that node\u2019s subtree.' }),
    select: Type.Optional(ImportSelectionSchema),
    node_ids: Type.Optional(Type.Array(NodeId, { minItems: 1, maxItems: 1000, uniqueItems: true, description: 'With `select: "nodes"` only, and required there.' })),
    format: Type.Optional(Type.Union([ImportFormatSchema], { description: 'Default `png`.' })),
    scale: Type.Optional(Type.Number({ minimum: 1, maximum: 4, description: 'Default 1. Ignored by Figma for `svg`.' })),
    figma_token: Type.Optional(FigmaToken),
    asset_type: PushBody.properties.asset_type,
    client: PushBody.properties.client,
    product: PushBody.properties.product,
    tag_names: PushBody.properties.tag_names,
    collection_name: PushBody.properties.collection_name,
    created_by_ai: Type.Optional(Type.Boolean({ description: 'Default false: a design made in Figma is made by people.' })),
  },
  { additionalProperties: false },
)
export type CreateImportInput = Static<typeof CreateImportBody>

export const RerunImportBody = Type.Object({ figma_token: Type.Optional(FigmaToken) }, { additionalProperties: false })

export const ImportAcceptedSchema = Type.Object(
  { import_id: Uuid, status: Type.Literal('queued') },
  { additionalProperties: false, description: 'The import is queued; follow it with `GET /api/v1/imports/{id}`.' },
)

const ImportStatusSchema = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')])

const NodeReport = {
  node_id: Type.String(),
  name: Type.String({ description: 'The node\u2019s name in Figma.' }),
}

export const ImportSchema = Type.Object(
  {
    id: Uuid,
    source: Type.Literal('figma'),
    status: ImportStatusSchema,
    file_url: Type.String(),
    file_key: Type.String(),
    node_id: Type.Union([Type.String(), Type.Null()], { description: 'The linked node whose subtree is imported; null for the whole file.' }),
    select: ImportSelectionSchema,
    node_ids: Type.Array(Type.String()),
    format: ImportFormatSchema,
    scale: Type.Number(),
    metadata: Type.Object(
      {
        asset_type: Type.Union([Type.String(), Type.Null()]),
        client: Type.Union([Type.String(), Type.Null()]),
        product: Type.Union([Type.String(), Type.Null()]),
        tag_names: Type.Array(Type.String()),
        collection_name: Type.Union([Type.String(), Type.Null()]),
        created_by_ai: Type.Boolean(),
      },
      { additionalProperties: false, description: 'What every asset the import creates gets, besides its title, tags and link.' },
    ),
    file_name: Type.Union([Type.String(), Type.Null()], { description: 'The Figma file\u2019s name, once read.' }),
    file_version: Type.Union([Type.String(), Type.Null()], { description: 'The Figma file\u2019s `version` this run read.' }),
    run: Type.Integer({ minimum: 1, description: 'Which run the counts are of: 1, then one more for each rerun.' }),
    total: Type.Integer({ minimum: 0, description: 'Nodes this run covers (known once the file is read).' }),
    created: Type.Integer({ minimum: 0 }),
    updated: Type.Integer({ minimum: 0, description: 'Nodes whose rendering changed: a new version of their asset.' }),
    unchanged: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    missing: Type.Integer({ minimum: 0, description: 'Nodes an earlier run imported that the file no longer has; their assets are kept.' }),
    failures: Type.Array(
      Type.Object({ ...NodeReport, reason: Type.String({ description: 'A code: `render_failed`, `render_expired`, `image_too_large`, `node_not_found`, or the push\u2019s problem code (`svg_script`\u2026).' }), detail: Type.String() }, { additionalProperties: false }),
    ),
    missing_nodes: Type.Array(Type.Object({ ...NodeReport, asset_id: Type.Union([Uuid, Type.Null()]) }, { additionalProperties: false })),
    error: Type.Union(
      [
        Type.Object(
          {
            code: Type.String({ description: '`figma_token_invalid`, `figma_file_not_found`, `figma_unavailable`, `figma_not_connected`, or `figma_bad_response`.' }),
            detail: Type.String(),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Why a `failed` import failed as a whole; null otherwise.' },
    ),
    created_by: Type.Object({ kind: Type.Union([Type.Literal('key'), Type.Literal('user')]), name: Type.String() }, { additionalProperties: false }),
    created_at: Type.String({ format: 'date-time' }),
    started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the current run started.' }),
    finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the current run ended.' }),
  },
  { $id: 'Import', additionalProperties: false },
)
export type ImportRecord = Static<typeof ImportSchema>

export const ImportListSchema = ListSchema(ref(ImportSchema), 'Imports, newest first.')
export const ImportListQuery = Type.Object(
  { ...PaginationQuery, file_key: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only the imports of this Figma file.' })) },
  { additionalProperties: false },
)
export const ImportParams = Type.Object({ id: Uuid })

const ImportNodeOutcomeSchema = Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('unchanged'), Type.Literal('failed'), Type.Literal('missing')])

export const ImportNodeSchema = Type.Object(
  {
    node_id: Type.String(),
    name: Type.String({ description: 'The node\u2019s name in Figma, as last read (a pushed node: as pushed).' }),
    page_name: Type.Union([Type.String(), Type.Null()], { description: 'The Figma page the node is on.' }),
    component_set_name: Type.Union([Type.String(), Type.Null()], { description: 'A variant\u2019s component set; null otherwise.' }),
    outcome: Type.Union([ImportNodeOutcomeSchema, Type.Null()], {
      description:
        'What the current run did with the node: `created` (a new asset), `updated` (a new version of its asset), `unchanged`, `failed` (see `reason`), `missing` (gone from the file; its asset is kept); null while the run has not done it yet.',
    }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'A failed node\u2019s code (`render_failed`, `render_expired`, `image_too_large`, `node_not_found`, or the push\u2019s problem code); null otherwise.' }),
    detail: Type.Union([Type.String(), Type.Null()], { description: 'A failed node\u2019s explanation; null otherwise.' }),
    asset_id: Type.Union([Uuid, Type.Null()], { description: 'The node\u2019s asset, made by this run or an earlier one; null when none was made (or it was purged).' }),
    figma_url: Type.String({ description: 'Opens the node in Figma.' }),
  },
  { $id: 'ImportNode', additionalProperties: false },
)
export type ImportNodeItem = Static<typeof ImportNodeSchema>

export const ImportNodeListSchema = ListSchema(ref(ImportNodeSchema), 'The nodes of the import\u2019s current run, by page, component set, name, then node id.')
export const ImportNodesQuery = Type.Object(
  {
    ...PaginationQuery,
    outcome: Type.Optional(
      Type.Union([ImportNodeOutcomeSchema, Type.Literal('pending')], { description: 'Only the nodes with this outcome; `pending`: not yet done in this run.' }),
    ),
  },
  { additionalProperties: false },
)

export const IMPORT_NODE_EXAMPLE: ImportNodeItem = {
  node_id: '12:7',
  name: 'Hero',
  page_name: 'Marketing',
  component_set_name: null,
  outcome: 'updated',
  reason: null,
  detail: null,
  asset_id: '0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e21',
  figma_url: 'https://www.figma.com/design/AbCdEf1234567890/?node-id=12-7',
}


export const IMPORT_EXAMPLE: ImportRecord = {
  id: '0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e1f',
  source: 'figma',
  status: 'done',
  file_url: 'https://www.figma.com/design/AbCdEf1234567890/Brand-kit',
  file_key: 'AbCdEf1234567890',
  node_id: null,
  select: 'frames',
  node_ids: [],
  format: 'png',
  scale: 2,
  metadata: { asset_type: 'Logo', client: null, product: null, tag_names: ['brand'], collection_name: null, created_by_ai: false },
  file_name: 'Brand kit',
  file_version: '4455667788',
  run: 2,
  total: 3,
  created: 1,
  updated: 1,
  unchanged: 0,
  failed: 1,
  missing: 1,
  failures: [{ node_id: '12:7', name: 'Hero (draft)', reason: 'render_failed', detail: 'Figma could not render this node.' }],
  missing_nodes: [{ node_id: '12:9', name: 'Old banner', asset_id: '0193a4f2-7b1c-7d3e-9f00-2a4b6c8d0e20' }],
  error: null,
  created_by: { kind: 'key', name: 'CI' },
  created_at: '2026-11-28T09:00:00.000Z',
  started_at: '2026-11-28T10:00:01.000Z',
  finished_at: '2026-11-28T10:00:09.000Z',
}

/** The organization's stored Figma token, as Settings shows it: whose it is, never the token. */
export const FigmaConnectionSchema = Type.Object(
  {
    connected: Type.Boolean(),
    figma_user: Type.Union([Type.Object({ id: Type.String(), handle: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false }), Type.Null()]),
    connected_by: Type.Union([Type.String(), Type.Null()]),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
)
export const StoreFigmaTokenBody = Type.Object({ token: FigmaToken }, { additionalProperties: false })
