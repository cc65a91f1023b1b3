import swagger from '@fastify/swagger'
import scalar from '@scalar/fastify-api-reference'
import type { FastifyInstance } from 'fastify'
import { routeScope } from './public-api.js'

export const PUBLIC_PREFIX = '/api/v1'

const DESCRIPTION = `The public REST API of Asset Library: push, read, filter and search design assets, and manage collections.

Authenticate with an API key: \`Authorization: Bearer al_<prefix>_<secret>\`. A key has one scope:
\`assets:read\` (the GET endpoints and search) or \`assets:write\` (everything).

Errors are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`.
Every response carries \`x-ratelimit-limit\`, \`x-ratelimit-remaining\` and \`x-ratelimit-reset\`; a 429 also carries
\`retry-after\` in seconds.`

/** Generates the v1 OpenAPI 3.1 document from the route schemas; only /api/v1 routes appear in it. */
export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Asset Library API', version: '1.0.0', description: DESCRIPTION, license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
      servers: [{ url: publicBaseUrl, description: 'This server' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'al_<prefix>_<secret>', description: 'An organization API key.' },
        },
      },
      tags: [{ name: 'auth', description: 'The calling API key.' }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => {
      if (!url.startsWith(PUBLIC_PREFIX) || url.startsWith(`${PUBLIC_PREFIX}/docs`) || url === `${PUBLIC_PREFIX}/openapi.json`) {
        return { schema: { ...schema, hide: true }, url }
      }
      const scope = routeScope(route)
      return {
        schema: { ...schema, security: [{ apiKey: [scope] }], 'x-required-scope': scope } as typeof schema,
        url,
      }
    },
  })

  app.get(`${PUBLIC_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger())

  await app.register(scalar, {
    routePrefix: `${PUBLIC_PREFIX}/docs`,
    // No fonts or telemetry from the internet: the reference must work on an offline machine.
    configuration: { withDefaultFonts: false, telemetry: false } as Record<string, unknown>,
  })
}
