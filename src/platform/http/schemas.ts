import { Type, type Static, type TSchema } from 'typebox'
import { ERROR_CODES, type ErrorCode } from './error-codes.js'
import { AppError, problemBody, problems, type ProblemBody } from './errors.js'

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
    code: Type.String({ description: 'Stable snake_case error code, safe to branch on.' }),
    errors: Type.Optional(Type.Array(ref(FieldProblemSchema))),
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

const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is malformed or fails validation; `errors` points at each bad field.',
  401: 'The API key is missing, malformed, unknown, revoked or expired (`invalid_api_key`). Carries `WWW-Authenticate: Bearer`.',
  403: 'The API key lacks the scope this endpoint needs (`insufficient_scope`), or a plan limit is reached (`plan_limit_reached`).',
  404: 'No such object in your organization (`not_found`).',
  409: 'The request conflicts with the current state.',
  413: 'The body or image is larger than this endpoint accepts.',
  415: 'The body is not JSON (`unsupported_media_type`).',
  422: 'The request is well formed but breaks a business rule.',
  429: 'Rate limit exceeded (`rate_limited`). Wait `Retry-After` seconds, and back off exponentially.',
  500: 'An unexpected error on our side (`internal_error`).',
  502: 'The image could not be fetched: `image_url` was refused by the SSRF guards (`image_fetch_blocked`) or the remote host failed (`image_fetch_failed`).',
}

export type ProblemExamples = Record<string, { summary: string; value: ProblemBody }>

/** Example bodies per status, built by the same code that answers real errors so they cannot drift from it. */
const PROBLEM_EXAMPLES: Record<number, ProblemExamples> = {
  400: {
    validation_failed: {
      summary: 'A field fails validation',
      value: problemBody(problems.validation([{ pointer: '/query/limit', detail: 'must be >= 1' }])),
    },
  },
  401: { invalid_api_key: { summary: 'No usable API key', value: problemBody(problems.invalidApiKey()) } },
  403: {
    insufficient_scope: { summary: 'A read key calls a write endpoint', value: problemBody(problems.insufficientScope('assets:write')) },
    plan_limit_reached: {
      summary: 'A plan limit is reached',
      value: problemBody(problems.forbidden('plan_limit_reached', 'Your plan allows no more assets.')),
    },
  },
  404: { not_found: { summary: 'Unknown id, or one of another organization', value: problemBody(problems.notFound('The object')) } },
  409: {
    smart_collection_immutable: {
      summary: 'A smart collection is query-defined',
      value: problemBody(problems.conflict('smart_collection_immutable', 'A smart collection is defined by its query; its assets cannot be added or removed.')),
    },
  },
  413: {
    body_too_large: {
      summary: 'The body is over the limit',
      value: problemBody(new AppError('body_too_large', 'The request body is larger than this endpoint accepts.')),
    },
    image_too_large: {
      summary: 'The image is over 25 MiB',
      value: problemBody(new AppError('image_too_large', 'The image is larger than 26214400 bytes.')),
    },
  },
  415: {
    unsupported_media_type: {
      summary: 'The body is not JSON',
      value: problemBody(new AppError('unsupported_media_type', 'Send the body as application/json.')),
    },
  },
  422: {
    unprocessable: {
      summary: 'A business rule is broken',
      value: problemBody(problems.unprocessable('unknown_asset_type', 'The asset_type "banner" is not in your catalogue.')),
    },
  },
  429: {
    rate_limited: {
      summary: 'Too many requests',
      value: problemBody(new AppError('rate_limited', 'Rate limit exceeded; retry in 42 seconds.')),
    },
  },
  500: {
    internal_error: {
      summary: 'An unexpected error',
      value: problemBody(new AppError('internal_error', 'Something went wrong on our side. It has been logged.')),
    },
  },
  502: {
    image_fetch_blocked: {
      summary: 'image_url points at a private address',
      value: problemBody(new AppError('image_fetch_blocked', 'The image_url is not allowed: it resolves to a private address.')),
    },
    image_fetch_failed: {
      summary: 'The remote host failed',
      value: problemBody(new AppError('image_fetch_failed', 'The image could not be fetched: the remote host answered 503.')),
    },
  },
}

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

/**
 * One problem response. `description` and `examples` override the generic ones of its status: say what a
 * 404 or 409 means for this endpoint, with the codes it really answers.
 */
export function problemResponse(status: number, description?: string, examples?: ProblemExamples): Record<string, unknown> {
  examples ??= PROBLEM_EXAMPLES[status]
  return {
    description: description ?? STATUS_DESCRIPTIONS[status] ?? 'Error.',
    headers: {
      ...(status === 401 && WWW_AUTHENTICATE_HEADER),
      ...(status === 429 && RETRY_AFTER_HEADER),
      ...RESPONSE_HEADERS,
    },
    content: { 'application/problem+json': { schema: ref(ProblemSchema), ...(examples && { examples }) } },
  }
}

/** Problem responses for the given statuses, in the shape the OpenAPI document and the serializer both read. */
export function problemResponses(...statuses: number[]): Record<number, unknown> {
  return Object.fromEntries(statuses.map((status) => [status, problemResponse(status)]))
}

/** The statuses every authenticated v1 endpoint can answer, beside its own. */
export const AUTHENTICATED_PROBLEMS = [400, 401, 403, 429, 500]

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

/** Problem codes an endpoint answers, each with when it does so there; `true` for the catalogue's own words. */
export type ProblemCodes = Partial<Record<ErrorCode, string | true>>

/**
 * Problem responses of an app endpoint, grouped by status from the codes it can answer: each status lists
 * its codes with when they happen, with an example per code built like the real answer. `headers` are
 * documented on each (a v1 answer's rate-limit headers).
 */
export function appProblemResponses(codes: ProblemCodes, headers?: Record<string, unknown>): Record<number, unknown> {
  const byStatus = new Map<number, Array<[ErrorCode, string]>>()
  for (const [code, when] of Object.entries(codes) as Array<[ErrorCode, string | true]>) {
    const { status } = ERROR_CODES[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), [code, when === true ? ERROR_CODES[code].when : when]])
  }
  return Object.fromEntries(
    [...byStatus].map(([status, entries]) => [
      status,
      {
        description: entries.map(([code, when]) => `- \`${code}\`: ${when}.`).join('\n'),
        ...(headers && { headers }),
        content: {
          'application/problem+json': {
            schema: ref(ProblemSchema),
            examples: Object.fromEntries(entries.map(([code, when]) => [code, { summary: when, value: problemBody(new AppError(code)) }])),
          },
        },
      },
    ]),
  )
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
  content?: Record<string, { schema?: unknown; examples?: Record<string, unknown> }>
}
