import type {
  CanvasNode,
  Component,
  ComponentNode,
  ComponentSet,
  ComponentSetNode,
  DocumentNode,
  ErrorResponsePayloadWithErrMessage,
  FrameNode,
  GetFileNodesResponse,
  GetFileResponse,
  GetImagesResponse,
  GetMeResponse,
  GetWebhooksResponse,
  Node,
  PostWebhookRequestBody,
  RectangleNode,
  SubcanvasNode,
  WebhookFileUpdatePayload,
  WebhookLibraryPublishPayload,
  WebhookPingPayload,
  WebhookV2,
  WebhookV2Event,
} from '@figma/rest-api-spec'
import { createHash, randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import sharp from 'sharp'
import { startServer, type TestServer } from './http-server.js'

/*
 * A fake of Figma's REST API on 127.0.0.1, answering in Figma's own types (@figma/rest-api-spec):
 * /v1/me, /v1/files/:key (depth, ids), /v1/files/:key/nodes, /v1/images/:key and the rendered images
 * it links to, /v2/webhooks; plus the webhook events Figma posts. Renders are real PNG, JPEG and SVG
 * bytes that depend on the node's subtree (not its name): an edit changes them, nothing else does.
 */

export type FakeFigmaEndpoint = 'me' | 'file' | 'nodes' | 'images' | 'webhooks' | 'download'

export interface FakeFigmaOptions {
  /** Delay before every answer, API calls and image downloads alike (the benchmark uses 50 ms). */
  latencyMs?: number
  /** Rendered image URLs answer 403 this long after the images call made them (Figma's expire). */
  imageUrlTtlMs?: number
  /** An images call with more ids is refused 400 (the client must batch). */
  maxIdsPerImagesCall?: number
  /** A request line (path and query) longer than this is refused 414, as Figma refuses long URLs. */
  maxUrlLength?: number
}

export interface FailOptions {
  /** Sent as `Retry-After` (seconds) with the answer. */
  retryAfterSec?: number
  /** Which requests fail: API calls (default) or image downloads. */
  on?: 'api' | 'download'
}

export interface FakeFigmaUser {
  id: string
  handle: string
  email: string
}

export interface SentEvent {
  webhookId: string
  payload: WebhookFileUpdatePayload | WebhookLibraryPublishPayload | WebhookPingPayload
  status: number
}

export interface FakeFigma {
  /** Use as FIGMA_API_URL. */
  url: string
  /** What an app under test needs to reach the fake. */
  env: { FIGMA_API_URL: string; OUTBOUND_ALLOWLIST: string }
  latencyMs: number
  imageUrlTtlMs: number | null
  /** Requests per endpoint since the start or the last `reset()`. */
  calls: Record<FakeFigmaEndpoint, number>
  /** API calls (every endpoint but image downloads) since the start or the last `reset()`. */
  apiCalls(): number
  /** Every request: method, path with query, and the X-Figma-Token it carried. */
  requests: { method: string; url: string; token: string | undefined }[]
  addToken(token: string, user?: Partial<FakeFigmaUser>): void
  revokeToken(token: string): void
  /** The file with this key, made empty (named after its key) on first use. */
  file(fileKey: string, name?: string): FakeFile
  /** The next `n` requests (API calls unless `on: 'download'`) answer `status` (Figma's error body). */
  failNext(n: number, status: number, options?: FailOptions): void
  /** These nodes render as null in images answers (Figma could not render them). */
  nullRenders(ids: readonly string[]): void
  /** Called with each request's endpoint before it is answered (e.g. to revoke a token mid-import). */
  onRequest: ((endpoint: FakeFigmaEndpoint) => void) | null
  /** Webhooks created through the API and not deleted. */
  webhooks(): WebhookV2[]
  /** The payload Figma would post for the webhook, for tests that deliver it themselves. */
  eventPayload(webhookId: string, options?: EventOptions): SentEvent['payload']
  /**
   * POSTs Figma's payload to the webhook's endpoint (a webhook id, or the one webhook on that file
   * for that event) and resolves with the endpoint's HTTP status.
   */
  sendEvent(target: string | { fileKey: string; eventType: 'FILE_UPDATE' | 'LIBRARY_PUBLISH' }, options?: EventOptions): Promise<number>
  /** Every event sent, with its answer. */
  sent: SentEvent[]
  /**
   * Zeroes the counters, forgets the requests, the events sent and every fault (null renders and
   * `onRequest` included), and puts `latencyMs` and `imageUrlTtlMs` back as started. Tokens, files
   * and webhooks stay.
   */
  reset(): void
  close(): Promise<void>
}

export interface EventOptions {
  /** PING, or the webhook's own event type by default. */
  eventType?: 'PING' | 'FILE_UPDATE' | 'LIBRARY_PUBLISH'
  /** Sent instead of the webhook's passcode (a forged event). */
  passcode?: string
}

export interface FrameOptions {
  /** Children rectangles inside the frame (a nested subtree); 2 by default. */
  children?: number
  /** The frame goes inside this node instead of at the top of the page. */
  parentId?: string
  width?: number
  height?: number
}

export interface FakeFile {
  key: string
  name: string
  /** Figma's version id; it changes with every change to the file. */
  readonly version: string
  /** Returns the page (CANVAS) id. */
  addPage(name: string): string
  /** Returns the frame id. */
  addFrame(pageId: string, name: string, options?: FrameOptions): string
  /** `count` frames named `${prefix} 1`…; returns their ids. */
  addFrames(pageId: string, count: number, prefix?: string): string[]
  /** A component, listed in the file's `components`; returns its id. */
  addComponent(pageId: string, name: string): string
  /** A COMPONENT_SET whose children are COMPONENTs named `variantNames` (`Size=Large, State=Hover`). */
  addComponentSet(pageId: string, name: string, variantNames: readonly string[]): { id: string; variantIds: string[] }
  /** Changes the node's content, and so its rendering and its ancestors'. */
  edit(nodeId: string): void
  rename(nodeId: string, name: string): void
  remove(nodeId: string): void
  node(nodeId: string): Node | undefined
}

const IMAGE_WIDTH = 64
const IMAGE_HEIGHT = 48

export async function startFakeFigma(options: FakeFigmaOptions = {}): Promise<FakeFigma> {
  const maxIds = options.maxIdsPerImagesCall ?? 50
  const maxUrlLength = options.maxUrlLength ?? 2_048
  const tokens = new Map<string, GetMeResponse>()
  const files = new Map<string, FileModel>()
  const renders = new Map<string, Render>()
  const failedRenders = new Set<string>()
  const webhooks = new Map<string, WebhookV2>()
  const faults: { api: Fault[]; download: Fault[] } = { api: [], download: [] }
  let webhookCount = 0

  const fake: FakeFigma = {
    url: '',
    env: { FIGMA_API_URL: '', OUTBOUND_ALLOWLIST: '127.0.0.1' },
    latencyMs: options.latencyMs ?? 0,
    imageUrlTtlMs: options.imageUrlTtlMs ?? null,
    calls: zeroCalls(),
    apiCalls: () => Object.entries(fake.calls).reduce((sum, [endpoint, count]) => (endpoint === 'download' ? sum : sum + count), 0),
    requests: [],
    onRequest: null,
    sent: [],
    addToken(token, user = {}) {
      const id = user.id ?? String(1000 + tokens.size)
      tokens.set(token, { id, handle: user.handle ?? `Designer ${id}`, email: user.email ?? `designer${id}@example.com`, img_url: `https://www.gravatar.com/avatar/${id}` })
    },
    revokeToken: (token) => void tokens.delete(token),
    file(fileKey, name) {
      let file = files.get(fileKey)
      if (!file) {
        file = new FileModel(fileKey, name ?? fileKey)
        files.set(fileKey, file)
      }
      return file.builder
    },
    failNext(n, status, { retryAfterSec, on = 'api' } = {}) {
      for (let i = 0; i < n; i++) faults[on].push({ status, retryAfterSec })
    },
    nullRenders: (ids) => ids.forEach((id) => failedRenders.add(id)),
    webhooks: () => [...webhooks.values()],
    eventPayload(webhookId, eventOptions = {}) {
      const webhook = webhooks.get(webhookId)
      if (!webhook) throw new Error(`no webhook ${webhookId}`)
      return payloadFor(webhook, files.get(webhook.context_id), eventOptions)
    },
    async sendEvent(target, eventOptions = {}) {
      const webhook = typeof target === 'string' ? webhooks.get(target) : findWebhook(target.fileKey, target.eventType)
      if (!webhook) throw new Error(`no webhook for ${JSON.stringify(target)}`)
      const payload = fake.eventPayload(webhook.id, eventOptions)
      const response = await fetch(webhook.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) })
      await response.arrayBuffer()
      fake.sent.push({ webhookId: webhook.id, payload, status: response.status })
      return response.status
    },
    reset() {
      fake.calls = zeroCalls()
      fake.requests.length = 0
      fake.sent.length = 0
      faults.api.length = 0
      faults.download.length = 0
      failedRenders.clear()
      fake.onRequest = null
      fake.latencyMs = options.latencyMs ?? 0
      fake.imageUrlTtlMs = options.imageUrlTtlMs ?? null
    },
    close: () => server.close(),
  }

  function findWebhook(fileKey: string, eventType: WebhookV2Event): WebhookV2 | undefined {
    const matching = [...webhooks.values()].filter((hook) => hook.event_type === eventType && (hook.context !== 'file' || hook.context_id === fileKey))
    if (matching.length > 1) throw new Error(`${matching.length} webhooks match ${fileKey} ${eventType}: pass the webhook id`)
    return matching[0]
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake')
    const token = header(req, 'x-figma-token')
    fake.requests.push({ method: req.method ?? 'GET', url: req.url ?? '', token })
    const body = await readBody(req)
    if (fake.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.latencyMs))

    if (url.pathname.startsWith('/images/')) return serveImage(url.pathname.slice('/images/'.length), res)

    const endpoint = endpointOf(req.method ?? 'GET', url.pathname)
    if (!endpoint) return sendError(res, 404, 'Not found')
    fake.calls[endpoint]++
    fake.onRequest?.(endpoint)
    const fault = faults.api.shift()
    if (fault) return sendFault(res, fault)
    if ((req.url ?? '').length > maxUrlLength) return sendError(res, 414, 'Request-URI Too Large')
    if (!token || !tokens.has(token)) return sendError(res, 403, 'Invalid token')

    if (endpoint === 'me') return sendJson(res, 200, tokens.get(token)!)
    if (endpoint === 'webhooks') return serveWebhooks(req.method ?? 'GET', url, body, res)
    const file = files.get(decodeURIComponent(url.pathname.split('/')[3] ?? ''))
    if (!file) return sendError(res, 404, 'Not found')
    const ids = idsParam(url)
    const depth = url.searchParams.has('depth') ? Number(url.searchParams.get('depth')) : undefined
    if (endpoint === 'file') return sendJson(res, 200, file.fileResponse(depth, ids))
    if (endpoint === 'nodes') {
      if (!ids) return sendError(res, 400, 'Missing ids')
      return sendJson(res, 200, file.nodesResponse(ids, depth))
    }
    return serveImages(file, url, ids, res)
  }

  function serveImages(file: FileModel, url: URL, ids: string[] | undefined, res: ServerResponse): void {
    if (!ids || ids.length === 0) return sendError(res, 400, 'Missing ids')
    if (ids.length > maxIds) return sendError(res, 400, `Too many ids: at most ${maxIds} per request`)
    const format = url.searchParams.get('format') ?? 'png'
    const scale = Number(url.searchParams.get('scale') ?? '1')
    if (!['png', 'jpg', 'svg'].includes(format)) return sendError(res, 400, 'Invalid format')
    if (!(scale >= 0.01 && scale <= 4)) return sendError(res, 400, 'Invalid scale')
    const images: GetImagesResponse['images'] = {}
    for (const id of ids) {
      const node = file.nodes.get(id)
      if (!node || failedRenders.has(id)) {
        images[id] = null
        continue
      }
      const name = `${randomBytes(12).toString('hex')}.${format}`
      renders.set(name, { seed: subtreeSeed(node), format: format as Render['format'], scale, madeAt: Date.now() })
      images[id] = `${fake.url}/images/${name}`
    }
    sendJson(res, 200, { err: null, images } satisfies GetImagesResponse)
  }

  async function serveImage(name: string, res: ServerResponse): Promise<void> {
    fake.calls.download++
    fake.onRequest?.('download')
    const fault = faults.download.shift()
    if (fault) return sendFault(res, fault)
    const render = renders.get(name)
    if (!render) return sendText(res, 404, 'NoSuchKey')
    if (fake.imageUrlTtlMs !== null && Date.now() - render.madeAt >= fake.imageUrlTtlMs) return sendText(res, 403, 'AccessDenied: Request has expired')
    const bytes = await renderBytes(render)
    res.writeHead(200, { 'content-type': render.format === 'svg' ? 'image/svg+xml' : `image/${render.format === 'jpg' ? 'jpeg' : 'png'}`, 'content-length': bytes.length })
    res.end(bytes)
  }

  function serveWebhooks(method: string, url: URL, body: string, res: ServerResponse): void {
    const id = url.pathname.split('/')[3]
    if (method === 'GET') {
      const context = url.searchParams.get('context')
      const contextId = url.searchParams.get('context_id')
      const listed = [...webhooks.values()].filter((hook) => (!context || hook.context === context) && (!contextId || hook.context_id === contextId))
      return sendJson(res, 200, { webhooks: listed } satisfies GetWebhooksResponse)
    }
    if (method === 'DELETE' && id) {
      const webhook = webhooks.get(decodeURIComponent(id))
      if (!webhook) return sendError(res, 404, 'Not found')
      webhooks.delete(webhook.id)
      return sendJson(res, 200, webhook)
    }
    let request: Partial<PostWebhookRequestBody>
    try {
      request = JSON.parse(body) as Partial<PostWebhookRequestBody>
    } catch {
      return sendError(res, 400, 'Invalid JSON')
    }
    const { event_type, context, context_id, endpoint, passcode } = request
    if (!event_type || !context || !context_id || !endpoint || !passcode) return sendError(res, 400, 'Missing required fields')
    if (context === 'file' && !files.has(context_id)) return sendError(res, 404, 'Not found')
    const webhook: WebhookV2 = {
      id: String(++webhookCount),
      event_type,
      team_id: '',
      context,
      context_id,
      plan_api_id: 'organization-1',
      status: request.status ?? 'ACTIVE',
      client_id: null,
      passcode,
      endpoint,
      description: request.description ?? null,
    }
    webhooks.set(webhook.id, webhook)
    sendJson(res, 200, webhook)
  }

  const server: TestServer = await startServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, error instanceof Error ? error.message : String(error))
    })
  })
  fake.url = server.url
  fake.env.FIGMA_API_URL = server.url
  return fake
}

interface Fault {
  status: number
  retryAfterSec: number | undefined
}

interface Render {
  seed: Buffer
  format: 'png' | 'jpg' | 'svg'
  scale: number
  madeAt: number
}

function zeroCalls(): Record<FakeFigmaEndpoint, number> {
  return { me: 0, file: 0, nodes: 0, images: 0, webhooks: 0, download: 0 }
}

function endpointOf(method: string, path: string): Exclude<FakeFigmaEndpoint, 'download'> | null {
  if (method === 'GET' && path === '/v1/me') return 'me'
  if (method === 'GET' && /^\/v1\/files\/[^/]+$/.test(path)) return 'file'
  if (method === 'GET' && /^\/v1\/files\/[^/]+\/nodes$/.test(path)) return 'nodes'
  if (method === 'GET' && /^\/v1\/images\/[^/]+$/.test(path)) return 'images'
  if ((method === 'GET' || method === 'POST') && path === '/v2/webhooks') return 'webhooks'
  if (method === 'DELETE' && /^\/v2\/webhooks\/[^/]+$/.test(path)) return 'webhooks'
  return null
}

function idsParam(url: URL): string[] | undefined {
  const raw = url.searchParams.get('ids')
  return raw === null ? undefined : raw.split(',').filter(Boolean)
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** Figma's error body: `{status, err}`. */
function sendError(res: ServerResponse, status: number, err: string, headers: Record<string, string> = {}): void {
  const text = JSON.stringify({ status, err } satisfies ErrorResponsePayloadWithErrMessage)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
  res.end(text)
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' })
  res.end(text)
}

function sendFault(res: ServerResponse, fault: Fault): void {
  const headers: Record<string, string> = fault.retryAfterSec === undefined ? {} : { 'retry-after': String(fault.retryAfterSec) }
  if (fault.status === 429) headers['x-figma-rate-limit-type'] = 'low'
  sendError(res, fault.status, fault.status === 429 ? 'Rate limit exceeded' : 'Internal server error', headers)
}

/** What a node renders from: its subtree as served, names left out (renaming does not change pixels). */
function subtreeSeed(node: Node): Buffer {
  return createHash('sha512')
    .update(JSON.stringify(node, (key, value: unknown) => (key === 'name' ? undefined : value)))
    .digest()
}

const renderCache = new Map<string, Promise<Buffer>>()

/** The same seed, format and scale always give the same bytes: a 4x4 grid of colours from the seed's 48 first bytes. */
function renderBytes({ seed, format, scale }: Render): Promise<Buffer> {
  const cacheKey = `${seed.toString('hex')}:${format}:${scale}`
  let bytes = renderCache.get(cacheKey)
  if (!bytes) {
    bytes = format === 'svg' ? Promise.resolve(renderSvg(seed)) : renderRaster(seed, format, scale)
    renderCache.set(cacheKey, bytes)
  }
  return bytes
}

function cellColour(seed: Buffer, cell: number): { r: number; g: number; b: number } {
  return { r: seed[cell * 3]!, g: seed[cell * 3 + 1]!, b: seed[cell * 3 + 2]! }
}

function renderRaster(seed: Buffer, format: 'png' | 'jpg', scale: number): Promise<Buffer> {
  const width = Math.max(1, Math.round(IMAGE_WIDTH * scale))
  const height = Math.max(1, Math.round(IMAGE_HEIGHT * scale))
  const pixels = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const { r, g, b } = cellColour(seed, Math.floor((y * 4) / height) * 4 + Math.floor((x * 4) / width))
      pixels.set([r, g, b], (y * width + x) * 3)
    }
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } })
  return (format === 'png' ? image.png() : image.jpeg({ quality: 90 })).toBuffer()
}

function renderSvg(seed: Buffer): Buffer {
  const cells: string[] = []
  for (let cell = 0; cell < 16; cell++) {
    const { r, g, b } = cellColour(seed, cell)
    const hex = [r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')
    cells.push(`<rect x="${(cell % 4) * 16}" y="${Math.floor(cell / 4) * 12}" width="16" height="12" fill="#${hex}"/>`)
  }
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}">${cells.join('')}</svg>`)
}

function payloadFor(webhook: WebhookV2, file: FileModel | undefined, options: EventOptions): SentEvent['payload'] {
  const base = { passcode: options.passcode ?? webhook.passcode, timestamp: new Date().toISOString(), webhook_id: webhook.id }
  const eventType = options.eventType ?? webhook.event_type
  if (eventType === 'PING') return { ...base, event_type: 'PING' }
  const fileKey = file?.key ?? webhook.context_id
  const fileName = file?.name ?? fileKey
  if (eventType === 'FILE_UPDATE') return { ...base, event_type: 'FILE_UPDATE', file_key: fileKey, file_name: fileName }
  if (eventType !== 'LIBRARY_PUBLISH') throw new Error(`the fake sends no ${eventType} events`)
  const components = file ? file.componentItems() : []
  return {
    ...base,
    event_type: 'LIBRARY_PUBLISH',
    file_key: fileKey,
    file_name: fileName,
    created_components: [],
    created_styles: [],
    created_variables: [],
    modified_components: components,
    modified_styles: [],
    modified_variables: [],
    deleted_components: [],
    deleted_styles: [],
    deleted_variables: [],
    description: '',
    library_item: { key: fileKey, name: fileName },
    triggered_by: { id: '1000', handle: 'Designer', img_url: '' },
  }
}

type ParentNode = DocumentNode | CanvasNode | FrameNode | ComponentNode | ComponentSetNode

/** A file as a tree of Figma nodes, with an index by id. */
class FileModel {
  readonly document: DocumentNode
  readonly nodes = new Map<string, Node>()
  readonly parents = new Map<string, ParentNode>()
  readonly builder: FakeFile
  private versionNumber = 1
  private nextId = 1
  private edits = 0
  private lastModified = new Date()

  constructor(
    readonly key: string,
    public name: string,
  ) {
    this.document = { id: '0:0', name: 'Document', type: 'DOCUMENT', scrollBehavior: 'SCROLLS', children: [] }
    this.nodes.set('0:0', this.document)
    const builder: Omit<FakeFile, 'name' | 'version'> = {
      key,
      addPage: (pageName) => this.addPage(pageName),
      addFrame: (pageId, frameName, options) => this.addFrame(pageId, frameName, options),
      addFrames: (pageId, count, prefix = 'Frame') => Array.from({ length: count }, (_, i) => this.addFrame(pageId, `${prefix} ${i + 1}`)),
      addComponent: (pageId, componentName) => this.addComponent(pageId, componentName),
      addComponentSet: (pageId, setName, variantNames) => this.addComponentSet(pageId, setName, variantNames),
      edit: (nodeId) => this.edit(nodeId),
      rename: (nodeId, newName) => {
        this.existing(nodeId).name = newName
        this.touch()
      },
      remove: (nodeId) => this.remove(nodeId),
      node: (nodeId) => this.nodes.get(nodeId),
    }
    this.builder = Object.defineProperties(builder as FakeFile, {
      name: {
        get: () => this.name,
        set: (value: string) => {
          this.name = value
          this.touch()
        },
        enumerable: true,
      },
      version: { get: () => String(this.versionNumber), enumerable: true },
    })
  }

  fileResponse(depth: number | undefined, ids: string[] | undefined): GetFileResponse {
    const wanted = ids ? this.withAncestors(ids) : undefined
    return {
      ...this.header(),
      thumbnailUrl: `https://s3-alpha.figma.com/thumbnails/${this.key}`,
      document: prune(this.document, depth, wanted) as DocumentNode,
      components: this.components(),
      componentSets: this.componentSets(),
      schemaVersion: 0,
      styles: {},
    }
  }

  nodesResponse(ids: string[], depth: number | undefined): GetFileNodesResponse {
    const nodes: GetFileNodesResponse['nodes'] = {}
    for (const id of ids) {
      const node = this.nodes.get(id)
      const inside = node ? new Set(collectIds(node)) : new Set<string>()
      // Figma answers null for an id the file does not have; the published types do not say so.
      nodes[id] = (node
        ? {
            document: prune(node, depth, undefined),
            components: pick(this.components(), inside),
            componentSets: pick(this.componentSets(), inside),
            schemaVersion: 0,
            styles: {},
          }
        : null) as GetFileNodesResponse['nodes'][string]
    }
    return { ...this.header(), thumbnailUrl: `https://s3-alpha.figma.com/thumbnails/${this.key}`, nodes }
  }

  componentItems(): { key: string; name: string }[] {
    return Object.values(this.components()).map(({ key, name }) => ({ key, name }))
  }

  private header() {
    return { name: this.name, role: 'owner' as const, lastModified: this.lastModified.toISOString(), editorType: 'figma' as const, version: String(this.versionNumber) }
  }

  private components(): Record<string, Component> {
    const components: Record<string, Component> = {}
    for (const node of this.nodes.values()) {
      if (node.type !== 'COMPONENT') continue
      const parent = this.parents.get(node.id)
      components[node.id] = {
        key: componentKey(this.key, node.id),
        name: node.name,
        description: '',
        ...(parent?.type === 'COMPONENT_SET' ? { componentSetId: parent.id } : {}),
        documentationLinks: [],
        remote: false,
      }
    }
    return components
  }

  private componentSets(): Record<string, ComponentSet> {
    const sets: Record<string, ComponentSet> = {}
    for (const node of this.nodes.values()) {
      if (node.type === 'COMPONENT_SET') sets[node.id] = { key: componentKey(this.key, node.id), name: node.name, description: '', documentationLinks: [], remote: false }
    }
    return sets
  }

  private addPage(name: string): string {
    const page: CanvasNode = {
      id: `0:${this.nextId++}`,
      name,
      type: 'CANVAS',
      scrollBehavior: 'SCROLLS',
      children: [],
      backgroundColor: { r: 0.96, g: 0.96, b: 0.96, a: 1 },
      prototypeStartNodeID: null,
      flowStartingPoints: [],
      prototypeDevice: { type: 'NONE', rotation: 'NONE' },
    }
    this.attach(this.document, page)
    return page.id
  }

  private addFrame(pageId: string, name: string, options: FrameOptions = {}): string {
    const frame: FrameNode = { ...this.box('FRAME', name, options.width ?? 640, options.height ?? 480), type: 'FRAME' }
    this.attach(this.container(options.parentId ?? pageId), frame)
    for (let i = 0; i < (options.children ?? 2); i++) this.attach(frame, this.rectangle(frame, `Shape ${i + 1}`))
    return frame.id
  }

  private addComponent(pageId: string, name: string, parentId?: string): string {
    const component: ComponentNode = { ...this.box('COMPONENT', name, 120, 40), type: 'COMPONENT' }
    this.attach(this.container(parentId ?? pageId), component)
    this.attach(component, this.rectangle(component, 'Background'))
    return component.id
  }

  private addComponentSet(pageId: string, name: string, variantNames: readonly string[]) {
    const set: ComponentSetNode = { ...this.box('COMPONENT_SET', name, 400, 200), type: 'COMPONENT_SET' }
    this.attach(this.container(pageId), set)
    return { id: set.id, variantIds: variantNames.map((variant) => this.addComponent(pageId, variant, set.id)) }
  }

  /** A new fill colour on the node: its subtree, and so its rendering and its ancestors', change. */
  private edit(nodeId: string): void {
    const node = this.existing(nodeId)
    if (!('fills' in node)) throw new Error(`${nodeId} has no fills to edit`)
    this.edits++
    node.fills = [solid(this.edits)]
    this.touch()
  }

  private remove(nodeId: string): void {
    const node = this.existing(nodeId)
    const parent = this.parents.get(nodeId)
    if (!parent) throw new Error('the document cannot be removed')
    ;(parent.children as Node[]).splice((parent.children as Node[]).indexOf(node), 1)
    for (const id of collectIds(node)) {
      this.nodes.delete(id)
      this.parents.delete(id)
    }
    this.touch()
  }

  private box(type: string, name: string, width: number, height: number) {
    const id = `1:${this.nextId++}`
    const bounds = { x: (this.nextId % 40) * 700, y: Math.floor(this.nextId / 40) * 600, width, height }
    return {
      id,
      name,
      type,
      scrollBehavior: 'SCROLLS' as const,
      blendMode: 'PASS_THROUGH' as const,
      children: [] as SubcanvasNode[],
      absoluteBoundingBox: bounds,
      absoluteRenderBounds: bounds,
      clipsContent: true,
      fills: [solid(0)],
      strokes: [],
      effects: [],
    }
  }

  private rectangle(parent: FrameNode | ComponentNode, name: string): RectangleNode {
    const { children: _children, clipsContent: _clips, ...shape } = this.box('RECTANGLE', name, 24, 24)
    const box = parent.absoluteBoundingBox!
    const bounds = { ...shape.absoluteBoundingBox, x: box.x + 8 * parent.children.length, y: box.y + 8 }
    return { ...shape, type: 'RECTANGLE', blendMode: 'NORMAL', absoluteBoundingBox: bounds, absoluteRenderBounds: bounds, fills: [solid(parent.children.length + 1)] }
  }

  private attach(parent: ParentNode, child: Node): void {
    ;(parent.children as Node[]).push(child)
    this.nodes.set(child.id, child)
    this.parents.set(child.id, parent)
    this.touch()
  }

  private container(id: string): ParentNode {
    const node = this.existing(id)
    if (!('children' in node)) throw new Error(`${id} cannot hold children`)
    return node as ParentNode
  }

  private existing(id: string): Node {
    const node = this.nodes.get(id)
    if (!node) throw new Error(`the file ${this.key} has no node ${id}`)
    return node
  }

  /** The ids and every node between them and the document: what `ids=` keeps of the tree. */
  private withAncestors(ids: string[]): Set<string> {
    const kept = new Set<string>()
    for (const id of ids) {
      if (!this.nodes.has(id)) continue
      for (const inside of collectIds(this.nodes.get(id)!)) kept.add(inside)
      for (let parent = this.parents.get(id); parent; parent = this.parents.get(parent.id)) kept.add(parent.id)
    }
    return kept
  }

  private touch(): void {
    this.versionNumber++
    this.lastModified = new Date()
  }
}

function solid(variant: number) {
  const shade = (n: number) => ((variant * n) % 251) / 250
  return { type: 'SOLID' as const, blendMode: 'NORMAL' as const, color: { r: shade(37), g: shade(91), b: shade(53), a: 1 } }
}

function componentKey(fileKey: string, nodeId: string): string {
  return createHash('sha1').update(`${fileKey}:${nodeId}`).digest('hex')
}

function collectIds(node: Node): string[] {
  const ids = [node.id]
  if ('children' in node) for (const child of node.children as Node[]) ids.push(...collectIds(child))
  return ids
}

function pick<T>(record: Record<string, T>, ids: Set<string>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([id]) => ids.has(id)))
}

/**
 * A copy of the tree as `depth` and `ids` leave it: nodes `depth` levels below `node` keep no
 * `children` (as Figma cuts them), and with `wanted` only those nodes are kept.
 */
function prune(node: Node, depth: number | undefined, wanted: Set<string> | undefined): Node {
  if (!('children' in node)) return structuredClone(node)
  const { children, ...rest } = node
  if (depth === 0) return structuredClone(rest) as Node
  const kept = (children as Node[]).filter((child) => !wanted || wanted.has(child.id))
  return { ...structuredClone(rest), children: kept.map((child) => prune(child, depth === undefined ? undefined : depth - 1, wanted)) } as Node
}
