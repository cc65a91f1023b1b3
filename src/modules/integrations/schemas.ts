import { Type, type Static } from 'typebox'

/*
 * The app API of the organization's Figma integration beyond the stored token (whose schemas are the
 * imports module's, FigmaConnectionSchema and StoreFigmaTokenBody): its Figma webhooks and the file
 * outline the web app's Import screen shows.
 */

export const OrgParams = Type.Object({ org: Type.String() })
export const FigmaWebhookParams = Type.Object({ org: Type.String(), id: Type.String({ format: 'uuid' }) })

const EventType = Type.Union([Type.Literal('FILE_UPDATE'), Type.Literal('LIBRARY_PUBLISH')], {
  description: '`FILE_UPDATE`: a file was saved (Figma sends it after 30 minutes without edits); `LIBRARY_PUBLISH`: a library file was published.',
})
const Context = Type.Union([Type.Literal('file'), Type.Literal('project'), Type.Literal('team')])

export const CreateFigmaWebhookBody = Type.Object(
  {
    event_type: EventType,
    context: Type.Optional(Type.Union([Context], { description: 'What the webhook watches; `file` when `file_url` is given.' })),
    context_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9:_-]+$', description: 'The file key, project id or team id, as Figma writes it. Give this or `file_url`.' }),
    ),
    file_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'A Figma file or design link, instead of `context: "file"` and its key.' })),
  },
  { additionalProperties: false },
)
export type CreateFigmaWebhookInput = Static<typeof CreateFigmaWebhookBody>

export const FigmaWebhookSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    event_type: EventType,
    context: Context,
    context_id: Type.String(),
    figma_webhook_id: Type.String({ description: 'Figma\u2019s id of the webhook.' }),
    endpoint: Type.String({ description: 'Where Figma sends the events: `PUBLIC_BASE_URL/hooks/figma/{org}`.' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, description: 'A Figma webhook the organization registered: each event re-runs the imports of the file it names, debounced.' },
)
export type FigmaWebhookView = Static<typeof FigmaWebhookSchema>

export const OutlineQuery = Type.Object(
  { file_url: Type.String({ minLength: 1, maxLength: 2048, description: 'A Figma file or design link; with a `node-id`, the outline of that node\u2019s subtree.' }) },
  { additionalProperties: false },
)
export const OutlineHeaders = Type.Object({
  'x-figma-token': Type.Optional(
    Type.String({ minLength: 8, maxLength: 400, description: 'A Figma personal access token to read the file with, instead of the organization\u2019s stored one. Never logged.' }),
  ),
})

const Thumbnail = Type.Union([Type.String(), Type.Null()], {
  description: 'Figma\u2019s own rendering of the node, small (a link to Figma\u2019s image host that expires within days); null past the first 200 nodes, or when Figma could not render it.',
})

const OutlineFrame = Type.Object(
  { id: Type.String(), name: Type.String(), type: Type.String({ description: 'Figma\u2019s node type: `FRAME`, `COMPONENT`, `SECTION`\u2026' }), thumbnail_url: Thumbnail },
  { additionalProperties: false },
)

export const FigmaOutlineSchema = Type.Object(
  {
    file_key: Type.String(),
    file_name: Type.String(),
    version: Type.String({ description: 'The file\u2019s `version` as Figma gave it.' }),
    node_id: Type.Union([Type.String(), Type.Null()], { description: 'The linked node, whose subtree the outline covers (then the one entry of `pages` is that node); null for the whole file.' }),
    pages: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          frames: Type.Array(OutlineFrame, { description: 'The page\u2019s top-level frames, components, component sets and instances, those in its sections included: what an import of `frames` takes. Of a linked frame (or component, or instance), the node itself; of another linked node, its own top-level ones.' }),
        },
        { additionalProperties: false },
      ),
    ),
    components: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          page: Type.Union([Type.String(), Type.Null()], { description: 'The page it is on, when it is among the outline\u2019s top levels; null when deeper.' }),
          component_set: Type.Union([Type.String(), Type.Null()], { description: 'The component set of a variant.' }),
          thumbnail_url: Thumbnail,
        },
        { additionalProperties: false },
      ),
      { description: 'The file\u2019s own components (not those of libraries it uses), variants included.' },
    ),
  },
  { additionalProperties: false, description: 'What a Figma file holds, shallowly, for picking what to import.' },
)
export type FigmaOutline = Static<typeof FigmaOutlineSchema>
