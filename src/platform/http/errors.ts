export interface FieldProblem {
  /** JSON Pointer into the body, or `/query/<name>` / `/params/<name>` for the URL. */
  pointer: string
  detail: string
}

/** An error whose status, code and message are meant for the client, answered as problem+json. */
export class AppError extends Error {
  /** For a 502: what failed upstream, as a class safe to log (never an address). */
  upstream?: string

  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldProblem[],
  ) {
    super(detail ?? title)
  }
}

export const problems = {
  validation: (errors: FieldProblem[], detail = 'The request is not valid.') =>
    new AppError(400, 'validation_failed', 'Validation failed', detail, errors),
  invalidApiKey: () =>
    new AppError(401, 'invalid_api_key', 'Unauthorized', 'The API key is missing, malformed, unknown, revoked or expired.'),
  notSignedIn: () => new AppError(401, 'not_signed_in', 'Unauthorized', 'Sign in first.'),
  insufficientScope: (needed: string) =>
    new AppError(403, 'insufficient_scope', 'Forbidden', `This endpoint needs an API key with the ${needed} scope.`),
  forbidden: (code: string, detail: string) => new AppError(403, code, 'Forbidden', detail),
  notFound: (what: string) => new AppError(404, 'not_found', 'Not Found', `${what} was not found.`),
  conflict: (code: string, detail: string) => new AppError(409, code, 'Conflict', detail),
  unprocessable: (code: string, detail: string, errors?: FieldProblem[]) =>
    new AppError(422, code, 'Unprocessable Content', detail, errors),
  badGateway: (code: string, detail: string, upstream: string) => Object.assign(new AppError(502, code, 'Bad Gateway', detail), { upstream }),
}

export interface ProblemBody {
  type: string
  title: string
  status: number
  detail?: string
  code: string
  errors?: FieldProblem[]
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json'

export function problemType(code: string): string {
  return `urn:asset-library:problem:${code}`
}

export function problemBody(error: AppError): ProblemBody {
  return {
    type: problemType(error.code),
    title: error.title,
    status: error.status,
    ...(error.detail !== undefined && { detail: error.detail }),
    code: error.code,
    ...(error.errors !== undefined && { errors: error.errors }),
  }
}
