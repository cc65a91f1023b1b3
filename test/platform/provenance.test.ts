import { afterAll, describe, expect, it } from 'vitest'
import { C2paReader } from '../../src/platform/images/c2pa.js'
import { declaredSourceType, provenanceOf, readProvenance, SOURCE_OF_TYPE, sourceOfType } from '../../src/platform/images/provenance.js'
import { AI_SOURCE_TYPES, isAiSourceType } from '../../web/src/screens/upload/aiSourceTypes.js'
import { solidPng } from '../support/images.js'
import {
  digitalSourceType,
  imageWithXmp,
  jpegWithLyingJumbf,
  jpegWithTruncatedManifest,
  remoteManifestPng,
  signedJpeg,
  svgWithMalformedManifest,
  tamperedJpeg,
  xmpDeclaring,
  type XmpFormat,
} from '../support/provenance.js'

const reader = new C2paReader()
afterAll(() => reader.close())

const TEST_SIGNER = { claim_generator: 'make_test_images/0.33.1 c2pa-rs/0.33.1', signed_by: 'C2PA Test Signing Cert' }
const BROKEN = { claim_generator: null, signed_by: null, valid: false }

describe('the XMP digital source type', () => {
  const formats: XmpFormat[] = ['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif']

  it.each(formats)('is read from %s', async (format) => {
    const image = await imageWithXmp(format, xmpDeclaring(digitalSourceType('trainedAlgorithmicMedia')))
    expect(await declaredSourceType(image)).toBe(digitalSourceType('trainedAlgorithmicMedia'))
    expect(await readProvenance(image, `image/${format}`, reader)).toEqual({ source: 'ai', c2pa: null })
  })

  it('is read when written as an element', async () => {
    const image = await imageWithXmp('png', xmpDeclaring(digitalSourceType('compositeWithTrainedAlgorithmicMedia'), 'element'))
    expect(await readProvenance(image, 'image/png', reader)).toEqual({ source: 'ai_composite', c2pa: null })
  })

  it.each([
    ['trainedAlgorithmicMedia', 'ai'],
    ['compositeWithTrainedAlgorithmicMedia', 'ai_composite'],
    ['digitalCapture', 'capture'],
    ['computationalCapture', 'capture'],
    ['negativeFilm', 'capture'],
    ['humanEdits', 'edited'],
    ['algorithmicallyEnhanced', 'edited'],
    ['digitalCreation', 'edited'],
    ['algorithmicMedia', 'edited'],
    ['somethingNew', 'unknown'],
  ] as const)('maps %s to %s, as a URI or a bare name', (name, source) => {
    expect(sourceOfType(digitalSourceType(name))).toBe(source)
    expect(sourceOfType(name)).toBe(source)
  })

  it('says AI for the names the web app’s upload pre-selects "Made by AI" for, and for no other', () => {
    const ai = Object.keys(SOURCE_OF_TYPE).filter((name) => ['ai', 'ai_composite'].includes(sourceOfType(name)))
    expect([...AI_SOURCE_TYPES].sort()).toEqual(ai.sort())
    for (const name of [...Object.keys(SOURCE_OF_TYPE), 'somethingNew']) expect(isAiSourceType(digitalSourceType(name))).toBe(ai.includes(name))
  })

  it('is unknown without XMP, with XMP that declares none, and with an XMP packet that does not close', async () => {
    expect(await readProvenance(await solidPng(8, 8), 'image/png', reader)).toEqual({ source: 'unknown', c2pa: null })
    const otherXmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" dc:format="image/png"/></rdf:RDF></x:xmpmeta>'
    expect(await declaredSourceType(await imageWithXmp('png', otherXmp))).toBeNull()
    const unclosed = Buffer.from(`<x:xmpmeta><Iptc4xmpExt:DigitalSourceType>${digitalSourceType('trainedAlgorithmicMedia')}`)
    expect(await declaredSourceType(Buffer.concat([await solidPng(8, 8), unclosed]))).toBeNull()
  })

  it('does not expand the entities of an XML bomb', async () => {
    const entities = ['<!ENTITY a0 "AAAAAAAAAA">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY a${i + 1} "${`&a${i};`.repeat(10)}">`)].join('')
    const bomb = `<?xml version="1.0"?><!DOCTYPE x:xmpmeta [${entities}]>${xmpDeclaring('&a9;', 'element')}`
    const declared = await declaredSourceType(await imageWithXmp('jpeg', bomb))
    expect(declared === null || declared.length < 100).toBe(true)
    expect(await readProvenance(await imageWithXmp('jpeg', bomb), 'image/jpeg', reader)).toEqual({ source: 'unknown', c2pa: null })
  })
})

describe('the C2PA manifest', () => {
  it('gives the claim generator, the signer and validity, and the digital source type its actions declare', async () => {
    // Its `c2pa.created` action declares `algorithmicMedia`: made by software, no AI.
    expect(await readProvenance(signedJpeg(), 'image/jpeg', reader)).toEqual({ source: 'edited', c2pa: { ...TEST_SIGNER, valid: true } })
  })

  it('is invalid when the pixels changed after signing, and its claims then count only if they say AI', async () => {
    expect(await readProvenance(tamperedJpeg(), 'image/jpeg', reader)).toEqual({ source: 'unknown', c2pa: { ...TEST_SIGNER, valid: false } })
  })

  it('is invalid, with nothing read from it, when it is cut short, a box lies about its size or its header is malformed (in an SVG)', async () => {
    expect(await readProvenance(jpegWithTruncatedManifest(), 'image/jpeg', reader)).toEqual({ source: 'unknown', c2pa: BROKEN })
    expect(await readProvenance(jpegWithLyingJumbf(), 'image/jpeg', reader)).toEqual({ source: 'unknown', c2pa: BROKEN })
    expect(await readProvenance(svgWithMalformedManifest(), 'image/svg+xml', reader)).toEqual({ source: 'unknown', c2pa: BROKEN })
    // The reader goes on with the next file.
    expect((await readProvenance(signedJpeg(), 'image/jpeg', reader)).c2pa?.valid).toBe(true)
  })

  it('is null for a file without one, and for bytes that are no image at all', async () => {
    expect(await readProvenance(await solidPng(4, 4), 'image/png', reader)).toEqual({ source: 'unknown', c2pa: null })
    expect(await readProvenance(Buffer.from('not an image, but it says c2pa and jumb'), 'image/png', reader)).toEqual({ source: 'unknown', c2pa: null })
  })

  it('is not fetched when the file points at one stored elsewhere, and shows as none', async () => {
    // A fetch, which would fail here, would make it `RemoteManifestFetch`: broken.
    expect(await reader.read(remoteManifestPng(), 'image/png')).toEqual({ kind: 'remote' })
    expect(await readProvenance(remoteManifestPng(), 'image/png', reader)).toEqual({ source: 'unknown', c2pa: null })
  })

  it('counts as broken past the time limit', async () => {
    // Checking a signature takes far longer than 1 ms.
    const impatient = new C2paReader({ timeoutMs: 1 })
    try {
      expect(await impatient.read(signedJpeg(), 'image/jpeg')).toEqual({ kind: 'broken', reason: 'the manifest could not be checked within 1 ms' })
    } finally {
      await impatient.close()
    }
  })

  it('starts a new thread for the next file once its thread has ended', async () => {
    await reader.close()
    expect((await readProvenance(signedJpeg(), 'image/jpeg', reader)).c2pa?.valid).toBe(true)
  })
})

describe('precedence', () => {
  const signed = (types: (string | null)[], state = 'Valid', actions = types.map(() => 'c2pa.created')) => ({
    kind: 'read' as const,
    state,
    active: 'urn:active',
    manifests: {
      'urn:active': {
        claimGenerator: null,
        claimGeneratorInfo: [{ name: 'Generator', version: '2.1' }, { name: 'c2pa-rs', version: null }],
        signer: 'Example Org',
        actions: types.map((type, i) => ({ action: actions[i]!, digitalSourceType: type && digitalSourceType(type) })),
      },
    },
  })

  it('takes the declaration furthest towards AI, from the XMP or the manifest', () => {
    expect(provenanceOf(digitalSourceType('digitalCapture'), signed(['trainedAlgorithmicMedia'])).source).toBe('ai')
    expect(provenanceOf(digitalSourceType('trainedAlgorithmicMedia'), signed(['digitalCapture'])).source).toBe('ai')
    expect(provenanceOf(digitalSourceType('digitalCapture'), signed(['compositeWithTrainedAlgorithmicMedia'])).source).toBe('ai_composite')
  })

  it('calls a capture with edits recorded in a valid manifest edited', () => {
    expect(provenanceOf(null, signed(['digitalCapture', null], 'Valid', ['c2pa.created', 'c2pa.cropped'])).source).toBe('edited')
    expect(provenanceOf(null, signed(['digitalCapture', null], 'Trusted', ['c2pa.created', 'c2pa.published'])).source).toBe('capture')
  })

  it('keeps only the AI claims of an invalid manifest', () => {
    expect(provenanceOf(null, signed(['digitalCapture'], 'Invalid')).source).toBe('unknown')
    expect(provenanceOf(digitalSourceType('digitalCapture'), signed(['trainedAlgorithmicMedia'], 'Invalid')).source).toBe('ai')
  })

  it('writes a version 2 claim’s generators as a version 1 claim would', () => {
    expect(provenanceOf(null, signed([])).c2pa).toEqual({ claim_generator: 'Generator/2.1 c2pa-rs', signed_by: 'Example Org', valid: true })
  })

  it('shows a manifest stored elsewhere as none: the service fetches nothing a file points at', () => {
    expect(provenanceOf(digitalSourceType('digitalCapture'), { kind: 'remote' })).toEqual({ source: 'capture', c2pa: null })
  })
})
