/*
 * Which nodes of a shallowly read Figma tree the outline lists as frames: the ones an import with
 * `select: "frames"` takes (imports/select.ts picks the same), looking into sections.
 */

/** A node as far as the outline reads it: `children` is absent past the depth read. */
export interface OutlineNode {
  id: string
  name: string
  type: string
  children?: OutlineNode[]
}

/** The frame-like nodes an import of frames takes. */
const FRAME_TYPES = new Set(['FRAME', 'COMPONENT', 'COMPONENT_SET', 'INSTANCE'])

/** The frame-like children of `container` in order, those of its sections in their place. */
export function topFrames(container: OutlineNode): OutlineNode[] {
  return (container.children ?? []).flatMap((child) => {
    if (FRAME_TYPES.has(child.type)) return [child]
    if (child.type === 'SECTION') return topFrames(child)
    return []
  })
}

/** What a link's node lists: itself when it is a frame, else its own top-level frames. */
export function linkedFrames(node: OutlineNode): OutlineNode[] {
  return FRAME_TYPES.has(node.type) ? [node] : topFrames(node)
}

/** The sections under `containers` (through loaded sections) whose children were not read yet. */
export function unreadSections(containers: readonly OutlineNode[]): OutlineNode[] {
  return containers.flatMap((container) =>
    (container.children ?? []).filter((child) => child.type === 'SECTION').flatMap((section) => (section.children === undefined ? [section] : unreadSections([section]))),
  )
}
