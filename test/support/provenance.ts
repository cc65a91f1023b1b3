import { readFileSync } from 'node:fs'
import { solid } from './images.js'

/** Signed by c2pa-rs's test certificate: a version 1 claim, `c2pa.created` with the digital source type `algorithmicMedia`. */
export const signedJpeg = () => readFileSync(new URL('../fixtures/c2pa/C.jpg', import.meta.url))
/** The same kind of manifest over pixels changed after signing: the data hash fails. */
export const tamperedJpeg = () => readFileSync(new URL('../fixtures/c2pa/XCA.jpg', import.meta.url))

/** A PNG whose only manifest is a reference to `http://localhost:5000/libpng-test.c2pa`. */
export const remoteManifestPng = () => readFileSync(new URL('../fixtures/c2pa/libpng-test_with_url.png', import.meta.url))

/** An SVG whose manifest (in base64, in its metadata) has a malformed JUMBF header. */
export const svgWithMalformedManifest = () => readFileSync(new URL('../fixtures/c2pa/sample3.svg', import.meta.url))

/** The IPTC digital source type URI of a name (`trainedAlgorithmicMedia`). */
export const digitalSourceType = (name: string) => `http://cv.iptc.org/newscodes/digitalsourcetype/${name}`

/** An XMP packet declaring `value` as the IPTC digital source type, as an attribute (Adobe's tools) or as an element. */
export function xmpDeclaring(value: string, form: 'attribute' | 'element' = 'attribute'): string {
  const ns = 'xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"'
  const description =
    form === 'attribute'
      ? `<rdf:Description rdf:about="" ${ns} Iptc4xmpExt:DigitalSourceType="${value}"/>`
      : `<rdf:Description rdf:about="" ${ns}><Iptc4xmpExt:DigitalSourceType>${value}</Iptc4xmpExt:DigitalSourceType></rdf:Description>`
  return `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${description}</rdf:RDF></x:xmpmeta>`
}

export type XmpFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff' | 'avif'

/** A small image in `format` carrying `xmp`; `colour` makes its bytes differ from another's. */
export async function imageWithXmp(format: XmpFormat, xmp: string, colour = '#808080'): Promise<Buffer> {
  if (format === 'gif') return gifWithXmp(await solid(8, 8, colour).gif().toBuffer(), xmp)
  return solid(8, 8, colour).withXmp(xmp)[format]().toBuffer()
}

/**
 * XMP in a GIF, as Adobe writes it (sharp writes none): an application extension `XMP DataXMP` holding
 * the packet as is, then the 258-byte "magic trailer" that makes its bytes read as valid sub-blocks.
 */
function gifWithXmp(gif: Buffer, xmp: string): Buffer {
  const flags = gif[10]!
  const blocksStart = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0)
  const trailer = Buffer.from([0x01, ...Array.from({ length: 256 }, (_, i) => 0xff - i), 0x00])
  const extension = Buffer.concat([Buffer.from([0x21, 0xff, 0x0b]), Buffer.from('XMP DataXMP', 'latin1'), Buffer.from(xmp), trailer])
  return Buffer.concat([gif.subarray(0, blocksStart), extension, gif.subarray(blocksStart)])
}

/**
 * The signed JPEG with a JUMBF box of its manifest (the assertion store, the third box: store, manifest,
 * assertions) declaring 2 GiB, far past its APP11 segment; the segments themselves stay whole.
 */
export function jpegWithLyingJumbf(): Buffer {
  const bytes = Buffer.from(signedJpeg())
  let box = findSegment(bytes, 0xeb)
  for (let i = 0; i < 3; i++) box = bytes.indexOf('jumb', box + 1, 'latin1')
  bytes.writeUInt32BE(0x7fff_fff0, box - 4)
  return bytes
}

/** The signed JPEG with its manifest cut short: the APP11 segment ends halfway through, the rest of the file intact. */
export function jpegWithTruncatedManifest(): Buffer {
  const bytes = signedJpeg()
  const app11 = findSegment(bytes, 0xeb)
  const length = bytes.readUInt16BE(app11 + 2)
  const kept = Math.floor(length / 2)
  const header = Buffer.from(bytes.subarray(app11, app11 + 4))
  header.writeUInt16BE(kept, 2)
  return Buffer.concat([bytes.subarray(0, app11), header, bytes.subarray(app11 + 4, app11 + 2 + kept), bytes.subarray(app11 + 2 + length)])
}

function findSegment(jpeg: Buffer, marker: number): number {
  let offset = 2
  while (offset < jpeg.length && jpeg[offset] === 0xff) {
    if (jpeg[offset + 1] === marker) return offset
    offset += 2 + jpeg.readUInt16BE(offset + 2)
  }
  throw new Error(`no segment 0xff${marker.toString(16)}`)
}
