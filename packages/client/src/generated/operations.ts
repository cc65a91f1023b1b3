// Generated from openapi/v1.json by `npm run types:generate -w @asset-library/client`. Do not edit.

/** Every operation of the API: its method, its path (`{id}` is the parameter) and its rate-limit bucket (`x-rate-limit-bucket`). */
export const OPERATIONS = {
  getCurrentKey: { method: 'GET', path: '/api/v1/auth/key', bucket: 'cheap' },
  revokeCurrentKey: { method: 'POST', path: '/api/v1/auth/revoke', bucket: 'standard' },
  listTags: { method: 'GET', path: '/api/v1/tags', bucket: 'cheap' },
  listAssetTypes: { method: 'GET', path: '/api/v1/asset-types', bucket: 'cheap' },
  listClients: { method: 'GET', path: '/api/v1/clients', bucket: 'cheap' },
  listProducts: { method: 'GET', path: '/api/v1/products', bucket: 'cheap' },
  listPresets: { method: 'GET', path: '/api/v1/presets', bucket: 'cheap' },
  listAssetVersions: { method: 'GET', path: '/api/v1/assets/{id}/versions', bucket: 'cheap' },
  uploadAssetVersion: { method: 'POST', path: '/api/v1/assets/{id}/versions', bucket: 'expensive' },
  restoreAssetVersion: { method: 'POST', path: '/api/v1/assets/{id}/versions/{version}/restore', bucket: 'standard' },
  listAssets: { method: 'GET', path: '/api/v1/assets', bucket: 'cheap' },
  pushAsset: { method: 'POST', path: '/api/v1/assets', bucket: 'expensive' },
  checkAssets: { method: 'POST', path: '/api/v1/assets/check', bucket: 'cheap' },
  getAsset: { method: 'GET', path: '/api/v1/assets/{id}', bucket: 'cheap' },
  updateAsset: { method: 'PATCH', path: '/api/v1/assets/{id}', bucket: 'standard' },
  deleteAsset: { method: 'DELETE', path: '/api/v1/assets/{id}', bucket: 'standard' },
  renderAsset: { method: 'GET', path: '/api/v1/assets/{id}/render', bucket: 'expensive' },
  listTrash: { method: 'GET', path: '/api/v1/trash', bucket: 'cheap' },
  restoreTrashedAsset: { method: 'POST', path: '/api/v1/trash/{id}/restore', bucket: 'standard' },
  purgeTrashedAsset: { method: 'DELETE', path: '/api/v1/trash/{id}', bucket: 'standard' },
  listCollections: { method: 'GET', path: '/api/v1/collections', bucket: 'cheap' },
  createCollection: { method: 'POST', path: '/api/v1/collections', bucket: 'standard' },
  getCollection: { method: 'GET', path: '/api/v1/collections/{id}', bucket: 'cheap' },
  updateCollection: { method: 'PATCH', path: '/api/v1/collections/{id}', bucket: 'standard' },
  deleteCollection: { method: 'DELETE', path: '/api/v1/collections/{id}', bucket: 'standard' },
  addCollectionAssets: { method: 'POST', path: '/api/v1/collections/{id}/assets', bucket: 'standard' },
  removeCollectionAssets: { method: 'DELETE', path: '/api/v1/collections/{id}/assets', bucket: 'standard' },
  shareCollection: { method: 'POST', path: '/api/v1/collections/{id}/share', bucket: 'standard' },
  unshareCollection: { method: 'DELETE', path: '/api/v1/collections/{id}/share', bucket: 'standard' },
  searchAssets: { method: 'POST', path: '/api/v1/search', bucket: 'expensive' },
  similarAssets: { method: 'GET', path: '/api/v1/assets/{id}/similar', bucket: 'cheap' },
} as const

export type OperationId = keyof typeof OPERATIONS
