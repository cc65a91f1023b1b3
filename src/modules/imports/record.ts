import { iso } from '../../platform/http/schemas.js'
import type { ImportRecord } from './schemas.js'
import type { ImportWithCounts } from './store.js'

/** An import as the API shows it: its stored selection, its current run's counts, never its token. */
export function importRecord(row: ImportWithCounts): ImportRecord {
  const { metadata } = row
  return {
    id: row.id,
    source: row.source,
    status: row.status,
    file_url: row.file_url,
    file_key: row.file_key,
    node_id: row.root_node_id,
    select: row.selection,
    node_ids: row.node_ids,
    format: row.format,
    scale: Number(row.scale),
    metadata: {
      asset_type: metadata.asset_type ?? null,
      client: metadata.client ?? null,
      product: metadata.product ?? null,
      tag_names: metadata.tag_names ?? [],
      collection_name: metadata.collection_name ?? null,
      created_by_ai: metadata.created_by_ai ?? false,
    },
    file_name: row.file_name,
    file_version: row.file_version,
    run: row.run,
    total: row.total,
    created: row.created,
    updated: row.updated,
    unchanged: row.unchanged,
    failed: row.failed,
    missing: row.missing,
    failures: row.failures.map((node) => ({ node_id: node.node_id, name: node.name, reason: node.reason ?? 'failed', detail: node.detail ?? '' })),
    missing_nodes: row.missing_nodes.map((node) => ({ node_id: node.node_id, name: node.name, asset_id: node.asset_id })),
    error: row.error_code === null ? null : { code: row.error_code, detail: row.error_detail ?? '' },
    created_by: { kind: row.created_by_kind, name: row.created_by_name },
    created_at: iso(new Date(row.created_at)),
    started_at: row.started_at === null ? null : iso(new Date(row.started_at)),
    finished_at: row.finished_at === null ? null : iso(new Date(row.finished_at)),
  }
}
