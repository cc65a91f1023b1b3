import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ProblemBody } from '../../platform/http/errors.js'

export interface V1Request {
  method: 'GET' | 'POST' | 'PATCH'
  /** The path, its parameters already in it, e.g. `/api/v1/assets/<id>`. */
  path: string
  query?: Record<string, unknown>
  body?: unknown
}

/** What an endpoint answered: its JSON on success, its problem otherwise. */
export type V1Answer = { ok: true; body: unknown } | { ok: false; problem: ProblemBody }

/**
 * Calls the service's own HTTP endpoints in process, as the MCP request's caller: the same API key, the
 * same client address and request id. Each call passes the route's guard, validation and handler, so a
 * tool has exactly the endpoint's rules, scope, organization, limits and bucket, and its problems.
 */
export class V1Calls {
  private readonly headers: Record<string, string>

  constructor(
    private readonly app: FastifyInstance,
    private readonly request: FastifyRequest,
  ) {
    this.headers = { authorization: request.headers.authorization ?? '', 'x-request-id': request.id }
  }

  async call(call: V1Request): Promise<V1Answer> {
    const res = await this.app.inject({
      method: call.method,
      url: call.path,
      ...(call.query && { query: definedOnly(call.query) }),
      headers: call.body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' },
      ...(call.body !== undefined && { payload: JSON.stringify(call.body) }),
      remoteAddress: this.request.ip,
    })
    const body: unknown = res.body === '' ? undefined : res.json()
    return res.statusCode < 300 ? { ok: true, body } : { ok: false, problem: body as ProblemBody }
  }

  /** The file behind a link the API handed out (a signed thumbnail URL), or null when it answers none. */
  async file(signedUrl: string): Promise<{ bytes: Buffer; mimeType: string } | null> {
    const { pathname, search } = new URL(signedUrl)
    const res = await this.app.inject({ method: 'GET', url: pathname + search, headers: { 'x-request-id': this.request.id }, remoteAddress: this.request.ip })
    if (res.statusCode !== 200) return null
    return { bytes: res.rawPayload, mimeType: String(res.headers['content-type']) }
  }
}

/** Query values as strings, leaving out those not given. */
function definedOnly(query: Record<string, unknown>): Record<string, string | string[]> {
  const defined: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    defined[name] = Array.isArray(value) ? value.map(String) : typeof value === 'object' ? JSON.stringify(value) : String(value)
  }
  return defined
}
