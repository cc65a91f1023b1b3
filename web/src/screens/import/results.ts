import type { ImportedAsset, ImportRecord } from './api'
import type { PickableNode } from './selection'

export type NodeResult =
  | { kind: 'pending' }
  | { kind: 'created' | 'updated' | 'unchanged'; asset: ImportedAsset }
  | { kind: 'failed'; reason: string; detail: string }
  | { kind: 'missing'; assetId: string | null }
  | { kind: 'not_imported' }

/** A node the result lists: known from the outline picked in this tab, or only by its id. */
export type ResultNode = Pick<PickableNode, 'id'> & Partial<Pick<PickableNode, 'name' | 'thumbnailUrl'>>

const atOrAfter = (iso: string, since: string) => new Date(iso).getTime() >= new Date(since).getTime()

/**
 * What the import's current run did with one node. The record lists failures and missing nodes; the
 * others are read off the node's asset (`assets`, by node id, once looked up): made during the run (created), given a new file during it
 * (updated), or neither (unchanged).
 */
export function nodeResult(record: ImportRecord, nodeId: string, assets: ReadonlyMap<string, ImportedAsset> | undefined): NodeResult {
  const failure = record.failures.find((f) => f.node_id === nodeId)
  if (failure) return { kind: 'failed', reason: failure.reason, detail: failure.detail }
  const missing = record.missing_nodes.find((m) => m.node_id === nodeId)
  if (missing) return { kind: 'missing', assetId: missing.asset_id }
  // Still running, or its assets not looked up yet.
  if (record.status === 'queued' || record.status === 'running' || !assets) return { kind: 'pending' }
  const asset = assets.get(nodeId)
  if (!asset || !record.started_at) return { kind: 'not_imported' }
  if (atOrAfter(asset.created_at, record.started_at)) return { kind: 'created', asset }
  if (atOrAfter(asset.updated_at, record.started_at)) return { kind: 'updated', asset }
  return { kind: 'unchanged', asset }
}

/**
 * The nodes to list for an import: those picked in this tab (with their names and thumbnails), else
 * the ids it was given; then any failed or missing node not among them.
 */
export function resultNodes(record: ImportRecord, picked: readonly ResultNode[] | undefined): ResultNode[] {
  const reported = new Map([...record.failures, ...record.missing_nodes].map((node) => [node.node_id, node.name]))
  const nodes: ResultNode[] = (picked ?? record.node_ids.map((id): ResultNode => ({ id }))).map((node) => ({ ...node, name: node.name ?? reported.get(node.id) }))
  const listed = new Set(nodes.map((node) => node.id))
  for (const [id, name] of reported) if (!listed.has(id)) nodes.push({ id, name })
  return nodes
}

/** How many of the run's nodes are through: the progress bar's value. */
export const doneCount = (record: ImportRecord) => record.created + record.updated + record.unchanged + record.failed

const picks = new Map<string, ResultNode[]>()

/** The nodes picked for an import started in this tab (names and thumbnails; never a token), until the page reloads. */
export const pickedNodes = {
  remember: (importId: string, nodes: ResultNode[]) => void picks.set(importId, nodes),
  of: (importId: string) => picks.get(importId),
}
