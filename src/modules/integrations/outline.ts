import type { Component, ComponentSet } from '@figma/rest-api-spec'
import type { FastifyBaseLogger } from 'fastify'
import { AppError, problems } from '../../platform/http/errors.js'
import { FigmaError, type FigmaApi, type FigmaSession } from '../imports/figma-api.js'
import { parseFigmaUrl, type FigmaFileRef } from '../imports/figma-url.js'
import { askFigma } from './figma-errors.js'
import { linkedFrames, topFrames } from '../imports/select.js'
import { unreadSections, type OutlineNode } from './outline-tree.js'
import type { FigmaOutline } from './schemas.js'

/** Figma's rendering of a node, at a quarter of its size: a 1440 px frame is a 360 px thumbnail. */
const THUMBNAIL_RENDER = { format: 'png', scale: 0.25 } as const
/** The nodes rendered as thumbnails, frames first: a file of thousands would keep Figma rendering for minutes. */
export const MAX_THUMBNAILS = 200
/** Rounds of reading the children of sections (sections in sections in…) before listing what is known. */
const MAX_SECTION_DEPTH = 4

/** What one read of the file gave: its pages (or the linked node as one) and its own components. */
interface FileShape {
  name: string
  version: string
  pages: Array<{ id: string; name: string; frames: OutlineNode[] }>
  components: Record<string, Component>
  componentSets: Record<string, ComponentSet>
}

/**
 * What a Figma file holds, read shallowly for the web app's Import screen: pages and their top-level
 * frames, the file's components, each with Figma's own small rendering.
 */
export class FigmaOutlines {
  constructor(private readonly deps: { figma: FigmaApi; logger: FastifyBaseLogger }) {}

  async outline(fileUrl: string, token: string): Promise<FigmaOutline> {
    const file = parseFigmaUrl(fileUrl)
    if (!file) throw new AppError('invalid_figma_url', 'This is not a Figma file or design link with a file key.')
    const session = this.deps.figma.session(token)
    const shape = await askFigma(() => readShape(session, file))
    const pageOf = new Map<string, string>()
    for (const page of shape.pages) for (const frame of page.frames) pageOf.set(frame.id, page.name)
    const components = Object.entries(shape.components)
      .filter(([, component]) => !component.remote)
      .map(([id, component]) => {
        const set = component.componentSetId === undefined ? undefined : shape.componentSets[component.componentSetId]
        return { id, name: component.name, page: pageOf.get(id) ?? pageOf.get(component.componentSetId ?? '') ?? null, component_set: set?.name ?? null }
      })
    const ids = [...new Set([...shape.pages.flatMap((page) => page.frames.map((frame) => frame.id)), ...components.map((component) => component.id)])]
    const thumbnails = await this.thumbnails(session, file.fileKey, ids.slice(0, MAX_THUMBNAILS))
    const thumbnailOf = (id: string) => thumbnails.get(id) ?? null
    return {
      file_key: file.fileKey,
      file_name: shape.name,
      version: shape.version,
      node_id: file.nodeId,
      pages: shape.pages.map((page) => ({
        id: page.id,
        name: page.name,
        frames: page.frames.map((frame) => ({ id: frame.id, name: frame.name, type: frame.type, thumbnail_url: thumbnailOf(frame.id) })),
      })),
      components: components.map((component) => ({ ...component, thumbnail_url: thumbnailOf(component.id) })),
    }
  }

  /** Figma's renderings; none when Figma cannot make them now (the outline is shown without). */
  private async thumbnails(session: FigmaSession, fileKey: string, ids: string[]): Promise<Map<string, string | null>> {
    if (ids.length === 0) return new Map()
    try {
      return await session.imageUrls(fileKey, ids, THUMBNAIL_RENDER)
    } catch (error) {
      if (!(error instanceof FigmaError) || error.failure === 'figma_token_invalid' || error.failure === 'figma_file_not_found') throw error
      this.deps.logger.warn({ fileKey, failure: error.failure }, 'Figma did not render the outline\u2019s thumbnails; it is shown without')
      return new Map()
    }
  }
}

/**
 * The whole file two levels deep (pages and their top-level nodes), or the linked node two levels deep;
 * then the children of the sections among them, which hold frames too.
 */
async function readShape(session: FigmaSession, file: FigmaFileRef): Promise<FileShape> {
  if (file.nodeId === null) {
    const read = await session.file(file.fileKey, { depth: 2 })
    const pages = read.document.children as unknown as OutlineNode[]
    await readSections(session, file.fileKey, pages)
    return {
      name: read.name,
      version: read.version,
      pages: pages.map((page) => ({ id: page.id, name: page.name, frames: topFrames(page) })),
      components: read.components,
      componentSets: read.componentSets,
    }
  }
  const read = await session.fileNodes(file.fileKey, [file.nodeId], { depth: 2 })
  const found = read.nodes[file.nodeId]
  if (!found) throw problems.unprocessable('figma_file_not_found', `The file has no node ${file.nodeId}: the link\u2019s node-id names none.`)
  const node = found.document as unknown as OutlineNode
  await readSections(session, file.fileKey, [node])
  return {
    name: read.name,
    version: read.version,
    pages: [{ id: node.id, name: node.name, frames: linkedFrames(node) }],
    components: found.components,
    componentSets: found.componentSets,
  }
}

/** Reads the children of the sections under `containers` that the depth left out, into the tree. */
async function readSections(session: FigmaSession, fileKey: string, containers: readonly OutlineNode[]): Promise<void> {
  for (let round = 0; round < MAX_SECTION_DEPTH; round++) {
    const sections = unreadSections(containers)
    if (sections.length === 0) return
    const read = await session.fileNodes(fileKey, sections.map((section) => section.id), { depth: 1 })
    for (const section of sections) section.children = (read.nodes[section.id]?.document as unknown as OutlineNode | undefined)?.children ?? []
  }
}

/** Where Figma serves rendered images: its own hosts, and the S3 bucket its API links to. */
const FIGMA_IMAGE_ORIGINS = ['https://*.figma.com', 'https://figma-alpha-api.s3.us-west-2.amazonaws.com']
const DEFAULT_FIGMA_API = 'https://api.figma.com'

/**
 * The origins the web app shows the outline's thumbnails from (its page's CSP `img-src`): Figma's, and
 * FIGMA_API_URL's own when it is not Figma's (the tests' fake serves its renderings itself).
 */
export function figmaImageOrigins(apiUrl: string): string[] {
  const origin = new URL(apiUrl).origin
  return origin === DEFAULT_FIGMA_API ? FIGMA_IMAGE_ORIGINS : [...FIGMA_IMAGE_ORIGINS, origin]
}
