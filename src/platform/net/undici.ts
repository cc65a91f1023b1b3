import { createRequire } from 'node:module'
import type * as Undici from 'undici'

let undici: typeof Undici | undefined

/**
 * undici, loaded by the first outbound client that sends: its modules hold ~20 MiB that a process which
 * never calls out (no webhook, no URL push, no embedding provider) does not need (the embedded default's
 * idle RSS, issue 39). The package ships CommonJS.
 */
export function loadUndici(): typeof Undici {
  return (undici ??= createRequire(import.meta.url)('undici') as typeof Undici)
}
