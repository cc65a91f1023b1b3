import { createRequire } from 'node:module'

const load = createRequire(import.meta.url)

/**
 * A CommonJS package loaded by the first call instead of at start, for what only some setups use (an S3
 * store, Redis, outbound requests): each held 18 to 22 MiB of an idle embedded server (issue 39). Types
 * come from `import type` of the same package. Synchronous, so a constructor can call it.
 */
export function loadOnUse<Package>(name: string): () => Package {
  let loaded: Package | undefined
  return () => (loaded ??= load(name) as Package)
}
