import { ApiError } from '../errors.js'
import type { NodeAssetLibraryClient } from '../node.js'
import type { Asset, TrashedAsset } from '../types.js'
import { printListing, type Columns, type ListingValues } from './query.js'

const COLUMNS: Columns<TrashedAsset> = [
  ['ID', (asset) => asset.id],
  ['TITLE', (asset) => asset.title],
  ['DELETED', (asset) => asset.deleted_at],
  ['BY', (asset) => `${asset.deleted_by.name} (${asset.deleted_by.kind})`],
  ['PURGED AT', (asset) => asset.purge_at],
]

/** `trash list`: a page of the trash, last deleted first, as a table or NDJSON; every page with --all. */
export function listTrash(client: NodeAssetLibraryClient, values: ListingValues): Promise<void> {
  return printListing(values, COLUMNS, 'assets in the trash', {
    every: () => client.trash.iterate(),
    page: (limit, offset) => client.trash.list({ limit, offset }),
  })
}

/**
 * `trash restore <id>`: puts the asset back and prints its record (--json) or one line. False, with one
 * line on stderr, when the trash holds no such asset.
 */
export async function restoreFromTrash(client: NodeAssetLibraryClient, id: string, json: boolean): Promise<boolean> {
  let asset: Asset
  try {
    asset = await client.trash.restore(id)
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error
    process.stderr.write(`asset-library-client: ${id} is not in the trash (404 ${error.code ?? ''}): restored already, purged, or never deleted\n`)
    return false
  }
  process.stdout.write(json ? `${JSON.stringify(asset)}\n` : `restored   ${asset.id} ${asset.title}\n`)
  return true
}
