import { useQuery } from '@tanstack/react-query'
import { appApi, unwrap, v1, type AppData, type V1Data } from '../../api/client'
import { ASSETS_KEY } from '../../api/cache'

export type ImportRecord = V1Data<'/api/v1/imports/{id}', 'get'>
export type FigmaConnection = AppData<'/app/api/orgs/{org}/integrations/figma', 'get'>
export type ImportedAsset = V1Data<'/api/v1/assets', 'get'>['data'][number]

export const IMPORTS_KEY = 'imports'
export const FIGMA_CONNECTION_KEY = 'figma-connection'
/** How often a queued or running import is read again. */
export const POLL_MS = 1000

export const isActive = (record: Pick<ImportRecord, 'status'>) => record.status === 'queued' || record.status === 'running'

/** Whether the organization stored a Figma token, and whose: members see it too. */
export function useFigmaConnection(org: string) {
  return useQuery({
    queryKey: [FIGMA_CONNECTION_KEY, org],
    queryFn: () => unwrap(appApi.GET('/app/api/orgs/{org}/integrations/figma', { params: { path: { org } } })),
    meta: { quiet: true },
  })
}

/** The organization's imports, newest first; read again every second while one of them runs. */
export function useImports() {
  return useQuery({
    queryKey: [IMPORTS_KEY, 'list'],
    queryFn: () => unwrap(v1.GET('/api/v1/imports', { params: { query: { limit: 50 } } })),
    refetchInterval: (query) => (query.state.data?.data.some(isActive) ? POLL_MS : false),
    meta: { quiet: true },
  })
}

/** One import, read again every second while it is queued or running. */
export function useImport(id: string) {
  return useQuery({
    queryKey: [IMPORTS_KEY, 'one', id],
    queryFn: () => unwrap(v1.GET('/api/v1/imports/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data) ? false : POLL_MS),
    meta: { quiet: true },
  })
}

/** The external id the import gives a node's asset. */
export const externalIdOf = (fileKey: string, nodeId: string) => `figma:${fileKey}:${nodeId}`

/** Looks up a few at a time, so a big import does not send a hundred requests at once. */
const LOOKUP_CONCURRENCY = 6

/**
 * The assets of these nodes, by node id, once the run has ended: the import record counts outcomes but
 * does not list assets, and each node's asset carries `figma:FILEKEY:NODEID` as its external id.
 */
export function useNodeAssets(record: ImportRecord | undefined, nodeIds: readonly string[]) {
  const ended = record !== undefined && !isActive(record)
  return useQuery({
    queryKey: [ASSETS_KEY, 'imported', record?.id, record?.run, record?.finished_at, nodeIds],
    enabled: ended && nodeIds.length > 0,
    queryFn: async () => {
      const found = new Map<string, ImportedAsset>()
      const queue = [...nodeIds]
      const worker = async () => {
        for (let nodeId = queue.shift(); nodeId !== undefined; nodeId = queue.shift()) {
          const page = await unwrap(v1.GET('/api/v1/assets', { params: { query: { external_id: externalIdOf(record!.file_key, nodeId), limit: 1 } } }))
          const asset = page.data[0]
          if (asset) found.set(nodeId, asset)
        }
      }
      await Promise.all(Array.from({ length: Math.min(LOOKUP_CONCURRENCY, queue.length) }, worker))
      return found
    },
    meta: { quiet: true },
  })
}
