/** SVG documents for the sanitizer's and the renderer's tests, good and hostile. */

/** An SVG root with `attributes` around `body`, with the xlink namespace bound. */
export function svg(attributes: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${attributes}>${body}</svg>`
}

/** The classic XML bomb: ten entities of ten of the one before, 10^9 "lol"s (3 GB) when expanded. */
export function billionLaughs(): string {
  const entities = ['<!ENTITY lol0 "lol">']
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`)
  return `<?xml version="1.0"?>\n<!DOCTYPE svg [\n${entities.join('\n')}\n]>\n${svg('viewBox="0 0 10 10"', '<text>&lol9;</text>')}`
}

export function withElements(count: number): string {
  return svg('viewBox="0 0 10 10"', '<rect width="1" height="1"/>'.repeat(count - 1))
}

/** Groups nested `levels` deep (the root counts as one). */
export function nested(levels: number): string {
  return svg('viewBox="0 0 10 10"', '<g>'.repeat(levels - 1) + '</g>'.repeat(levels - 1))
}

/**
 * Passes the sanitizer (a few thousand elements, no references outside) but makes librsvg keep one
 * canvas-sized surface per named filter result: 2000 of them took 3 GB at a 512 px thumbnail.
 */
export function filterMemoryBomb(results: number): string {
  let filter = ''
  for (let i = 0; i < results; i++) filter += `<feFlood flood-color="#${(i % 4096).toString(16).padStart(3, '0')}" result="r${i}"/>`
  for (let i = 0; i + 1 < results; i += 2) filter += `<feBlend in="r${i}" in2="r${i + 1}" result="b${i}"/>`
  return svg('viewBox="0 0 100 100"', `<defs><filter id="f" x="0" y="0" width="1" height="1">${filter}</filter></defs><rect width="100" height="100" filter="url(#f)"/>`)
}

/** Passes the sanitizer (100 elements, fragment references only) but draws a blurred square 10^8 times. */
export function referenceTimeBomb(): string {
  let defs = '<filter id="f"><feGaussianBlur stdDeviation="1"/></filter><rect id="a0" width="1" height="1" filter="url(#f)"/>'
  for (let level = 1; level <= 8; level++) defs += `<g id="a${level}">${Array.from({ length: 10 }, (_, x) => `<use href="#a${level - 1}" x="${x}"/>`).join('')}</g>`
  return svg('viewBox="0 0 100 100"', `<defs>${defs}</defs><use href="#a8"/>`)
}
