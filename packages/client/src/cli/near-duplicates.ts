import type { NodeAssetLibraryClient } from '../node.js'

/**
 * How long a push waits, after its last file, for the server to hash what it pushed. A hash takes tens
 * of milliseconds, but the server makes it after answering, behind its other background work.
 */
const WAIT_MS = 30_000
const LOOK_EVERY_MS = 500

/** A pushed file and what the server found it nearly the same as; `near_duplicates` null: not hashed in time. */
export interface NearDuplicateReport {
  path: string
  asset_id: string
  near_duplicates: Array<{ asset_id: string; distance: number }> | null
}

/**
 * The near-duplicates of the assets a push created or updated, read from their records, which list them
 * once the server has hashed their pictures (null until then): each record is read again every half
 * second until it says, for at most `WAIT_MS` in all. `concurrency` reads at once.
 */
export async function nearDuplicatesOf(
  client: NodeAssetLibraryClient,
  pushed: ReadonlyArray<{ path: string; asset_id: string }>,
  concurrency: number,
  signal: AbortSignal,
): Promise<NearDuplicateReport[]> {
  const deadline = Date.now() + WAIT_MS
  const reports: NearDuplicateReport[] = pushed.map((file) => ({ ...file, near_duplicates: null }))
  let waiting = reports
  while (waiting.length > 0 && !signal.aborted) {
    await inBatches(waiting, concurrency, async (report) => {
      report.near_duplicates = (await client.assets.get(report.asset_id)).near_duplicates ?? null
    })
    waiting = waiting.filter((report) => report.near_duplicates === null)
    if (waiting.length === 0 || Date.now() + LOOK_EVERY_MS > deadline) break
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS))
  }
  return reports
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work))
}
