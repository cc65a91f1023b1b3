import { parseArgs } from 'node:util'

export const USAGE = `Usage: asset-library <command> [options]

Commands:
  serve                      Start the HTTP API and the background work (the default)
  worker                     Run the background work only (webhook deliveries, embeddings); run several for scale
  migrate                    Bring the database schema up to date
  embeddings status [--org SLUG]    How many assets have a current, stale or missing embedding (texts, and images with an image provider)
  embeddings backfill [--org SLUG] [--images]  Embed every text (--images: every picture) that is missing or stale, now
  jobs [--org SLUG]          The queues of work done after a push (thumbnails, embeddings, image_embeddings,
             perceptual_hash, palette, metadata, provenance): pending, running, failed, and since when the oldest job waits
  jobs retry NAME [--org SLUG]  Queue again what failed or is missing in one queue (one of those jobs lists)
  blobs sweep                Remove image files no asset refers to (older than BLOB_SWEEP_GRACE_MS)
  blobs migrate --from file|s3 --to s3|file  Copy every image file assets refer to into the other store,
             verified by SHA-256; resumable, safe while the service serves (see docs/operations.md)
  org create --name N [--slug S] [--plan P]
  org list
  user create --org SLUG --email E --role owner|admin|member [--password P]
  user set-password --org SLUG --email E [--password P]  Set a lost password (printed when generated); ends the user's sessions
  key create --org SLUG --scope assets:read|assets:write [--name N] [--expires-in 90d]
             [--limit-expensive N] [--limit-cheap N]  Limits of its own per window, for bulk imports (1 to 10000)
  key list --org SLUG
  key revoke --org SLUG --id KEY_ID

Add --json to print machine-readable output. Settings come from environment variables (see README).`

const OPTIONS = {
  json: { type: 'boolean' },
  images: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  slug: { type: 'string' },
  plan: { type: 'string' },
  org: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  password: { type: 'string' },
  scope: { type: 'string' },
  'expires-in': { type: 'string' },
  'limit-expensive': { type: 'string' },
  'limit-cheap': { type: 'string' },
  id: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
} as const

export type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

/** The command (`serve` when none is given), its action and what the action is on (`jobs retry thumbnails`), and the options. */
export function parseArguments(argv: string[]): { command: string; action: string | undefined; subject: string | undefined; values: Options } {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true })
  const [command = 'serve', action, subject] = positionals
  return { command, action, subject, values }
}

/** A mistake in how the command was called: one line and exit code 2. */
export class UsageError extends Error {}

export function required(values: Options, name: 'name' | 'org' | 'email' | 'id'): string {
  const value = values[name]
  if (!value) throw new UsageError(`--${name} is required`)
  return value
}

export function oneOf<T extends string>(values: Options, name: 'role' | 'scope', allowed: T[]): T {
  const value = values[name]
  if (!value || !(allowed as string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`)
  return value as T
}

/** An optional whole number from 1 to `max`, written in decimal digits; null when the option is not given. */
export function optionalCount(values: Options, name: 'limit-expensive' | 'limit-cheap', max: number): number | null {
  const value = values[name]
  if (value === undefined) return null
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!(count >= 1 && count <= max)) throw new UsageError(`--${name} must be a whole number from 1 to ${max}`)
  return count
}
