import { gunzipSync, constants as zlib } from 'node:zlib'
import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes'
import { ImageError } from './image-error.js'

/**
 * The SVG sanitizer: an SVG is accepted only when nothing in it can run, load or expand anything, and
 * it is refused (never stripped: a design file that changed on upload would be a surprise) otherwise.
 * It runs on every SVG before anything renders it, and reads its size and its `<title>`/`<desc>`.
 *
 * The checks run on what a renderer sees: a strict XML parser (saxes) decodes character references in
 * attribute values, and CSS escapes are decoded before `url(` is looked for. Bytes are parsed as UTF-8
 * only, the encoding the renderer then reads them in, so the two cannot disagree on where markup is.
 */

/** Elements in one SVG: far above any logo, icon or illustration; each costs the renderer memory and time. */
export const MAX_SVG_ELEMENTS = 100_000
/** Element nesting: far above what editors write; deep trees make renderers recurse. */
export const MAX_SVG_DEPTH = 256
/** `data:` images in one SVG, each decoded and checked like a pushed image. */
export const MAX_SVG_EMBEDDED_IMAGES = 1_000
/** The length of the searchable text taken from `<title>` and `<desc>`. */
export const MAX_SVG_TEXT = 1_000
/** An SVG with no width, height nor viewBox has the size browsers give it (CSS's default object size). */
const DEFAULT_SIZE = { width: 300, height: 150 }
/** Sides are kept within 1..this: the columns are 32-bit, and no SVG means a million pixels. */
const MAX_SIDE = 1_000_000

export interface SvgInfo {
  format: 'svg'
  mimeType: 'image/svg+xml'
  width: number
  height: number
  /** The root's first `<title>` and `<desc>`, whitespace collapsed, at most `MAX_SVG_TEXT` characters; undefined when empty. */
  text?: string
}

/** What an embedded image is found to be: its format and pixels over all frames (the caller's limits applied). */
export interface EmbeddedImage {
  format: string
  pixels: number
}

export interface SvgLimits {
  /** Pixels over every embedded image together. */
  maxPixels: number
  /** Checks an embedded raster image as a pushed one is checked; throws `ImageError` to refuse it. */
  inspectEmbedded: (bytes: Buffer) => Promise<EmbeddedImage>
}

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg'
const XHTML_NAMESPACE = 'http://www.w3.org/1999/xhtml'
const XINCLUDE_NAMESPACE = 'http://www.w3.org/2001/XInclude'
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf])
const ANIMATIONS = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'animatecolor'])
const ANIMATED_VALUES = ['from', 'to', 'by', 'values']
const DATA_IMAGE = /^data:image\/([a-z0-9.+-]+)((?:;[a-z0-9_.+-]+(?:=[a-z0-9_.+-]*)?)*);base64,(.*)$/is
const LENGTH = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(px|pt|pc|mm|cm|in|em|ex|%)?\s*$/i
/** CSS pixels per unit (96 per inch); em and ex at the default font size of 16px. */
const UNITS: Record<string, number> = { px: 1, pt: 4 / 3, pc: 16, mm: 96 / 25.4, cm: 96 / 2.54, in: 96, em: 16, ex: 8 }
/** The declared MIME subtypes each format goes by. */
const SUBTYPES: Record<string, string[]> = { jpeg: ['jpeg', 'jpg', 'pjpeg'], png: ['png', 'apng'], gif: ['gif'], webp: ['webp'], avif: ['avif'], tiff: ['tiff'] }

/**
 * Whether the bytes are meant as an SVG (markup, possibly behind a BOM or in UTF-16, or gzip holding
 * SVG). Only picks who refuses or accepts them: `inspectSvg` decides.
 */
export function looksLikeSvg(bytes: Buffer): boolean {
  if (isGzip(bytes)) return /<svg[\s>]/i.test(gunzippedHead(bytes))
  const utf16 = utf16Of(bytes)
  if (utf16) return /<svg[\s>]/i.test(new TextDecoder(utf16).decode(bytes.subarray(0, 2048)))
  const start = bytes.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0
  return /^\s*</.test(bytes.toString('latin1', start, Math.min(bytes.length, start + 256)))
}

/** Checks an SVG (see the module's comment) and reads its size and text; throws `ImageError` to refuse it. */
export async function inspectSvg(bytes: Buffer, limits: SvgLimits): Promise<SvgInfo> {
  const found = scan(decodeText(bytes))
  await checkEmbeddedImages(found.embedded, limits)
  const text = found.text
  return { format: 'svg', mimeType: 'image/svg+xml', ...sizeOf(found.root), ...(text && { text }) }
}

/**
 * UTF-8, with or without a BOM. UTF-16 is refused rather than transcoded: the renderer would read the
 * stored bytes in its own decoding, and a sanitizer must see exactly what the renderer sees. gzip
 * (`.svgz`) is refused: it would be decompressed without a bound, and browsers show it only with a
 * `Content-Encoding` the stored original does not carry.
 */
function decodeText(bytes: Buffer): string {
  if (isGzip(bytes)) throw new ImageError('unsupported_format', 'Compressed SVG (.svgz) is not accepted; send the SVG uncompressed.')
  if (utf16Of(bytes)) throw new ImageError('unsupported_format', 'UTF-16 SVG is not accepted; save the SVG as UTF-8.')
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch (error) {
    throw new ImageError('not_an_image', 'The SVG is not valid UTF-8.', { cause: error })
  }
}

function isGzip(bytes: Buffer): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b
}

/** The start of gzip'd data: at most ~4 MB come out of 4 KB, deflate's ratio being at most ~1:1032. */
function gunzippedHead(bytes: Buffer): string {
  try {
    return gunzipSync(bytes.subarray(0, 4096), { finishFlush: zlib.Z_SYNC_FLUSH }).toString('latin1', 0, 4096)
  } catch {
    return ''
  }
}

/** UTF-16 by its BOM, or by a `<` next to a zero byte at the start. */
function utf16Of(bytes: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  const [a, b] = [bytes[0], bytes[1]]
  if ((a === 0xff && b === 0xfe) || (a === 0x3c && b === 0x00)) return 'utf-16le'
  if ((a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x3c)) return 'utf-16be'
  return undefined
}

interface Scanned {
  root: Record<string, string>
  embedded: string[]
  text: string | undefined
}

/** One pass of the parser over the document: the first refusal stops it. */
function scan(source: string): Scanned {
  const parser = new SaxesParser({ xmlns: true, position: false })
  const state = new ScanState()
  parser.on('error', (error) => {
    throw new ImageError('not_an_image', `The SVG is not well-formed XML: ${error.message}`, { cause: error })
  })
  parser.on('doctype', () => {
    // An HTML page or another XML document is no image at all, whatever its DOCTYPE holds.
    if (!/<svg[\s>]/i.test(source)) throw new ImageError('not_an_image', 'The data is not an image.')
    throw new ImageError('svg_entity', 'An SVG with a DOCTYPE is not accepted (its entities could expand without bound); remove the <!DOCTYPE …> declaration.')
  })
  parser.on('xmldecl', (declaration) => {
    if (declaration.encoding && !/^(utf-?8|us-ascii)$/i.test(declaration.encoding)) {
      throw new ImageError('unsupported_format', `An SVG in ${declaration.encoding} is not accepted; save it as UTF-8.`)
    }
  })
  parser.on('processinginstruction', (instruction) => {
    if (/^xml-stylesheet$/i.test(instruction.target)) throw externalReference('An <?xml-stylesheet?> instruction loads a stylesheet from elsewhere')
  })
  parser.on('opentag', (tag) => state.open(tag as SaxesTagNS))
  parser.on('closetag', () => state.close())
  parser.on('text', (text) => state.addText(text))
  parser.on('cdata', (text) => state.addText(text))
  parser.write(source).close()
  if (!state.root) throw new ImageError('not_an_image', 'The data is not an image.')
  return { root: state.root, embedded: state.embedded, text: state.fileText() }
}

/** What the parse has seen so far, and the checks of each element as it opens. */
class ScanState {
  root: Record<string, string> | undefined
  readonly embedded: string[] = []
  private elements = 0
  private depth = 0
  /** The elements whose text is being read (each `<style>`, and the root's first `<title>` and `<desc>`), with their depths. */
  private readonly reading: { kind: 'style' | 'title' | 'desc'; depth: number; text: string }[] = []
  private readonly texts: { title?: string; desc?: string } = {}

  open(tag: SaxesTagNS): void {
    this.depth++
    this.elements++
    if (this.elements > MAX_SVG_ELEMENTS) throw tooComplex(`The SVG has more than ${MAX_SVG_ELEMENTS} elements.`)
    if (this.depth > MAX_SVG_DEPTH) throw tooComplex(`The SVG nests elements more than ${MAX_SVG_DEPTH} deep.`)
    const attributes = Object.values(tag.attributes) as SaxesAttributeNS[]
    if (this.depth === 1) this.openRoot(tag, attributes)
    checkElement(tag)
    for (const attribute of attributes) this.checkAttribute(attribute)
    if (ANIMATIONS.has(tag.local.toLowerCase())) this.checkAnimation(attributes)
    this.startReading(tag.local)
  }

  close(): void {
    const reading = this.reading.at(-1)
    if (reading?.depth === this.depth) {
      if (reading.kind === 'style') checkCss(reading.text, true, this.embedded)
      else this.texts[reading.kind] ??= reading.text.replace(/\s+/g, ' ').trim()
      this.reading.pop()
    }
    this.depth--
  }

  addText(text: string): void {
    for (const reading of this.reading) {
      // A title or description is kept to `MAX_SVG_TEXT` characters: reading far more is waste, even with runs of whitespace to collapse.
      if (reading.kind === 'style' || reading.text.length < MAX_SVG_TEXT * 16) reading.text += text
    }
  }

  /** The title and the description, the way full text reads them. */
  fileText(): string | undefined {
    const joined = [this.texts.title, this.texts.desc].filter(Boolean).join('\n')
    return joined ? Array.from(joined).slice(0, MAX_SVG_TEXT).join('').trim() : undefined
  }

  private openRoot(tag: SaxesTagNS, attributes: SaxesAttributeNS[]): void {
    if (tag.local !== 'svg' || (tag.uri !== '' && tag.uri !== SVG_NAMESPACE)) throw new ImageError('not_an_image', 'The data is XML but not an SVG image.')
    this.root = Object.fromEntries(attributes.filter((attribute) => attribute.uri === '').map((attribute) => [attribute.local, attribute.value]))
  }

  private startReading(local: string): void {
    const name = local.toLowerCase()
    // Text goes to every element being read: one `<style>` inside another would read it twice, and so on.
    if (this.reading.at(-1)?.kind === 'style') throw tooComplex('A <style> element holds other elements; it may hold only CSS.')
    if (name === 'style') this.reading.push({ kind: 'style', depth: this.depth, text: '' })
    else if (this.depth === 2 && (name === 'title' || name === 'desc') && this.texts[name] === undefined) this.reading.push({ kind: name, depth: this.depth, text: '' })
  }

  private checkAttribute(attribute: SaxesAttributeNS): void {
    const local = attribute.local.toLowerCase()
    if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') return
    if (local.startsWith('on')) throw new ImageError('svg_script', `The SVG has an event attribute (${attribute.name}), which runs script.`)
    if (local === 'href') checkReference(attribute.value, attribute.name, this.embedded)
    else if (attribute.value.includes('(')) checkCss(attribute.value, false, this.embedded)
  }

  /** `<set attributeName="href" to="…">` changes a reference while the document runs: its values are references too. */
  private checkAnimation(attributes: SaxesAttributeNS[]): void {
    const target = attributes.find((attribute) => attribute.local === 'attributeName')?.value.trim().toLowerCase() ?? ''
    const local = target.slice(target.indexOf(':') + 1)
    if (local.startsWith('on')) throw new ImageError('svg_script', `The SVG animates an event attribute (${target}), which runs script.`)
    if (local !== 'href') return
    for (const attribute of attributes.filter((candidate) => ANIMATED_VALUES.includes(candidate.local))) {
      for (const value of attribute.value.split(';')) checkReference(value, `${target} animation`, this.embedded)
    }
  }
}

function checkElement(tag: SaxesTagNS): void {
  const name = tag.local.toLowerCase()
  if (name === 'script' || name === 'handler') throw new ImageError('svg_script', `The SVG has a <${tag.name}> element.`)
  if (name === 'foreignobject') throw new ImageError('svg_script', 'The SVG has a <foreignObject>, which can hold HTML and script.')
  if (tag.uri === XHTML_NAMESPACE) throw new ImageError('svg_script', `The SVG has an HTML element (<${tag.name}>), which can hold script.`)
  if (tag.uri === XINCLUDE_NAMESPACE) throw externalReference(`<${tag.name}> includes content from elsewhere`)
}

/**
 * A reference may name a fragment of this document (`#id`) or hold a `data:` image in base64, which is
 * collected to be checked once the parse is done. Anything else (a URL, a file, a relative path, another
 * `data:` type) is refused.
 */
function checkReference(raw: string, where: string, embedded: string[]): void {
  const value = raw.trim()
  if (value.startsWith('#')) return
  if (/^data:/i.test(value)) {
    if (!DATA_IMAGE.test(value)) throw externalReference(`${where} holds a data: URL that is not a base64 image`)
    if (embedded.length >= MAX_SVG_EMBEDDED_IMAGES) throw tooComplex(`The SVG embeds more than ${MAX_SVG_EMBEDDED_IMAGES} data: images.`)
    embedded.push(value)
    return
  }
  throw externalReference(`${where} refers to ${JSON.stringify(value.slice(0, 80))}`)
}

/**
 * CSS, from a `<style>` (`stylesheet`) or an attribute: comments dropped and escapes decoded first, so
 * `u\72l(` is seen as the `url(` it is. Every `url()` is a reference; `@import` and the image functions
 * that take a URL without `url()` are refused outright.
 */
function checkCss(css: string, stylesheet: boolean, embedded: string[]): void {
  const plain = decodeCssEscapes(css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ''))
  if (stylesheet && /@import/i.test(plain)) throw externalReference('A stylesheet @import loads a stylesheet from elsewhere')
  const imageFunction = /(?:^|[^\w-])((?:-webkit-)?image-set|image|src)\(/i.exec(plain)
  if (imageFunction) throw externalReference(`The CSS function ${imageFunction[1]}() is not accepted; use url(#id) or url(data:image/…;base64,…)`)
  for (const match of plain.matchAll(/url\(\s*/gi)) checkReference(urlValue(plain, match.index + match[0].length), 'A CSS url()', embedded)
}

/** The value of a `url(` whose argument starts at `start`: quoted, up to its closing quote; bare, up to `)`. */
function urlValue(css: string, start: number): string {
  const quote = css[start]
  if (quote === '"' || quote === "'") {
    const end = css.indexOf(quote, start + 1)
    return css.slice(start + 1, end === -1 ? undefined : end)
  }
  const end = css.indexOf(')', start)
  return css.slice(start, end === -1 ? undefined : end)
}

function decodeCssEscapes(css: string): string {
  return css.replace(/\\(?:([0-9a-f]{1,6})[ \t\n\r\f]?|\r\n|([\s\S]))/gi, (_, hex: string | undefined, char: string | undefined) => {
    if (hex === undefined) return char === '\n' || char === '\r' || char === '\f' || char === undefined ? '' : char
    const codePoint = parseInt(hex, 16)
    return codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff) ? '\ufffd' : String.fromCodePoint(codePoint)
  })
}

/**
 * Each `data:` image decoded and checked like a pushed image (format by its magic bytes, pixels), and
 * its declared type held to what it is. An embedded SVG is refused, not sanitized in turn: put its
 * elements inline. The pixels of all of them together are held to the one image limit.
 */
async function checkEmbeddedImages(urls: string[], limits: SvgLimits): Promise<void> {
  let pixels = 0
  const seen = new Set<string>()
  for (const url of urls) {
    if (seen.has(url)) continue
    seen.add(url)
    const [, subtype, , payload] = DATA_IMAGE.exec(url)!
    const declared = subtype!.toLowerCase()
    if (declared === 'svg+xml') throw tooComplex('An SVG embedded as a data: image is not accepted; put its elements inline instead.')
    const bytes = strictBase64(payload!)
    if (!bytes) throw tooComplex(`An embedded data:image/${declared} is not valid base64.`)
    let image: EmbeddedImage
    try {
      image = await limits.inspectEmbedded(bytes)
    } catch (error) {
      if (!(error instanceof ImageError)) throw error
      throw tooComplex(`An embedded data:image/${declared} was refused: ${error.message}`, error)
    }
    if (!SUBTYPES[image.format]?.includes(declared)) throw tooComplex(`An embedded data:image/${declared} holds a ${image.format.toUpperCase()} image.`)
    pixels += image.pixels
    if (pixels > limits.maxPixels) throw tooComplex(`The SVG's embedded images have more than ${limits.maxPixels} pixels together.`)
  }
}

/** Base64 with whitespace allowed (data: URLs are often wrapped) and nothing else outside the alphabet. */
function strictBase64(payload: string): Buffer | undefined {
  const compact = payload.replace(/[\s]+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0 || compact.length === 0) return undefined
  return Buffer.from(compact, 'base64')
}

/**
 * Width and height from the root's `width` and `height` (any CSS absolute unit, or none), a missing
 * or percentage one taken from the viewBox (keeping its aspect ratio), else CSS's default object size;
 * rounded, and within 1..`MAX_SIDE`.
 */
function sizeOf(root: Record<string, string>): { width: number; height: number } {
  const width = lengthOf(root.width)
  const height = lengthOf(root.height)
  const box = viewBoxOf(root.viewBox)
  let size: { width: number; height: number }
  if (width !== undefined && height !== undefined) size = { width, height }
  else if (box && width !== undefined) size = { width, height: (width * box.height) / box.width }
  else if (box && height !== undefined) size = { width: (height * box.width) / box.height, height }
  else if (box) size = box
  else size = { width: width ?? DEFAULT_SIZE.width, height: height ?? DEFAULT_SIZE.height }
  const side = (value: number) => Math.min(MAX_SIDE, Math.max(1, Math.round(value)))
  return { width: side(size.width), height: side(size.height) }
}

/** A length in CSS pixels; undefined for a percentage, zero, a negative or unreadable value. */
function lengthOf(value: string | undefined): number | undefined {
  const match = value === undefined ? null : LENGTH.exec(value)
  if (!match || match[2] === '%') return undefined
  const pixels = Number(match[1]) * UNITS[(match[2] ?? 'px').toLowerCase()]!
  return Number.isFinite(pixels) && pixels > 0 ? pixels : undefined
}

function viewBoxOf(value: string | undefined): { width: number; height: number } | undefined {
  const numbers = value?.trim().split(/[\s,]+/).map(Number)
  if (!numbers || numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n))) return undefined
  const [, , width, height] = numbers as [number, number, number, number]
  return width > 0 && height > 0 ? { width, height } : undefined
}

function externalReference(what: string): ImageError {
  return new ImageError('svg_external_reference', `${what}; an SVG may refer only to its own fragments (#id) and to data: images.`)
}

function tooComplex(message: string, cause?: unknown): ImageError {
  return new ImageError('svg_too_complex', message, { cause })
}
