import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'

const ROUTE_PREFIX = '/api/v1/docs'
/** The inner instance's answer headers a reader needs; the rest (length, date, connection) are the outer reply's own. */
const PASSED_HEADERS = ['content-type', 'location', 'content-disposition', 'access-control-allow-origin', 'access-control-allow-methods']

/**
 * The interactive API reference at /api/v1/docs (Scalar, served from this process), loaded with its
 * first request rather than at start: the plugin reads its 6.4 MB bundle into a string and loads an
 * OpenAPI parser, ~22 MiB of RSS that an idle server held for nobody (issue 39). Fastify takes no route
 * once it serves, so the plugin lives in a Fastify instance of its own, and every request under the
 * prefix is passed to it; the reference then behaves exactly as the plugin makes it.
 */
export function registerApiReference(app: FastifyInstance): void {
  let reference: Promise<FastifyInstance> | undefined
  const referenceApp = () => {
    reference ??= startReference(app).catch((error: unknown) => {
      reference = undefined
      throw error
    })
    return reference
  }
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await (await referenceApp()).inject({ method: 'GET', url: request.url, headers: { host: request.headers.host ?? 'localhost' } })
    for (const name of PASSED_HEADERS) {
      const value = answer.headers[name]
      if (value !== undefined) reply.header(name, value)
    }
    return reply.code(answer.statusCode).send(answer.rawPayload)
  }
  const route = { config: { auth: { kind: 'public' as const } }, schema: { hide: true } }
  app.get(ROUTE_PREFIX, route, forward)
  app.get(`${ROUTE_PREFIX}/*`, route, forward)
}

async function startReference(app: FastifyInstance): Promise<FastifyInstance> {
  const { default: scalar } = await import('@scalar/fastify-api-reference')
  const reference = Fastify()
  await reference.register(scalar, {
    routePrefix: ROUTE_PREFIX,
    // Served from this process (js/scalar.js is bundled in the plugin); no fonts, telemetry or developer tools
    // from the internet: the reference must work on an offline machine.
    configuration: {
      content: () => app.swagger(),
      pageTitle: 'Asset Library API reference',
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: 'never',
      // The sidebar's "Open API Client" button links to client.scalar.com; the built-in "Test Request" stays.
      hideClientButton: true,
    } as Record<string, unknown>,
  })
  await reference.ready()
  return reference
}
