import { Type, type Static, type TSchema } from 'typebox'

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
  400: 'The request is malformed or fails validation (`validation_failed`, `malformed_json`).',
  401: 'The API key is missing, malformed, unknown, revoked or expired (`invalid_api_key`).',
  403: 'The API key lacks the scope this endpoint needs (`insufficient_scope`).',
  404: 'No such object in your organization (`not_found`).',
  409: 'The request conflicts with the current state.',
  413: 'The body is larger than this endpoint accepts.',
  415: 'The body is not JSON (`unsupported_media_type`).',
  422: 'The request is well formed but breaks a business rule.',
  429: 'Rate limit exceeded (`rate_limited`). Wait `Retry-After` seconds, and back off exponentially.',
  500: 'An unexpected error on our side (`internal_error`).',
}

const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': { type: 'integer', description: 'Requests allowed in the current window for this bucket.' },
  'x-ratelimit-remaining': { type: 'integer', description: 'Requests left in the current window.' },
  'x-ratelimit-reset': { type: 'integer', description: 'Seconds until the window resets.' },
}

/** Problem responses for the given statuses, in the shape the OpenAPI document and the serializer both read. */
export function problemResponses(...statuses: number[]): Record<number, unknown> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: STATUS_DESCRIPTIONS[status] ?? 'Error.',
        ...(status === 429 && {
          headers: { 'retry-after': { type: 'integer', description: 'Seconds to wait before retrying.' }, ...RATE_LIMIT_HEADERS },
        }),
        content: { 'application/problem+json': { schema: ref(ProblemSchema) } },
      },
    ]),
  )
}

/** The statuses every authenticated v1 endpoint can answer, beside its own. */
export const AUTHENTICATED_PROBLEMS = [400, 401, 403, 429, 500]

/** A success response with its rate-limit headers documented. */
export function okResponse<T extends TSchema>(description: string, schema: T): Record<string, unknown> {
  return { description, headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema } } }
}

/** Timestamps go out as RFC 3339 UTC strings. */
export function iso(date: Date): string
export function iso(date: Date | null): string | null
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null
}
