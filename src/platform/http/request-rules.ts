import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest, FastifySchema, preParsingHookHandler } from 'fastify'
import { AppError, problems } from './errors.js'

/**
 * Rules every request meets, on every route (/api/v1, /app/api and the rest alike), checked before its
 * body is read; docs/api-conventions.md states them, and openapi.ts documents their answers from
 * `platformProblems` below:
 * - the URL must decode, its query as well as its path (the router refuses a bad path the same way);
 * - a header that may appear once (`Authorization`, `Content-Type`, `Host`) must not be sent twice: Node
 *   keeps the first, so a proxy and this server could read two different requests;
 * - a route whose schema declares no body refuses a non-empty one (an empty one, with or without a
 *   content type, is no body);
 * - a body is not content-coded (`Content-Encoding: gzip`): we do not decompress, and must not read
 *   compressed bytes as JSON.
 */
export function registerRequestRules(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => done(urlProblem(request.url) ?? repeatedHeader(request.raw)))
  app.addHook('onRoute', (route) => {
    const rule = declaresBody(route.schema) ? refuseCodedBody : refuseAnyBody
    route.preParsing = [rule, ...(route.preParsing === undefined ? [] : [route.preParsing].flat())]
  })
}

/** Whether a route takes a body: its schema declares one. Every other route refuses a body. */
export function declaresBody(schema: FastifySchema | undefined): boolean {
  return schema?.body !== undefined
}

/** Whether the route of this request takes a body. */
export function takesBody(request: FastifyRequest): boolean {
  return declaresBody(request.routeOptions.schema)
}

function urlProblem(url: string): AppError | undefined {
  const query = url.indexOf('?')
  if (query === -1 || !url.includes('%', query)) return undefined
  try {
    decodeURIComponent(url.slice(query + 1))
    return undefined
  } catch {
    return problems.badUrl()
  }
}

const ONCE_ONLY = new Set(['authorization', 'content-type', 'host'])

function repeatedHeader(raw: IncomingMessage): AppError | undefined {
  const names = raw.rawHeaders
  let seen: string[] | undefined
  for (let i = 0; i < names.length; i += 2) {
    const name = names[i]!.toLowerCase()
    if (!ONCE_ONLY.has(name)) continue
    if (seen?.includes(name)) return problems.repeatedHeader(name)
    ;(seen ??= []).push(name)
  }
  return undefined
}

/** The body's length as declared: a number, 0 for none, or null when it is chunked (known only once read). */
function declaredLength(headers: IncomingHttpHeaders): number | null {
  if (headers['transfer-encoding'] !== undefined) return null
  return Number(headers['content-length'] ?? 0)
}

/**
 * A declared length is refused before reading; a chunked body is read up to its first byte, and an empty
 * one is handed on as an empty stream, so the parsers (whatever the content type) see no body. Callbacks,
 * not async: most requests pass synchronously, without a promise each.
 */
const refuseAnyBody: preParsingHookHandler = (request, _reply, payload, done) => {
  const length = declaredLength(request.headers)
  if (length === 0) return done(null, payload)
  if (length !== null) return done(problems.bodyRefused())
  emptyStream(payload).then((empty) => done(null, empty), done)
}

/** An empty stream in place of `payload` when it ends without a byte; refused at its first byte otherwise. */
async function emptyStream(payload: Readable): Promise<Readable> {
  // Not destroyed on the way out: the request's socket still carries the answer.
  for await (const chunk of payload.iterator({ destroyOnReturn: false })) if ((chunk as Buffer).length > 0) throw problems.bodyRefused()
  return Object.assign(Readable.from([]), { receivedEncodedLength: 0 })
}

const refuseCodedBody: preParsingHookHandler = (request, _reply, payload, done) => {
  const coding = request.headers['content-encoding']
  if (coding === undefined || /^\s*identity\s*$/i.test(coding) || declaredLength(request.headers) === 0) return done(null, payload)
  done(new AppError('unsupported_content_encoding', `Send the body uncompressed; this server does not decode Content-Encoding: ${coding}.`))
}
