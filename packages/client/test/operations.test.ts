import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createClient, type AssetLibraryClient, type ResponseInfo } from '../src/index.js'
import { OPERATIONS, type OperationId } from '../src/generated/operations.js'

/** The API as the server documents it: every operation with its method, path and rate-limit bucket. */
const document = JSON.parse(readFileSync(new URL('../../../openapi/v1.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; 'x-rate-limit-bucket': string }>>
}
const documented = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ id: operation.operationId, method: method.toUpperCase(), path, bucket: operation['x-rate-limit-bucket'] })),
)

const ID = 'id-1'
const VERSION = 3
/**
 * The SDK method of each operation. Typed by the generated table, so a new operation in openapi/v1.json
 * does not compile here until the SDK has a method for it, and fails below (by its name) until then.
 */
const sdkMethods: Record<OperationId, (client: AssetLibraryClient) => Promise<unknown>> = {
  getCurrentKey: (client) => client.auth.key(),
  revokeCurrentKey: (client) => client.auth.revoke(),
  listTags: (client) => client.tags.list(),
  listAssetTypes: (client) => client.assetTypes.list(),
  listClients: (client) => client.clients.list(),
  listProducts: (client) => client.products.list(),
  listPresets: (client) => client.presets.list(),
  listColors: (client) => client.colors.list(),
  listAssets: (client) => client.assets.list(),
  pushAsset: (client) => client.assets.push(new Uint8Array([1, 2, 3])),
  checkAssets: (client) => client.assets.check(['0'.repeat(64)]),
  getAsset: (client) => client.assets.get(ID),
  updateAsset: (client) => client.assets.update(ID, { title: 'x' }),
  deleteAsset: (client) => client.assets.delete(ID),
  bulkEditAssets: (client) => client.assets.bulkEdit({ ids: [ID], add_tags: ['x'] }),
  listCollections: (client) => client.collections.list(),
  createCollection: (client) => client.collections.create({ name: 'x' }),
  getCollection: (client) => client.collections.get(ID),
  updateCollection: (client) => client.collections.update(ID, { name: 'y' }),
  deleteCollection: (client) => client.collections.delete(ID),
  addCollectionAssets: (client) => client.collections.addAssets(ID, ID),
  removeCollectionAssets: (client) => client.collections.removeAssets(ID, ID),
  shareCollection: (client) => client.collections.share(ID),
  getCollectionShare: (client) => client.collections.shareLink(ID),
  unshareCollection: (client) => client.collections.unshare(ID),
  searchAssets: (client) => client.search({ q: 'x' }),
  similarAssets: (client) => client.assets.similar(ID),
  renderAsset: (client) => client.assets.render(ID, { width: 1200, format: 'webp' }),
  listDuplicates: (client) => client.duplicates.list(),
  resolveDuplicates: (client) => client.duplicates.resolve(ID, ['id-2']),
  listTrash: (client) => client.trash.list(),
  listAssetVersions: (client) => client.assets.versions(ID),
  uploadAssetVersion: (client) => client.assets.pushVersion(ID, new Uint8Array([1, 2, 3])),
  restoreAssetVersion: (client) => client.assets.restoreVersion(ID, VERSION),
  restoreTrashedAsset: (client) => client.trash.restore(ID),
  purgeTrashedAsset: (client) => client.trash.purge(ID),
  createImport: (client) => client.imports.create({ file_url: 'https://www.figma.com/design/AbCdEf1234567890/Kit' }),
  listImports: (client) => client.imports.list(),
  getImport: (client) => client.imports.get(ID),
  listImportNodes: (client) => client.imports.nodes(ID),
  rerunImport: (client) => client.imports.rerun(ID),
}

/** Calls the operation's SDK method against a fetch that records the request and answers 200 with budget headers. */
async function recordCall(operation: OperationId) {
  const requests: Array<{ method: string; path: string }> = []
  const responses: ResponseInfo[] = []
  const client = createClient({
    baseUrl: 'https://assets.example.com',
    apiKey: 'al_test_key',
    onResponse: (response) => responses.push(response),
    fetch: async (input, init) => {
      requests.push({ method: init?.method ?? 'GET', path: new URL(String(input)).pathname })
      return new Response('{}', { headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '9', 'x-ratelimit-remaining': '8', 'x-ratelimit-reset': '60' } })
    },
  })
  await sdkMethods[operation](client)
  return { requests, responses }
}

describe('the operation table, generated from openapi/v1.json', () => {
  it('holds every documented operation and nothing else', () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(documented.map((operation) => operation.id).sort())
  })

  it.each(documented)('$id ($method $path) has an SDK method that calls it, counted in its bucket', async ({ id, method, path, bucket }) => {
    expect(Object.keys(sdkMethods), `the SDK has no method for ${id}`).toContain(id)
    const { requests, responses } = await recordCall(id as OperationId)
    expect(requests).toEqual([{ method, path: path.replace('{id}', ID).replace('{version}', String(VERSION)) }])
    expect(responses.map((response) => response.bucket)).toEqual([bucket])
  })
})
