import type { CanvasNode, FrameNode } from '@figma/rest-api-spec'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FigmaError, type FigmaApi, type FigmaFailure } from '../../src/modules/imports/figma-api.js'
import { createFigmaApi, MAX_URL_LENGTH } from '../../src/modules/imports/figma-client.js'
import { createSafeFetcher, type SafeFetcher } from '../../src/platform/net/safe-fetch.js'
import { startFakeFigma, type FakeFigma } from '../support/fake-figma.js'
import { startServer } from '../support/http-server.js'

const TOKEN = 'figd_test-token-0123456789abcdef'
const FILE_KEY = 'AbCdEf1234567890'

let fake: FakeFigma
let fetcher: SafeFetcher
const apis: FigmaApi[] = []

beforeAll(async () => {
  fake = await startFakeFigma()
  fetcher = createSafeFetcher({ allowlist: ['127.0.0.1'] })
})

afterAll(async () => {
  await fetcher.close()
  await fake.close()
})

afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()))
  fake.reset()
  fake.addToken(TOKEN, { id: '42', handle: 'Ada', email: 'ada@example.com' })
})

function session(options: { maxRetryWaitMs?: number; requestTimeoutMs?: number; apiUrl?: string; token?: string; signal?: AbortSignal } = {}) {
  const api = createFigmaApi({ fetcher, apiUrl: options.apiUrl ?? fake.url, requestTimeoutMs: options.requestTimeoutMs ?? 2_000, maxRetryWaitMs: options.maxRetryWaitMs ?? 3_000 })
  apis.push(api)
  return api.session(options.token ?? TOKEN, options.signal)
}

async function failure(promise: Promise<unknown>): Promise<FigmaError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(FigmaError)
  expect((error as Error).message).not.toContain(TOKEN)
  return error as FigmaError
}

async function expectFailure(promise: Promise<unknown>, failure_: FigmaFailure): Promise<FigmaError> {
  const error = await failure(promise)
  expect(error.failure).toBe(failure_)
  return error
}

/** A file with a page of frames, a page of components and a component set. */
function brandFile(frames = 3) {
  const file = fake.file(FILE_KEY, 'Brand kit')
  const page = file.addPage('Marketing')
  const frameIds = file.addFrames(page, frames, 'Banner')
  const library = file.addPage('Library')
  const button = file.addComponent(library, 'Logo')
  const set = file.addComponentSet(library, 'Button', ['Size=Large, State=Hover', 'Size=Small, State=Default'])
  return { file, page, frameIds, library, button, set }
}

let brand: ReturnType<typeof brandFile>
beforeAll(() => {
  fake.addToken(TOKEN, { id: '42', handle: 'Ada', email: 'ada@example.com' })
  brand = brandFile()
})

describe('Figma client against the fake Figma', () => {
  it('reads whose token it is, sending it as X-Figma-Token', async () => {
    const figma = session()
    await expect(figma.me()).resolves.toMatchObject({ id: '42', handle: 'Ada', email: 'ada@example.com' })
    expect(fake.requests.map((request) => [request.url, request.token])).toEqual([['/v1/me', TOKEN]])
    expect(figma.stats).toEqual({ apiCalls: 1, downloads: 0, retries: 0, waitedMs: 0 })
  })

  it('reads a file to the depth asked, or narrowed to some nodes', async () => {
    const figma = session()
    const pagesOnly = await figma.file(FILE_KEY, { depth: 1 })
    expect(pagesOnly).toMatchObject({ name: 'Brand kit', version: brand.file.version, editorType: 'figma' })
    expect(pagesOnly.document.children.map((page) => [page.name, 'children' in page])).toEqual([
      ['Marketing', false],
      ['Library', false],
    ])
    const topLevel = await figma.file(FILE_KEY, { depth: 2 })
    const marketing = topLevel.document.children[0] as CanvasNode
    expect(marketing.children.map((frame) => [frame.id, frame.name, frame.type, 'children' in frame])).toEqual(brand.frameIds.map((id, i) => [id, `Banner ${i + 1}`, 'FRAME', false]))

    const whole = await figma.file(FILE_KEY)
    expect(((whole.document.children[0] as CanvasNode).children[0] as FrameNode).children).toHaveLength(2)
    expect(Object.values(whole.componentSets).map((set) => set.name)).toEqual(['Button'])
    expect(Object.entries(whole.components).filter(([, component]) => component.componentSetId === brand.set.id).map(([id, component]) => [id, component.name])).toEqual(
      brand.set.variantIds.map((id, i) => [id, ['Size=Large, State=Hover', 'Size=Small, State=Default'][i]]),
    )

    const narrowed = await figma.file(FILE_KEY, { ids: [brand.frameIds[1]!] })
    expect(narrowed.document.children.map((page) => page.name)).toEqual(['Marketing'])
    expect((narrowed.document.children[0] as CanvasNode).children.map((frame) => frame.id)).toEqual([brand.frameIds[1]])
  })

  it('reads nodes in batches whose URLs stay within Figma\u2019s limit, merged; an unknown id is null', async () => {
    const file = fake.file('NodesFile0000001')
    const page = file.addPage('Many')
    const ids = file.addFrames(page, 400, 'Tile')
    const figma = session()
    const answer = await figma.fileNodes('NodesFile0000001', [...ids, '99:99'], { depth: 1 })
    expect(fake.calls.nodes).toBeGreaterThan(1)
    expect(Math.max(...fake.requests.map((request) => request.url.length + fake.url.length))).toBeLessThanOrEqual(MAX_URL_LENGTH)
    expect(Object.keys(answer.nodes)).toHaveLength(401)
    expect(answer.nodes['99:99']).toBeNull()
    expect(answer.nodes[ids[399]!]!.document).toMatchObject({ id: ids[399], name: 'Tile 400', type: 'FRAME' })
    expect((answer.nodes[ids[0]!]!.document as FrameNode).children.map((child) => 'children' in child)).toEqual([false, false])
  })

  it('asks for renders in batches of at most 50 ids, and every id asked for is in the map', async () => {
    const file = fake.file('ImagesFile000001')
    const page = file.addPage('Many')
    const ids = file.addFrames(page, 120, 'Tile')
    const figma = session()
    const urls = await figma.imageUrls('ImagesFile000001', [...ids, '77:77'], { format: 'png', scale: 1 })
    expect(fake.calls.images).toBe(3)
    expect([...urls.keys()]).toEqual([...ids, '77:77'])
    expect(urls.get('77:77')).toBeNull()
    expect(ids.every((id) => typeof urls.get(id) === 'string')).toBe(true)
  })

  it('splits renders by URL length too: long instance ids in one batch of 50 would pass Figma\u2019s limit', async () => {
    const longIds = Array.from({ length: 50 }, (_, i) => `I${i}:1;${i}:22222;${i}:33333;${i}:44444`)
    const figma = session()
    const urls = await figma.imageUrls(FILE_KEY, longIds, { format: 'svg', scale: 1 })
    expect(fake.calls.images).toBeGreaterThan(1)
    expect(Math.max(...fake.requests.map((request) => request.url.length + fake.url.length))).toBeLessThanOrEqual(MAX_URL_LENGTH)
    expect([...urls.entries()]).toEqual(longIds.map((id) => [id, null]))
  })

  it('downloads real renders without the token: an edit changes the bytes, an untouched node renders the same', async () => {
    const file = fake.file('RenderFile000001')
    const page = file.addPage('Page')
    const [first, second] = file.addFrames(page, 2)
    const figma = session()
    const render = async (format: 'png' | 'jpg' | 'svg', scale = 1) => {
      const urls = await figma.imageUrls('RenderFile000001', [first!, second!], { format, scale })
      return Promise.all([first!, second!].map((id) => figma.download(urls.get(id)!, 1024 * 1024)))
    }
    const [png1, png2] = await render('png')
    expect(await sharp(png1!).metadata()).toMatchObject({ format: 'png', width: 64, height: 48 })
    expect(png1!.equals(png2!)).toBe(false)
    expect(await sharp((await render('jpg', 2))[0]).metadata()).toMatchObject({ format: 'jpeg', width: 128, height: 96 })
    const [svg] = await render('svg')
    expect(svg!.toString()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>(<rect [^>]*\/>)+<\/svg>$/)

    file.rename(first!, 'Renamed')
    file.edit(second!)
    const [png1Again, png2Edited] = await render('png')
    expect(png1Again!.equals(png1!)).toBe(true)
    expect(png2Edited!.equals(png2!)).toBe(false)

    const downloads = fake.requests.filter((request) => request.url.startsWith('/images/'))
    expect(downloads.length).toBe(8)
    expect(downloads.every((request) => request.token === undefined)).toBe(true)
    expect(figma.stats).toMatchObject({ downloads: 8, retries: 0 })
  })

  it('waits out a 429\u2019s Retry-After, then goes on', async () => {
    fake.failNext(1, 429, { retryAfterSec: 1 })
    const figma = session()
    const started = performance.now()
    await expect(figma.me()).resolves.toMatchObject({ id: '42' })
    expect(performance.now() - started).toBeGreaterThanOrEqual(990)
    expect(figma.stats).toEqual({ apiCalls: 2, downloads: 0, retries: 1, waitedMs: 1000 })
  })

  it('fails figma_unavailable at once when a 429 storm asks for more than the budget left', async () => {
    fake.failNext(10, 429, { retryAfterSec: 1 })
    const figma = session({ maxRetryWaitMs: 1_500 })
    const started = performance.now()
    const error = await expectFailure(figma.file(FILE_KEY), 'figma_unavailable')
    expect(error.message).toMatch(/429/)
    expect(performance.now() - started).toBeLessThan(1_450)
    expect(fake.calls.file).toBe(2)
    expect(figma.stats).toMatchObject({ apiCalls: 2, retries: 1, waitedMs: 1000 })
  })

  it('retries a 500 after a backoff of about a second', async () => {
    fake.failNext(1, 500)
    const figma = session()
    await expect(figma.file(FILE_KEY, { depth: 1 })).resolves.toMatchObject({ name: 'Brand kit' })
    expect(figma.stats.retries).toBe(1)
    expect(figma.stats.waitedMs).toBeGreaterThanOrEqual(800)
    expect(figma.stats.waitedMs).toBeLessThanOrEqual(1200)
  })

  it('gives up on 5xx once the budget is spent, cutting the last backoff to what is left', async () => {
    fake.failNext(10, 503)
    const figma = session({ maxRetryWaitMs: 300 })
    await expectFailure(figma.me(), 'figma_unavailable')
    expect(figma.stats).toMatchObject({ apiCalls: 2, retries: 1, waitedMs: 300 })
  })

  it('treats a request that times out like a network failure: retried, then figma_unavailable', async () => {
    fake.latencyMs = 500
    const figma = session({ requestTimeoutMs: 100, maxRetryWaitMs: 0 })
    await expectFailure(figma.me(), 'figma_unavailable')
    expect(figma.stats.apiCalls).toBe(1)
  })

  it('reports a refused, unknown or revoked token as figma_token_invalid, never showing it', async () => {
    await expectFailure(session({ token: 'figd_unknown-token' }).me(), 'figma_token_invalid')
    fake.addToken('figd_short-lived')
    const figma = session({ token: 'figd_short-lived' })
    await figma.me()
    fake.revokeToken('figd_short-lived')
    const error = await expectFailure(figma.file(FILE_KEY), 'figma_token_invalid')
    expect(error.message).not.toContain('figd_short-lived')
  })

  it('reports a file Figma does not have as figma_file_not_found, from the file, nodes and images calls', async () => {
    const figma = session()
    await expectFailure(figma.file('NoSuchFile000000'), 'figma_file_not_found')
    await expectFailure(figma.fileNodes('NoSuchFile000000', ['1:2']), 'figma_file_not_found')
    await expectFailure(figma.imageUrls('NoSuchFile000000', ['1:2'], { format: 'png', scale: 1 }), 'figma_file_not_found')
  })

  it('gives null for a node Figma could not render', async () => {
    fake.nullRenders([brand.frameIds[0]!])
    const urls = await session().imageUrls(FILE_KEY, brand.frameIds, { format: 'png', scale: 1 })
    expect(urls.get(brand.frameIds[0]!)).toBeNull()
    expect(typeof urls.get(brand.frameIds[1]!)).toBe('string')
  })

  it('reports an expired image URL as render_expired and a large one as image_too_large', async () => {
    const figma = session()
    const url = (await figma.imageUrls(FILE_KEY, [brand.frameIds[1]!], { format: 'png', scale: 4 })).get(brand.frameIds[1]!)!
    await expectFailure(figma.download(url, 100), 'image_too_large')
    fake.imageUrlTtlMs = 0
    await expectFailure(figma.download(url, 1024 * 1024), 'render_expired')
    await expectFailure(figma.download(`${fake.url}/images/never-made.png`, 1024 * 1024), 'render_expired')
  })

  it('retries a download that fails with a 5xx', async () => {
    const figma = session({ maxRetryWaitMs: 2_000 })
    const url = (await figma.imageUrls(FILE_KEY, [brand.frameIds[2]!], { format: 'png', scale: 1 })).get(brand.frameIds[2]!)!
    fake.failNext(1, 502, { on: 'download' })
    expect((await sharp(await figma.download(url, 1024 * 1024)).metadata()).format).toBe('png')
    expect(figma.stats).toMatchObject({ downloads: 2, retries: 1 })
  })

  it('stops waiting the moment the session is aborted', async () => {
    fake.failNext(1, 429, { retryAfterSec: 60 })
    const controller = new AbortController()
    const figma = session({ maxRetryWaitMs: 120_000, signal: controller.signal })
    const call = figma.me()
    await expect.poll(() => figma.stats.retries).toBe(1)
    controller.abort(new Error('import cancelled'))
    await expect(call).rejects.toThrow('import cancelled')
  })

  it('reports what Figma does not document as figma_bad_response', async () => {
    const odd = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      if (req.url?.startsWith('/v1/images/')) res.end(JSON.stringify({ err: 'Render timeout', status: 400, images: {} }))
      else if (req.url?.startsWith('/v1/files/')) res.end(JSON.stringify({ name: 'No document' }))
      else res.end('<html>not json</html>')
    })
    try {
      const figma = session({ apiUrl: odd.url })
      await expectFailure(figma.me(), 'figma_bad_response')
      await expectFailure(figma.file(FILE_KEY), 'figma_bad_response')
      const error = await expectFailure(figma.imageUrls(FILE_KEY, ['1:2'], { format: 'png', scale: 1 }), 'figma_bad_response')
      expect(error.message).toContain('Render timeout')
    } finally {
      await odd.close()
    }
  })

  it('creates and deletes webhooks; the fake posts Figma\u2019s payload with the passcode', async () => {
    const received: string[] = []
    const receiver = await startServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        received.push(Buffer.concat(chunks).toString())
        res.end()
      })
    })
    try {
      const figma = session()
      const webhook = await figma.createWebhook({ event_type: 'FILE_UPDATE', context: 'file', context_id: FILE_KEY, endpoint: `${receiver.url}/hooks/figma/acme`, passcode: 'pass-1234', description: 'Asset Library' })
      expect(webhook).toMatchObject({ event_type: 'FILE_UPDATE', context: 'file', context_id: FILE_KEY, status: 'ACTIVE', endpoint: `${receiver.url}/hooks/figma/acme` })
      await expect(fake.sendEvent({ fileKey: FILE_KEY, eventType: 'FILE_UPDATE' })).resolves.toBe(200)
      expect(JSON.parse(received[0]!)).toMatchObject({ event_type: 'FILE_UPDATE', passcode: 'pass-1234', file_key: FILE_KEY, file_name: 'Brand kit', webhook_id: webhook.id })
      expect(receiver.hits).toEqual(['/hooks/figma/acme'])

      await figma.deleteWebhook(webhook.id)
      expect(fake.webhooks()).toEqual([])
      await figma.deleteWebhook(webhook.id)
      expect(fake.requests.filter((request) => request.method === 'DELETE')).toHaveLength(2)
    } finally {
      await receiver.close()
    }
  })
})
