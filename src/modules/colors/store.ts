import { sql } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { Palette } from '../../platform/images/palette.js'

/**
 * Keeps the palette of the file the asset still has (a newer file's job follows otherwise), in one
 * statement; `updated_at` stays: the palette is derived data, like the thumbnail.
 */
export async function savePalette(db: Db, asset: { id: string; sha256: string }, palette: Palette): Promise<void> {
  await db
    .updateTable('assets')
    .set({ colors: JSON.stringify(palette.colors), color_names: sql<string[]>`${palette.names}::text[]` })
    .where('id', '=', asset.id)
    .where('sha256', '=', asset.sha256)
    .execute()
}
