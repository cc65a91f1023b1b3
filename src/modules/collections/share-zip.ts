import { PassThrough, Transform, type Readable } from 'node:stream'
import { ZipFile } from 'yazl'

/**
 * One file in a share's zip: its entry name, its size when known before it is read (an original's, as
 * recorded; a rendition's is not), and how to open its bytes. `open` may wait (its turn to render):
 * `signal` is aborted when the reader goes away.
 */
export interface ZipEntry {
  name: string
  byteSize: number | null
  modifiedAt: Date
  open: (signal: AbortSignal) => Promise<Readable>
}

/** A zip past `maxBytes` while it streams: only a zip whose size is not known up front can meet this. */
export class ZipTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the zip passed ${maxBytes} bytes while it was streamed`)
    this.name = 'ZipTooLargeError'
  }
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
}
/** Characters that some file systems refuse in a name, and control characters. */
const UNSAFE = /[\\/:*?"<>|\p{Cc}]+/gu
const MAX_STEM = 100

/** A file name for an asset's original: its title made safe for a file system, and the extension of its type. */
export function fileNameOf(title: string, mimeType: string): string {
  return `${safeStem(title)}.${EXTENSIONS[mimeType] ?? 'bin'}`
}

/** The zip's own file name, after the collection. */
export const zipNameOf = (collectionName: string) => `${safeStem(collectionName)}.zip`

function safeStem(text: string): string {
  return text.replace(UNSAFE, '-').replace(/\s+/g, ' ').trim().replace(/^\.+/, '').slice(0, MAX_STEM).trim() || 'untitled'
}

/**
 * The same names, each unique without regard to case (the file systems of macOS and Windows ignore
 * it): a repeated name gets " (2)", " (3)"… before its extension.
 */
export function uniqueNames(names: string[]): string[] {
  const taken = new Set<string>()
  return names.map((name) => {
    const dot = name.lastIndexOf('.')
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
    let candidate = name
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`
    taken.add(candidate.toLowerCase())
    return candidate
  })
}

/**
 * The zip of `entries`, produced as it is read: stored, not deflated (images are compressed already),
 * each file opened only when its turn comes and piped through with backpressure, so memory stays
 * bounded and nothing is written to disk. `size` is the zip's exact length, known before any byte when
 * every entry's size is; null otherwise (the entries then carry their sizes after their bytes, and the
 * files' bytes are counted as they pass: past `maxBytes` the stream ends with `ZipTooLargeError`).
 * A file that cannot be opened, or whose length differs from its record, ends the stream with an error;
 * a reader that goes away closes the file being read and aborts an `open` that waits.
 */
export function zipOf(entries: ZipEntry[], maxBytes = Infinity): { size: number | null; stream: Readable } {
  const zip = new ZipFile()
  const stream = new PassThrough()
  const gone = new AbortController()
  let reading: Readable | undefined
  let counted = 0
  zip.on('error', (error: Error) => stream.destroy(error))
  stream.on('close', () => {
    gone.abort()
    reading?.destroy()
  })
  const withinCap = (body: Readable): Readable => {
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        counted += chunk.length
        next(counted > maxBytes ? new ZipTooLargeError(maxBytes) : null, chunk)
      },
    })
    body.on('error', (error) => counter.destroy(error))
    counter.on('close', () => body.destroy())
    return body.pipe(counter)
  }
  for (const entry of entries) {
    const options = { compress: false, mtime: entry.modifiedAt, ...(entry.byteSize !== null && { size: entry.byteSize }) }
    zip.addReadStreamLazy(entry.name, options, (done) => {
      entry.open(gone.signal).then(
        (body) => {
          if (stream.destroyed) body.destroy()
          else {
            reading = entry.byteSize === null ? withinCap(body) : body
            // yazl does not listen for a lazy entry's errors: a file that fails mid-way ends the zip.
            reading.on('error', (error) => stream.destroy(error))
            done(null, reading)
          }
        },
        (error: unknown) => done(error, undefined as never),
      )
    })
  }
  let size = -1
  zip.end(undefined, ((total: number) => {
    size = total
  }) as () => void)
  zip.outputStream.pipe(stream)
  return { size: size === -1 ? null : size, stream }
}
