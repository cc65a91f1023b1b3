import { writeFile } from 'node:fs/promises'
import type { NodeAssetLibraryClient } from '../node.js'
import type { RenderQuery, RenditionLink } from '../types.js'
import { FatalError, UsageError, wholeNumber } from './usage.js'

export interface GetValues {
  preset?: string | undefined
  width?: string | undefined
  height?: string | undefined
  fit?: string | undefined
  format?: string | undefined
  quality?: string | undefined
  output?: string | undefined
  json?: boolean | undefined
}

/** Attempts at a file the server is too busy to make (503 with `Retry-After`), the first included. */
const BUSY_ATTEMPTS = 5
/** The longest wait a `Retry-After` is followed for. */
const MAX_WAIT_SECONDS = 30

/** What `get` asks the render endpoint for: a preset, a size and format, or (neither) the original. */
export function renderQuery(values: GetValues): RenderQuery {
  const sized = values.width !== undefined || values.height !== undefined || values.fit !== undefined || values.format !== undefined || values.quality !== undefined
  if (values.preset !== undefined && sized) throw new UsageError('--preset sets the size and format: give it alone, or --width/--height/--fit/--format/--quality without it')
  if (values.preset !== undefined) return { preset: values.preset }
  if (!sized) return { preset: 'original' }
  return {
    ...(values.width !== undefined && { width: wholeNumber('width', values.width, 1) }),
    ...(values.height !== undefined && { height: wholeNumber('height', values.height, 1) }),
    ...(values.fit !== undefined && { fit: values.fit as RenderQuery['fit'] }),
    ...(values.format !== undefined && { format: values.format as RenderQuery['format'] }),
    ...(values.quality !== undefined && { quality: wholeNumber('quality', values.quality, 1, 100) }),
  }
}

/**
 * `get <id> -o FILE`: asks for the rendition's link, downloads its file (made on the server on first
 * request; a busy server's 503 is waited out, as its `Retry-After` says) and writes it to FILE (`-` is
 * stdout). Says what it wrote on stderr, or as one JSON line on stdout with --json.
 */
export async function getAsset(client: NodeAssetLibraryClient, id: string, values: GetValues): Promise<void> {
  if (values.output === undefined) throw new UsageError('get needs -o FILE (or -o - for stdout)')
  const link = await client.assets.render(id, renderQuery(values))
  const bytes = await download(link)
  if (values.output === '-') process.stdout.write(bytes)
  else await writeFile(values.output, bytes)
  const summary = { id, file: values.output, width: link.width, height: link.height, format: link.format, bytes: bytes.length }
  if (values.json && values.output !== '-') process.stdout.write(`${JSON.stringify(summary)}\n`)
  else process.stderr.write(`saved      ${values.output} (${link.width}x${link.height} ${link.format}, ${bytes.length} bytes)\n`)
}

async function download(link: RenditionLink): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(link.url)
    if (response.ok) return Buffer.from(await response.arrayBuffer())
    const wait = Number(response.headers.get('retry-after'))
    await response.body?.cancel()
    if (response.status !== 503 || attempt >= BUSY_ATTEMPTS || !(wait >= 0 && wait <= MAX_WAIT_SECONDS)) {
      throw new FatalError(`the file could not be downloaded: ${response.status} ${response.statusText}`)
    }
    await new Promise((resolve) => setTimeout(resolve, wait * 1000))
  }
}
