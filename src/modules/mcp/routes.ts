import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../../platform/http/app-type.js'
import { AppError } from '../../platform/http/errors.js'
import type { RouteAuth } from '../../platform/http/route-auth.js'
import type { ErrorAnswer } from './messages.js'
import { V1Calls } from './v1-calls.js'

/**
 * The bearer key of /api/v1, uncounted here: each tool call is counted, in its own bucket, as the v1
 * request it makes. A request without a valid key still counts against its address.
 */
const MCP_AUTH: RouteAuth = { kind: 'key', scope: 'assets:read', bucket: null }

/** As POST /api/v1/assets: a 25 MiB image in base64 is ~35 MB, with room for the JSON-RPC envelope. */
const MCP_BODY_LIMIT = 40 * 1024 * 1024

const STATELESS = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this MCP server is stateless (no sessions, no server-sent stream); POST JSON-RPC messages to /mcp.' },
  id: null,
} as const

/**
 * The MCP SDK and what is built on it, loaded by the first /mcp request rather than at start: its
 * schemas (zod) took ~20 MiB of a server's idle RSS (issue 39), and most servers are never asked.
 */
let loadingSdk: Promise<typeof import('./server.js') & typeof import('./messages.js') & typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')> | undefined
function mcpSdk() {
  loadingSdk ??= Promise.all([import('./server.js'), import('./messages.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]).then(
    ([server, messages, transport]) => ({ ...server, ...messages, ...transport }),
  )
  return loadingSdk
}

/**
 * /mcp, the Model Context Protocol over Streamable HTTP, stateless: each POST carries JSON-RPC messages
 * and is answered with JSON (never a stream); GET (a stream) and DELETE (a session's end) are 405, as
 * the transport specifies for a server that offers neither.
 */
export function mcpRoutes(app: App): void {
  void app.register(async (scope) => {
    // The transport reads the JSON itself, so a malformed message gets its JSON-RPC parse error (400).
    scope.removeContentTypeParser('application/json')
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body))
    scope.post(
      '/mcp',
      { bodyLimit: MCP_BODY_LIMIT, config: { auth: MCP_AUTH }, schema: { hide: true, body: Type.String({ description: 'JSON-RPC messages' }) } },
      async (request, reply) => {
        const caller = request.caller!
        if (caller.via !== 'key') throw new AppError('invalid_api_key', 'The MCP endpoint takes an API key: send it as `Authorization: Bearer <key>`.')
        const { mcpServer, screenMessages, WebStandardStreamableHTTPServerTransport } = await mcpSdk()
        const server = mcpServer(caller.scope, new V1Calls(app, request), request.log)
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MCP_BODY_LIMIT })
        await server.connect(transport)
        const screened = screenMessages(request.body as string)
        try {
          const response = await transport.handleRequest(webRequest(request), screened && { parsedBody: screened.forward })
          if (!screened?.refused.length || !response.ok) return await relay(response, reply)
          return await reply.code(200).type('application/json').send(await withRefused(response, screened.refused, screened.batch))
        } finally {
          await server.close()
        }
      },
    )
  })
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    config: { auth: MCP_AUTH },
    schema: { hide: true },
    handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send(STATELESS),
  })
}

/** The request as the SDK's web-standard transport takes it, its body the text Fastify read. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value)
  return new Request(new URL(request.url, 'http://mcp.internal'), { method: 'POST', headers, body: request.body as string })
}

/**
 * The answer to a POST some of whose requests were refused before the transport: theirs, then the
 * transport's to the others (none when it answered 202, having had only notifications or nothing).
 */
async function withRefused(response: Response, refused: ErrorAnswer[], batch: boolean): Promise<unknown> {
  const answered: unknown[] = response.status === 200 ? [JSON.parse(await response.text()) as unknown].flat() : []
  const all = [...refused, ...answered]
  return batch ? all : all[0]
}

async function relay(response: Response, reply: FastifyReply): Promise<FastifyReply> {
  reply.code(response.status)
  response.headers.forEach((value, name) => void reply.header(name, value))
  return reply.send(response.body ? await response.text() : undefined)
}
