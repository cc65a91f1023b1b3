import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import type { App } from '../../platform/http/app-type.js'
import { ListSchema, PaginationQuery, pageOf } from '../../platform/http/pagination.js'
import { appNoContent, appProblemResponses, okResponse } from '../../platform/http/schemas.js'
import type { CatalogService, Registry } from './service.js'

export const ListQuery = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: 200, description: 'Only names starting with this, case-insensitively.' })), ...PaginationQuery },
  { additionalProperties: false },
)

export const EntrySchema = Type.Object(
  {
    name: Type.String(),
    registered: Type.Boolean({ description: 'Registered in the organization (through the app), as opposed to only used by assets.' }),
    asset_count: Type.Integer({ description: 'Assets that use it.' }),
  },
  { additionalProperties: false },
)

export const TagSchema = Type.Object({ name: Type.String(), asset_count: Type.Integer() }, { additionalProperties: false })

const REGISTRY_DOCS: Record<Registry, { operationId: string; summary: string; description: string }> = {
  'asset-types': {
    operationId: 'listAssetTypes',
    summary: 'List the asset-type catalogue',
    description: 'The asset types an asset may have (`asset_type` on push and PATCH must be one of them), with how many assets use each.',
  },
  clients: {
    operationId: 'listClients',
    summary: 'List client names',
    description: 'Client names both registered in the organization and used by assets, merged case-insensitively, most used first.',
  },
  products: {
    operationId: 'listProducts',
    summary: 'List product names',
    description: 'Product names both registered in the organization and used by assets, merged case-insensitively, most used first.',
  },
}

/** GET /api/v1/tags, /asset-types, /clients and /products. */
export function publicCatalogRoutes(app: App, deps: { catalog: CatalogService }): void {
  app.get(
    '/api/v1/tags',
    {
      config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } },
      schema: {
        operationId: 'listTags',
        tags: ['catalogue'],
        summary: 'List tags',
        description: 'The organization\u2019s tags with usage counts, most used first; `q` filters by prefix for autocomplete.',
        querystring: ListQuery,
        response: {
          200: okResponse('A page of tags.', ListSchema(TagSchema, 'Tags, most used first.'), {
            data: [{ name: 'summer-campaign', asset_count: 12 }],
            total: 1,
            limit: 50,
            offset: 0,
          }),
        },
      },
    },
    async (request) => {
      const page = pageOf(request.query)
      const { entries, total } = await deps.catalog.listTags(request.caller!.organizationId, { prefix: request.query.q, page })
      return { data: entries, total, ...page }
    },
  )

  const listRegistry = async (registry: Registry, organizationId: string, query: Static<typeof ListQuery>) => {
    const page = pageOf(query)
    const { entries, total } = await deps.catalog.list(registry, organizationId, { prefix: query.q, page })
    return { data: entries, total, ...page }
  }
  app.get(
    '/api/v1/asset-types',
    { config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } }, schema: registryListSchema('asset-types') },
    async (request) => listRegistry('asset-types', request.caller!.organizationId, request.query),
  )
  app.get(
    '/api/v1/clients',
    { config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } }, schema: registryListSchema('clients') },
    async (request) => listRegistry('clients', request.caller!.organizationId, request.query),
  )
  app.get(
    '/api/v1/products',
    { config: { auth: { kind: 'key', scope: 'assets:read', bucket: 'cheap' } }, schema: registryListSchema('products') },
    async (request) => listRegistry('products', request.caller!.organizationId, request.query),
  )
}

/** GET /api/v1/{asset-types,clients,products}: the same list, documented per registry. */
function registryListSchema(registry: Registry) {
  return {
    ...REGISTRY_DOCS[registry],
    tags: ['catalogue'],
    querystring: ListQuery,
    response: {
      200: okResponse('A page of names.', ListSchema(EntrySchema, 'Names, most used first.'), {
        data: [{ name: 'Acme Corp', registered: true, asset_count: 42 }],
        total: 1,
        limit: 50,
        offset: 0,
      }),
    },
  }
}

const NameBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }) }, { additionalProperties: false })

/** How the app's operations name each registry: `appRegisterAssetType`, "Register an asset type". */
const APP_NAMES: Record<Registry, { id: string; one: string }> = {
  'asset-types': { id: 'AssetType', one: 'an asset type' },
  clients: { id: 'Client', one: 'a client' },
  products: { id: 'Product', one: 'a product' },
}

/** /app/api/orgs/:org/{asset-types,clients,products}: owners and admins edit the registries. */
export function appCatalogRoutes(app: App, deps: { catalog: CatalogService }): void {
  const register = (registry: Registry) => async (request: FastifyRequest<{ Body: Static<typeof NameBody> }>, reply: FastifyReply) => {
    const { organization } = request.membership!
    await deps.catalog.register(registry, organization.id, request.body.name)
    return reply.code(204).send()
  }
  const unregister = (registry: Registry) => async (request: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => {
    const { organization } = request.membership!
    await deps.catalog.unregister(registry, organization.id, request.params.name)
    return reply.code(204).send()
  }
  app.post('/app/api/orgs/:org/asset-types', { config: { auth: { kind: 'session', role: 'manager' } }, schema: registerSchema('asset-types') }, register('asset-types'))
  app.delete('/app/api/orgs/:org/asset-types/:name', { config: { auth: { kind: 'session', role: 'manager' } }, schema: unregisterSchema('asset-types') }, unregister('asset-types'))
  app.post('/app/api/orgs/:org/clients', { config: { auth: { kind: 'session', role: 'manager' } }, schema: registerSchema('clients') }, register('clients'))
  app.delete('/app/api/orgs/:org/clients/:name', { config: { auth: { kind: 'session', role: 'manager' } }, schema: unregisterSchema('clients') }, unregister('clients'))
  app.post('/app/api/orgs/:org/products', { config: { auth: { kind: 'session', role: 'manager' } }, schema: registerSchema('products') }, register('products'))
  app.delete('/app/api/orgs/:org/products/:name', { config: { auth: { kind: 'session', role: 'manager' } }, schema: unregisterSchema('products') }, unregister('products'))
}

function registerSchema(registry: Registry) {
  const { id, one } = APP_NAMES[registry]
  return {
    operationId: `appRegister${id}`,
    tags: ['app-catalogue'],
    summary: `Register ${one}`,
    description: `Adds the name to the organization\u2019s \`${registry}\` (GET /api/v1/${registry} lists it); a name already there, in any case, changes nothing.`,
    params: Type.Object({ org: Type.String() }),
    body: NameBody,
    response: { 204: appNoContent('Registered.') },
  }
}

function unregisterSchema(registry: Registry) {
  const { id, one } = APP_NAMES[registry]
  return {
    operationId: `appUnregister${id}`,
    tags: ['app-catalogue'],
    summary: `Unregister ${one}`,
    description: 'Removes the name, matched without case, from the registry; assets that use it keep it.',
    params: Type.Object({ org: Type.String(), name: Type.String({ minLength: 1, maxLength: 200 }) }),
    response: { 204: appNoContent('Unregistered.'), ...appProblemResponses({ not_found: `no such name in \`${registry}\`` }) },
  }
}
