import { seal } from '../../platform/crypto.js'
import type { Db } from '../../platform/db/index.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { Page } from '../../platform/http/pagination.js'
import type { Caller } from '../../platform/http/route-auth.js'
import { uuidv7 } from '../../platform/ids.js'
import type { PushInput } from '../assets/push.js'
import { figmaNodeLink, parseFigmaUrl } from './figma-url.js'
import { importRecord } from './record.js'
import type { CreateImportInput, ImportRecord } from './schemas.js'
import * as store from './store.js'
import type { ImportNodeFilter } from './store.js'

/** The purpose an import's own Figma token is sealed under (platform/crypto.ts). */
export const IMPORT_TOKEN_PURPOSE = 'figma-import-token'

/** What the service needs of the job that runs imports. */
export interface ImportWake {
  /** Claims at once (an import was queued in this process). */
  wake(): void
  /** Claims when an import queued for later comes due. */
  wakeIn(delayMs: number): void
}

export interface ImportServiceDeps {
  db: Db
  appSecret: string
  /** Checks the names an import's pushes will use, as the push answers them. */
  assets: { checkNames(organizationId: string, input: Pick<PushInput, 'asset_type' | 'collection_name'>): Promise<void> }
  /** The organization's stored Figma token (unsealed), or null. */
  storedToken(organizationId: string): Promise<string | null>
  job: ImportWake
}

/** /api/v1/imports: queues imports and syncs; the job (job.ts) runs them. */
export class ImportService {
  constructor(private readonly deps: ImportServiceDeps) {}

  /**
   * Checks everything that can be checked without Figma (the link, the selection, the names the pushes
   * use, that a token exists) and queues the import; nothing is stored for a refused one. The token is
   * not tried: a bad one ends the import `failed` with `figma_token_invalid`.
   */
  async create(caller: Caller, input: CreateImportInput): Promise<{ import_id: string; status: 'queued' }> {
    const organizationId = caller.organizationId
    const ref = parseFigmaUrl(input.file_url)
    if (!ref) throw new AppError('invalid_figma_url', 'file_url is not a Figma file or design link with a file key (https://www.figma.com/design/KEY/\u2026).')
    const selection = input.select ?? 'frames'
    if (selection === 'nodes' && input.node_ids === undefined) throw problems.validation([{ pointer: '/node_ids', detail: 'is required with select: "nodes"' }])
    if (selection !== 'nodes' && input.node_ids !== undefined) throw problems.validation([{ pointer: '/node_ids', detail: 'is only taken with select: "nodes"' }])
    await this.deps.assets.checkNames(organizationId, { ...(input.asset_type !== undefined && { asset_type: input.asset_type }), ...(input.collection_name !== undefined && { collection_name: input.collection_name }) })
    await this.assertToken(organizationId, input.figma_token)
    const id = uuidv7()
    const metadata = {
      ...(input.asset_type !== undefined && { asset_type: input.asset_type }),
      ...(input.client !== undefined && { client: input.client }),
      ...(input.product !== undefined && { product: input.product }),
      ...(input.tag_names !== undefined && { tag_names: input.tag_names }),
      ...(input.collection_name !== undefined && { collection_name: input.collection_name }),
      created_by_ai: input.created_by_ai ?? false,
    }
    await store.insertImport(this.deps.db, {
      id,
      organization_id: organizationId,
      source: 'figma',
      file_key: ref.fileKey,
      file_url: input.file_url.trim(),
      root_node_id: ref.nodeId,
      selection,
      node_ids: input.node_ids ?? [],
      format: input.format ?? 'png',
      scale: input.scale ?? 1,
      metadata: JSON.stringify(metadata),
      token_sealed: this.sealed(input.figma_token),
      created_by_kind: caller.via === 'key' ? 'key' : 'user',
      created_by_id: caller.via === 'key' ? caller.keyId : caller.userId,
      created_by_name: caller.via === 'key' ? caller.name : caller.name || caller.email,
    })
    this.deps.job.wake()
    return { import_id: id, status: 'queued' }
  }

  async get(organizationId: string, id: string): Promise<ImportRecord> {
    const row = await store.findImport(this.deps.db, organizationId, id)
    if (!row) throw problems.notFound('Import')
    return importRecord(row)
  }

  async list(organizationId: string, fileKey: string | undefined, page: Page) {
    const { rows, total } = await store.listImports(this.deps.db, organizationId, fileKey, page)
    return { data: rows.map(importRecord), total, ...page }
  }

  /** A page of the nodes of the import's current run, each with its outcome, reason and asset. */
  async nodes(organizationId: string, id: string, outcome: ImportNodeFilter | undefined, page: Page) {
    const found = await store.listImportNodes(this.deps.db, organizationId, id, outcome, page)
    if (!found) throw problems.notFound('Import')
    return { data: found.rows.map((node) => ({ ...node, figma_url: figmaNodeLink(found.file_key, node.node_id) })), total: found.total, ...page }
  }

  /** Runs the import again with its stored selection (a sync): 409 while it is queued or running. */
  async rerun(organizationId: string, id: string, figmaToken: string | undefined): Promise<{ import_id: string; status: 'queued' }> {
    if (!(await store.findImport(this.deps.db, organizationId, id))) throw problems.notFound('Import')
    await this.assertToken(organizationId, figmaToken)
    const outcome = await store.queueRerun(this.deps.db, organizationId, id, this.sealed(figmaToken))
    if (outcome === 'not_found') throw problems.notFound('Import')
    if (outcome === 'in_progress') throw problems.conflict('import_in_progress', 'The import is queued or running; rerun it once it has ended.')
    this.deps.job.wake()
    return { import_id: id, status: 'queued' }
  }

  /**
   * Every import of the file runs again in `delayMs` (Figma's webhook): an ended one as a new run, a
   * queued one later (a later call pushes it out again, across processes: the debounce is the queue's
   * due time), a running one again when it ends. Returns how many imports it touched.
   */
  async requestSync(organizationId: string, fileKey: string, delayMs: number): Promise<number> {
    const touched = await store.queueSync(this.deps.db, organizationId, fileKey, delayMs)
    if (touched > 0) this.deps.job.wakeIn(delayMs)
    return touched
  }

  private async assertToken(organizationId: string, figmaToken: string | undefined): Promise<void> {
    if (figmaToken !== undefined) return
    if ((await this.deps.storedToken(organizationId)) === null) {
      throw problems.unprocessable('figma_not_connected', 'Send figma_token, or store the organization\u2019s Figma token first (Settings \u2192 Integrations).')
    }
  }

  private sealed(figmaToken: string | undefined): string | null {
    return figmaToken === undefined ? null : seal(this.deps.appSecret, IMPORT_TOKEN_PURPOSE, figmaToken)
  }
}
