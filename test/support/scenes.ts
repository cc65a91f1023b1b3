import sharp from 'sharp'

/** A small deterministic random generator (mulberry32), so a scene is the same on every run. */
export function generator(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

/**
 * A picture with structure a perceptual hash can see (a gradient sky, shapes of many colours), the same
 * for the same seed: different seeds are different pictures.
 */
export function scene(seed: number, width = 480, height = 360): sharp.Sharp {
  const random = generator(seed)
  const colour = () => `hsl(${Math.floor(random() * 360)}, ${40 + Math.floor(random() * 50)}%, ${25 + Math.floor(random() * 50)}%)`
  const shapes = Array.from({ length: 12 }, () => {
    const x = Math.floor(random() * width)
    const y = Math.floor(random() * height)
    const size = Math.floor((0.08 + random() * 0.25) * Math.min(width, height))
    return random() < 0.5
      ? `<circle cx="${x}" cy="${y}" r="${size}" fill="${colour()}"/>`
      : `<rect x="${x - size}" y="${y - size}" width="${2 * size}" height="${size}" fill="${colour()}"/>`
  })
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="${random().toFixed(2)}" y2="1"><stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>${shapes.join('')}</svg>`
  return sharp(Buffer.from(svg))
}

export const scenePng = (seed: number, width?: number, height?: number) => scene(seed, width, height).png().toBuffer()
