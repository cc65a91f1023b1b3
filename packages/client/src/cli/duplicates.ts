import { ApiError } from '../errors.js'
import type { NodeAssetLibraryClient } from '../node.js'
import type { Asset, DuplicatesResolved } from '../types.js'
import { wholeNumber } from './usage.js'

/**
 * `duplicates list`: every group of near-duplicates, page after page (at most `--limit`), the group pushed
 * last first: its asset's id and title, then one indented line per near-duplicate with its distance; or
 * one NDJSON line per group as the server sends it.
 */
export async function listDuplicates(client: NodeAssetLibraryClient, values: { limit?: string | undefined; json?: boolean | undefined }): Promise<void> {
  const most = wholeNumber('limit', values.limit, 1)
  const json = values.json ?? false
  let groups = 0
  // A small --limit asks for no more than it shows; past 100 (the largest page) it pages on.
  for await (const group of client.duplicates.iterate(most === undefined ? {} : { limit: Math.min(most, 100) })) {
    groups += 1
    if (json) process.stdout.write(`${JSON.stringify(group)}\n`)
    else {
      process.stdout.write(`${named(group.asset)}\n`)
      for (const near of group.duplicates) process.stdout.write(`  distance ${near.distance}  ${named(near.asset)}\n`)
    }
    if (groups === most) break
  }
  if (!json) process.stderr.write(`${groups} groups of near-duplicates${groups > 0 ? '; keep one of a group and trash the others with: duplicates resolve <keep-id> <other-id…>' : ''}\n`)
}

/**
 * `duplicates resolve <keep-id> <other-id…>`: keeps one asset, trashes the others (their tags and manual
 * collections move to it), and prints what was kept and trashed, or the server's answer (--json). False,
 * with one line on stderr, when an id is no live asset of the organization: then nothing changed.
 */
export async function resolveDuplicates(client: NodeAssetLibraryClient, keep: string, trash: string[], json: boolean): Promise<boolean> {
  let resolved: DuplicatesResolved
  try {
    resolved = await client.duplicates.resolve(keep, trash)
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error
    process.stderr.write(`asset-library-client: nothing was changed (404 ${error.code ?? ''}): ${error.detail ?? 'an id is no live asset of your organization'}\n`)
    return false
  }
  if (json) {
    process.stdout.write(`${JSON.stringify(resolved)}\n`)
    return true
  }
  process.stdout.write(`${'kept'.padEnd(10)} ${named(resolved.kept)}\n`)
  for (const id of resolved.trashed) process.stdout.write(`${'trashed'.padEnd(10)} ${id}\n`)
  return true
}

/** An asset's id and title on one line. */
function named(asset: Asset): string {
  return `${asset.id}  ${asset.title.replace(/\s+/g, ' ')}`
}
