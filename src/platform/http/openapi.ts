import swagger from '@fastify/swagger'
import scalar from '@scalar/fastify-api-reference'
import type { FastifyInstance } from 'fastify'
import { routeBucket, routeScope, type Bucket } from './public-api.js'

export const PUBLIC_PREFIX = '/api/v1'

const DESCRIPTION = `The public REST API of Asset Library: push, read, filter and search design assets, and manage collections.

Authenticate with an API key: \`Authorization: Bearer al_<prefix>_<secret>\`. A key has one scope:
\`assets:read\` (the GET endpoints and search) or \`assets:write\` (everything). Each operation names the
scope it needs (\`x-required-scope\`, and in its \`security\` requirement).

Errors are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`.

Requests are counted per key in buckets: \`expensive\` (POST /api/v1/assets and POST /api/v1/search, 30 a minute
together), \`cheap\` (every GET, 120 a minute) and \`standard\` (the other writes, 60 a minute). Every response carries
\`x-ratelimit-limit\`, \`x-ratelimit-remaining\` and \`x-ratelimit-reset\`; a 429 also carries \`retry-after\` in seconds.
Back off exponentially.

The version is in the path: \`/api/v1\` is stable, breaking changes ship as \`/api/v2\` beside it.`

/** How often a bucket allows a call, as the description states it; the numbers are the defaults of config.ts. */
const BUCKET_TEXT: Record<Bucket, string> = {
  expensive: '`expensive` (30 a minute per key, shared with the other expensive calls)',
  cheap: '`cheap` (120 a minute per key, shared by every GET)',
  standard: '`standard` (60 a minute per key, shared by the other writes)',
}

function isPublicOperation(url: string): boolean {
  return (
    url.startsWith(`${PUBLIC_PREFIX}/`) && !url.startsWith(`${PUBLIC_PREFIX}/docs`) && url !== `${PUBLIC_PREFIX}/openapi.json`
  )
}

/**
 * Generates the v1 OpenAPI 3.1 document from the route schemas; only /api/v1 operations appear in it.
 *
 * The document is the same on every machine and deployment (it is committed as openapi/v1.json and CI
 * compares the two): its server is the relative URL `/`, which OpenAPI resolves against wherever the
 * document was fetched from, so clients and the reference call the deployment that served it. That is
 * why the public base URL is not used here; the parameter stays only for the caller's signature.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Asset Library API',
        version: '1.0.0',
        description: DESCRIPTION,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/', description: 'The Asset Library deployment this document was fetched from.' }],
      // The default for every operation; each also states the scope it needs.
      security: [{ apiKey: [] }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'al_<prefix>_<secret>',
            description: 'An organization API key, created in the app under Settings → API keys. Scopes: `assets:read`, `assets:write`.',
          },
        },
      },
      tags: [
        { name: 'auth', description: 'The calling API key.' },
        { name: 'assets', description: 'Push, read, filter, update and delete assets.' },
        { name: 'collections', description: 'Manual and smart collections, their assets, and public links.' },
        { name: 'catalogue', description: 'Tags, asset types, clients and products: for autocomplete and filters.' },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => {
      if (!isPublicOperation(url)) return { schema: { ...schema, hide: true }, url }
      const scope = routeScope(route)
      const bucket = routeBucket(route)
      const needs =
        scope === 'assets:read'
          ? 'Needs an API key with scope `assets:read` or `assets:write`.'
          : 'Needs an API key with scope `assets:write`.'
      const description = [schema.description, `${needs} Rate-limit bucket: ${BUCKET_TEXT[bucket]}.`].filter(Boolean).join('\n\n')
      return {
        schema: {
          ...schema,
          description,
          security: [{ apiKey: [scope] }],
          'x-required-scope': scope,
          'x-rate-limit-bucket': bucket,
        } as typeof schema,
        url,
      }
    },
  })

  app.get(`${PUBLIC_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger())

  await app.register(scalar, {
    routePrefix: `${PUBLIC_PREFIX}/docs`,
    // Served from this process (js/scalar.js is bundled in the plugin); no fonts, telemetry or developer tools
    // from the internet: the reference must work on an offline machine.
    configuration: {
      pageTitle: 'Asset Library API reference',
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: 'never',
      // The sidebar's "Open API Client" button links to client.scalar.com; the built-in "Test Request" stays.
      hideClientButton: true,
    } as Record<string, unknown>,
  })
}
