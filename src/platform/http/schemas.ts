import { Type, type Static, type TSchema } from 'typebox'
import { ERROR_CODES, type ErrorCode } from './error-codes.js'
import { AppError, problemBody } from './errors.js'

/** A `$ref` to a shared schema that keeps its static type (a bare Type.Ref is `unknown`). */
export function ref<T extends TSchema>(schema: T & { $id?: string }) {
  if (!schema.$id) throw new Error('ref() needs a schema with an $id')
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id))
}

export const FieldProblemSchema = Type.Object(
  {
    pointer: Type.String({ description: 'JSON Pointer into the body, or /query/<name> for a query parameter.' }),
    detail: Type.String(),
  },
  { $id: 'FieldProblem' },
)

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'URI naming the kind of problem; stable per `code`.' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    code: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: 'Stable snake_case error code, safe to branch on: one of the catalogue (docs/api-conventions.md, Errors).',
    }),
    errors: Type.Optional(Type.Array(ref(FieldProblemSchema))),
    asset_id: Type.Optional(Type.String({ format: 'uuid', description: 'With `content_belongs_to_other_asset`: the asset whose bytes these are.' })),
  },
  {
    $id: 'Problem',
    description: 'RFC 9457 problem details.',
    examples: [
      {
        type: 'urn:asset-library:problem:validation_failed',
        title: 'Validation failed',
        status: 400,
        detail: 'The request is not valid.',
        code: 'validation_failed',
        errors: [{ pointer: '/query/limit', detail: 'must be >= 1' }],
      },
    ],
  },
)

export const SHARED_SCHEMAS = [FieldProblemSchema, ProblemSchema]

/** Headers on every /api/v1 response, errors included (the rate limiter runs before authentication). */
export const RESPONSE_HEADERS = {
  'x-ratelimit-limit': { type: 'integer', description: 'Requests allowed in the current window for this bucket.', examples: [120] },
  'x-ratelimit-remaining': { type: 'integer', description: 'Requests left in the current window.', examples: [117] },
  'x-ratelimit-reset': { type: 'integer', description: 'Seconds until the window resets.', examples: [42] },
  'x-request-id': { type: 'string', description: 'Identifies this request in our logs; quote it when reporting a problem.' },
}

const RETRY_AFTER_HEADER = {
  'retry-after': { type: 'integer', description: 'Whole seconds to wait before retrying.', examples: [42] },
}

const WWW_AUTHENTICATE_HEADER = {
  'www-authenticate': { type: 'string', description: 'The authentication scheme to use: `Bearer realm="asset-library"`.' },
}

/** Problem codes an endpoint answers, each with when it does so there; `true` for the catalogue's own words. */
export type ProblemCodes = Partial<Record<ErrorCode, string | true>>

/**
 * Problem responses of a rate-limited endpoint (every v1 one), grouped by status from the codes it can
 * answer: each status lists its codes with when they happen, with an example per code built like the real
 * answer, and the rate-limit headers.
 */
export function problemResponses(codes: ProblemCodes): Record<number, unknown> {
  return problemsByStatus(codes, RESPONSE_HEADERS)
}

/** Problem responses of an app endpoint, as `problemResponses` makes them but without the rate-limit headers. */
export function appProblemResponses(codes: ProblemCodes): Record<number, unknown> {
  return problemsByStatus(codes, {})
}

function problemsByStatus(codes: ProblemCodes, headers: Record<string, unknown>): Record<number, unknown> {
  const byStatus = new Map<number, Array<[ErrorCode, string]>>()
  for (const [code, when] of Object.entries(codes) as Array<[ErrorCode, string | true]>) {
    const { status } = ERROR_CODES[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), [code, when === true ? ERROR_CODES[code].when : when]])
  }
  return Object.fromEntries(
    [...byStatus].map(([status, entries]) => {
      const allHeaders = {
        ...(entries.some(([code]) => code === 'invalid_api_key') && WWW_AUTHENTICATE_HEADER),
        ...(entries.some(([code]) => code === 'rate_limited' || code === 'render_busy') && RETRY_AFTER_HEADER),
        ...headers,
      }
      return [
        status,
        {
          description: entries.map(([code, when]) => `- \`${code}\`: ${when}.`).join('\n'),
          ...(Object.keys(allHeaders).length > 0 && { headers: allHeaders }),
          content: {
            'application/problem+json': {
              schema: ref(ProblemSchema),
              examples: Object.fromEntries(entries.map(([code, when]) => [code, { summary: when, value: problemBody(new AppError(code)) }])),
            },
          },
        },
      ]
    }),
  )
}

/**
 * A success response with its rate-limit headers documented. `example` is shown for this response;
 * without it the schema's own `examples` are.
 */
export function okResponse<T extends TSchema>(description: string, schema: T, example?: Static<T>): Record<string, unknown> {
  return {
    description,
    headers: RESPONSE_HEADERS,
    content: { 'application/json': { schema, ...(example !== undefined && { example }) } },
  }
}

/** Timestamps go out as RFC 3339 UTC strings. */
export function iso(date: Date): string
export function iso(date: Date | null): string | null
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null
}

/** A 204 with its rate-limit headers documented. */
export function noContentResponse(description: string): Record<string, unknown> {
  return { description, headers: RESPONSE_HEADERS, type: 'null' }
}

/** An RFC 3339 timestamp, as `iso` writes it. */
export const DateTimeSchema = Type.String({ format: 'date-time' })

/** A timestamp or null; `Null` first (see the validator's coercion of unions). */
export function nullableDateTime(description?: string) {
  return Type.Union([Type.Null(), DateTimeSchema], description === undefined ? {} : { description })
}

/**
 * Schema option naming a schema for the OpenAPI documents: it is written once under that name in
 * `components.schemas` and referenced wherever it is used. Unlike an `$id`, it needs no `addSchema`: adding
 * a shared schema to the root after child scopes exist makes Fastify rebuild their validators with its
 * default Ajv, dropping ours (no coercion rules, unknown fields stripped instead of refused).
 */
export const COMPONENT = 'x-component'

// --- /app/api: the browser application's own endpoints (openapi/app.json) ---------------------------
// They are not counted by the rate limiter (sign-in aside), so their responses document no rate-limit headers.

/** A success response of an app endpoint. */
export function appResponse(description: string, schema: TSchema): Record<string, unknown> {
  return { description, content: { 'application/json': { schema } } }
}

/** The body of an unpaginated list, `{data: [...]}`. */
export function DataListSchema<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item) }, { additionalProperties: false })
}

/** A 204 of an app endpoint. */
export function appNoContent(description: string): Record<string, unknown> {
  return { description, type: 'null' }
}

/**
 * Two sets of problem responses in one: a status in both keeps both descriptions and every example (`a`'s
 * where both have the same code).
 */
export function mergeProblemResponses(a: Record<number, unknown>, b: Record<number, unknown>): Record<number, unknown> {
  const merged: Record<number, unknown> = { ...a }
  for (const [key, value] of Object.entries(b)) {
    const status = Number(key)
    const own = merged[status] as ProblemResponseShape | undefined
    const extra = value as ProblemResponseShape
    if (!own) {
      merged[status] = extra
      continue
    }
    const media = 'application/problem+json'
    merged[status] = {
      ...own,
      ...((own.headers ?? extra.headers) && { headers: { ...extra.headers, ...own.headers } }),
      description: [own.description, extra.description].filter((text) => text !== undefined).join('\n'),
      content: {
        [media]: {
          ...own.content?.[media],
          examples: { ...extra.content?.[media]?.examples, ...own.content?.[media]?.examples },
        },
      },
    }
  }
  return merged
}

interface ProblemResponseShape {
  description?: string
  headers?: Record<string, unknown>
  content?: Record<string, { schema?: unknown; examples?: Record<string, unknown> }>
}
