/** A Figma file, and the node of the link if it named one, as read from a file or design link. */
export interface FigmaFileRef {
  fileKey: string
  /** Figma's form, `1:2` (links write it `1-2`). */
  nodeId: string | null
}

const FIGMA_HOSTS = new Set(['figma.com', 'www.figma.com'])
/** The path kinds of links that open a file: design files, prototypes, FigJam boards and Slides, and the old `/file/`. */
const FILE_KINDS = new Set(['file', 'design', 'proto', 'board', 'slides'])
const FILE_KEY = /^[A-Za-z0-9]{10,64}$/
const NODE_ID = /^(?:I?-?\d+[:-]\d+)(?:;-?\d+[:-]\d+)*$/

/**
 * The file key (a branch's own key for a branch link) and node id of a Figma link; null for anything
 * else: another host, a link to a team or project, a missing or malformed key.
 */
export function parseFigmaUrl(link: string): FigmaFileRef | null {
  let url: URL
  try {
    url = new URL(link.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'https:' || !FIGMA_HOSTS.has(url.hostname.toLowerCase())) return null
  const [kind, key, branchWord, branchKey] = url.pathname.split('/').filter(Boolean)
  if (!kind || !FILE_KINDS.has(kind) || !key || !FILE_KEY.test(key)) return null
  const fileKey = branchWord === 'branch' && branchKey && FILE_KEY.test(branchKey) ? branchKey : key
  const node = url.searchParams.get('node-id')
  if (node === null || node === '') return { fileKey, nodeId: null }
  if (!NODE_ID.test(node)) return null
  return { fileKey, nodeId: figmaNodeId(node) }
}

/** A node id as Figma's API writes it (`1:2`), from a link's `1-2`. */
export function figmaNodeId(linkForm: string): string {
  return linkForm.replace(/(\d)-(\d)/g, '$1:$2')
}

/** The link that opens a node in Figma: `https://www.figma.com/design/KEY/?node-id=1-2`. */
export function figmaNodeLink(fileKey: string, nodeId: string): string {
  return `https://www.figma.com/design/${fileKey}/?node-id=${encodeURIComponent(nodeId.replaceAll(':', '-'))}`
}

/** The `external_id` an imported node's asset carries: `figma:FILEKEY:NODEID`. */
export function figmaExternalId(fileKey: string, nodeId: string): string {
  return `figma:${fileKey}:${nodeId}`
}
