import type { AppData } from '../../api/client'

export type Outline = AppData<'/app/api/orgs/{org}/integrations/figma/outline', 'get'>
export type OutlinePage = Outline['pages'][number]
export type OutlineComponent = Outline['components'][number]

/** One node the screen lists: a page's top-level frame (or component, set, instance) or a component. */
export interface PickableNode {
  id: string
  name: string
  /** Figma's type for a page's node; `COMPONENT` for a component (a variant's set is in `group`). */
  type: string
  thumbnailUrl: string | null
  /** The page's name, or the component set of a variant. */
  group: string | null
}

export const frameIds = (outline: Outline): string[] => outline.pages.flatMap((page) => page.frames.map((frame) => frame.id))
export const componentIds = (outline: Outline): string[] => outline.components.map((component) => component.id)
export const pageIds = (page: OutlinePage): string[] => page.frames.map((frame) => frame.id)

/** Every node the outline offers, each once (a top-level component is both a page's node and a component). */
export function pickableNodes(outline: Outline): Map<string, PickableNode> {
  const nodes = new Map<string, PickableNode>()
  for (const page of outline.pages) {
    for (const frame of page.frames) nodes.set(frame.id, { id: frame.id, name: frame.name, type: frame.type, thumbnailUrl: frame.thumbnail_url, group: page.name })
  }
  for (const component of outline.components) {
    if (!nodes.has(component.id)) {
      nodes.set(component.id, { id: component.id, name: component.name, type: 'COMPONENT', thumbnailUrl: component.thumbnail_url, group: component.component_set ?? component.page })
    }
  }
  return nodes
}

/** What a set of ids holds of `ids`: all, some or none of them. */
export function coverage(picked: ReadonlySet<string>, ids: readonly string[]): 'all' | 'some' | 'none' {
  const count = ids.filter((id) => picked.has(id)).length
  if (count === 0) return 'none'
  return count === ids.length ? 'all' : 'some'
}

/** `picked` with all of `ids` added (`on`) or taken out. */
export function toggleAll(picked: ReadonlySet<string>, ids: readonly string[], on: boolean): Set<string> {
  const next = new Set(picked)
  for (const id of ids) {
    if (on) next.add(id)
    else next.delete(id)
  }
  return next
}

/** Whether `picked` holds exactly `ids`, and they are some. */
export function isExactly(picked: ReadonlySet<string>, ids: readonly string[]): boolean {
  return ids.length > 0 && new Set(ids).size === picked.size && ids.every((id) => picked.has(id))
}

export const NODE_IDS_MAX = 1000

export type Selection = { select: 'frames' } | { select: 'components' } | { select: 'nodes'; node_ids: string[] }

/**
 * How the import names what was picked: `frames` when it is exactly the outline's frames, `components`
 * when it is exactly its components (so a sync takes what was added to the file since), otherwise the
 * nodes one by one, in the outline's order. Null when nothing is picked.
 */
export function selectionOf(outline: Outline, picked: ReadonlySet<string>): Selection | null {
  if (picked.size === 0) return null
  if (isExactly(picked, frameIds(outline))) return { select: 'frames' }
  if (isExactly(picked, componentIds(outline))) return { select: 'components' }
  return { select: 'nodes', node_ids: [...pickableNodes(outline).keys()].filter((id) => picked.has(id)) }
}
