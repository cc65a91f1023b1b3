import type { SingleBar } from 'cli-progress'
import { ApiError } from '../errors.js'
import type { NodeAssetLibraryClient } from '../node.js'
import type { Import, ImportCreate } from '../types.js'
import { printListing, type Columns, type ListingValues } from './query.js'
import { FatalError, fieldProblemsOf, UsageError } from './usage.js'

/** Loaded only for a terminal, as the push's bar (report.ts). */
const cliProgress = process.stderr.isTTY ? (await import('cli-progress')).default : undefined

/** Off a terminal, a line of counts at most this often while they move (and one at each change of status). */
const PLAIN_PROGRESS_EVERY_MS = 10_000
const FORMATS = ['png', 'svg', 'jpg'] as const
/** Figma's node ids as its API writes them (`1:2`, an instance's `I1:2;3:4`). */
const NODE_ID = /^I?-?\d+:\d+(;-?\d+:\d+)*$/

export interface ImportValues {
  components?: boolean | undefined
  nodes?: string | undefined
  format?: string | undefined
  scale?: string | undefined
  token?: string | undefined
}

/** What to import, from the flags: frames (the default), `--components`, or `--nodes 1:2,3:4`; and how to render it. */
export function importSelection(values: ImportValues): Pick<ImportCreate, 'select' | 'node_ids' | 'format' | 'scale'> {
  if (values.components && values.nodes !== undefined) throw new UsageError('--components and --nodes pick different things: give one of them')
  const nodeIds = values.nodes
    ?.split(',')
    .map((id) => id.trim().replace(/^(\d+)-(\d+)$/, '$1:$2'))
    .filter((id) => id !== '')
  if (nodeIds !== undefined) {
    const bad = nodeIds.find((id) => !NODE_ID.test(id))
    if (nodeIds.length === 0 || bad !== undefined) throw new UsageError(`--nodes takes Figma node ids, comma-separated (1:2,3:4), not ${JSON.stringify(bad ?? values.nodes)}`)
  }
  const format = values.format?.toLowerCase()
  if (format !== undefined && !FORMATS.includes(format as (typeof FORMATS)[number])) throw new UsageError(`--format takes png, svg or jpg, not ${JSON.stringify(values.format)}`)
  const scale = values.scale === undefined ? undefined : Number(values.scale)
  if (scale !== undefined && !(scale >= 1 && scale <= 4)) throw new UsageError(`--scale takes a number from 1 to 4, not ${JSON.stringify(values.scale)}`)
  return {
    ...(values.components && { select: 'components' as const }),
    ...(nodeIds !== undefined && { select: 'nodes' as const, node_ids: [...new Set(nodeIds)] }),
    ...(format !== undefined && { format: format as (typeof FORMATS)[number] }),
    ...(scale !== undefined && { scale }),
  }
}

/** The Figma token to send: --token, else FIGMA_TOKEN; none means the organization's stored one. */
export function figmaToken(values: ImportValues, env: NodeJS.ProcessEnv): { figma_token?: string } {
  const token = values.token ?? (env.FIGMA_TOKEN || undefined)
  return token === undefined ? {} : { figma_token: token }
}

/**
 * The refusals of a create or a rerun that a person fixes by changing the command (a link that is not
 * Figma's, no token anywhere, an unknown asset type): one line and exit 2, like bad usage.
 */
export function refusalOf(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error
  if (error.code === 'figma_not_connected') {
    return new FatalError('no Figma token: give --token or set FIGMA_TOKEN, or store the organization\u2019s token (Settings \u2192 Integrations)')
  }
  if (error.status === 400 || error.status === 422) {
    return new FatalError(`the import was refused (${error.status} ${error.code ?? ''}): ${error.detail ?? error.message}${fieldProblemsOf(error)}`)
  }
  if (error.status === 409 && error.code === 'import_in_progress') return new FatalError(`${error.detail ?? 'the import is queued or running'}: wait for it (import get <id>)`)
  return error
}

/** An import that is not the caller's (404): one line on stderr. Any other error is thrown on. */
export function notFound(error: unknown, id: string): void {
  if (!(error instanceof ApiError && error.status === 404)) throw error
  process.stderr.write(`asset-library-client: no import ${id} in your organization (404 ${error.code ?? ''})\n`)
}

const settled = (record: Import) => record.created + record.updated + record.unchanged + record.failed

/** `running: 7/12 nodes (5 created, 1 updated, 1 unchanged, 0 failed)`. */
export function progressLine(record: Import): string {
  const nodes = record.total > 0 ? `${settled(record)}/${record.total} nodes` : 'reading the file'
  return `${record.status}: ${nodes} (${record.created} created, ${record.updated} updated, ${record.unchanged} unchanged, ${record.failed} failed)`
}

/**
 * Follows an import until its run ends: a bar on a terminal's stderr; otherwise a line at each change of
 * status and at most one every 10 s while the counts move. `stop` ends the wait (Ctrl-C), not the import.
 */
export async function follow(client: NodeAssetLibraryClient, id: string, stop: AbortSignal): Promise<Import> {
  let bar: SingleBar | undefined
  const clearBar = () => bar?.stop()
  let lastStatus: string | undefined
  let lastPlainAt = 0
  let lastPlain = ''
  const onProgress = (record: Import) => {
    if (cliProgress) {
      bar ??= new cliProgress.SingleBar({ stream: process.stderr, hideCursor: true, clearOnComplete: true, format: '{bar} {line}', barsize: 24 }, cliProgress.Presets.shades_classic)
      if (!bar.isActive) {
        bar.start(Math.max(1, record.total), 0, { line: '' })
        process.once('exit', clearBar)
      }
      bar.setTotal(Math.max(1, record.total))
      bar.update(settled(record), { line: progressLine(record) })
      return
    }
    const line = progressLine(record)
    const now = Date.now()
    if (record.status !== lastStatus || (line !== lastPlain && now - lastPlainAt >= PLAIN_PROGRESS_EVERY_MS)) {
      process.stderr.write(`import ${id} ${line}\n`)
      lastStatus = record.status
      lastPlain = line
      lastPlainAt = now
    }
  }
  try {
    return await client.imports.wait(id, { onProgress, signal: stop })
  } finally {
    process.off('exit', clearBar)
    bar?.stop()
  }
}

/** What an ended (or current) run did, for a person: a head line, then a line per failed and per missing node. */
export function summaryOf(record: Import): string {
  const file = record.file_name === null ? record.file_key : `${JSON.stringify(record.file_name)}${record.file_version ? ` (version ${record.file_version})` : ''}`
  const seconds = record.started_at && record.finished_at ? ` in ${((Date.parse(record.finished_at) - Date.parse(record.started_at)) / 1000).toFixed(1)} s` : ''
  const counts = `${record.total} nodes: ${record.created} created, ${record.updated} updated, ${record.unchanged} unchanged, ${record.failed} failed, ${record.missing} missing`
  const lines = [`import ${record.id} ${record.status}: ${file}, run ${record.run}, ${counts}${seconds}`]
  if (record.error) lines.push(`error      ${record.error.code}: ${record.error.detail}`)
  for (const failure of record.failures) lines.push(`failed     ${failure.node_id} ${failure.name}: ${failure.reason} (${failure.detail})`)
  for (const missing of record.missing_nodes) lines.push(`missing    ${missing.node_id} ${missing.name}${missing.asset_id ? ` (asset ${missing.asset_id} kept)` : ''}`)
  return `${lines.join('\n')}\n`
}

/** An ended import with no failed node. */
export const succeeded = (record: Import) => record.status === 'done' && record.failed === 0

const COLUMNS: Columns<Import> = [
  ['ID', (record) => record.id],
  ['STATUS', (record) => record.status],
  ['FILE', (record) => record.file_name ?? record.file_key],
  ['SELECT', (record) => record.select],
  ['RUN', (record) => String(record.run)],
  ['CREATED', (record) => String(record.created)],
  ['UPDATED', (record) => String(record.updated)],
  ['UNCHANGED', (record) => String(record.unchanged)],
  ['FAILED', (record) => String(record.failed)],
  ['MISSING', (record) => String(record.missing)],
  ['CREATED AT', (record) => record.created_at],
]

/** `import list`: a page of the organization's imports, newest first, as a table or NDJSON; every page with --all. */
export function listImports(client: NodeAssetLibraryClient, values: ListingValues & { file?: string | undefined }): Promise<void> {
  const query = values.file === undefined ? {} : { file_key: values.file }
  return printListing(values, COLUMNS, 'imports', {
    every: () => client.imports.iterate(query),
    page: (limit, offset) => client.imports.list({ ...query, limit, offset }),
  })
}
