import type { ImportRecord } from './api'
import type { PickableNode } from './selection'

/** How many of the run's nodes are through: the progress bar's value. */
export const doneCount = (record: ImportRecord) => record.created + record.updated + record.unchanged + record.failed

const thumbnails = new Map<string, ReadonlyMap<string, string>>()

/** The thumbnails of the nodes picked for an import started in this tab (never a token), until the page reloads. */
export const pickedThumbnails = {
  remember: (importId: string, nodes: readonly Pick<PickableNode, 'id' | 'thumbnailUrl'>[]) =>
    void thumbnails.set(importId, new Map(nodes.flatMap((node) => (node.thumbnailUrl ? [[node.id, node.thumbnailUrl] as const] : [])))),
  of: (importId: string) => thumbnails.get(importId),
}
