import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { appApi, unwrap, v1, type AppData, type V1Data } from '../../api/client'
import { nextOffset } from '../../api/paging'

export type ImportRecord = V1Data<'/api/v1/imports/{id}', 'get'>
export type FigmaConnection = AppData<'/app/api/orgs/{org}/integrations/figma', 'get'>
export type ImportNode = V1Data<'/api/v1/imports/{id}/nodes', 'get'>['data'][number]

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

/** How many nodes a page of the results holds; "Load more" asks for the next. */
export const NODES_PAGE = 100

/**
 * The nodes of the import's current run, each with what the run did with it as the server recorded it,
 * page by page; read again with the record while it runs, and once more when the run ends.
 */
export function useImportNodes(record: ImportRecord) {
  return useInfiniteQuery({
    queryKey: [IMPORTS_KEY, 'nodes', record.id, record.run, record.finished_at],
    queryFn: ({ pageParam }) => unwrap(v1.GET('/api/v1/imports/{id}/nodes', { params: { path: { id: record.id }, query: { limit: NODES_PAGE, offset: pageParam } } })),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    refetchInterval: isActive(record) ? POLL_MS : false,
    // The rows stay in place while the run's end is read again, rather than blinking empty.
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  })
}
