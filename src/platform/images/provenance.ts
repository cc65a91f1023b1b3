import { createRequire } from 'node:module'
import type { Provenance, ProvenanceSource } from '../db/schema.js'
import type { C2paReader, ManifestReading, ManifestSummary } from './c2pa.js'

/**
 * The IPTC digital source types (http://cv.iptc.org/newscodes/digitalsourcetype/), by the origin the
 * record shows. `capture` is sampled from real life; `edited` is made or changed by people or by software
 * that is not generative AI; a value not listed here (or C2PA's own `empty`) says nothing: `unknown`.
 * The web app's upload keeps its own copy of the AI names (web/src/screens/upload/aiSourceTypes.ts).
 */
export const SOURCE_OF_TYPE: Readonly<Record<string, ProvenanceSource>> = {
  trainedAlgorithmicMedia: 'ai',
  compositeWithTrainedAlgorithmicMedia: 'ai_composite',
  digitalCapture: 'capture',
  computationalCapture: 'capture',
  negativeFilm: 'capture',
  positiveFilm: 'capture',
  print: 'capture',
  minorHumanEdits: 'edited',
  humanEdits: 'edited',
  algorithmicallyEnhanced: 'edited',
  compositeCapture: 'edited',
  composite: 'edited',
  compositeSynthetic: 'edited',
  digitalCreation: 'edited',
  digitalArt: 'edited',
  algorithmicMedia: 'edited',
  dataDrivenMedia: 'edited',
  screenCapture: 'edited',
  virtualRecording: 'edited',
  softwareImage: 'edited',
}

/**
 * When the file says several things, the one furthest towards AI wins. Declarations get lost (a re-save
 * drops XMP, an editor drops the manifest) far more often than a file claims AI it did not use; and a
 * claim of capture is the one a forger would make.
 */
const RANK: readonly ProvenanceSource[] = ['unknown', 'capture', 'edited', 'ai_composite', 'ai']

/** C2PA actions that record no change to what the picture shows. */
const NOT_EDITS = new Set(['c2pa.created', 'c2pa.opened', 'c2pa.published', 'c2pa.converted', 'c2pa.transcoded', 'c2pa.repackaged', 'c2pa.watermarked'])

// exifr's CommonJS build, under Node and Vitest alike: its ES module's default export lacks `sidecar`.
const exifr = createRequire(import.meta.url)('exifr') as typeof import('exifr')

/** An XMP packet larger than this is not looked into (a JPEG's main packet is at most 64 KB). */
const MAX_XMP_PACKET = 1024 * 1024
const XMP_PROPERTY = Buffer.from('DigitalSourceType')
const XMP_START = Buffer.from('<x:xmpmeta')
const XMP_END = Buffer.from('</x:xmpmeta>')

/**
 * What the file says of who or what made it: the IPTC digital source type of its XMP, and its C2PA
 * manifest (signer, generator, validity, and the source types its actions declare), as one origin.
 */
export async function readProvenance(bytes: Buffer, mimeType: string, c2pa: C2paReader): Promise<Provenance> {
  const [declared, manifest] = await Promise.all([declaredSourceType(bytes), c2pa.read(bytes, mimeType)])
  return provenanceOf(declared, manifest)
}

/** The origin and the manifest's facts, from the XMP's digital source type and the manifest's reading. */
export function provenanceOf(declaredType: string | null, reading: ManifestReading): Provenance {
  const sources = [sourceOfType(declaredType)]
  let c2pa: Provenance['c2pa'] = null
  if (reading.kind === 'broken') c2pa = { claim_generator: null, signed_by: null, valid: false }
  if (reading.kind === 'read') {
    const active = reading.active === null ? undefined : reading.manifests[reading.active]
    const valid = reading.state !== 'Invalid' && active !== undefined
    c2pa = { claim_generator: active ? claimGeneratorOf(active) : null, signed_by: active?.signer ?? null, valid }
    sources.push(manifestSource(reading, active, valid))
  }
  return { source: mostTowardsAi(sources), c2pa }
}

/**
 * The source types declared by every manifest of the store (the file's own and its ingredients'), and
 * `edited` when the file's own manifest records edits. An invalid manifest's claims count only when
 * they say AI: the rest of what it says cannot be trusted.
 */
function manifestSource(reading: Extract<ManifestReading, { kind: 'read' }>, active: ManifestSummary | undefined, valid: boolean): ProvenanceSource {
  const declared = Object.values(reading.manifests).flatMap((manifest) => manifest.actions.map((action) => sourceOfType(action.digitalSourceType)))
  if (!valid) return mostTowardsAi(declared.filter((source) => source === 'ai' || source === 'ai_composite'))
  const edited = active?.actions.some((action) => !NOT_EDITS.has(action.action)) ?? false
  return mostTowardsAi([...declared, edited ? 'edited' : 'unknown'])
}

/** A version 1 claim's own string, or a version 2 claim's generators written the same way (`name/version`). */
function claimGeneratorOf(manifest: ManifestSummary): string | null {
  if (manifest.claimGenerator) return manifest.claimGenerator
  const parts = manifest.claimGeneratorInfo.filter((info) => info.name).map((info) => (info.version ? `${info.name}/${info.version}` : info.name))
  return parts.length > 0 ? parts.join(' ') : null
}

/** The origin of an IPTC digital source type, given as its URI or its bare name. */
export function sourceOfType(type: string | null): ProvenanceSource {
  if (!type) return 'unknown'
  const name = type.trim().replace(/\/+$/, '').split('/').pop()!
  return Object.hasOwn(SOURCE_OF_TYPE, name) ? SOURCE_OF_TYPE[name]! : 'unknown'
}

function mostTowardsAi(sources: ProvenanceSource[]): ProvenanceSource {
  return sources.reduce<ProvenanceSource>((best, source) => (RANK.indexOf(source) > RANK.indexOf(best) ? source : best), 'unknown')
}

/**
 * The IPTC `DigitalSourceType` of the file's XMP, whatever the format: the packet holding the property is
 * found in the bytes (XMP packets are written as plain text so that a scan finds them, in JPEG, PNG,
 * WebP, GIF, TIFF and AVIF alike) and parsed by exifr, which expands no entity.
 */
export async function declaredSourceType(bytes: Buffer): Promise<string | null> {
  const property = bytes.indexOf(XMP_PROPERTY)
  if (property === -1) return null
  const start = bytes.lastIndexOf(XMP_START, property)
  const end = bytes.indexOf(XMP_END, property)
  if (start === -1 || end === -1 || end + XMP_END.length - start > MAX_XMP_PACKET) return null
  let xmp: Record<string, unknown> | undefined
  try {
    xmp = (await exifr.sidecar(bytes.subarray(start, end + XMP_END.length), { xmp: true }, 'xmp')) as Record<string, unknown> | undefined
  } catch {
    return null
  }
  for (const properties of Object.values(xmp ?? {})) {
    const value = (properties as Record<string, unknown> | null)?.DigitalSourceType
    if (typeof value === 'string') return value
  }
  return null
}
