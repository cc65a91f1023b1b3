import { gzipSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { ImageError, ImageProcessor, inspectImage, type ImageErrorKind } from '../../src/platform/images/images.js'
import { MAX_SVG_DEPTH, MAX_SVG_ELEMENTS } from '../../src/platform/images/svg.js'
import { pngDeclaring, solidPng } from '../support/images.js'
import { billionLaughs, filterMemoryBomb, nested, referenceTimeBomb, svg, withElements } from '../support/svg.js'

async function refusal(work: Promise<unknown>): Promise<{ kind: ImageErrorKind; message: string }> {
  const error = await work.then(
    () => expect.fail('the SVG was accepted'),
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ImageError)
  return { kind: (error as ImageError).kind, message: (error as ImageError).message }
}

const kindOf = async (text: string | Buffer) => (await refusal(inspectImage(Buffer.isBuffer(text) ? text : Buffer.from(text)))).kind
const dataPng = async (width = 4, height = 4) => `data:image/png;base64,${(await solidPng(width, height)).toString('base64')}`

describe('the SVG sanitizer accepts', () => {
  it('a logo: its size from the viewBox, its MIME type, and its title and description as text', async () => {
    const logo = svg('viewBox="0 0 240 80"', '<title>  Acme\n logo </title><desc>The red wordmark</desc><rect width="240" height="80" fill="#c00"/>')
    expect(await inspectImage(Buffer.from(logo))).toEqual({ format: 'svg', mimeType: 'image/svg+xml', width: 240, height: 80, text: 'Acme logo\nThe red wordmark' })
  })

  it.each([
    ['width="64" height="32"', 64, 32],
    ['width="72pt" height="1in"', 96, 96],
    ['width="10.4mm" height="2.6cm" viewBox="0 0 5 5"', 39, 98],
    ['width="100%" height="100%" viewBox="0 0 30 20"', 30, 20],
    ['width="60" viewBox="0 0 30 20"', 60, 40],
    ['height="0.2" width="0.4"', 1, 1],
    ['', 300, 150],
  ])('sizes %s as %d x %d', async (attributes, width, height) => {
    expect(await inspectImage(Buffer.from(svg(attributes, '<rect width="1" height="1"/>')))).toMatchObject({ width, height })
  })

  it('a UTF-8 BOM, fragment references, CSS url(#id), and embedded data: PNGs', async () => {
    const body = `<defs><linearGradient id="g"/></defs><style>.a { fill: url(#g) }</style><use href="#g"/><image xlink:href="${await dataPng()}" width="4" height="4"/><rect style="fill:url('#g')"/>`
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(svg('viewBox="0 0 4 4"', body))])
    expect(await inspectImage(bytes)).toMatchObject({ format: 'svg', width: 4, height: 4 })
  })

  it('no title: no text', async () => {
    expect(await inspectImage(Buffer.from(svg('viewBox="0 0 1 1"', '<g><title>not the root\u2019s</title></g>')))).not.toHaveProperty('text')
  })
})

describe('the SVG sanitizer refuses, never strips', () => {
  it('a billion-laughs file (svg_entity), and any DOCTYPE', async () => {
    expect(await kindOf(billionLaughs())).toBe('svg_entity')
    expect(await kindOf(`<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">${svg('', '')}`)).toBe('svg_entity')
  })

  it.each([
    ['<script>', '<script>alert(1)</script>'],
    ['a namespaced script', '<x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script>'],
    ['onload=', '<rect onload="alert(1)"/>'],
    ['an event attribute in any case', '<rect ONCLICK="alert(1)"/>'],
    ['<foreignObject>', '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>'],
    ['an HTML element', '<h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="https://example.com/"/>'],
    ['an animation of an event attribute', '<set attributeName="onclick" to="alert(1)"/>'],
  ])('%s (svg_script)', async (_, body) => {
    expect(await kindOf(svg('', body))).toBe('svg_script')
  })

  it.each([
    ['<image href="http://169.254.169.254/">', '<image href="http://169.254.169.254/latest/meta-data/"/>'],
    ['<use href="file:///etc/passwd">', '<use href="file:///etc/passwd#x"/>'],
    ['xlink:href to a relative file', '<image xlink:href="logo.png"/>'],
    ['javascript: in a link, behind character references', '<a href="&#x6a;avascript:alert(1)"><rect/></a>'],
    ['a data: URL that is not an image', '<a href="data:text/html;base64,PHNjcmlwdD4="><rect/></a>'],
    ['a data: image that is not base64', '<image href="data:image/png,abc"/>'],
    ['CSS url() to the network', '<style>rect { fill: url(https://example.com/a.svg#p) }</style>'],
    ['CSS url() written with escapes', '<style>rect { fill: \\75 rl(https://example.com/) }</style>'],
    ['CSS url() in a style attribute', '<rect style="background: url(&quot;//example.com/x.png&quot;)"/>'],
    ['CSS url() in a presentation attribute', '<rect fill="url(https://example.com/p.svg#p)"/>'],
    ['@import', '<style>@import "https://example.com/a.css";</style>'],
    ['@import behind a comment', '<style><![CDATA[@im/**/port url(a.css);]]></style>'],
    ['image-set()', '<style>rect { fill: image-set("https://example.com/a.png" 1x) }</style>'],
    ['an <?xml-stylesheet?>', '<rect/>', '<?xml-stylesheet href="https://example.com/a.css"?>'],
    ['XInclude', '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/>'],
    ['an animated href', '<a><set attributeName="href" to="https://example.com/"/></a>'],
    ['a <style> inside the title', '<title>Logo<style>@import url(https://example.com/a.css);</style></title>'],
  ])('%s (svg_external_reference)', async (_, body, before = '') => {
    expect(await kindOf(before + svg('', body))).toBe('svg_external_reference')
  })

  it(`${MAX_SVG_ELEMENTS + 100_000} elements, and ${10_000} levels of nesting (svg_too_complex)`, async () => {
    expect(await refusal(inspectImage(Buffer.from(withElements(200_000))))).toEqual({ kind: 'svg_too_complex', message: `The SVG has more than ${MAX_SVG_ELEMENTS} elements.` })
    expect(await refusal(inspectImage(Buffer.from(nested(10_000))))).toEqual({ kind: 'svg_too_complex', message: `The SVG nests elements more than ${MAX_SVG_DEPTH} deep.` })
    await expect(inspectImage(Buffer.from(nested(MAX_SVG_DEPTH - 1)))).resolves.toMatchObject({ format: 'svg' })
  })

  it('a data: image of 100k x 100k pixels, naming the cause (svg_too_complex)', async () => {
    const huge = `data:image/png;base64,${pngDeclaring(100_000, 100_000).toString('base64')}`
    const { kind, message } = await refusal(inspectImage(Buffer.from(svg('viewBox="0 0 10 10"', `<image href="${huge}"/>`))))
    expect(kind).toBe('svg_too_complex')
    expect(message).toBe('An embedded data:image/png was refused: The image has more than 50000000 pixels (all frames counted).')
  })

  it('embedded images over the pixel limit together, one that is not an image, one that lies about its type, and a nested SVG (svg_too_complex)', async () => {
    const big = await dataPng(5000, 6000)
    const twice = `<image href="${big}"/><image href="${big.replace('image/png', 'image/apng')}"/>`
    expect(await refusal(inspectImage(Buffer.from(svg('', twice))))).toMatchObject({ message: "The SVG's embedded images have more than 50000000 pixels together." })
    expect(await kindOf(svg('', '<image href="data:image/png;base64,aGVsbG8="/>'))).toBe('svg_too_complex')
    expect(await kindOf(svg('', `<image href="${(await dataPng()).replace('image/png', 'image/jpeg')}"/>`))).toBe('svg_too_complex')
    const inner = Buffer.from(svg('viewBox="0 0 1 1"', '')).toString('base64')
    expect(await refusal(inspectImage(Buffer.from(svg('', `<image href="data:image/svg+xml;base64,${inner}"/>`))))).toEqual({
      kind: 'svg_too_complex',
      message: 'An SVG embedded as a data: image is not accepted; put its elements inline instead.',
    })
  })

  it('a UTF-16 SVG, and a gzip-compressed one (.svgz), as formats we do not accept', async () => {
    const text = svg('viewBox="0 0 1 1"', '')
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
    const utf16be = Buffer.from(utf16le.subarray(2)).swap16()
    expect(await refusal(inspectImage(utf16le))).toEqual({ kind: 'unsupported_format', message: 'UTF-16 SVG is not accepted; save the SVG as UTF-8.' })
    expect(await kindOf(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]))).toBe('unsupported_format')
    expect(await refusal(inspectImage(gzipSync(text)))).toEqual({ kind: 'unsupported_format', message: 'Compressed SVG (.svgz) is not accepted; send the SVG uncompressed.' })
    expect(await kindOf(`<?xml version="1.0" encoding="ISO-8859-1"?>${text}`)).toBe('unsupported_format')
  })

  it('what is not a well-formed SVG (not_an_image)', async () => {
    for (const bad of ['<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>', '<html><body/></html>', '<!DOCTYPE html><html><body>hi</body></html>', Buffer.concat([Buffer.from('<svg>'), Buffer.from([0xff, 0xfe, 0xfd]), Buffer.from('</svg>')])]) {
      expect(await kindOf(bad)).toBe('not_an_image')
    }
  })
})

describe('SVG rendering, out of process and bounded', () => {
  const processor = new ImageProcessor({ svgRender: { timeoutMs: 8000, maxMemoryMb: 192 } })
  afterAll(() => processor.close())

  it('renders a 24 px icon to a crisp 512 px WebP thumbnail, and a rendition at the size asked', async () => {
    const icon = Buffer.from(svg('viewBox="0 0 24 24"', '<circle cx="12" cy="12" r="11" fill="#c00"/>'))
    const { info, thumbnail } = await processor.process(icon)
    expect(info).toMatchObject({ format: 'svg', width: 24, height: 24 })
    expect(await sharp(thumbnail).metadata()).toMatchObject({ format: 'webp', width: 512, height: 512 })
    // Crisp: the circle's two edges are a few pixels of blend (lossy WebP adds some), not the ~20 px each
    // that a 24 px raster scaled up would smear.
    const row = await sharp(thumbnail).extract({ left: 0, top: 256, width: 512, height: 1 }).removeAlpha().raw().toBuffer()
    const blended = [...Array(512).keys()].filter((x) => row[x * 3]! > 20 && row[x * 3]! < 180)
    expect(blended.length).toBeLessThanOrEqual(16)

    const wide = await processor.render(icon, { width: 1200, height: 630, fit: 'cover', format: 'png', quality: null, background: null })
    expect(wide).toMatchObject({ width: 1200, height: 630 })
    expect(await sharp(wide.data).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 })
    const inside = await processor.render(icon, { width: 100, height: null, fit: 'inside', format: 'webp', quality: 80, background: null })
    expect(inside).toMatchObject({ width: 100, height: 100 })
    const ownSize = { width: null, height: null, fit: 'contain', format: 'png', quality: null, background: null } as const
    expect(await processor.render(icon, ownSize)).toMatchObject({ width: 24, height: 24 })
    const poster = Buffer.from(svg('width="20000" height="10000"', '<rect width="20000" height="10000"/>'))
    expect(await processor.render(poster, ownSize)).toMatchObject({ width: 4096, height: 2048 })
  })

  it('fails a render past its memory limit, and one past its time limit, and renders the next SVG', async () => {
    const memory = await refusal(processor.process(Buffer.from(filterMemoryBomb(2000))))
    expect(memory).toEqual({ kind: 'svg_too_complex', message: 'The SVG needed more than 192 MB of memory to render.' })
    const time = await refusal(processor.process(Buffer.from(referenceTimeBomb())))
    expect(time).toEqual({ kind: 'svg_too_complex', message: 'The SVG took longer than 8000 ms to render.' })
    const next = await processor.process(Buffer.from(svg('viewBox="0 0 2 1"', '<rect width="2" height="1"/>')))
    expect(await sharp(next.thumbnail).metadata()).toMatchObject({ width: 512, height: 256 })
  }, 90_000)

  it('checks an SVG in the render process too, within its limits: a 20 MB one past a 100 ms limit is refused', async () => {
    const slow = new ImageProcessor({ svgRender: { timeoutMs: 100, maxMemoryMb: 300 } })
    const large = Buffer.from(svg('viewBox="0 0 1 1"', `<title>${'a'.repeat(20_000_000)}</title>`))
    // Warm: the time limit counts from a started process, which the first call waits for.
    await slow.inspect(Buffer.from(svg('viewBox="0 0 1 1"', '')))
    expect(await refusal(slow.inspect(large))).toEqual({ kind: 'svg_too_complex', message: 'The SVG took longer than 100 ms to check.' })
    expect(await slow.inspect(Buffer.from(svg('viewBox="0 0 3 1"', '')))).toMatchObject({ format: 'svg', width: 3, height: 1 })
    slow.close()
  })

  it('never renders an SVG in this process', async () => {
    const { processImage, renderImage } = await import('../../src/platform/images/images.js')
    const logo = Buffer.from(svg('viewBox="0 0 1 1"', ''))
    await expect(processImage(logo)).rejects.toThrow(TypeError)
    await expect(renderImage(logo, { width: 10, height: 10, fit: 'contain', format: 'png', quality: null, background: null })).rejects.toThrow(TypeError)
  })
})
