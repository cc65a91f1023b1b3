import { EVENT_NAMES, type EventName } from '../../platform/events/names.js'

/*
 * What a delivery of each event kind carries, for the v1 OpenAPI document's `webhooks` section (OpenAPI
 * 3.1): the envelope of envelope.ts, the headers delivery.ts sends, and each kind's `data` as its `emit`
 * writes it. One entry per kind of names.ts (the Record makes a new kind fail to compile until it is here).
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON Schema written as plain JSON for the document */
type JsonSchema = Record<string, any>

const component = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const uuid = (description?: string): JsonSchema => ({ type: 'string', format: 'uuid', ...(description && { description }) })
const ROLE: JsonSchema = { type: 'string', enum: ['owner', 'admin', 'member'] }

/** A `data` object of named fields, every one present. */
function fields(properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false, ...(description && { description }) }
}

interface EventPayload {
  /** When the event fires. */
  summary: string
  data: JsonSchema
}

/**
 * The asset record of `GET /api/v1/assets/{id}` with the names of the fields a change touched. Written out
 * rather than a `$ref` beside `changes`: the record's schema admits no other property.
 */
function assetWithChanges(asset: JsonSchema): JsonSchema {
  const changes = {
    type: 'array',
    items: { type: 'string' },
    description: 'The fields of the record the change touched, by their names here (`tags`, `title`…); `file` when a new version replaced the file.',
  }
  return { ...asset, properties: { ...asset.properties, changes }, required: [...asset.required, 'changes'], description: 'The asset record after the change, with `changes`.' }
}

/**
 * `asset.created`'s data: the asset record with where the asset came from (the event's only: the record
 * of `GET /api/v1/assets/{id}` does not keep it).
 */
function assetWithSource(asset: JsonSchema): JsonSchema {
  const source = {
    description:
      'Where the asset came from: `api` (a push with an API key), `upload` (the web app’s push or upload), or `figma` (an import: `POST /api/v1/imports`), with the Figma file, the node and the import.',
    oneOf: [
      fields({ kind: { type: 'string', const: 'api' } }),
      fields({ kind: { type: 'string', const: 'upload' } }),
      fields({
        kind: { type: 'string', const: 'figma' },
        file_key: { type: 'string', description: 'The Figma file.' },
        node_id: { type: 'string', description: 'The node, as Figma’s API writes it (`1:2`).' },
        import_id: uuid('The import that made the asset.'),
      }),
    ],
  }
  return { ...asset, properties: { ...asset.properties, source }, required: [...asset.required, 'source'], description: 'The asset record, with `source`.' }
}

/** Each event kind's `data`, given the document's component schemas (the asset record is copied for `asset.created` and `asset.updated`). */
function eventPayloads(schemas: Record<string, JsonSchema>): Record<EventName, EventPayload> {
  const asset = schemas.Asset
  if (!asset) throw new Error('The webhooks section needs the Asset schema among the components')
  return {
    ping: { summary: 'A test delivery an owner or admin asked for.', data: fields({ subscription_id: uuid('The subscription pinged.') }) },
    'asset.created': { summary: 'An asset is pushed, uploaded or imported (a duplicate push fires nothing).', data: assetWithSource(asset) },
    'asset.updated': { summary: 'An asset\u2019s metadata is edited, or it gets a new version.', data: assetWithChanges(asset) },
    'asset.deleted': { summary: 'An asset is deleted (moved to the trash).', data: fields({ id: uuid('The deleted asset.') }) },
    'asset.restored': { summary: 'An asset comes back from the trash: its record, as `asset.created`\u2019s without `source`.', data: component('Asset') },
    'collection.created': { summary: 'A collection is created.', data: component('Collection') },
    'collection.shared': {
      summary: 'A collection gets a public link (a new link replaces the old one).',
      data: fields({ collection: component('Collection'), share_url: { type: 'string', format: 'uri', description: 'The public link.' } }),
    },
    'member.invited': {
      summary: 'A teammate is invited.',
      data: fields({ email: { type: 'string', format: 'email' }, role: ROLE, invited_by: fields({ user_id: uuid(), email: { type: 'string', format: 'email' } }) }),
    },
    'member.joined': { summary: 'An invitation is accepted.', data: fields({ user_id: uuid(), email: { type: 'string', format: 'email' }, role: ROLE }) },
  }
}

/** The body of every delivery (envelope.ts): the same bytes on every attempt and replay. */
function envelopeSchema(event: EventName, data: JsonSchema): JsonSchema {
  return fields({
    id: uuid('The delivery id: the same on every retry and replay. Dedupe on it.'),
    event: { type: 'string', const: event },
    organization_id: uuid(),
    emitted_at: { type: 'string', format: 'date-time', description: 'When the change was made; deliveries may arrive out of order.' },
    data,
  })
}

function header(name: string, description: string, schema: JsonSchema = { type: 'string' }): JsonSchema {
  return { name, in: 'header', required: true, description, schema }
}

/** The headers delivery.ts sends with every attempt. */
function deliveryHeaders(event: EventName): JsonSchema[] {
  return [
    header('X-Service-Event', 'The event kind.', { type: 'string', const: event }),
    header('X-Service-Delivery-Id', 'The delivery id (the envelope\u2019s `id`).', uuid()),
    header('X-Service-Timestamp', 'Unix seconds when this attempt was signed.', { type: 'string', pattern: '^\\d+$' }),
    header(
      'X-Service-Signature',
      '`t=<timestamp>,v1=<hex>`: hex is the lowercase HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret; during a secret rotation one `v1=` per secret. Verify it (docs/webhooks.md, or `verifyWebhook` of the SDK) before trusting the body, and refuse a `t` more than 300 s from your clock.',
      { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
    ),
  ]
}

const operationId = (event: EventName) => `${event.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase())}Event`

/**
 * The `webhooks` section: for each event kind the request Asset Library sends to a subscribed endpoint,
 * keyed by the kind. `schemas` are the document's component schemas, which the payloads refer to.
 */
export function webhooksSection(schemas: Record<string, JsonSchema>): Record<EventName, JsonSchema> {
  const payloads = eventPayloads(schemas)
  const entry = (event: EventName) => [
    event,
    {
      post: {
        operationId: operationId(event),
        summary: `${event}: ${payloads[event].summary}`,
        description: `Sent to every enabled subscription to \`${event}\`${event === 'ping' ? ' (a ping goes to the one subscription pinged, whatever it subscribes to)' : ''}, signed with its secret. A receiver ignores event kinds it does not know.`,
        security: [],
        parameters: deliveryHeaders(event),
        requestBody: { required: true, content: { 'application/json': { schema: envelopeSchema(event, payloads[event].data) } } },
        responses: {
          '2XX': { description: 'Any 2xx within 10 seconds acknowledges the delivery.' },
          '4XX': { description: 'A failed attempt, like any other answer, a timeout or a refused connection: retried on the schedule of docs/webhooks.md.' },
        },
      },
    },
  ]
  return Object.fromEntries(EVENT_NAMES.map(entry)) as Record<EventName, JsonSchema>
}
