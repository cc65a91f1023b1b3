import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ErrorObject } from 'ajv'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { BlobStoreUnavailableError } from '../blobs/blob-store.js'
import type { ErrorCode } from './error-codes.js'
import { AppError, PROBLEM_CONTENT_TYPE, problemBody, problems } from './errors.js'
import { fieldProblems } from './schema-errors.js'

/**
 * One place turns every failure into problem+json, so clients see a single error shape. `page` answers
 * what is a page of the web app rather than a missing route (see web-app.ts).
 */
export function registerErrorHandling(app: FastifyInstance, page?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const constraint = constraintProblem(error)
    if (constraint) {
      // A race our code did not foresee: the client gets a fair answer, we get a warning to fix it.
      request.log.warn({ constraint: (error as { constraint?: string }).constraint, code: error.code }, 'a concurrent change broke a constraint')
      return sendProblem(reply, constraint)
    }
    if (error instanceof BlobStoreUnavailableError) {
      // The message names the bucket, the key and the failure: what an operator needs, and no secret.
      request.log.warn({ err: error }, 'the blob store is unavailable')
      return sendProblem(reply, new AppError('storage_unavailable', 'The file storage cannot be reached right now; nothing was changed. Try again shortly.'))
    }
    const appError = toAppError(error)
    if (appError.upstream !== undefined) {
      request.log.warn({ code: appError.code, upstream: appError.upstream }, 'an upstream request failed')
    } else if (appError.status >= 500) {
      request.log.error({ err: error }, 'unexpected error')
    }
    return sendProblem(reply, appError)
  })
  app.setNotFoundHandler(
    (request, reply) =>
      page?.(request, reply) ?? sendProblem(reply, new AppError('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`)),
  )
}

/**
 * Fastify's `frameworkErrors`: a URL its router cannot read, or a path parameter over its length limit,
 * answered like every other error.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendProblem(reply, new AppError('uri_too_long', 'A part of the path is longer than any id or name this API uses.'))
  } else {
    void sendProblem(reply, problems.badUrl())
  }
}

const CLIENT_ERRORS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: ['headers_too_large', 'The request headers are larger than the server accepts.'],
  ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request did not arrive in time.'],
}

/**
 * Node's `clientError`: a request its HTTP parser refused before Fastify saw it (headers too large, a
 * malformed request line) gets a problem+json answer on the raw socket, then the connection closes.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable || answerStarted(socket)) {
    socket.destroy()
    return
  }
  const [code, detail] = CLIENT_ERRORS[error.code ?? ''] ?? ['bad_request', 'The request is not valid HTTP.']
  const problem = new AppError(code, detail)
  const body = JSON.stringify(problemBody(problem))
  const status = problem.status
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

/**
 * A request past its deadline whose answer already went out in part (a handler that answered before the
 * body arrived): a second answer would corrupt it, so the connection is only closed, as Node itself does.
 */
function answerStarted(socket: Duplex): boolean {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true
}

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.code === 'invalid_api_key') reply.header('www-authenticate', 'Bearer realm="asset-library"')
  // RFC 9110 15.5.16: the codings the request could have used; we decode none.
  if (error.code === 'unsupported_content_encoding') reply.header('accept-encoding', 'identity')
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', error.retryAfterSeconds)
  return reply.code(error.status).type(PROBLEM_CONTENT_TYPE).send(problemBody(error))
}

/**
 * PostgreSQL's foreign-key and unique violations, which only a concurrent change can cause once the
 * services have checked their input: a referenced object deleted meanwhile is a 404, a duplicate made
 * meanwhile a 409.
 */
function constraintProblem(error: FastifyError): AppError | undefined {
  if (error.code === '23503') return problems.notFound('An object this request refers to (deleted meanwhile)')
  if (error.code === '23505') return problems.conflict('concurrent_change', 'A concurrent request made the same change; read the current state and retry.')
  return undefined
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error
  if (error.validation) {
    return problems.validation(fieldProblems(error.validation as ErrorObject[], error.validationContext))
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as application/json.')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('body_too_large', 'The request body is larger than this endpoint accepts.')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('malformed_json', 'The body is empty but the content type says JSON.')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('malformed_json', 'The body is not valid JSON.')
  }
  const status = error.statusCode ?? 500
  if (status === 429) {
    return new AppError('rate_limited', error.message)
  }
  if (status === 400 && error instanceof SyntaxError) {
    return new AppError('malformed_json', 'The body is not valid JSON.')
  }
  if (status >= 400 && status < 500) {
    // A client error from a lower layer that the catalogue has no code for: its message says what.
    return new AppError('bad_request', error.message)
  }
  return new AppError('internal_error', 'Something went wrong on our side. It has been logged.')
}
