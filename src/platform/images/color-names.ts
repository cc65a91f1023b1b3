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
