/*
 * A shallowly read Figma tree, for the outline: which frames it lists is imports/select.ts's
 * `topFrames` and `linkedFrames`, the rule an import of `frames` follows; what is left here is knowing
 * which sections still need reading.
 */

/** A node as far as the outline reads it: `children` is absent past the depth read. */
export interface OutlineNode {
  id: string
  name: string
  type: string
  children?: OutlineNode[]
}

/** The sections under `containers` (through loaded sections) whose children were not read yet. */
export function unreadSections(containers: readonly OutlineNode[]): OutlineNode[] {
  return containers.flatMap((container) =>
    (container.children ?? []).filter((child) => child.type === 'SECTION').flatMap((section) => (section.children === undefined ? [section] : unreadSections([section]))),
  )
}
