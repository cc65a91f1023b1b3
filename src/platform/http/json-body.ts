import type { FastifyInstance } from 'fastify'
import { AppError, escapePointer, problems } from './errors.js'
import { takesBody } from './request-rules.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The body's schema refuses unknown fields and nests no object, so `__proto__` or `constructor` can only
     * be refused by validation: the poisoning scan over the whole text (~1 ms per MB) is skipped.
     */
    flatJsonBody?: true
  }
}

const UTF8 = /^utf-?8$/i

/**
 * How deep a JSON document the service reads: far past any body or MCP message it takes (a smart
 * collection's query is 3 levels), and far short of what overflows the stack of the code that walks a
 * value recursively (validation, serialisation, `String()` of nested arrays) at a few thousand levels.
 */
export const MAX_JSON_DEPTH = 32

/**
 * The first top-level field, as a JSON pointer, whose value nests arrays and objects deeper than
 * MAX_JSON_DEPTH in all (`/` when the document itself does), or undefined. It walks with a stack of its
 * own, so that it is the one walk that cannot overflow, and it runs before any other.
 */
export function tooDeeplyNested(document: unknown): string | undefined {
  const pending: Array<{ value: unknown; depth: number; field: string }> = [{ value: document, depth: 0, field: '/' }]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth, field } = next
    if (value === null || typeof value !== 'object') continue
    if (depth === MAX_JSON_DEPTH) return field
    for (const [key, child] of Object.entries(value)) pending.push({ value: child, depth: depth + 1, field: depth === 0 ? `/${escapePointer(key)}` : field })
  }
  return undefined
}

/** The problem of a body `tooDeeplyNested` found `field` of. */
export function tooDeepProblem(field: string): AppError {
  return problems.validation([{ pointer: field, detail: `nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels` }])
}

/**
 * Fastify's JSON parser (prototype poisoning refused), with two differences: a body that declares a
 * charset other than UTF-8 is a 415 (JSON is UTF-8, RFC 8259), and an empty body is no body, because
 * clients and no-code tools send `Content-Type: application/json` on POSTs that take none (revoke,
 * share, ping). A route that needs a body still refuses a missing one in validation.
 *
 * JSON is the only type: any other (text/plain included, which Fastify would read as a string for the
 * schema to refuse with a 400) is a 415 before the body is read. A route that takes no body has seen any
 * body refused already (request-rules.ts), so there whatever type an empty body declares is no body.
 */
export function registerJsonParsing(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain')
  app.addContentTypeParser('*', (request, _payload, done) => {
    if (!takesBody(request)) return done(null, undefined)
    done(new AppError('unsupported_media_type', 'Send the body as application/json.'), undefined)
  })
  const guarded = app.getDefaultJsonParser('error', 'error')
  const plain = app.getDefaultJsonParser('ignore', 'ignore')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]
    if (charset !== undefined && !UTF8.test(charset)) {
      return done(new AppError('unsupported_charset', `JSON bodies must be UTF-8; this one declares ${charset}.`), undefined)
    }
    if (body === '') return done(null, undefined)
    const parse = request.routeOptions.config.flatJsonBody ? plain : guarded
    parse(request, body as string, (error, value) => {
      const field = error ? undefined : tooDeeplyNested(value)
      if (field !== undefined) done(tooDeepProblem(field), undefined)
      else done(error, value)
    })
  })
}
