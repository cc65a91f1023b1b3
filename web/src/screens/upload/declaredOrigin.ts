/**
 * What a file says of its own origin, read in the browser before it is pushed, so that the upload can
 * pre-select "Made by AI" for a file that declares it. The server reads the same declaration after the
 * push (src/platform/images/provenance.ts) and never changes `created_by_ai` itself.
 */
import { isAiSourceType } from './aiSourceTypes'

/** XMP packets are written near the start (JPEG's APP1, PNG's iTXt before the image data). */
export const SCANNED_BYTES = 256 * 1024
const PROPERTY = 'DigitalSourceType'
const XMP_START = '<x:xmpmeta'
const XMP_END = '</x:xmpmeta>'

/**
 * The `DigitalSourceType` of an XMP packet in `text`, whatever its prefix (as the server takes it from
 * any namespace): an attribute, an element's text or its `rdf:resource`. The packet is the
 * `<x:xmpmeta>` element around the property's first mention; one with a DTD is not read (XMP forbids
 * them, and the server ignores them too).
 */
export function declaredSourceType(text: string): string | null {
  const property = text.indexOf(PROPERTY)
  if (property === -1) return null
  const start = text.lastIndexOf(XMP_START, property)
  const end = text.indexOf(XMP_END, property)
  if (start === -1 || end === -1) return null
  const packet = text.slice(start, end + XMP_END.length)
  if (packet.includes('<!DOCTYPE')) return null
  const xml = new DOMParser().parseFromString(packet, 'application/xml')
  if (xml.getElementsByTagName('parsererror').length > 0) return null
  for (const element of Array.from(xml.getElementsByTagName('*'))) {
    if (named(element.tagName, PROPERTY)) return element.textContent?.trim() || attributeNamed(element, 'resource')
    const value = attributeNamed(element, PROPERTY)
    if (value !== null) return value
  }
  return null
}

/** Whether a qualified name is `local` with any prefix: by the name as written, which every DOM gets right. */
const named = (qualified: string, local: string) => qualified === local || qualified.endsWith(`:${local}`)

function attributeNamed(element: Element, local: string): string | null {
  return Array.from(element.attributes).find((attribute) => named(attribute.name, local))?.value ?? null
}

/** Whether the file's XMP, in its first 256 KB, says AI made it; false for a file that cannot be read. */
export async function fileDeclaresAi(file: Blob): Promise<boolean> {
  try {
    const text = new TextDecoder().decode(await file.slice(0, SCANNED_BYTES).arrayBuffer())
    const type = declaredSourceType(text)
    return type !== null && isAiSourceType(type)
  } catch {
    return false
  }
}

/** The files whose XMP says AI made them, read all at once. */
export async function filesDeclaringAi(files: readonly File[]): Promise<Set<File>> {
  const declares = await Promise.all(files.map(fileDeclaresAi))
  return new Set(files.filter((_, index) => declares[index]))
}
