import { ciede2000, labOfHex, type Lab } from './cielab.js'

/**
 * The colour names a person would use, as the palette names its colours and `color=` filters by them
 * (issue 36); each with the hex the app draws its swatch in. `GET /api/v1/colors` lists them.
 */
export const COLOR_NAMES = [
  { name: 'red', hex: '#d32f2f' },
  { name: 'orange', hex: '#f57c00' },
  { name: 'yellow', hex: '#fbc02d' },
  { name: 'green', hex: '#388e3c' },
  { name: 'teal', hex: '#00897b' },
  { name: 'blue', hex: '#1976d2' },
  { name: 'purple', hex: '#7b1fa2' },
  { name: 'pink', hex: '#ec407a' },
  { name: 'brown', hex: '#795548' },
  { name: 'black', hex: '#212121' },
  { name: 'gray', hex: '#9e9e9e' },
  { name: 'white', hex: '#ffffff' },
] as const

export type ColorName = (typeof COLOR_NAMES)[number]['name']

/**
 * The colours each name stands for: its swatch, and the light, dark and dull kinds a person still calls
 * by that name (navy is blue, olive is green, tan is brown, cyan is teal, magenta is pink). One anchor
 * per name would not do: navy is nearer the purple swatch than the blue one, and beige nearer the
 * yellow swatch than any other.
 */
const ANCHORS: Record<ColorName, readonly string[]> = {
  red: ['#ff0000', '#d32f2f', '#e53935', '#dc143c', '#b22222', '#8b0000', '#c62828'],
  orange: ['#ffa500', '#ff8c00', '#f57c00', '#e65100', '#ff7f50', '#ffb74d', '#ff6f00'],
  yellow: ['#ffff00', '#ffd700', '#fbc02d', '#ffeb3b', '#fff59d', '#f0e68c', '#ffe082'],
  green: ['#00ff00', '#008000', '#388e3c', '#006400', '#90ee90', '#808000', '#9acd32', '#556b2f', '#2e7d32', '#a5d6a7'],
  teal: ['#008080', '#00897b', '#20b2aa', '#40e0d0', '#00ffff', '#004d40', '#80cbc4', '#00bcd4'],
  blue: ['#0000ff', '#1976d2', '#000080', '#191970', '#4169e1', '#87ceeb', '#add8e6', '#4682b4', '#1e90ff', '#0d47a1', '#90caf9'],
  purple: ['#800080', '#7b1fa2', '#8a2be2', '#9370db', '#4b0082', '#9c27b0', '#b39ddb', '#6a1b9a', '#ba68c8'],
  pink: ['#ffc0cb', '#ff69b4', '#ec407a', '#ff1493', '#c71585', '#f8bbd0', '#ff00ff', '#f48fb1'],
  brown: ['#795548', '#8b4513', '#a0522d', '#d2b48c', '#654321', '#3e2723', '#c19a6b', '#bc8f8f', '#5d4037'],
  black: ['#000000', '#111111', '#212121'],
  gray: ['#808080', '#9e9e9e', '#c0c0c0', '#696969', '#505050', '#b0b0b0', '#708090'],
  white: ['#ffffff', '#f5f5f5', '#fafafa', '#fffdf5', '#f5f5dc'],
}

const ANCHORS_LAB: readonly { name: ColorName; lab: Lab }[] = COLOR_NAMES.flatMap(({ name }) => ANCHORS[name].map((hex) => ({ name, lab: labOfHex(hex) })))

/** The name of the anchor nearest to a colour, in CIEDE2000. */
export function nearestColorName(color: Lab): ColorName {
  let nearest = ANCHORS_LAB[0]!
  let nearestDistance = Infinity
  for (const anchor of ANCHORS_LAB) {
    const distance = ciede2000(color, anchor.lab)
    if (distance < nearestDistance) {
      nearest = anchor
      nearestDistance = distance
    }
  }
  return nearest.name
}
