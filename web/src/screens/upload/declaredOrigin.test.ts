import { describe, expect, it } from 'vitest'
import { isAiSourceType } from './aiSourceTypes'
import { declaredSourceType, fileDeclaresAi, SCANNED_BYTES } from './declaredOrigin'

const TYPE = (name: string) => `http://cv.iptc.org/newscodes/digitalsourcetype/${name}`
const RDF = 'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"'
const IPTC = 'xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"'
const packet = (description: string) => `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ${RDF}>${description}</rdf:RDF></x:xmpmeta>`
const asAttribute = (value: string) => packet(`<rdf:Description rdf:about="" ${IPTC} Iptc4xmpExt:DigitalSourceType="${value}"/>`)
const asElement = (value: string) => packet(`<rdf:Description rdf:about="" ${IPTC}><Iptc4xmpExt:DigitalSourceType>${value}</Iptc4xmpExt:DigitalSourceType></rdf:Description>`)

/** A file whose packet sits among binary bytes, as in a PNG's iTXt chunk. */
const fileWith = (xmp: string, before = 64) =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), new Uint8Array(before).fill(0xff), xmp, new Uint8Array([0, 1, 2, 255])], 'picture.png', { type: 'image/png' })

describe('what a file declares of its origin', () => {
  it('reads the IPTC digital source type as an attribute, an element, or an rdf:resource, whatever the prefix', () => {
    expect(declaredSourceType(asAttribute(TYPE('trainedAlgorithmicMedia')))).toBe(TYPE('trainedAlgorithmicMedia'))
    expect(declaredSourceType(asElement(TYPE('digitalCapture')))).toBe(TYPE('digitalCapture'))
    const resource = packet(`<rdf:Description rdf:about="" ${IPTC}><Iptc4xmpExt:DigitalSourceType rdf:resource="${TYPE('compositeWithTrainedAlgorithmicMedia')}"/></rdf:Description>`)
    expect(declaredSourceType(resource)).toBe(TYPE('compositeWithTrainedAlgorithmicMedia'))
    const otherPrefix = packet(`<rdf:Description rdf:about="" xmlns:ext="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" ext:DigitalSourceType="trainedAlgorithmicMedia"/>`)
    expect(declaredSourceType(otherPrefix)).toBe('trainedAlgorithmicMedia')
  })

  it('reads nothing without the property, from a packet that does not close or is not XML, or from one with a DTD', () => {
    expect(declaredSourceType(packet('<rdf:Description rdf:about=""/>'))).toBeNull()
    expect(declaredSourceType(`<x:xmpmeta><Iptc4xmpExt:DigitalSourceType>${TYPE('trainedAlgorithmicMedia')}`)).toBeNull()
    expect(declaredSourceType(`<x:xmpmeta><a DigitalSourceType="x"></b></x:xmpmeta>`)).toBeNull()
    const withDtd = `<!DOCTYPE x [<!ENTITY t "trainedAlgorithmicMedia">]>`
    expect(declaredSourceType(asAttribute(TYPE('trainedAlgorithmicMedia')).replace('<rdf:RDF', `${withDtd}<rdf:RDF`))).toBeNull()
  })

  it('says AI for the two AI source types only, as a URI or a bare name', () => {
    expect(isAiSourceType(TYPE('trainedAlgorithmicMedia'))).toBe(true)
    expect(isAiSourceType(`${TYPE('compositeWithTrainedAlgorithmicMedia')}/`)).toBe(true)
    expect(isAiSourceType('trainedAlgorithmicMedia')).toBe(true)
    for (const name of ['digitalCapture', 'algorithmicMedia', 'humanEdits', 'somethingNew', '']) expect(isAiSourceType(TYPE(name))).toBe(false)
  })

  it('finds the declaration in a file’s first 256 KB, not after', async () => {
    expect(await fileDeclaresAi(fileWith(asAttribute(TYPE('trainedAlgorithmicMedia'))))).toBe(true)
    expect(await fileDeclaresAi(fileWith(asElement(TYPE('compositeWithTrainedAlgorithmicMedia'))))).toBe(true)
    expect(await fileDeclaresAi(fileWith(asAttribute(TYPE('digitalCapture'))))).toBe(false)
    expect(await fileDeclaresAi(fileWith(''))).toBe(false)
    expect(await fileDeclaresAi(fileWith(asAttribute(TYPE('trainedAlgorithmicMedia')), SCANNED_BYTES))).toBe(false)
  })
})
