import { sql } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { Provenance } from '../../platform/db/schema.js'

/**
 * Keeps what the file says of its origin, while the asset still has that file (a newer file's job
 * follows); `updated_at` stays: derived data, like the thumbnail.
 */
export async function saveProvenance(db: Db, asset: { id: string; sha256: string }, provenance: Provenance): Promise<void> {
  await sql`
    update assets set provenance = ${JSON.stringify(provenance)}::jsonb, provenance_source = ${provenance.source}
    where id = ${asset.id} and sha256 = ${asset.sha256}
  `.execute(db)
}
