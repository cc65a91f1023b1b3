import type { DocumentNode } from '@figma/rest-api-spec'
import { sha256Hex } from '../../platform/crypto.js'
import type { ImportSelection } from '../../platform/db/schema.js'

/*
 * Which nodes of a Figma file an import covers, read from the file's document tree. Pure: the job reads
 * the file, this picks the nodes and hashes them.
 */

/** What a selection needs of a node: every node of Figma's tree has these. */
interface TreeNode {
  id: string
  name: string
  type: string
  children?: readonly TreeNode[]
}

/** A node the import renders and pushes, with what its asset is named and tagged after. */
export interface SelectedNode {
  nodeId: string
  name: string
  /** The page (CANVAS) it is on. */
  pageName: string
  /** A variant's component set. */
  componentSetName: string | null
  /** SHA-256 of the node's subtree as the file gave it: unchanged, the node is not rendered again. */
  contentHash: string
}

export interface SelectedNodes {
  nodes: SelectedNode[]
  /** `node_ids` the file (or the linked node's subtree) does not have. */
  notFound: string[]
}

export interface SelectionRequest {
  selection: ImportSelection
  /** The link's `node-id`: the import covers that subtree only. */
  rootNodeId: string | null
  nodeIds: readonly string[]
}

/** The link's `node-id` is not in the file. */
export class RootNodeNotFound extends Error {
  constructor(readonly nodeId: string) {
    super(`The file has no node ${nodeId} (the link's node-id).`)
    this.name = 'RootNodeNotFound'
  }
}

/** What a page shows as a design of its own: a top-level frame, component, component set or instance. */
const FRAME_TYPES = new Set(['FRAME', 'COMPONENT', 'COMPONENT_SET', 'INSTANCE'])

interface Located {
  node: TreeNode
  page: TreeNode
  parent: TreeNode | null
}

/**
 * The nodes of `request` in the file's `document`:
 * - `frames`: the top-level frames (and components, component sets and instances) of each page, those
 *   inside a top-level SECTION included; with a linked node, that node when it is one of those, else its
 *   own top-level frames;
 * - `components`: every COMPONENT of the file (or the linked subtree); a variant is tagged with its set;
 * - `nodes`: the nodes of `nodeIds`, those the file lacks in `notFound`.
 */
export function selectNodes(document: DocumentNode, request: SelectionRequest): SelectedNodes {
  const pages = document.children as readonly TreeNode[]
  const index = indexTree(pages)
  const root = request.rootNodeId === null ? null : index.get(request.rootNodeId)
  if (root === undefined) throw new RootNodeNotFound(request.rootNodeId!)
  const inScope = (located: Located) => root === null || isWithin(located, root.node, index)
  let picked: Located[]
  if (request.selection === 'nodes') {
    const found = request.nodeIds.map((id) => index.get(id)).filter((located): located is Located => located !== undefined && inScope(located))
    const foundIds = new Set(found.map((located) => located.node.id))
    return { nodes: found.map((located) => selected(located)), notFound: request.nodeIds.filter((id) => !foundIds.has(id)) }
  }
  if (request.selection === 'components') {
    picked = [...index.values()].filter((located) => located.node.type === 'COMPONENT' && inScope(located))
  } else {
    const frames = root === null ? pages.flatMap((page) => topFrames(page)) : linkedFrames(root.node)
    picked = frames.map((node) => index.get(node.id)!)
  }
  return { nodes: picked.map((located) => selected(located)), notFound: [] }
}

/** Every node of the pages by id, with its page and parent: one walk of the tree. */
function indexTree(pages: readonly TreeNode[]): Map<string, Located> {
  const index = new Map<string, Located>()
  const walk = (node: TreeNode, page: TreeNode, parent: TreeNode | null) => {
    index.set(node.id, { node, page, parent })
    for (const child of node.children ?? []) walk(child, page, node)
  }
  for (const page of pages) walk(page, page, null)
  return index
}

/** A node of a Figma tree as far as frame picking reads it; `children` is absent past the depth read. */
interface FrameTreeNode<N> {
  type: string
  children?: readonly N[]
}

/**
 * The frame-like children of `container` in order, looking into sections (a page's way of grouping
 * frames): what an import of `frames` takes, and what the app's outline of a file lists.
 */
export function topFrames<N extends FrameTreeNode<N>>(container: N): N[] {
  return (container.children ?? []).flatMap((child) => {
    if (FRAME_TYPES.has(child.type)) return [child]
    if (child.type === 'SECTION') return topFrames(child)
    return []
  })
}

/** What a linked node stands for: itself when it is frame-like, else its own top-level frames. */
export function linkedFrames<N extends FrameTreeNode<N>>(node: N): N[] {
  return FRAME_TYPES.has(node.type) ? [node] : topFrames(node)
}

function isWithin(located: Located, ancestor: TreeNode, index: Map<string, Located>): boolean {
  for (let current: Located | undefined = located; current; current = current.parent ? index.get(current.parent.id) : undefined) {
    if (current.node === ancestor) return true
  }
  return false
}

function selected({ node, page, parent }: Located): SelectedNode {
  return {
    nodeId: node.id,
    name: node.name,
    pageName: page.name,
    componentSetName: node.type === 'COMPONENT' && parent?.type === 'COMPONENT_SET' ? parent.name : null,
    contentHash: sha256Hex(JSON.stringify(node)),
  }
}
