/**
 * `@asset-library/client/node`: the client of the main entry, whose `assets.push` also takes a file's
 * path (or a `file:` URL) and a Node stream. A file is read again for each attempt, so a push of a path is
 * retried like one of bytes (and sends the file as it is at that attempt). It is read whole (at most the
 * API's 25 MiB, per push in flight): sending a file-backed Blob cost the command line about a third more
 * CPU per 1 MiB image, in the reads and stat calls of Node's chunked Blob reader and their garbage.
 */
import { open, readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { clientWith, type AssetLibraryClient } from './client.js'
import { MAX_IMAGE_BYTES, resolveSource, type PushSource, type ResolvedSource } from './push.js'
import type { ClientOptions } from './transport.js'

export * from './index.js'

/** What `assets.push` takes in Node: everything the main entry takes, a file path, or a Node Readable. */
export type NodePushSource = PushSource | string | Readable

export type NodeAssetLibraryClient = AssetLibraryClient<NodePushSource>

/** A client for the service at `baseUrl` whose `assets.push` also takes file paths and Node streams. */
export function createClient(options: ClientOptions): NodeAssetLibraryClient {
  return clientWith(options, resolveNodeSource)
}

async function resolveNodeSource(source: NodePushSource): Promise<ResolvedSource> {
  if (typeof source === 'string') return fileSource(source)
  if (source instanceof URL && source.protocol === 'file:') return fileSource(fileURLToPath(source))
  if (source instanceof Readable) return resolveSource(Readable.toWeb(source) as ReadableStream<Uint8Array>)
  return resolveSource(source)
}

async function fileSource(path: string): Promise<ResolvedSource> {
  // Opened now, so a missing or unreadable file fails here, with its own error (ENOENT, EACCES, EISDIR), before any request.
  const handle = await open(path)
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw Object.assign(new Error(`EISDIR: not a file, push '${path}'`), { code: 'EISDIR', path })
    if (stats.size > MAX_IMAGE_BYTES) throw new RangeError(`${path} is larger than ${MAX_IMAGE_BYTES} bytes, the API's limit`)
  } finally {
    await handle.close()
  }
  return { open: () => readFile(path), name: basename(path) }
}
