import type * as Undici from 'undici'
import { loadOnUse } from '../load-on-use.js'

/** undici, loaded by the first outbound client that sends (a webhook, a URL push, an embedding provider). */
export const loadUndici = loadOnUse<typeof Undici>('undici')
