/**
 * sRGB and CIELAB (D65), and the CIEDE2000 difference: distances in CIELAB follow what people see,
 * where distances in RGB do not (two blues far apart in RGB look alike; a yellow and a green close in
 * RGB do not).
 */

export interface Lab {
  l: number
  a: number
  b: number
}

/** D65 white, the white of sRGB. */
const WHITE = { x: 0.95047, y: 1, z: 1.08883 }

/** Each 8-bit sRGB channel value, linearised: the decode of every pixel looks it up. */
const LINEAR = Array.from({ length: 256 }, (_, value) => {
  const channel = value / 255
  return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
})

const EPSILON = 216 / 24389
const KAPPA = 24389 / 27

function labF(t: number): number {
  return t > EPSILON ? Math.cbrt(t) : (KAPPA * t + 16) / 116
}

function labFInverse(f: number): number {
  const cube = f ** 3
  return cube > EPSILON ? cube : (116 * f - 16) / KAPPA
}

/** An 8-bit sRGB colour in CIELAB. */
export function labOf(red: number, green: number, blue: number): Lab {
  const r = LINEAR[red]!
  const g = LINEAR[green]!
  const b = LINEAR[blue]!
  const x = labF((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / WHITE.x)
  const y = labF((0.2126729 * r + 0.7151522 * g + 0.072175 * b) / WHITE.y)
  const z = labF((0.0193339 * r + 0.119192 * g + 0.9503041 * b) / WHITE.z)
  return { l: 116 * y - 16, a: 500 * (x - y), b: 200 * (y - z) }
}

/** `#rrggbb` in CIELAB. */
export function labOfHex(hex: string): Lab {
  const value = parseInt(hex.slice(1), 16)
  return labOf((value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff)
}

/** The nearest 8-bit sRGB colour, as lowercase `#rrggbb` (colours outside sRGB are clipped). */
export function hexOf(lab: Lab): string {
  const fy = (lab.l + 16) / 116
  const x = labFInverse(fy + lab.a / 500) * WHITE.x
  const y = labFInverse(fy) * WHITE.y
  const z = labFInverse(fy - lab.b / 200) * WHITE.z
  const linear = [3.2404542 * x - 1.5371385 * y - 0.4985314 * z, -0.969266 * x + 1.8760108 * y + 0.041556 * z, 0.0556434 * x - 0.2040259 * y + 1.0572252 * z]
  const channels = linear.map((value) => {
    const clipped = Math.min(1, Math.max(0, value))
    const encoded = clipped <= 0.0031308 ? 12.92 * clipped : 1.055 * clipped ** (1 / 2.4) - 0.055
    return Math.round(encoded * 255)
  })
  return `#${channels.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`
}

/** The squared Euclidean distance (CIE76, squared): cheap, for clustering nearby colours. */
export function distanceSquared(first: Lab, second: Lab): number {
  return (first.l - second.l) ** 2 + (first.a - second.a) ** 2 + (first.b - second.b) ** 2
}

const DEGREE = Math.PI / 180

/** The CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation), for naming. */
export function ciede2000(first: Lab, second: Lab): number {
  const chroma1 = Math.hypot(first.a, first.b)
  const chroma2 = Math.hypot(second.a, second.b)
  const meanChroma7 = ((chroma1 + chroma2) / 2) ** 7
  const g = 0.5 * (1 - Math.sqrt(meanChroma7 / (meanChroma7 + 25 ** 7)))
  const a1 = first.a * (1 + g)
  const a2 = second.a * (1 + g)
  const c1 = Math.hypot(a1, first.b)
  const c2 = Math.hypot(a2, second.b)
  const hue = (a: number, b: number) => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / DEGREE + 360) % 360)
  const h1 = hue(a1, first.b)
  const h2 = hue(a2, second.b)

  const deltaL = second.l - first.l
  const deltaC = c2 - c1
  let deltaH = 0
  if (c1 * c2 !== 0) {
    deltaH = h2 - h1
    if (deltaH > 180) deltaH -= 360
    else if (deltaH < -180) deltaH += 360
  }
  const deltaBigH = 2 * Math.sqrt(c1 * c2) * Math.sin((deltaH / 2) * DEGREE)

  const meanL = (first.l + second.l) / 2
  const meanC = (c1 + c2) / 2
  let meanH = h1 + h2
  if (c1 * c2 !== 0) {
    if (Math.abs(h1 - h2) <= 180) meanH = (h1 + h2) / 2
    else meanH = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2
  }
  const t =
    1 - 0.17 * Math.cos((meanH - 30) * DEGREE) + 0.24 * Math.cos(2 * meanH * DEGREE) + 0.32 * Math.cos((3 * meanH + 6) * DEGREE) - 0.2 * Math.cos((4 * meanH - 63) * DEGREE)
  const deltaTheta = 30 * Math.exp(-(((meanH - 275) / 25) ** 2))
  const meanC7 = meanC ** 7
  const rotationC = 2 * Math.sqrt(meanC7 / (meanC7 + 25 ** 7))
  const weightL = 1 + (0.015 * (meanL - 50) ** 2) / Math.sqrt(20 + (meanL - 50) ** 2)
  const weightC = 1 + 0.045 * meanC
  const weightH = 1 + 0.015 * meanC * t
  const rotation = -Math.sin(2 * deltaTheta * DEGREE) * rotationC

  const termL = deltaL / weightL
  const termC = deltaC / weightC
  const termH = deltaBigH / weightH
  return Math.sqrt(termL ** 2 + termC ** 2 + termH ** 2 + rotation * termC * termH)
}
