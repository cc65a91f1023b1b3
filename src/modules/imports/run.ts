import type { FastifyBaseLogger } from 'fastify'
import { sha256Hex, unseal } from '../../platform/crypto.js'
import type { Db } from '../../platform/db/index.js'
import { AppError } from '../../platform/http/errors.js'
import type { Caller } from '../../platform/http/route-auth.js'
import type { ImageSource } from '../assets/incoming-file.js'
import { MAX_IMAGE_BYTES, type FilePush, type PushInput, type PushMetadata, type PushOutcome } from '../assets/push.js'
import type { AssetChanges } from '../assets/service.js'
import { FigmaError, type FigmaApi, type FigmaRenderFormat, type FigmaSession } from './figma-api.js'
import { figmaExternalId, figmaNodeLink } from './figma-url.js'
import { RootNodeNotFound, selectNodes, type SelectedNode } from './select.js'
import { IMPORT_TOKEN_PURPOSE } from './service.js'
import * as store from './store.js'

/** Nodes rendered per `images` call of ours (the session splits further within Figma's limits): their URLs are fresh when downloaded. */
const RENDER_CHUNK = 50
/** Rendered images downloaded and pushed at once. */
const DOWNLOADS_AT_ONCE = 4
/** Characters of `ids=` a file call sends at most (Figma refuses URLs much past 2,000). */
const MAX_IDS_IN_FILE_CALL = 1_500
const MAX_TITLE = 500
const MAX_TAG = 100

/** What a run needs of the assets module. */
export interface ImportPushes {
  pushFile(organizationId: string, input: Omit<PushInput, keyof ImageSource>, bytes: Buffer, caller: Caller, file: FilePush): Promise<PushOutcome>
  update(organizationId: string, id: string, changes: AssetChanges): Promise<unknown>
}

export interface ImportRunDeps {
  db: Db
  appSecret: string
  figma: FigmaApi
  assets: ImportPushes
  storedToken(organizationId: string): Promise<string | null>
  logger: FastifyBaseLogger
}

/** The whole import failed, for a reason its record tells (`error.code`). */
export class ImportFailure extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail)
    this.name = 'ImportFailure'
  }
}

/** The claim passed to another runner (this one stalled past its lease): it stops, writing nothing more. */
export class ClaimLost extends Error {
  constructor() {
    super('the import was taken over by another runner')
    this.name = 'ClaimLost'
  }
}

/** Figma's failures that end an import as a whole. */
const WHOLE_IMPORT_FAILURES = new Set(['figma_token_invalid', 'figma_file_not_found', 'figma_unavailable', 'figma_bad_response'])

/** Why the import failed as a whole, or undefined for an error of ours (retried). */
export function importFailureOf(error: unknown): { code: string; detail: string } | undefined {
  if (error instanceof ImportFailure) return { code: error.code, detail: error.detail }
  if (error instanceof FigmaError && WHOLE_IMPORT_FAILURES.has(error.failure)) return { code: error.failure, detail: error.message }
  return undefined
}

/**
 * One attempt at a run of an import whose claim `owner` holds: reads the file, records the nodes it
 * covers (marking the others missing), and renders, downloads and pushes each node the run has not done
 * yet, writing each outcome as soon as it is known, so that an attempt taken over after a lease ran out
 * goes on where this one stopped. Throws an ImportFailure or a FigmaError for a failed import, ClaimLost,
 * the signal's reason, or an error of ours.
 */
export async function runImport(deps: ImportRunDeps, row: store.ImportRow, owner: string, signal: AbortSignal): Promise<void> {
  const session = deps.figma.session(await tokenOf(deps, row), signal)
  const file = await session.file(row.file_key, narrowedTo(row))
  held(await store.recordFile(deps.db, row.id, owner, { name: file.name, version: file.version }))
  const selected = selectedIn(file.document, row)
  const seen: store.SeenNode[] = [
    ...selected.nodes.map((node) => ({ node_id: node.nodeId, name: node.name, page_name: node.pageName, component_set_name: node.componentSetName })),
    ...selected.notFound.map((nodeId) => ({ node_id: nodeId, name: nodeId, page_name: null, component_set_name: null })),
  ]
  const known = new Map((await store.recordNodes(deps.db, row.id, row.run, owner, seen)).map((node) => [node.node_id, node]))
  if (seen.length > 0 && known.size === 0) throw new ClaimLost()
  const notDone = (nodeId: string) => known.get(nodeId)?.outcome === null
  for (const nodeId of selected.notFound.filter(notDone)) {
    held(await store.recordOutcome(deps.db, row.id, owner, { node_id: nodeId, outcome: 'failed', reason: 'node_not_found', detail: `The file has no node ${nodeId}.` }))
  }
  const todo = selected.nodes.filter((node) => notDone(node.nodeId))
  const unchanged = todo.filter((node) => isUnchanged(node, known.get(node.nodeId)!))
  if (unchanged.length > 0) held(await store.recordUnchanged(deps.db, row.id, owner, unchanged.map((node) => node.nodeId)))
  const importer = new NodeImporter(deps, row, owner, session, known)
  const toRender = todo.filter((node) => !unchanged.includes(node))
  for (let i = 0; i < toRender.length; i += RENDER_CHUNK) {
    signal.throwIfAborted()
    await importer.importChunk(toRender.slice(i, i + RENDER_CHUNK), signal)
  }
}

/**
 * The subtrees the file is read as: the link's node, or `node_ids` while they fit in a URL Figma takes
 * (the file call is one request); otherwise the whole document.
 */
function narrowedTo(row: store.ImportRow): { ids: string[] } | undefined {
  if (row.root_node_id !== null) return { ids: [row.root_node_id] }
  if (row.selection === 'nodes' && row.node_ids.join(',').length <= MAX_IDS_IN_FILE_CALL) return { ids: row.node_ids }
  return undefined
}

function held(stillHeld: boolean): void {
  if (!stillHeld) throw new ClaimLost()
}

/** The import's own token, else the organization's. */
async function tokenOf(deps: ImportRunDeps, row: store.ImportRow): Promise<string> {
  if (row.token_sealed !== null) {
    try {
      return unseal(deps.appSecret, IMPORT_TOKEN_PURPOSE, row.token_sealed)
    } catch {
      throw new ImportFailure('figma_not_connected', 'The import\u2019s own Figma token can no longer be read (APP_SECRET changed?); rerun it with figma_token.')
    }
  }
  const stored = await deps.storedToken(row.organization_id)
  if (stored === null) throw new ImportFailure('figma_not_connected', 'The organization has no stored Figma token, and the import has none of its own; rerun it with figma_token.')
  return stored
}

function selectedIn(document: Parameters<typeof selectNodes>[0], row: store.ImportRow) {
  try {
    return selectNodes(document, { selection: row.selection, rootNodeId: row.root_node_id, nodeIds: row.node_ids })
  } catch (error) {
    if (error instanceof RootNodeNotFound) throw new ImportFailure('figma_file_not_found', error.message)
    throw error
  }
}

/** Unchanged since it was last pushed, and its asset still there: nothing to render. */
function isUnchanged(node: SelectedNode, known: store.KnownNode): boolean {
  return known.asset_live && known.content_hash === node.contentHash && !renamed(node, known) && !moved(node, known)
}

function renamed(node: SelectedNode, known: store.KnownNode): boolean {
  return known.name !== node.name
}

function moved(node: SelectedNode, known: store.KnownNode): boolean {
  return known.page_name !== node.pageName || known.component_set_name !== node.componentSetName
}

/** Renders, downloads and pushes the nodes of one run, recording each outcome. */
class NodeImporter {
  private readonly caller: Caller
  private readonly render: { format: FigmaRenderFormat; scale: number }

  constructor(
    private readonly deps: ImportRunDeps,
    private readonly row: store.ImportRow,
    private readonly owner: string,
    private readonly session: FigmaSession,
    private readonly known: ReadonlyMap<string, store.KnownNode>,
  ) {
    this.caller = callerOf(row)
    this.render = { format: row.format, scale: Number(row.scale) }
  }

  async importChunk(nodes: SelectedNode[], signal: AbortSignal): Promise<void> {
    const urls = await this.session.imageUrls(this.row.file_key, nodes.map((node) => node.nodeId), this.render)
    await eachAtMost(DOWNLOADS_AT_ONCE, nodes, signal, async (node) => {
      const outcome = await this.importNode(node, urls.get(node.nodeId) ?? null)
      held(await store.recordOutcome(this.deps.db, this.row.id, this.owner, outcome))
    })
  }

  private async importNode(node: SelectedNode, url: string | null): Promise<store.NodeOutcome> {
    const bytes = url === null ? null : await this.download(node, url)
    if (bytes === null) return { node_id: node.nodeId, outcome: 'failed', reason: 'render_failed', detail: 'Figma could not render this node.' }
    if (!Buffer.isBuffer(bytes)) return bytes
    return this.push(node, bytes)
  }

  /** The rendered image; rendered again once when its URL has expired. A failure of this node only is its outcome. */
  private async download(node: SelectedNode, url: string): Promise<Buffer | store.NodeOutcome | null> {
    try {
      return await this.downloadOnce(url)
    } catch (error) {
      if (!(error instanceof FigmaError) || error.failure !== 'render_expired') return this.nodeFailure(node, error)
    }
    const again = (await this.session.imageUrls(this.row.file_key, [node.nodeId], this.render)).get(node.nodeId) ?? null
    if (again === null) return null
    try {
      return await this.downloadOnce(again)
    } catch (error) {
      return this.nodeFailure(node, error)
    }
  }

  private downloadOnce(url: string): Promise<Buffer> {
    return this.session.download(url, MAX_IMAGE_BYTES)
  }

  /** `render_expired` and `image_too_large` fail the node; anything else goes up. */
  private nodeFailure(node: SelectedNode, error: unknown): store.NodeOutcome {
    if (error instanceof FigmaError && (error.failure === 'render_expired' || error.failure === 'image_too_large')) {
      return { node_id: node.nodeId, outcome: 'failed', reason: error.failure, detail: error.message }
    }
    throw error
  }

  /**
   * Pushes the node's image under its `external_id`: a new asset, or a new version of its asset that
   * changes the file, and the title and tags when the node was renamed or moved. Bytes the asset has
   * already are no version: a rename alone is then an edit of the title.
   */
  private async push(node: SelectedNode, bytes: Buffer): Promise<store.NodeOutcome> {
    const { row } = this
    const known = this.known.get(node.nodeId)!
    const metadata = row.metadata
    const title = node.name.trim().slice(0, MAX_TITLE)
    const tags = [node.pageName, ...(node.componentSetName === null ? [] : [node.componentSetName]), ...(metadata.tag_names ?? [])].map((tag) => tag.trim().slice(0, MAX_TAG))
    const pushedBefore = known.asset_id !== null
    const versionChanges: PushMetadata = {
      ...(pushedBefore && renamed(node, known) && { title }),
      ...(pushedBefore && moved(node, known) && { tag_names: tags }),
    }
    const input = {
      title,
      tag_names: tags,
      source_url: figmaNodeLink(row.file_key, node.nodeId),
      external_id: figmaExternalId(row.file_key, node.nodeId),
      created_by_ai: metadata.created_by_ai ?? false,
      ...(metadata.asset_type !== undefined && { asset_type: metadata.asset_type }),
      ...(metadata.client !== undefined && { client: metadata.client }),
      ...(metadata.product !== undefined && { product: metadata.product }),
      ...(metadata.collection_name !== undefined && { collection_name: metadata.collection_name }),
    }
    let pushed: PushOutcome
    try {
      pushed = await this.deps.assets.pushFile(row.organization_id, input, bytes, this.caller, {
        source: { kind: 'figma', file_key: row.file_key, node_id: node.nodeId, import_id: row.id },
        versionChanges,
      })
    } catch (error) {
      // The push refused these bytes or this metadata (svg_script, plan_limit_reached…): this node fails; a 5xx of ours is retried.
      if (error instanceof AppError && error.status < 500) return { node_id: node.nodeId, outcome: 'failed', reason: error.code, detail: error.detail ?? error.message }
      throw error
    }
    const outcome = await this.outcomeOf(pushed, versionChanges, known)
    return {
      node_id: node.nodeId,
      outcome,
      pushed: { node_id: node.nodeId, name: node.name, page_name: node.pageName, component_set_name: node.componentSetName, content_hash: node.contentHash, rendered_hash: sha256Hex(bytes), asset_id: pushed.asset_id },
    }
  }

  private async outcomeOf(pushed: PushOutcome, versionChanges: PushMetadata, known: store.KnownNode): Promise<'created' | 'updated' | 'unchanged'> {
    if (!pushed.duplicate) return pushed.version === undefined || pushed.version === 1 ? 'created' : 'updated'
    // Bytes the library has as another asset (two identical frames): that asset stands for the node.
    if (pushed.version === undefined) return 'unchanged'
    if (Object.keys(versionChanges).length > 0) {
      await this.deps.assets.update(this.row.organization_id, pushed.asset_id, {
        ...(versionChanges.title !== undefined && { title: versionChanges.title }),
        ...(versionChanges.tag_names !== undefined && { tag_names: versionChanges.tag_names }),
      })
      return 'updated'
    }
    // Made by an attempt of this run that stopped before recording it (a killed worker).
    if (known.asset_id === null && this.row.started_at !== null && (await store.createdSince(this.deps.db, pushed.asset_id, new Date(this.row.started_at)))) return 'created'
    return 'unchanged'
  }
}

/** The import's creator as the pushes' caller: a rerun by Figma's webhook pushes as them. */
function callerOf(row: store.ImportRow): Caller {
  const base = { organizationId: row.organization_id, scope: 'assets:write' as const, rateLimitId: row.created_by_id }
  return row.created_by_kind === 'key'
    ? { ...base, via: 'key', keyId: row.created_by_id, name: row.created_by_name, prefix: '', expiresAt: null }
    : { ...base, via: 'session', userId: row.created_by_id, email: '', name: row.created_by_name, manager: false }
}

/** Works the items `limit` at a time; the first failure stops the others from starting more and is thrown once all have stopped. */
async function eachAtMost<T>(limit: number, items: readonly T[], signal: AbortSignal, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++]!
      try {
        signal.throwIfAborted()
        await work(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  if (failure) throw failure.error
}
