import { PassThrough, type Readable } from 'node:stream'
import { ZipFile } from 'yazl'

/** One original in a share's zip: its entry name, its size as recorded, and how to open its bytes. */
export interface ZipEntry {
  name: string
  byteSize: number
  modifiedAt: Date
  open: () => Promise<Readable>
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
 * bounded and nothing is written to disk. `size` is the zip's exact length, known before any byte.
 * A file that cannot be opened, or whose length differs from its record, ends the stream with an error;
 * a reader that goes away closes the file being read.
 */
export function zipOf(entries: ZipEntry[]): { size: number; stream: Readable } {
  const zip = new ZipFile()
  const stream = new PassThrough()
  let reading: Readable | undefined
  zip.on('error', (error: Error) => stream.destroy(error))
  stream.on('close', () => reading?.destroy())
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { size: entry.byteSize, compress: false, mtime: entry.modifiedAt }, (done) => {
      entry.open().then(
        (body) => {
          if (stream.destroyed) body.destroy()
          else done(null, (reading = body))
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
  return { size, stream }
}
