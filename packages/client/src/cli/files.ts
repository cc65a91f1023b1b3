import { createHash } from 'node:crypto'
import type { Stats } from 'node:fs'
import { open, readdir, realpath, stat } from 'node:fs/promises'
import { basename, join, relative, sep } from 'node:path'
import picomatch from 'picomatch'
import { MAX_IMAGE_BYTES } from '../push.js'
import { UsageError } from './usage.js'

/**
 * A path the walk found: a regular file (after following links), or a reason it cannot be one. A file's
 * `relative` is its path from the folder of its argument (the folder itself, a glob's base, a file's own
 * folder), with `/` between names on every system.
 */
export type Found = { path: string; stats: Stats; relative: string } | { path: string; skipped: string } | { path: string; failed: string }

/**
 * Every file under the arguments: a file as it is, a folder recursively, a glob (`photos/**\/*.jpg`,
 * quoted so the shell leaves it) by walking the folder before its first wildcard. Links are followed;
 * a folder reached again (a link to a parent, say) is walked once, so a loop ends. `ignore` globs match
 * the path relative to the argument's folder, or the name alone when the glob has no slash.
 */
export async function* walk(args: string[], ignore: string[], stopped: () => boolean): AsyncGenerator<Found> {
  const ignored = picomatch(ignore.length > 0 ? ignore : ['\0'], { dot: true, basename: true })
  const walked = new Set<string>()
  for (const arg of args) {
    const target = await describeArgument(arg)
    if ('file' in target) {
      yield { path: arg, stats: target.file, relative: basename(arg) }
      continue
    }
    const matches = target.glob ? picomatch(target.glob, { dot: true }) : () => true
    for await (const found of walkFolder(target.folder, target.folder)) {
      if (matches(relative(target.folder, found.path))) yield found
    }
  }

  async function* walkFolder(root: string, folder: string): AsyncGenerator<Found> {
    const real = await realpath(folder)
    if (walked.has(real)) {
      if (folder !== root) yield { path: folder, skipped: `a link to a folder already walked (${real})` }
      return
    }
    walked.add(real)
    let names: string[]
    try {
      names = (await readdir(folder)).sort()
    } catch (error) {
      yield { path: folder, failed: `cannot list the folder: ${reason(error)}` }
      return
    }
    const paths = names.map((name) => join(folder, name)).filter((path) => !ignored(relative(root, path)))
    for (let start = 0; start < paths.length; start += STATS_AT_ONCE) {
      if (stopped()) return
      const chunk = paths.slice(start, start + STATS_AT_ONCE)
      const stats = await Promise.allSettled(chunk.map((path) => stat(path)))
      for (const [index, path] of chunk.entries()) {
        const outcome = stats[index]!
        if (outcome.status === 'rejected') yield { path, skipped: `cannot follow: ${reason(outcome.reason)}` }
        else if (outcome.value.isDirectory()) yield* walkFolder(root, path)
        else if (outcome.value.isFile()) yield { path, stats: outcome.value, relative: relative(root, path).split(sep).join('/') }
        else yield { path, skipped: 'not a regular file' }
      }
    }
  }
}

/** A folder's entries are looked at this many at a time: an unchanged folder is mostly stat calls. */
const STATS_AT_ONCE = 64

type Argument = { file: Stats } | { folder: string; glob?: string }

async function describeArgument(arg: string): Promise<Argument> {
  const stats = await stat(arg).catch(() => undefined)
  if (stats?.isFile()) return { file: stats }
  if (stats?.isDirectory()) return { folder: arg }
  const scanned = picomatch.scan(arg)
  if (!scanned.isGlob) throw new UsageError(`no such file or folder: ${arg}`)
  const base = scanned.base === '' ? '.' : scanned.base
  const baseStats = await stat(base).catch(() => undefined)
  if (!baseStats?.isDirectory()) throw new UsageError(`no such folder: ${base} (in ${arg})`)
  return { folder: base, glob: scanned.glob }
}

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff' | 'svg'

/** The first bytes of a file are enough to name its format: an SVG's `<svg` may follow an XML declaration and a comment. */
const SNIFF_BYTES = 1024

/**
 * The server's accepted formats, named from their magic bytes as the server names them
 * (src/platform/images/images.ts): a file's extension says nothing.
 */
export function sniff(head: Buffer): ImageFormat | { refused: string } {
  const text = head.toString('latin1')
  if (text.startsWith('\xff\xd8\xff')) return 'jpeg'
  if (text.startsWith('\x89PNG\r\n\x1a\n')) return 'png'
  if (/^GIF8[79]a/.test(text)) return 'gif'
  if (text.startsWith('RIFF') && text.slice(8, 12) === 'WEBP') return 'webp'
  if (/^(II\*\0|MM\0\*|II\+\0|MM\0\+)/.test(text)) return 'tiff'
  if (text.slice(4, 8) === 'ftyp') {
    const boxEnd = Math.min(head.length >= 4 ? head.readUInt32BE(0) : 0, text.length)
    const brands = text.slice(8, 12) + text.slice(16, boxEnd)
    return /^(?:.{4})*?avi[fs]/s.test(brands) ? 'avif' : { refused: 'HEIF/HEIC images are not accepted' }
  }
  // Markup with an <svg> near its start; the server's sanitizer then accepts it or says why not.
  if (/^(\xef\xbb\xbf)?\s*</.test(text) && /<svg[\s>]/i.test(text)) return 'svg'
  if (text.startsWith('\x1f\x8b')) return { refused: 'gzip-compressed (an .svgz is not accepted: send the SVG uncompressed)' }
  return { refused: 'not an image the library accepts (JPEG, PNG, WebP, GIF, AVIF, TIFF or SVG)' }
}

export type Fingerprint = { sha256: string; format: ImageFormat } | { skipped: string }

/** The file's size decides before any byte is read: empty or over the API's limit is no image to push. */
export function refusedBySize(size: number): string | undefined {
  if (size === 0) return 'empty file (0 bytes)'
  if (size > MAX_IMAGE_BYTES) return `larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB, the API's limit`
  return undefined
}

/** Files are read for their hash this much at a time, into buffers kept for the next file. */
const READ_CHUNK_BYTES = 1024 * 1024
const spareBuffers: Buffer[] = []

/**
 * Reads the file once, a chunk at a time into a buffer reused from file to file (a folder of 1 MiB
 * images then makes no garbage here): its first bytes name the format (reading stops there for anything
 * else), and the whole of it makes the SHA-256. `onRead` counts the bytes read.
 */
export async function fingerprint(path: string, onRead: (bytes: number) => void): Promise<Fingerprint> {
  const buffer = spareBuffers.pop() ?? Buffer.allocUnsafe(READ_CHUNK_BYTES)
  const handle = await open(path)
  try {
    const hash = createHash('sha256')
    let format: ImageFormat | undefined
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position)
      if (bytesRead === 0) break
      onRead(bytesRead)
      if (format === undefined) {
        // The first chunk holds the format's bytes: a file shorter than them is sniffed as it is.
        const sniffed = sniff(buffer.subarray(0, Math.min(bytesRead, SNIFF_BYTES)))
        if (typeof sniffed === 'object') return { skipped: sniffed.refused }
        format = sniffed
      }
      hash.update(buffer.subarray(0, bytesRead))
      position += bytesRead
    }
    // Emptied since it was listed.
    if (format === undefined) return { skipped: refusedBySize(0)! }
    return { sha256: hash.digest('hex'), format }
  } finally {
    spareBuffers.push(buffer)
    await handle.close()
  }
}

/** An error's code and message, without a stack: `EACCES: permission denied`. */
export function reason(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code
    const message = error.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '')
    return code ? `${code}: ${message}` : message
  }
  return String(error)
}
