const UNITS = ['B', 'KB', 'MB', 'GB', 'TB']

export function formatBytes(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(unit === 0 || value >= 100 ? 0 : 1)} ${UNITS[unit]}`
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function formatDate(iso: string | null | undefined, empty = '—'): string {
  return iso ? dateFormat.format(new Date(iso)) : empty
}

/** "1 asset", "1,234 assets". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`
}

export const DAY_MS = 86_400_000
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * DAY_MS],
  ['month', 30 * DAY_MS],
  ['day', DAY_MS],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

/** "3 minutes ago", "yesterday", "in 2 days": the largest unit that fits, "just now" under a minute. */
export function formatRelative(iso: string, now = Date.now()): string {
  const delta = new Date(iso).getTime() - now
  for (const [unit, ms] of STEPS) {
    if (Math.abs(delta) >= ms) return relative.format(Math.trunc(delta / ms), unit)
  }
  return 'just now'
}

/** Whole days from now until `iso`, rounded up (a purge in 20 hours is "in 1 day"); 0 once it is past. */
export function daysUntil(iso: string, now = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(iso).getTime() - now) / DAY_MS))
}

/** Who did something, as the API records it: an API key (its name) or a person (their email). */
export interface Actor {
  kind: 'key' | 'user'
  name: string
}

/**
 * "you", "the key “CI”", or the person's name; null when nobody was recorded. The API names a person by
 * their name, or their email when they gave none: the signed-in user is recognised the same way.
 */
export function actorText(actor: Actor | null, me: { name: string; email: string }): string | null {
  if (!actor) return null
  if (actor.kind === 'key') return `the key “${actor.name}”`
  return actor.name === (me.name || me.email) ? 'you' : actor.name
}

/** A format's short name from its MIME type, as people say it: PNG, JPEG, SVG, WebP. */
export function imageFormat(mimeType: string): string {
  const subtype = mimeType.split('/')[1] ?? mimeType
  if (subtype === 'svg+xml') return 'SVG'
  if (subtype === 'webp') return 'WebP'
  return subtype.toUpperCase()
}

/** How far one picture is from another: bits of their 64-bit perceptual hashes that differ. */
export function likeness(distance: number): string {
  return distance === 0 ? 'The same picture (distance 0)' : `Distance ${distance} of 64`
}
