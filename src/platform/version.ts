import { readFileSync } from 'node:fs'

/** This build's version, from package.json (two levels up from both src/platform and dist/platform). */
export const SERVICE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version
